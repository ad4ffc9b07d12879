"""Results (a row per seat per game) and scores (a row per player per hand) always equal a
fresh scoring of the stored hands, whatever sequence of writes made them; and places, winners
and eliminations read as the players expect."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.rules import rule_set
from games.models import Change, Club, Game, Hand, Result, Score, Seat
from games.selectors.sheets import game_table, recent_sheet
from games.services.games import game_end
from games.services.hands import change_undo, hand_delete, hand_edit, hand_record
from games.sheets import cache as sheet_cache
from scoring.game import score_game
from scoring.ranking import seat_results
from tests.factories import ClubFactory, GameFactory

pytestmark = pytest.mark.django_db

# st.DrawFn, or DataObject.draw passed where one is expected.
Draw = Callable[..., Any]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

PLAYERS = {
    "zoliky": ["Ann", "Bob", "Cid", "Dan"],
    "gin": ["Ann", "Bob"],
    "carousel": ["Ann", "Bob", "Cid"],
    "rummikub": ["Ann", "Bob", "Cid"],
}
# House rules that make games end (or players drop out) within a few hands.
OPTIONS: dict[str, list[dict[str, object]]] = {
    "zoliky": [{"elimination": 60}, {"elimination": 0}, {}],
    "gin": [{"target": 40}, {}],
    "carousel": [{"target": 60}, {"target": 0}],
    "rummikub": [{"hands": 3}, {}],
}


def outcome(draw: Draw, family: str, names: list[str]) -> dict[str, Any]:
    """A hand as a scorer might type it for ``names`` (those still in), mostly valid."""
    if family == "zoliky":
        closer = draw(st.sampled_from(names))
        left = {p: draw(st.integers(0, 45)) for p in names if p != closer}
        return {"closer": closer, "from_hand": draw(st.booleans()), "left": left}
    if family == "gin":
        knocker = draw(st.sampled_from(names))
        gin = draw(st.booleans())
        deadwood = {p: draw(st.integers(0, 10 if p == knocker else 40)) for p in names}
        if gin:
            deadwood[knocker] = 0
        return {"knocker": knocker, "gin": gin, "deadwood": deadwood}
    if family == "carousel":
        left = {p: draw(st.integers(1, 40)) for p in names}
        ending = draw(st.sampled_from(["knock", "out", "stock"]))
        if ending == "knock":
            knocker = draw(st.sampled_from(names))
            left[knocker] = draw(st.integers(1, 5))
            return {"knocker": knocker, "out": None, "left": left}
        if ending == "out":
            out = draw(st.sampled_from(names))
            del left[out]
            return {"knocker": None, "out": out, "left": left}
        return {"knocker": None, "out": None, "left": left}
    winner = draw(st.one_of(st.none(), st.sampled_from(names)))
    return {"winner": winner, "left": {p: draw(st.integers(1, 50)) for p in names if p != winner}}


def fresh(game: Game) -> tuple[dict[str, tuple[Any, ...]], dict[tuple[int, str], int]]:
    """The results and scores of ``game`` scored afresh from its stored hands, by seat name."""
    game.refresh_from_db()
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    state = score_game(
        rules=rule_set(game.family, game.options),
        players=[s.name for s in seats],
        hands=[h.outcome for h in hands],
        ended=game.ended,
    )
    derived = seat_results(state)
    results = {
        s.name: (
            s.player_id,
            derived[s.name].total,
            derived[s.name].place,
            derived[s.name].winner,
            derived[s.name].finished,
            derived[s.name].eliminated_in,
            derived[s.name].hands,
        )
        for s in seats
    }
    scores = {
        (hand.number, name): points
        for hand, result in zip(hands, state.hands, strict=True)
        for name, points in result.points.items()
    }
    return results, scores


def stored(game: Game) -> tuple[dict[str, tuple[Any, ...]], dict[tuple[int, str], int]]:
    rows = list(Result.objects.filter(game=game).select_related("seat"))
    results = {
        r.seat.name: (r.player_id, r.total, r.place, r.winner, r.finished, r.eliminated_in, r.hands)
        for r in rows
    }
    assert len(results) == len(rows)  # one row per seat
    scores = {
        (number, name): points
        for number, name, points in Score.objects.filter(hand__game=game).values_list(
            "hand__number", "seat__name", "points"
        )
    }
    return results, scores


def still_in(game: Game) -> list[str]:
    results = {r.seat.name: r for r in Result.objects.filter(game=game).select_related("seat")}
    return [name for name in PLAYERS[game.family] if results[name].eliminated_in is None]


OPERATIONS = ["record", "record", "record", "edit", "delete", "undo", "end", "reopen"]


@pytest.mark.parametrize("family", list(PLAYERS))
@FAST
@given(data=st.data(), steps=st.lists(st.sampled_from(OPERATIONS), min_size=1, max_size=10))
def test_stored_results_always_equal_a_fresh_scoring(
    family: str, data: st.DataObject, steps: list[str]
) -> None:
    club: Club | None = ClubFactory.create() if data.draw(st.booleans(), "club") else None
    options = data.draw(st.sampled_from(OPTIONS[family]), "options")
    game = GameFactory.create(family=family, options=options, players=PLAYERS[family], club=club)
    assert stored(game) == fresh(game)
    for step in steps:
        hands = list(Hand.objects.filter(game=game))
        changes = list(Change.objects.filter(game=game))
        try:
            if step == "record":
                hand_record(
                    game=game,
                    outcome=outcome(data.draw, family, still_in(game)),
                    request_id=uuid.uuid4(),
                    user=None,
                )
            elif step == "edit" and hands:
                hand = data.draw(st.sampled_from(hands))
                names = data.draw(st.sampled_from([still_in(game), PLAYERS[family]]))
                hand_edit(
                    hand=hand, outcome=outcome(data.draw, family, names), version=hand.version, user=None
                )
            elif step == "delete" and hands:
                hand = data.draw(st.sampled_from(hands))
                hand_delete(hand=hand, version=hand.version, user=None)
            elif step == "undo" and changes:
                change_undo(change=data.draw(st.sampled_from(changes)), user=None)
            elif step in ("end", "reopen"):
                game_end(game=game, ended=step == "end")
            event(f"{step}: done")
        except EngineError as error:
            event(f"{step}: refused ({error.code})")  # nothing may have changed: checked below
        assert stored(game) == fresh(game), step
        assert tables(game) == (True, True), step


def tables(game: Game) -> tuple[bool, bool]:
    """Whether a save's form gets the same seats and players dealt in from the kept sheet as
    from the stored results (a server without the sheet), and whether it read no query then."""
    current = Game.objects.get(pk=game.pk)
    sheet_cache.forget_local()
    from_results = game_table(game=current)
    if recent_sheet(game=current).state is None:  # a sheet that does not score: results it is
        return True, True
    with CaptureQueriesContext(connection) as queries:
        from_sheet = game_table(game=current)
    return from_results == from_sheet, not queries.captured_queries


# ---------------------------------------------------------------------- places and winners


def record(game: Game, outcome: dict[str, Any]) -> None:
    hand_record(game=game, outcome=outcome, request_id=None, user=None)


def by_name(game: Game) -> dict[str, Result]:
    return {r.seat.name: r for r in Result.objects.filter(game=game).select_related("seat")}


def places(game: Game) -> dict[str, int]:
    return {name: r.place for name, r in by_name(game).items()}


def test_ties_share_a_place_and_the_next_place_is_skipped() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid", "Dan"])
    record(game, {"closer": "Ann", "left": {"Bob": 20, "Cid": 20, "Dan": 30}})
    assert places(game) == {"Ann": 1, "Bob": 2, "Cid": 2, "Dan": 4}
    record(game, {"closer": "Dan", "left": {"Ann": 30, "Bob": 10, "Cid": 10}})
    # Ann 20, Bob 30, Cid 30, Dan 20: two share first, two share third.
    assert places(game) == {"Ann": 1, "Bob": 3, "Cid": 3, "Dan": 1}
    game_end(game=game, ended=True)
    assert {name for name, r in by_name(game).items() if r.winner} == {"Ann", "Dan"}


def test_zoliky_counts_penalties_so_the_lowest_total_wins() -> None:
    zoliky = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    record(zoliky, {"closer": "Bob", "left": {"Ann": 30, "Cid": 5}})
    rummikub = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    record(rummikub, {"winner": "Bob", "left": {"Ann": 30, "Cid": 5}})
    for game in (zoliky, rummikub):
        game_end(game=game, ended=True)
    assert {n: (r.total, r.place) for n, r in by_name(zoliky).items()} == {
        "Ann": (30, 3),
        "Bob": (-10, 1),
        "Cid": (5, 2),
    }
    assert {n: (r.total, r.place) for n, r in by_name(rummikub).items()} == {
        "Ann": (-30, 3),
        "Bob": (35, 1),
        "Cid": (-5, 2),
    }
    assert [n for n, r in by_name(zoliky).items() if r.winner] == ["Bob"]


def test_players_who_dropped_out_rank_below_those_still_in_the_later_the_higher() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid", "Dan"])
    record(game, {"closer": "Ann", "left": {"Bob": 104, "Cid": 60, "Dan": 10}})
    # Cid drops out with more points than Bob had, but stayed in longer: he ranks above Bob.
    record(game, {"closer": "Dan", "left": {"Ann": 90, "Cid": 90}})
    results = by_name(game)
    assert {n: r.total for n, r in results.items()} == {"Ann": 80, "Bob": 104, "Cid": 150, "Dan": 0}
    assert {n: r.eliminated_in for n, r in results.items()} == {"Ann": None, "Bob": 1, "Cid": 2, "Dan": None}
    assert {n: r.hands for n, r in results.items()} == {"Ann": 2, "Bob": 1, "Cid": 2, "Dan": 2}
    assert places(game) == {"Dan": 1, "Ann": 2, "Cid": 3, "Bob": 4}
    assert not any(r.winner or r.finished for r in results.values())
    # Ann goes over too: Dan is the last player standing and wins; the game is over.
    record(game, {"closer": "Dan", "left": {"Ann": 25}})
    results = by_name(game)
    assert places(game) == {"Dan": 1, "Ann": 2, "Cid": 3, "Bob": 4}
    assert [n for n, r in results.items() if r.winner] == ["Dan"]
    assert all(r.finished for r in results.values())


def test_a_winner_only_once_the_game_is_finished_and_ending_the_evening_finishes_it() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    record(game, {"winner": "Ann", "left": {"Bob": 12}})
    results = by_name(game)
    assert results["Ann"].place == 1 and not results["Ann"].winner
    assert not any(r.finished for r in results.values())
    game_end(game=game, ended=True)
    results = by_name(game)
    assert results["Ann"].winner and not results["Bob"].winner
    assert all(r.finished for r in results.values())
    assert {n: r.hands for n, r in results.items()} == {"Ann": 1, "Bob": 1}
    game_end(game=game, ended=False)  # reopened: provisional again
    results = by_name(game)
    assert not any(r.winner or r.finished for r in results.values())
    assert results["Ann"].place == 1


def test_a_game_that_reaches_its_target_is_finished_without_ending_the_evening() -> None:
    game = GameFactory.create(family="gin", options={"target": 30}, players=["Ann", "Bob"])
    record(game, {"knocker": "Bob", "gin": True, "deadwood": {"Ann": 20, "Bob": 0}})
    results = by_name(game)
    assert (results["Bob"].total, results["Bob"].winner, results["Bob"].finished) == (45, True, True)
    assert (results["Ann"].place, results["Ann"].winner) == (2, False)


def test_results_follow_a_correction_and_its_undo() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    hand, _, _, _ = hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 5, "Cid": 6}}, request_id=None, user=None
    )
    hand_edit(hand=hand, outcome={"closer": "Cid", "left": {"Ann": 5, "Bob": 6}}, version=1, user=None)
    assert places(game) == {"Cid": 1, "Ann": 2, "Bob": 3}
    change_undo(change=Change.objects.get(action="edited"), user=None)
    assert places(game) == {"Ann": 1, "Bob": 2, "Cid": 3}
    hand.refresh_from_db()
    hand_delete(hand=hand, version=hand.version, user=None)
    assert {n: (r.total, r.place, r.hands) for n, r in by_name(game).items()} == dict.fromkeys(
        ["Ann", "Bob", "Cid"], (0, 1, 0)
    )
