"""The whole evening: a game's rematch chain of the same players settled at once, on its page
(linked from each game's settlement) and in the API, read from the games' stored totals so
that a correction or an undo in any game changes it."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from games.models import Change, Game, Hand
from games.selectors.evening import evening_of
from games.services.games import game_delete, game_end, game_rematch
from games.services.hands import change_undo, hand_record
from tests.factories import ClubFactory, GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _hand(game: Game, closer: str, left: dict[str, int]) -> None:
    hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=uuid.uuid4(), user=None)


def evening_of_three() -> tuple[Game, Game, Game]:
    """Ann 14 + 14 + 17 = 45, Bob 120 + 3 + 12 = 135, Cid -10 + 26 + 0 = 16 (see the scoring
    test's worked example): a closer scores minus ten, so each game has one closing hand."""
    first = GameFactory.create(players=["Ann", "Bob", "Cid"])
    _hand(first, "Cid", {"Ann": 14, "Bob": 120})
    game_end(game=first, ended=True, user=None)
    second = game_rematch(game=first, user=None, request_id=uuid.uuid4())
    _hand(second, "Bob", {"Ann": 24, "Cid": 16})
    _hand(second, "Ann", {"Bob": 13, "Cid": 10})
    game_end(game=second, ended=True, user=None)
    third = game_rematch(game=second, user=None, request_id=uuid.uuid4())
    _hand(third, "Cid", {"Ann": 7, "Bob": 22})
    _hand(third, "Bob", {"Ann": 10, "Cid": 10})
    return first, second, third


def test_the_evening_sums_the_games_and_settles_once(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    first, second, third = evening_of_three()
    for game in (first, second, third):
        with django_assert_num_queries(1):
            evening = evening_of(game=game)
        assert evening is not None
        assert [g.game.pk for g in evening.games] == [first.pk, second.pk, third.pk]
        assert evening.players == ("Ann", "Bob", "Cid")
        assert [g.totals for g in evening.games] == [
            {"Ann": 14, "Bob": 120, "Cid": -10},
            {"Ann": 14, "Bob": 3, "Cid": 26},
            {"Ann": 17, "Bob": 12, "Cid": 0},
        ]
        settled = evening.settlement
        assert settled is not None
        assert settled.crowns == {"Ann": 5, "Bob": 14, "Cid": 2}
        assert settled.net == {"Ann": 6, "Bob": -21, "Cid": 15}


def test_a_game_of_other_players_or_a_deleted_one_is_not_of_the_evening() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    first = GameFactory.create(players=["Ann", "Bob"], club=club, owner=organiser)
    _hand(first, "Ann", {"Bob": 40})
    second = game_rematch(game=first, user=organiser, request_id=uuid.uuid4())
    _hand(second, "Bob", {"Ann": 30})
    other = GameFactory.create(players=["Ann", "Bob"], club=club, owner=organiser)  # not a rematch
    evening = evening_of(game=first)
    assert evening is not None and [g.game.pk for g in evening.games] == [first.pk, second.pk]
    assert evening_of(game=other).games[0].game.pk == other.pk  # type: ignore[union-attr]
    game_delete(game=second, user=organiser)
    evening = evening_of(game=first)
    assert evening is not None and [g.game.pk for g in evening.games] == [first.pk]
    assert evening_of(game=GameFactory.create(family="gin", players=["Ann", "Bob"])) is None


def test_undo_of_a_hand_in_any_game_changes_the_evening() -> None:
    first, _second, third = evening_of_three()
    change = Change.objects.filter(game=first, action=Change.Action.ADDED).get()
    change_undo(change=change, user=None)
    evening = evening_of(game=third)
    assert evening is not None and evening.settlement is not None
    assert evening.settlement.totals == {"Ann": 31, "Bob": 15, "Cid": 26}


def test_a_missing_count_holds_the_evening_settlement_back() -> None:
    first, second, _ = evening_of_three()
    hand = Hand.objects.filter(game=second).first()
    assert hand is not None
    Hand.objects.filter(pk=hand.pk).update(outcome={**hand.outcome, "missing": ["Bob"]})
    evening = evening_of(game=first)
    assert evening is not None and evening.settlement is None
    assert [g.game.pk for g in evening.incomplete] == [second.pk]


def test_the_evening_page_is_linked_from_each_games_settlement() -> None:
    first, second, third = evening_of_three()
    client = Client()
    page = client.get(f"/g/{second.public_id}/settlement/").content.decode()
    assert f'href="/g/{second.public_id}/evening/"' in page
    assert "The whole evening: 3 games settled at once" in page
    page = client.get(f"/g/{second.public_id}/evening/").content.decode()
    assert "<h1>The whole evening</h1>" in page
    for game in (first, second, third):
        assert f'href="/g/{game.public_id}/"' in page
    assert "Bob pays Cid 15 CZK" in page and "Bob pays Ann 6 CZK" in page
    alone = GameFactory.create(players=["Ann", "Bob"])
    game_end(game=alone, ended=True, user=None)
    assert "/evening/" not in client.get(f"/g/{alone.public_id}/settlement/").content.decode()
    gin = GameFactory.create(family="gin", players=["Ann", "Bob"])
    assert client.get(f"/g/{gin.public_id}/evening/").status_code == 404


def test_the_evening_in_the_api() -> None:
    first, second, third = evening_of_three()
    body = APIClient().get(f"/api/v1/games/{third.public_id}/evening/").json()
    assert body["players"] == ["Ann", "Bob", "Cid"]
    assert [g["id"] for g in body["games"]] == [first.public_id, second.public_id, third.public_id]
    assert body["games"][0]["totals"] == {"Ann": 14, "Bob": 120, "Cid": -10}
    assert body["settlement"]["totals"] == {"Ann": 45, "Bob": 135, "Cid": 16}
    assert body["settlement"]["crowns"] == {"Ann": 5, "Bob": 14, "Cid": 2}
    assert sorted((t["from"], t["to"], t["crowns"]) for t in body["settlement"]["transfers"]) == [
        ("Bob", "Ann", 6),
        ("Bob", "Cid", 15),
    ]
    gin = GameFactory.create(family="gin", players=["Ann", "Bob"])
    assert APIClient().get(f"/api/v1/games/{gin.public_id}/evening/").status_code == 404
