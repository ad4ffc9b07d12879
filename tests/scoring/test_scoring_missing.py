"""Missing counts: a correction brings back a Žolíky player who had dropped
out; the hands recorded without him miss his count. Per family, worked by hand, plus a property:
marking is what undo relies on (restoring the corrected hand gives back exactly the hands as
they were recorded)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from scoring import GameState, mark_missing_counts, rescore, score_game, score_hand, start
from scoring.messages import MESSAGES
from tests.cli import run_module

from ._support import hand, rejected, rules

ZOL = ["Ann", "Bob", "Cid"]
Draw = Callable[..., Any]


def zol(closer: str, **left: object) -> dict[str, object]:
    return {"closer": closer, "left": left}


# The evening of the issue: Bob's 15 typed as 150 in hand 1 put him out (elimination at 100);
# hands 2-4 were then recorded without him, although he kept playing.
TYPO = zol("Ann", Bob=150, Cid=20)
FIXED = zol("Ann", Bob=15, Cid=20)
LATER = [zol("Cid", Ann=30), zol("Ann", Cid=25), zol("Cid", Ann=12)]
BOBS = [20, 8, 31]  # what Bob really had left in hands 2-4


def marked(outcome: dict[str, object], *names: str) -> dict[str, object]:
    return {**outcome, "missing": list(names)}


def filled(outcome: object, **left: object) -> dict[str, object]:
    """The hand with these counts filled in (and no longer missing)."""
    assert isinstance(outcome, dict) and isinstance(outcome["left"], dict)
    result = {**outcome, "left": {**outcome["left"], **left}}
    result.pop("missing", None)
    return result


# ----------------------------------------------------------------------------- one hand


def test_a_missing_count_scores_zero_for_now_and_is_listed() -> None:
    result = hand("zoliky", {"players": ZOL, "closer": "Cid", "left": {"Ann": 30}, "missing": ["Bob"]})
    assert result.points == {"Ann": 30, "Bob": 0, "Cid": -10}
    assert result.missing == ("Bob",)
    assert "Bob" not in result.counts and "Bob" not in result.details["penalties"]  # type: ignore[operator]
    assert result.as_dict()["missing"] == ["Bob"]
    assert (
        "missing"
        not in hand("zoliky", {"players": ZOL, "closer": "Cid", "left": {"Ann": 3, "Bob": 4}}).as_dict()
    )


def test_missing_counts_with_laid_down_credits_and_doubling() -> None:
    outcome = {"players": ZOL, "closer": "Ann", "from_hand": True, "left": {"Cid": 12}, "missing": ["Bob"]}
    assert hand("zoliky", outcome, double_from_hand=True).points == {"Ann": 0, "Bob": 0, "Cid": 24}
    laid = {**outcome, "from_hand": False, "laid": {"Ann": 30, "Cid": 10}}
    result = hand("zoliky", laid, credit_laid_down=True)
    assert result.points == {"Ann": -40, "Bob": 0, "Cid": 2}
    assert result.details["laid"] == {"Ann": 30, "Cid": 10}


def test_a_missing_count_is_not_an_empty_hand_and_the_pack_ignores_it() -> None:
    # Two of the same card in one deck's worth would be refused; Bob holds nothing known.
    outcome = {"players": ZOL, "closer": "Ann", "left": {"Cid": "KH KH"}, "missing": ["Bob"]}
    assert hand("zoliky", outcome).points["Cid"] == 20
    # Nobody else is taken for out when a count is missing.
    assert hand("zoliky", {**outcome, "left": {"Cid": 5}}).points == {"Ann": -10, "Bob": 0, "Cid": 5}


def test_what_missing_may_name() -> None:
    base = {"players": ZOL, "closer": "Ann", "left": {"Cid": 3}}
    rejected("zoliky", {**base, "missing": "Bob"}, "field_type")
    rejected("zoliky", {**base, "missing": [3]}, "field_type")
    error = rejected("zoliky", {**base, "missing": ["Zed"]}, "unknown_player")
    assert error.params == {"player": "Zed", "field": "missing"}
    rejected("zoliky", {**base, "missing": ["Bob", "Bob"]}, "duplicate_player")
    error = rejected("zoliky", {**base, "missing": ["Ann", "Bob"]}, "missing_closer")
    assert error.params == {"player": "Ann"}
    error = rejected(
        "zoliky", {**base, "left": {"Bob": 4, "Cid": 3}, "missing": ["Bob"]}, "missing_with_count"
    )
    assert error.params == {"player": "Bob", "field": "left"}
    with_laid = {**base, "laid": {"Bob": 12}, "missing": ["Bob"]}
    error = rejected("zoliky", with_laid, "missing_with_count", credit_laid_down=True)
    assert error.params == {"player": "Bob", "field": "laid"}
    # Everyone else still needs a count.
    error = rejected("zoliky", {**base, "left": {}, "missing": ["Bob"]}, "missing_count")
    assert error.params == {"player": "Cid", "field": "left"}
    assert hand("zoliky", {**base, "left": {"Bob": 4, "Cid": 3}, "missing": []}).missing == ()


@pytest.mark.parametrize(
    ("family", "outcome"),
    [
        ("gin", {"players": ["Ann", "Bob"], "knocker": "Ann", "deadwood": {"Ann": 3}, "missing": ["Bob"]}),
        ("carousel", {"players": ZOL, "knocker": None, "left": {"Ann": 3, "Bob": 5}, "missing": ["Cid"]}),
        ("rummikub", {"players": ZOL, "winner": "Ann", "left": {"Bob": 5}, "missing": ["Cid"]}),
        ("rummikub", {"players": ZOL, "winner": "Ann", "left": {"Bob": 5, "Cid": 3}, "missing": []}),
    ],
)
def test_only_zoliky_hands_can_miss_a_count(family: str, outcome: dict[str, object]) -> None:
    # Nobody drops out of a gin, Carousel or Rummikub game, so no hand is ever recorded without
    # a player: a count there is never "missing", and a hand without one is refused as before.
    error = rejected(family, outcome, "missing_not_allowed")
    assert error.params == {"family": family}
    if outcome.pop("missing"):
        with pytest.raises(EngineError, match=r"missing|nothing left"):
            score_hand(rules=rules(family), outcome=outcome)


# ----------------------------------------------------------------------------- the game


def test_the_wrong_elimination_is_refused_without_marking() -> None:
    game = start(rules=rules("zoliky"), players=ZOL).play_all([TYPO, *LATER])
    assert [(e.player, e.hand) for e in game.state.eliminated] == [("Bob", 1)]
    with pytest.raises(EngineError) as caught:
        game.replace(0, FIXED)
    assert caught.value.code == "missing_count"
    assert caught.value.params == {"player": "Bob", "field": "left", "hand": 2}


def test_correcting_the_wrong_elimination_marks_the_later_hands() -> None:
    game = start(rules=rules("zoliky"), players=ZOL).play_all([TYPO, *LATER])
    fixed = game.replace(0, FIXED, mark_missing=True)
    assert list(fixed.outcomes) == [FIXED, *(marked(h, "Bob") for h in LATER)]
    state = fixed.state
    assert state.eliminated == ()
    assert state.incomplete and state.as_dict()["incomplete"] is True
    assert [(m.hand, m.players) for m in state.missing] == [(2, ("Bob",)), (3, ("Bob",)), (4, ("Bob",))]
    assert state.missing_by_player == {"Bob": (2, 3, 4)}
    assert state.as_dict()["missing"] == [{"hand": n, "players": ["Bob"]} for n in (2, 3, 4)]
    assert state.totals == {"Ann": 22, "Bob": 15, "Cid": 25}  # Bob's missing counts as 0 for now
    assert [h.points["Bob"] for h in state.hands[1:]] == [0, 0, 0]
    assert not state.finished and state.leaders == () and state.winners == ()
    assert state.settlement is None
    # The same outcomes scored as they are stored give the same state (the sheet's reading).
    assert (
        score_game(rules=rules("zoliky"), players=ZOL, hands=list(fixed.outcomes)).as_dict()
        == state.as_dict()
    )
    # Undoing the correction gives back exactly the hands as recorded.
    back = fixed.replace(0, TYPO, mark_missing=True)
    assert list(back.outcomes) == [TYPO, *LATER]
    assert back.state.as_dict() == game.state.as_dict()


def test_filling_the_counts_completes_the_game() -> None:
    hands = list(rescore(rules=rules("zoliky"), players=ZOL, hands=[FIXED, *LATER]).outcomes)
    for index, bob in enumerate(BOBS, start=1):
        hands[index] = filled(hands[index], Bob=bob)
        state = rescore(rules=rules("zoliky"), players=ZOL, hands=hands, as_typed={index}).state
        assert state.incomplete == (index < 3)
    assert hands[1:] == [filled(h, Bob=b) for h, b in zip(LATER, BOBS, strict=True)]
    assert state.totals == {"Ann": 22, "Bob": 15 + 20 + 8 + 31, "Cid": 25}
    assert state.missing == () and state.leaders == ("Ann",) and state.settlement is not None


def test_a_filled_count_that_puts_the_player_out_unmarks_the_hands_after_it() -> None:
    marked_hands = list(rescore(rules=rules("zoliky"), players=ZOL, hands=[FIXED, *LATER]).outcomes)
    hands = [FIXED, filled(marked_hands[1], Bob=90), *marked_hands[2:]]  # 15 + 90 = 105: out after hand 2
    game = rescore(rules=rules("zoliky"), players=ZOL, hands=hands, as_typed={1})
    assert list(game.outcomes) == [FIXED, filled(LATER[0], Bob=90), *LATER[1:]]
    assert [(e.player, e.hand, e.total) for e in game.state.eliminated] == [("Bob", 2, 105)]
    assert not game.state.incomplete
    # Typing his count in a later hand as well is refused: he was out by then.
    hands[2] = filled(marked_hands[2], Bob=8)
    with pytest.raises(EngineError) as caught:
        rescore(rules=rules("zoliky"), players=ZOL, hands=hands, as_typed={1, 2})
    assert caught.value.code == "eliminated_player"
    assert caught.value.params == {"player": "Bob", "eliminated_in": 2, "hand": 3}


def test_a_hand_typed_at_the_table_needs_every_count() -> None:
    with pytest.raises(EngineError, match="missing") as caught:
        rescore(rules=rules("zoliky"), players=ZOL, hands=[FIXED, LATER[0]], as_typed={1})
    assert caught.value.code == "missing_count"


def test_eliminations_are_decided_on_the_known_points() -> None:
    # Bob's count in hand 2 is missing, but his known 95 + 10 in hand 3 already reach 100.
    hands = [zol("Ann", Bob=95, Cid=5), marked(zol("Cid", Ann=3), "Bob"), zol("Ann", Bob=10, Cid=4)]
    state = score_game(rules=rules("zoliky"), players=ZOL, hands=hands)
    assert [(e.player, e.hand) for e in state.eliminated] == [("Bob", 3)]
    assert state.active == ("Ann", "Cid") and state.incomplete


def test_nothing_final_while_a_count_is_missing() -> None:
    # Cid drops out in hand 2 and Bob on his known points in hand 3: Ann is the last player
    # standing, but with Bob's hand-2 count missing the game is not finished and has no winner.
    hands = [zol("Ann", Bob=60, Cid=50), marked(zol("Ann", Cid=60), "Bob"), zol("Ann", Bob=50)]
    state = score_game(rules=rules("zoliky"), players=ZOL, hands=hands)
    assert state.finish_reason == "last_player"
    assert not state.finished and state.finished_after is None
    assert state.winners == () and state.leaders == () and state.settlement is None
    # and no hand can follow it, as in any ended game
    with pytest.raises(EngineError, match="ended"):
        score_game(rules=rules("zoliky"), players=ZOL, hands=[*hands, zol("Ann", Bob=3)])
    # An evening declared over waits for the counts too.
    open_evening = [zol("Ann", Bob=10, Cid=5), marked(zol("Cid", Ann=4), "Bob")]
    ended = score_game(rules=rules("zoliky", elimination=0), players=ZOL, hands=open_evening, ended=True)
    assert ended.finish_reason == "ended" and not ended.finished and ended.settlement is None


def test_an_eliminated_player_cannot_be_missing() -> None:
    hands = [TYPO, marked(LATER[0], "Bob")]
    with pytest.raises(EngineError) as caught:
        score_game(rules=rules("zoliky"), players=ZOL, hands=hands)
    assert caught.value.code == "eliminated_player"
    assert caught.value.message == "hand 2: " + MESSAGES["eliminated_player"].format(**caught.value.params)


def test_marking_leaves_everything_else_alone() -> None:
    outcome = zol("Cid", Ann=30)
    assert mark_missing_counts(outcome, family="zoliky", active=["Ann", "Cid"]) is outcome
    assert mark_missing_counts(outcome, family="zoliky", active=ZOL) == marked(outcome, "Bob")
    named = {"players": ["Ann", "Cid"], **outcome}
    assert mark_missing_counts(named, family="zoliky", active=ZOL) is named  # scoring judges it
    assert mark_missing_counts(["odd"], family="zoliky", active=ZOL) == ["odd"]
    carousel = {"knocker": None, "left": {"Ann": 3}}
    assert mark_missing_counts(carousel, family="carousel", active=ZOL) is carousel


@pytest.mark.parametrize(
    ("family", "players", "hands", "typo", "fixed", "more"),
    [
        (
            "gin",
            ["Ann", "Bob"],
            [{"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 30}}] * 2,
            {"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 100}},  # for 10: past the target
            {"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 30}},
            {"knocker": "Bob", "deadwood": {"Ann": 20, "Bob": 4}},
        ),
        (
            "carousel",
            ZOL,
            [{"knocker": "Ann", "left": {"Ann": 2, "Bob": 30, "Cid": 9}}],
            {"knocker": "Ann", "left": {"Ann": 2, "Bob": 300, "Cid": 9}},
            {"knocker": "Ann", "left": {"Ann": 2, "Bob": 30, "Cid": 9}},
            {"knocker": "Bob", "left": {"Ann": 20, "Bob": 4, "Cid": 9}},
        ),
    ],
)
def test_targets_a_correction_that_un_ends_the_game_needs_nothing_more(
    family: str,
    players: list[str],
    hands: list[dict[str, object]],
    typo: dict[str, object],
    fixed: dict[str, object],
    more: dict[str, object],
) -> None:
    # A typo past the target ends the game: no hand is recorded after it. Correcting it reopens
    # the game, every player still had a count in every hand, and play goes on.
    game = start(rules=rules(family), players=players).play_all([*hands, typo])
    assert game.state.finished and game.state.finish_reason == "target"
    corrected = game.replace(len(hands), fixed, mark_missing=True)
    assert list(corrected.outcomes) == [*hands, fixed]
    state: GameState = corrected.play(more).state
    assert not state.finished and not state.incomplete


def test_rummikub_a_correction_changes_no_player_set() -> None:
    hands = [{"winner": "Ann", "left": {"Bob": 5, "Cid": 7}}, {"winner": None, "left": dict.fromkeys(ZOL, 9)}]
    game = rescore(rules=rules("rummikub", hands=2), players=ZOL, hands=hands)
    assert list(game.outcomes) == hands and game.state.finished and not game.state.incomplete


# ----------------------------------------------------------------------------- property


def typed_hand(draw: Draw, players: list[str]) -> dict[str, object]:
    """A Žolíky hand as the form records it: a count for everyone dealt in but the closer."""
    closer = draw(st.sampled_from(players))
    return zol(closer, **{p: draw(st.integers(0, 90)) for p in players if p != closer})


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_undoing_a_correction_restores_the_recorded_hands_exactly(data: st.DataObject) -> None:
    players = ["Ann", "Bob", "Cid", "Dan"]
    game_rules = rules("zoliky", elimination=data.draw(st.sampled_from([60, 100])))
    game = start(rules=game_rules, players=players)
    for _ in range(data.draw(st.integers(2, 7))):
        if game.state.finish_reason is not None:
            break
        try:
            game = game.play(typed_hand(data.draw, list(game.active)))
        except EngineError:  # a typed 0 taken for a second player out: not recorded
            continue
    recorded = list(game.outcomes)
    if not recorded:
        return
    index = data.draw(st.integers(0, len(recorded) - 1))
    seated = list(start(rules=game_rules, players=players).play_all(recorded[:index]).active)
    correction = typed_hand(data.draw, seated)
    hands = [*recorded[:index], correction, *recorded[index + 1 :]]
    try:
        corrected = rescore(rules=game_rules, players=players, hands=hands, as_typed={index})
    except EngineError as error:
        # Only the other direction is refused: the correction puts out a player named later.
        assert error.code in ("eliminated_player", "game_over", "two_players_out"), error.code
        event(f"refused: {error.code}")
        return
    outcomes = list(corrected.outcomes)
    state = corrected.state
    event("a player brought back" if state.incomplete else "complete")
    # Marks name exactly the players dealt in without a count; stored, they score the same.
    for number, result in enumerate(state.hands, start=1):
        outcome = outcomes[number - 1]
        assert isinstance(outcome, dict)
        assert list(result.missing) == outcome.get("missing", [])
        assert all(p not in outcome["left"] and p != outcome["closer"] for p in result.missing)
    assert score_game(rules=game_rules, players=players, hands=outcomes).as_dict() == state.as_dict()
    assert list(rescore(rules=game_rules, players=players, hands=outcomes).outcomes) == outcomes
    assert state.finished == (state.finish_reason is not None and not state.incomplete)
    # Undo: the recorded hand back, everything else exactly as recorded.
    restored = rescore(
        rules=game_rules, players=players, hands=[*outcomes[:index], recorded[index], *outcomes[index + 1 :]]
    )
    assert list(restored.outcomes) == recorded
    assert restored.state.as_dict() == game.state.as_dict()


def test_the_command_line_scores_an_incomplete_game() -> None:
    document = {"players": ZOL, "hands": [FIXED, marked(LATER[0], "Bob")]}
    done = run_module("scoring", "game", "--rules", "zoliky", stdin=json.dumps(document))
    assert done.returncode == 0, done.stdout + done.stderr
    state = json.loads(done.stdout)
    assert state["incomplete"] is True and state["missing"] == [{"hand": 2, "players": ["Bob"]}]
    assert state["hands"][1]["missing"] == ["Bob"] and state["settlement"] is None
    gin = {"players": ["Ann", "Bob"], "knocker": "Ann", "deadwood": {"Ann": 3}, "missing": ["Bob"]}
    done = run_module("scoring", "hand", "--rules", "gin", stdin=json.dumps(gin))
    assert done.returncode == 1 and json.loads(done.stdout)["code"] == "missing_not_allowed"
