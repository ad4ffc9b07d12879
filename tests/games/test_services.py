"""Service functions: recording, correcting, deleting and undoing hands, for every family."""

import uuid
from typing import Any

import pytest

from engine.errors import EngineError
from games.models import Change, Hand, Score
from games.selectors.sheets import game_sheet
from games.services.errors import ServiceError, StaleEdit
from games.services.games import game_start
from games.services.hands import change_undo, hand_delete, hand_edit, hand_record
from games.sheets.sheet import dealers
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

Case = tuple[list[str], dict[str, Any], dict[str, int], dict[str, Any], dict[str, int]]
OUTCOMES: dict[str, Case] = {
    # family: (players, first outcome, expected points, corrected outcome, expected after)
    "zoliky": (
        ["Ann", "Bob", "Cid"],
        {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
        {"Ann": -10, "Bob": 23, "Cid": 30},
        {"closer": "Bob", "from_hand": True, "left": {"Ann": 4, "Cid": 12}},
        {"Ann": 4, "Bob": -20, "Cid": 12},
    ),
    "gin": (
        ["Ann", "Bob"],
        {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}},
        {"Ann": 5, "Bob": 0},
        {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 5}},
        {"Ann": 0, "Bob": 27},
    ),
    "carousel": (
        ["Ann", "Bob", "Cid"],
        {"knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}},
        {"Ann": 9 + 29, "Bob": 0, "Cid": 0},
        {"knocker": None, "out": "Bob", "left": {"Ann": 10, "Cid": 5}},
        {"Ann": 0, "Bob": 15 + 25, "Cid": 0},
    ),
    "rummikub": (
        ["Ann", "Bob", "Cid"],
        {"winner": "Ann", "left": {"Bob": 24, "Cid": "R7 B13 JK"}},
        {"Ann": 24 + 50, "Bob": -24, "Cid": -50},
        {"winner": None, "left": {"Ann": 15, "Bob": 8, "Cid": 22}},
        {"Ann": -15, "Bob": 7 + 14, "Cid": -22},
    ),
}


def totals(game):  # type: ignore[no-untyped-def]
    sheet = game_sheet(game=game)
    assert sheet.state is not None
    return dict(sheet.state.totals)


@pytest.mark.parametrize("family", list(OUTCOMES))
def test_record_correct_delete_and_undo_in_every_family(family: str) -> None:
    players, first, expected, corrected, expected_after = OUTCOMES[family]
    game = GameFactory.create(family=family, players=players)
    hand, created, _, _ = hand_record(game=game, outcome=first, request_id=uuid.uuid4(), user=None)
    assert created
    assert totals(game) == expected
    assert {s.seat.name: s.points for s in Score.objects.filter(hand=hand)} == expected

    hand_edit(hand=hand, outcome=corrected, version=1, user=None)
    assert totals(game) == expected_after
    assert {s.seat.name: s.points for s in Score.objects.filter(hand=hand)} == expected_after

    edit = Change.objects.get(action="edited")
    change_undo(change=edit, user=None)
    assert totals(game) == expected

    hand.refresh_from_db()
    hand_delete(hand=hand, version=hand.version, user=None)
    assert totals(game) == dict.fromkeys(players, 0)
    assert not Score.objects.exists()
    change_undo(change=Change.objects.get(action="deleted", undoes=None), user=None)
    assert totals(game) == expected
    assert Change.objects.count() == 5


def test_a_resend_records_the_hand_once() -> None:
    game = GameFactory.create()
    key = uuid.uuid4()
    outcome = {"closer": "Ann", "left": {"Bob": 5, "Cid": 6}}
    first, created, _, _ = hand_record(game=game, outcome=outcome, request_id=key, user=None)
    again, created_again, _, _ = hand_record(game=game, outcome=outcome, request_id=key, user=None)
    assert created and not created_again
    assert first.pk == again.pk
    assert Hand.objects.count() == 1
    assert totals(game) == {"Ann": -10, "Bob": 5, "Cid": 6}


def test_a_stale_edit_is_refused_with_the_current_values() -> None:
    game = GameFactory.create()
    hand, _, _, _ = hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 5, "Cid": 6}}, request_id=None, user=None
    )
    hand_edit(hand=hand, outcome={"closer": "Ann", "left": {"Bob": 7, "Cid": 6}}, version=1, user=None)
    with pytest.raises(StaleEdit) as caught:
        hand_edit(hand=hand, outcome={"closer": "Ann", "left": {"Bob": 9, "Cid": 6}}, version=1, user=None)
    assert caught.value.current == {"closer": "Ann", "left": {"Bob": 7, "Cid": 6}}
    assert totals(game)["Bob"] == 7


def test_an_impossible_hand_is_refused_and_nothing_is_stored() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    with pytest.raises(EngineError) as caught:
        hand_record(
            game=game,
            outcome={"knocker": "Ann", "deadwood": {"Ann": 12, "Bob": 30}},
            request_id=None,
            user=None,
        )
    assert caught.value.code == "knock_over_limit"
    assert caught.value.params["player"] == "Ann"
    assert not Hand.objects.exists() and not Change.objects.exists()
    game.refresh_from_db()
    assert game.next_hand_number == 1


def test_an_edit_that_breaks_a_later_hand_is_refused() -> None:
    """Raising Bob to 100 in hand 1 eliminates him, so hand 2, which he played, cannot stand."""
    game = GameFactory.create()
    hand, _, _, _ = hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 50, "Cid": 6}}, request_id=None, user=None
    )
    hand_record(
        game=game, outcome={"closer": "Bob", "left": {"Ann": 5, "Cid": 6}}, request_id=None, user=None
    )
    with pytest.raises(EngineError) as caught:
        hand_edit(hand=hand, outcome={"closer": "Ann", "left": {"Bob": 100, "Cid": 6}}, version=1, user=None)
    assert caught.value.code == "eliminated_player"
    assert caught.value.params["hand"] == 2
    assert totals(game) == {"Ann": -5, "Bob": 40, "Cid": 12}


def test_elimination_shows_who_is_out_and_dealing_skips_them() -> None:
    game = GameFactory.create(players=["Ann", "Bob", "Cid"])
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 104, "Cid": 6}}, request_id=None, user=None
    )
    sheet = game_sheet(game=game)
    assert sheet.eliminated_in == {"Bob": 1}
    assert sheet.rows[0].dealer == "Ann"
    assert sheet.next_dealer == "Cid"  # Bob is out, so the deal passes him by
    with pytest.raises(EngineError):
        hand_record(
            game=game, outcome={"closer": "Bob", "left": {"Ann": 5, "Cid": 6}}, request_id=None, user=None
        )


def test_dealers_rotate_in_seat_order() -> None:
    assert dealers(players=["A", "B", "C"], first=1, hands=4, out_after={}) == ["B", "C", "A", "B", "C"]
    assert dealers(players=["A", "B", "C"], first=0, hands=3, out_after={"B": 1}) == ["A", "C", "A", "C"]


def test_undo_refuses_when_the_hand_changed_since_and_twice() -> None:
    game = GameFactory.create()
    hand, _, _, _ = hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 5, "Cid": 6}}, request_id=None, user=None
    )
    added = Change.objects.get(action="added")
    hand_edit(hand=hand, outcome={"closer": "Ann", "left": {"Bob": 7, "Cid": 6}}, version=1, user=None)
    with pytest.raises(ServiceError) as caught:
        change_undo(change=added, user=None)
    assert caught.value.code == "changed_since"
    edited = Change.objects.get(action="edited")
    change_undo(change=edited, user=None)
    with pytest.raises(ServiceError) as caught:
        change_undo(change=edited, user=None)
    assert caught.value.code == "already_undone"
    change_undo(change=added, user=None)  # now the hand is as "added" left it
    assert not Hand.objects.exists()


def test_start_checks_players_and_options_and_records_the_owner() -> None:
    user = UserFactory.create()
    game = game_start(
        family="carousel", options={"knock_limit": "7"}, players=[" Ann ", "Bob", ""], owner=user
    )
    assert [s.name for s in game.seats.all()] == ["Ann", "Bob"]
    assert game.owner == user
    assert game.options["knock_limit"] == 7
    assert game.options["decks"] == 1  # two players: one deck, one joker
    three = game_start(family="carousel", options={}, players=["Ann", "Bob", "Cid"], owner=None)
    assert three.options["decks"] == 2
    with pytest.raises(EngineError) as caught:
        game_start(family="gin", options={}, players=["Ann", "Bob", "Cid"], owner=None)
    assert caught.value.code == "player_count"
    with pytest.raises(EngineError) as caught:
        game_start(family="zoliky", options={}, players=["Ann", "Ann"], owner=None)
    assert caught.value.code == "duplicate_player"
    with pytest.raises(EngineError) as caught:
        game_start(family="zoliky", options={"joker_penalty": "20"}, players=["Ann", "Bob"], owner=None)
    assert caught.value.code == "option_choice"
