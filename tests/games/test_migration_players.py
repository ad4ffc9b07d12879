"""The migration to players (0003-0005) on a database with games from before it.

Every seat gets a player: one per (owner, name as the services read it) shared across that
owner's games, players of their own for games started without an account. Every game that
scores gets its results, equal to scoring its hands afresh, and no hand is touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.rules import rule_set
from games.models import Game, Hand, Player, Result, Seat
from games.text.names import name_key
from scoring.game import score_game
from scoring.ranking import seat_results

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_PLAYERS = [("games", "0002_change_request_id")]

# name: (family, options, owner, ended, seat names, hand outcomes)
OldGame = tuple[str, dict[str, Any], str | None, bool, list[str], list[dict[str, Any]]]
OLD_GAMES: dict[str, OldGame] = {
    # Alice's evening: Bob drops out after hand 1 (104 points), the evening is declared over.
    "alice_zoliky": (
        "zoliky",
        {},
        "alice",
        True,
        ["Tomáš", "Ann", "Bob"],
        [
            {"closer": "Ann", "from_hand": False, "left": {"Tomáš": 23, "Bob": 104}},
            {"closer": "Tomáš", "from_hand": True, "left": {"Ann": "KH 5S JK"}},
        ],
    ),
    # The same person typed in lower case with a trailing space, before names were cleaned.
    "alice_gin": (
        "gin",
        {"target": 20},
        "alice",
        False,
        ["tomáš ", "Ann"],
        [
            {"knocker": "tomáš ", "gin": False, "deadwood": {"tomáš ": 7, "Ann": 12}},
            {"knocker": "Ann", "gin": True, "deadwood": {"tomáš ": 30, "Ann": 0}},
        ],
    ),
    # Two seats of one game whose names read alike: two people, so two players.
    "alice_twins": (
        "rummikub",
        {"hands": 1},
        "alice",
        False,
        ["Eva", "eva", "ANN"],
        [{"winner": "eva", "left": {"Eva": 24, "ANN": "R7 B13 JK"}}],
    ),
    "alice_empty": ("carousel", {}, "alice", False, ["Ann", "Tomáš"], []),
    # Another user's Tomáš is another roster's player.
    "carol_carousel": (
        "carousel",
        {"target": 100},
        "carol",
        False,
        ["Tomáš", "Ann", "Cid"],
        [
            {"knocker": "Ann", "out": None, "left": {"Ann": 3, "Tomáš": 12, "Cid": "7H JK"}},
            {"knocker": None, "out": "Cid", "left": {"Ann": 10, "Tomáš": 5}},
        ],
    ),
    # Games started without an account, with the same names as Alice's: never shared.
    "anonymous_zoliky": (
        "zoliky",
        {"elimination": 0},
        None,
        False,
        ["Tomáš", "Ann"],
        [{"closer": "Tomáš", "from_hand": False, "left": {"Ann": 40}}],
    ),
    "anonymous_rummikub": (
        "rummikub",
        {},
        None,
        True,
        ["Tomáš", "Ann", "Bob"],
        [
            {"winner": None, "left": {"Tomáš": 15, "Ann": 8, "Bob": 22}},
            {"winner": "Bob", "left": {"Tomáš": 15, "Ann": 8}},
        ],
    ),
}
# A game whose stored hand no longer scores (it names a player who is not at the table).
BROKEN: OldGame = ("zoliky", {}, "alice", False, ["Ann", "Dan"], [{"closer": "Zed", "left": {"Ann": 5}}])


def _migrate(targets: list[tuple[str, str]] | None = None) -> Any:
    """Migrate the test database to ``targets`` (None: the latest); returns the apps there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    nodes = targets if targets is not None else executor.loader.graph.leaf_nodes()
    executor.migrate(nodes)
    return executor.loader.project_state(nodes).apps


@pytest.fixture
def before_players() -> Iterator[Any]:
    """The apps of the schema before players; the database is migrated back to the latest
    schema afterwards, whatever the test did."""
    try:
        yield _migrate(BEFORE_PLAYERS)
    finally:
        _migrate()


def _create_old_games(apps: Any) -> dict[str, int]:
    """The games of ``OLD_GAMES`` (and ``BROKEN``) through the historical models: name -> id."""
    User = apps.get_model("auth", "User")
    OldGame = apps.get_model("games", "Game")
    OldSeat = apps.get_model("games", "Seat")
    OldHand = apps.get_model("games", "Hand")
    users = {name: User.objects.create(username=name) for name in ("alice", "carol")}
    ids: dict[str, int] = {}
    for label, (family, options, owner, ended, seats, hands) in [*OLD_GAMES.items(), ("broken", BROKEN)]:
        game = OldGame.objects.create(
            family=family,
            options=dict(rule_set(family, options).options),
            owner=users[owner] if owner else None,
            ended=ended,
            next_hand_number=len(hands) + 1,
        )
        for position, name in enumerate(seats):
            OldSeat.objects.create(game=game, position=position, name=name)
        for number, outcome in enumerate(hands, start=1):
            OldHand.objects.create(game=game, number=number, outcome=outcome, version=number)
        ids[label] = game.pk
    return ids


def _hands_snapshot() -> dict[int, tuple[Any, ...]]:
    return {
        pk: (game_id, number, outcome, version, request_id)
        for pk, game_id, number, outcome, version, request_id in Hand.objects.values_list(
            "pk", "game_id", "number", "outcome", "version", "request_id"
        )
    }


def _player(game_id: int, seat_name: str) -> Player:
    return Seat.objects.select_related("player").get(game_id=game_id, name=seat_name).player


def _owner(player: Player) -> str | None:
    return player.owner.username if player.owner is not None else None


def test_every_seat_gets_a_player_and_every_game_its_results(before_players: Any) -> None:
    OldHand = before_players.get_model("games", "Hand")
    with pytest.raises(LookupError):
        before_players.get_model("games", "Player")
    ids = _create_old_games(before_players)
    old_hands = {
        pk: (game_id, number, outcome, version, request_id)
        for pk, game_id, number, outcome, version, request_id in OldHand.objects.values_list(
            "pk", "game_id", "number", "outcome", "version", "request_id"
        )
    }
    assert len(old_hands) == sum(len(spec[5]) for spec in OLD_GAMES.values()) + 1

    _migrate()

    # No hand was touched.
    assert _hands_snapshot() == old_hands

    # Every seat has a player.
    assert Seat.objects.count() == sum(len(spec[4]) for spec in OLD_GAMES.values()) + len(BROKEN[4])
    assert not Seat.objects.filter(player__isnull=True).exists()

    # Alice's roster: one player per name as read alike, shared by all her games.
    tomas = _player(ids["alice_zoliky"], "Tomáš")
    assert _player(ids["alice_gin"], "tomáš ") == tomas
    assert _player(ids["alice_empty"], "Tomáš") == tomas
    assert (_owner(tomas), tomas.club, tomas.name, tomas.key) == ("alice", None, "Tomáš", "tomáš")
    ann = _player(ids["alice_zoliky"], "Ann")
    assert {_player(ids[label], name) for label, name in [("alice_gin", "Ann"), ("alice_twins", "ANN")]} == {
        ann
    }
    assert _player(ids["alice_empty"], "Ann") == ann == _player(ids["broken"], "Ann")
    # The seat keeps the name its hands were recorded with.
    assert Seat.objects.get(game_id=ids["alice_gin"], position=0).name == "tomáš "

    # Two seats of one game reading alike are two players, both in Alice's roster.
    eva, eva_too = _player(ids["alice_twins"], "Eva"), _player(ids["alice_twins"], "eva")
    assert eva != eva_too
    assert {_owner(eva), _owner(eva_too)} == {"alice"}

    alice = Player.objects.filter(owner__username="alice", club=None)
    assert sorted(alice.values_list("key", flat=True)) == sorted(
        {"tomáš", "ann", "bob", "eva", eva_too.key, "dan"}
    )
    assert alice.count() == len(set(alice.values_list("key", flat=True)))

    # Carol's Tomáš is not Alice's.
    carol_tomas = _player(ids["carol_carousel"], "Tomáš")
    assert carol_tomas != tomas and _owner(carol_tomas) == "carol"
    assert Player.objects.filter(owner__username="carol").count() == 3

    # Games without an account: players of their own, one seat each, never shared.
    for label in ("anonymous_zoliky", "anonymous_rummikub"):
        for seat in Seat.objects.filter(game_id=ids[label]).select_related("player"):
            assert seat.player.owner_id is None and seat.player.club_id is None
            assert seat.player.key == name_key(seat.name)
            assert list(Seat.objects.filter(player=seat.player)) == [seat]
    anonymous = Player.objects.filter(owner=None, club=None)
    assert anonymous.count() == len(OLD_GAMES["anonymous_zoliky"][4]) + len(
        OLD_GAMES["anonymous_rummikub"][4]
    )

    # Every game that scores has a result per seat, as the scoring package derives it.
    for label, game_id in ids.items():
        game = Game.objects.get(pk=game_id)
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        results = {r.seat_id: r for r in Result.objects.filter(game=game)}
        if label == "broken":
            assert results == {}  # left for the next save to report
            continue
        state = score_game(
            rules=rule_set(game.family, game.options),
            players=[seat.name for seat in seats],
            hands=[hand.outcome for hand in Hand.objects.filter(game=game).order_by("number")],
            ended=game.ended,
        )
        expected = seat_results(state)
        assert set(results) == {seat.pk for seat in seats}
        for seat in seats:
            row, want = results[seat.pk], expected[seat.name]
            assert row.player_id == seat.player_id
            assert (row.total, row.place, row.winner, row.finished, row.eliminated_in, row.hands) == (
                want.total,
                want.place,
                want.winner,
                want.finished,
                want.eliminated_in,
                want.hands,
            ), (label, seat.name)

    # Spot checks of what the players see, so the comparison above compares something.
    by_name = {
        r.seat.name: r for r in Result.objects.filter(game_id=ids["alice_zoliky"]).select_related("seat")
    }
    assert by_name["Bob"].eliminated_in == 1 and by_name["Bob"].place == 3 and by_name["Bob"].hands == 1
    assert [n for n, r in by_name.items() if r.winner] == ["Tomáš"] and by_name["Ann"].finished
    gin = {r.seat.name: r for r in Result.objects.filter(game_id=ids["alice_gin"]).select_related("seat")}
    assert gin["Ann"].winner and gin["Ann"].finished and gin["Ann"].total > gin["tomáš "].total
    assert not any(r.finished for r in Result.objects.filter(game_id=ids["alice_empty"]))
