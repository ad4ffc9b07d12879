"""Games a scorekeeper puts in one evening: the same players at one table who started a new game
by hand instead of a rematch get the evening settled at once, as a rematch chain is. Putting a
game in and taking it out are recorded on that game, resends change nothing twice, undo takes
either back, and only a game of the same family and players, that the scorekeeper may write,
is offered or accepted."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from games.models import Change, Game
from games.selectors.evening import evening_candidates, evening_of
from games.services.errors import ServiceError
from games.services.evening import evening_join, evening_part
from games.services.games import game_delete, game_end, game_rematch
from games.services.hands import change_undo, hand_record
from games.sheets.sheet import game_rules
from scoring.evening import settle_evening
from tests.factories import ClubFactory, GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _hand(game: Game, closer: str, left: dict[str, int]) -> None:
    hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=uuid.uuid4(), user=None)


def _two_games(owner: User) -> tuple[Game, Game]:
    """Ann, Bob and Cid's two games of one evening, the second started by hand (no rematch)."""
    first = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    _hand(first, "Cid", {"Ann": 14, "Bob": 120})
    game_end(game=first, ended=True, user=owner)
    second = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    _hand(second, "Bob", {"Ann": 24, "Cid": 16})
    _hand(second, "Ann", {"Bob": 13, "Cid": 10})
    return first, second


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_game_put_in_the_evening_is_settled_with_it_as_a_rematch_would_be(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    assert [g.game.pk for g in evening_of(game=second).games] == [second.pk]  # type: ignore[union-attr]
    client = _client(owner)
    alone = evening_of(game=second)
    assert alone is not None
    with django_assert_num_queries(1):
        assert evening_candidates(evening=alone) == [first]
    page = client.get(f"/g/{second.public_id}/evening/").content.decode()
    assert "Other games of these players" in page and f'value="{first.public_id}"' in page
    settlement = client.get(f"/g/{second.public_id}/settlement/").content.decode()
    assert f'href="/g/{second.public_id}/evening/"' in settlement
    request_id = uuid.uuid4()
    body = {"action": "join", "game": first.public_id, "request_id": request_id}
    assert client.post(f"/g/{second.public_id}/evening/", body).status_code == 302
    client.post(f"/g/{second.public_id}/evening/", body)  # the phone sends it again
    assert Change.objects.filter(game=first, action=Change.Action.JOINED).count() == 1
    for game in (first, second):
        with django_assert_num_queries(1):
            evening = evening_of(game=game)
        assert evening is not None and evening.settlement is not None
        assert [g.game.pk for g in evening.games] == [first.pk, second.pk]
        totals = [{"Ann": 14, "Bob": 120, "Cid": -10}, {"Ann": 14, "Bob": 3, "Cid": 26}]
        assert [g.totals for g in evening.games] == totals
        # The same settlement a rematch chain of these games gets.
        assert evening.settlement == settle_evening(rules=game_rules(game=first), games=totals)
        assert evening.settlement.totals == {"Ann": 28, "Bob": 123, "Cid": 16}
    page = client.get(f"/g/{first.public_id}/evening/").content.decode()
    assert "Bob pays" in page and "Take out of this evening" in page
    history = client.get(f"/g/{first.public_id}/history/").content.decode()
    assert "Put in another game&#x27;s evening" in history or "Put in another game's evening" in history


def test_taking_out_and_undo_put_the_evening_back_as_it_was() -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    joined = evening_join(game=second, other=first, user=owner)
    parted = evening_part(game=second, other=first, user=owner)
    assert [g.game.pk for g in evening_of(game=second).games] == [second.pk]  # type: ignore[union-attr]
    with pytest.raises(ServiceError) as refused:
        change_undo(change=joined, user=owner)  # taken out since: undo that first
    assert refused.value.code == "changed_since"
    back = change_undo(change=parted, user=owner)
    assert back.action == Change.Action.JOINED and back.undoes == parted
    assert len(evening_of(game=second).games) == 2  # type: ignore[union-attr]
    out = change_undo(change=back, user=owner)
    assert out.action == Change.Action.PARTED
    assert len(evening_of(game=first).games) == 1  # type: ignore[union-attr]
    # A correction in a game put in changes the evening's settlement at once.
    evening_join(game=second, other=first, user=owner, request_id=uuid.uuid4())
    added = Change.objects.filter(game=first, action=Change.Action.ADDED).get()
    change_undo(change=added, user=owner)
    evening = evening_of(game=second)
    assert evening is not None and evening.settlement is not None
    assert evening.settlement.totals == {"Ann": 14, "Bob": 3, "Cid": 26}


def test_only_a_game_of_the_same_family_and_players_may_join_and_a_rematch_stays() -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    others = GameFactory.create(players=["Ann", "Bob", "Dan"], owner=owner)
    fewer = GameFactory.create(players=["Ann", "Bob"], owner=owner)
    gin = GameFactory.create(family="gin", players=["Ann", "Bob"], owner=owner)
    rematch = game_rematch(game=second, user=owner, request_id=uuid.uuid4())
    for other, code in (
        (others, "evening_other_players"),
        (fewer, "evening_other_players"),
        (rematch, "evening_already"),
        (second, "evening_already"),
    ):
        with pytest.raises(ServiceError) as refused:
            evening_join(game=second, other=other, user=owner)
        assert refused.value.code == code
    with pytest.raises(ServiceError) as refused:
        evening_join(game=fewer, other=gin, user=owner)
    assert refused.value.code == "evening_other_players"
    table = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    Game.objects.filter(pk=table.pk).update(event_name="Autumn cup", event_round=1, event_table=2)
    with pytest.raises(ServiceError) as refused:
        evening_join(game=second, other=table, user=owner)
    assert refused.value.code == "evening_event"
    assert table.pk not in {g.pk for g in evening_candidates(evening=evening_of(game=second))}  # type: ignore[arg-type]
    with pytest.raises(ServiceError) as refused:
        evening_part(game=second, other=rematch, user=owner)
    assert refused.value.code == "evening_not_put"
    evening_join(game=second, other=first, user=owner)
    third = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    with pytest.raises(ServiceError) as refused:
        evening_join(game=third, other=first, user=owner)  # first is in second's evening
    assert refused.value.code == "evening_taken"
    # Joining the other way round is allowed: third's evening and second's become one.
    evening_join(game=first, other=third, user=owner)
    evening = evening_of(game=rematch)
    assert evening is not None and {g.game.pk for g in evening.games} == {
        first.pk,
        second.pk,
        third.pk,
        rematch.pk,
    }


def test_the_offer_leaves_out_other_players_other_days_deleted_games_and_games_of_others() -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    yesterday = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    Game.objects.filter(pk=yesterday.pk).update(played_at=timezone.now() - datetime.timedelta(hours=20))
    gone = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    GameFactory.create(players=["Ann", "Bob", "Dan"], owner=owner)
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    game_delete(
        game=GameFactory.create(players=["Ann", "Bob", "Cid"], club=club, owner=organiser), user=organiser
    )
    Game.objects.filter(pk=gone.pk).update(deleted_at=timezone.now())
    stranger = UserFactory.create()
    theirs = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=stranger)
    evening = evening_of(game=second)
    assert evening is not None
    offered = evening_candidates(evening=evening)
    assert first in offered and theirs in offered  # same names; whose it is, the page decides
    assert yesterday not in offered and gone not in offered
    page = _client(owner).get(f"/g/{second.public_id}/evening/").content.decode()
    assert f'value="{first.public_id}"' in page and theirs.public_id not in page
    answer = _client(owner).post(
        f"/g/{second.public_id}/evening/", {"action": "join", "game": theirs.public_id}, follow=True
    )
    assert "You cannot change this game&#x27;s evening." in answer.content.decode()
    assert Game.objects.get(pk=theirs.pk).evening_id is None
    # Someone who may not write this game is offered nothing and changes nothing.
    assert "Add to this evening" not in Client().get(f"/g/{second.public_id}/evening/").content.decode()
    Client().post(f"/g/{second.public_id}/evening/", {"action": "join", "game": first.public_id})
    assert Game.objects.get(pk=first.pk).evening_id is None


def test_the_evening_s_games_in_the_api() -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    api = APIClient()
    api.force_authenticate(owner)
    base = f"/api/v1/games/{second.public_id}/evening"
    offered = api.get(f"{base}/games/").json()
    assert [g["id"] for g in offered] == [first.public_id]
    put = api.post(f"{base}/games/", {"game": first.public_id}, format="json")
    assert put.status_code == 200, put.json()
    assert [(g["id"], g["put_in"]) for g in put.json()["games"]] == [
        (first.public_id, True),
        (second.public_id, False),
    ]
    assert put.json()["settlement"]["totals"] == {"Ann": 28, "Bob": 123, "Cid": 16}
    again = api.post(f"{base}/games/", {"game": first.public_id}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "evening_already"
    assert APIClient().post(f"{base}/games/", {"game": first.public_id}, format="json").status_code in (
        401,
        403,
    )
    stranger = APIClient()
    stranger.force_authenticate(UserFactory.create())
    assert stranger.delete(f"{base}/games/{first.public_id}/").status_code == 403
    out = api.delete(f"{base}/games/{first.public_id}/")
    assert out.status_code == 200 and [g["id"] for g in out.json()["games"]] == [second.public_id]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    links=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["rematch", "evening"])), max_size=7
    ),
    players=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_the_evening_is_every_game_linked_by_rematches_or_evenings(
    links: list[tuple[int, int, str]], players: list[bool]
) -> None:
    """Against a brute force: the evening of each game is the games reachable from it over either
    link in either direction, with its players (a different table's games left out)."""
    owner = UserFactory.create()
    games = [
        GameFactory.create(players=["Ann", "Bob", "Cid"] if same else ["Ann", "Bob", "Dan"], owner=owner)
        for same in players
    ]
    link: dict[tuple[int, str], int] = {}  # (game, field) -> the game it names: the last one set
    for child, parent, kind in links:
        if child == parent:
            continue
        field = "rematch_of" if kind == "rematch" else "evening"
        Game.objects.filter(pk=games[child].pk).update(**{field: games[parent]})
        link[child, field] = parent
    neighbours: dict[int, set[int]] = {i: set() for i in range(6)}
    for (child, _field), parent in link.items():
        neighbours[child].add(parent)
        neighbours[parent].add(child)
    for start in range(6):
        reached, todo = {start}, [start]
        while todo:
            for n in neighbours[todo.pop()] - reached:
                reached.add(n)
                todo.append(n)
        expected = {games[i].pk for i in reached if players[i] == players[start]}
        evening = evening_of(game=games[start])
        assert evening is not None
        assert {g.game.pk for g in evening.games} == expected
    Game.objects.filter(pk__in=[g.pk for g in games]).delete()
