"""The reads behind the games resources of the API: each one's query count is pinned (a page of
the list costs the same for three games or twelve), what it shows a reader of a members-only
club's game, and a game whose stored hands no longer score, which still answers in the shape
the schema gives."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import RequestFactory
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from games.api.game_serializers import GameChangeSerializer, GameItemSerializer, GameSerializer
from games.models import Club, Game, Hand, Membership
from games.selectors.games import (
    change_lines,
    game_by_public_id,
    game_changes,
    game_lines,
    game_view,
    listed_games,
)
from games.services.access import visible_games
from games.services.games import game_start
from games.services.hands import change_undo, hand_edit, hand_record
from games.sheets.cache import forget_local
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
API = "/api/v1"


def _hand(closer: str, other: str, points: int) -> dict[str, Any]:
    return {"closer": closer, "from_hand": False, "left": {other: points}}


def _games(club: Club, user: User, count: int) -> list[Game]:
    games = []
    for n in range(count):
        game = game_start(family="zoliky", options={}, players=["Ann", "Bob"], owner=user, club=club)
        for i in range(n % 3):
            hand_record(game=game, outcome=_hand("Ann", "Bob", 10 + i), user=user, request_id=None)
        games.append(game)
    return games


@pytest.fixture
def keeper() -> User:
    return UserFactory.create(username="keeper")


@pytest.fixture
def club(keeper: User) -> Club:
    club = ClubFactory.create(name="Tuesday")
    add_member(club, keeper, Membership.Role.SCOREKEEPER)
    return club


@pytest.mark.parametrize("count", [3, 12])
def test_a_page_of_the_games_list_takes_two_queries(
    club: Club, keeper: User, count: int, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    made = _games(club, keeper, count)
    with django_assert_num_queries(2):
        lines = game_lines(list(listed_games(seen=visible_games(user=keeper), user=keeper)[:50]))
        data = GameItemSerializer(lines, many=True).data
    assert [d["public_id"] for d in data] == [g.public_id for g in reversed(made)]
    assert [d["hands"] for d in data] == [n % 3 for n in reversed(range(count))]
    assert all(d["club"] == "tuesday" and [p["name"] for p in d["players"]] == ["Ann", "Bob"] for d in data)


def test_a_game_as_its_resource_shows_it_takes_two_queries_once_its_sheet_is_kept(
    club: Club, keeper: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    (game,) = _games(club, keeper, 3)[2:]
    found = game_by_public_id(public_id=game.public_id)
    assert found is not None
    request = RequestFactory().get(f"{API}/games/{game.public_id}/")
    forget_local()
    with django_assert_num_queries(4):  # seats with results, the reader's role, the sheet's seats, hands
        data = GameSerializer(game_view(game=found, user=keeper), context={"request": request}).data
    with django_assert_num_queries(2):  # the sheet is kept by this process
        again = GameSerializer(game_view(game=found, user=keeper), context={"request": request}).data
    assert again == data
    assert data["hands"] == 2 and [r["ordinal"] for r in data["rows"]] == [1, 2]
    assert data["totals"] == {"Ann": -20, "Bob": 21}
    assert data["share_url"].endswith(f"/g/{game.public_id}/")


def test_the_history_reads_its_changes_and_their_rows_in_two_queries(
    club: Club, keeper: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    (game,) = _games(club, keeper, 3)[2:]
    hand = Hand.objects.get(game=game, number=1)
    hand_edit(hand=hand, outcome=_hand("Bob", "Ann", 7), version=hand.version, user=keeper)
    edit = game.changes.order_by("-pk").first()
    assert edit is not None
    change_undo(change=edit, user=keeper)
    with django_assert_num_queries(2):
        lines = change_lines(game=game, changes=list(game_changes(game=game)))
        data = GameChangeSerializer(lines, many=True).data
    assert [(d["action"], d["hand"], d["undone"], d["undoable"]) for d in data] == [
        ("edited", 1, False, True),  # the undo
        ("edited", 1, True, False),
        ("added", 2, False, True),
        ("added", 1, False, True),
    ]


def test_a_members_only_clubs_slug_is_shown_to_no_reader_who_cannot_see_the_club(keeper: User) -> None:
    hidden = ClubFactory.create(name="Hidden")
    Club.objects.filter(pk=hidden.pk).update(visibility=Club.Visibility.MEMBERS)
    add_member(hidden, keeper, Membership.Role.SCOREKEEPER)
    (game,) = _games(hidden, keeper, 1)
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    listed = link.get(f"{API}/games/").json()["results"]
    assert [(g["public_id"], g["club"]) for g in listed] == [(game.public_id, None)]
    assert link.get(f"{API}/games/{game.public_id}/").json()["club"] is None
    member = APIClient()
    member.force_authenticate(keeper)
    assert member.get(f"{API}/games/").json()["results"][0]["club"] == "hidden"
    assert member.get(f"{API}/games/{game.public_id}/").json()["club"] == "hidden"
    lines = game_lines(
        listed_games(seen=visible_games(user=AnonymousUser(), link_game_id=game.pk), user=keeper)
    )
    assert lines[0].club == "hidden"  # what decides is the reader, not the list


def test_a_game_whose_hands_no_longer_score_still_answers_in_its_shape(club: Club, keeper: User) -> None:
    (game,) = _games(club, keeper, 3)[2:]
    Hand.objects.filter(game=game, number=2).update(outcome={"closer": "Zed", "from_hand": False, "left": {}})
    forget_local()
    client = APIClient()
    body = client.get(f"{API}/games/{game.public_id}/").json()
    assert body["rows"] == [] and body["totals"] == {} and body["leaders"] == []
    assert body["eliminated"] == [] and body["bonuses"] == [] and body["settlement"] is None
    hand = client.get(f"{API}/games/{game.public_id}/hands/2/").json()
    assert hand["number"] == 2 and hand["ordinal"] is None and hand["dealer"] is None
    assert hand["points"] == {} and hand["totals"] == {} and hand["missing"] == [] and hand["kind"] is None
