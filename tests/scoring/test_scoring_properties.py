"""Properties (hypothesis): Rummikub going out is zero-sum; editing an early hand equals
scoring the edited list from scratch; every Carousel and gin hand has non-negative scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.rules import RuleSet
from scoring import Game, score_game, score_hand, start
from scoring.game import forget_scored

from ._support import rules

# st.DrawFn, or DataObject.draw passed where one is expected.
Draw = Callable[..., Any]

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


@st.composite
def rummikub_out(draw: Draw) -> dict[str, object]:
    players = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True))
    winner = draw(st.sampled_from(players))
    left = {p: draw(st.integers(1, 300)) for p in players if p != winner}
    return {"players": players, "winner": winner, "left": left}


@settings(max_examples=200, deadline=None)
@given(rummikub_out(), st.integers(0, 100))
def test_rummikub_going_out_is_zero_sum(outcome: dict[str, object], joker: int) -> None:
    result = score_hand(rules=rules("rummikub", joker_penalty=joker), outcome=outcome)
    assert sum(result.points.values()) == 0
    assert result.points[str(outcome["winner"])] == sum(result.counts.values())


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_carousel_only_winners_score_and_never_negative(data: st.DataObject) -> None:
    players = data.draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True))
    ending = data.draw(st.sampled_from(["knock", "out", "stock"]))
    left = {p: data.draw(st.integers(1, 80)) for p in players}
    outcome: dict[str, object] = {"players": players, "left": left}
    if ending == "knock":
        knocker = data.draw(st.sampled_from(players))
        left[knocker] = data.draw(st.integers(1, 5))
        outcome["knocker"] = knocker
    elif ending == "out":
        out = data.draw(st.sampled_from(players))
        del left[out]
        outcome["out"] = out
    result = score_hand(rules=rules("carousel"), outcome=outcome)
    lowest = min(result.counts.values())
    assert all(result.counts[w] == lowest for w in result.winners)
    assert all(result.points[p] == 0 for p in players if p not in result.winners)
    assert all(result.points[w] >= 0 for w in result.winners)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10), st.integers(0, 100), st.booleans(), st.booleans())
def test_gin_one_scorer_non_negative(knocker: int, opponent: int, tie: bool, gin: bool) -> None:
    outcome = {"players": ["Ann", "Bob"], "knocker": "Ann", "gin": gin and knocker == 0}
    outcome["deadwood"] = {"Ann": knocker, "Bob": opponent}
    result = score_hand(rules=rules("gin", tie_to_knocker=tie), outcome=outcome)
    assert len(result.winners) == 1
    assert result.points[result.winners[0]] >= 0
    assert sum(1 for v in result.points.values() if v) <= 1


# ----------------------------------------------------------------------------- editing a game


def zoliky_hand(draw: Draw) -> dict[str, object]:
    closer = draw(st.sampled_from(PLAYERS))
    left = {p: draw(st.integers(2, 70)) for p in PLAYERS if p != closer and draw(st.integers(0, 9))}
    return {"closer": closer, "from_hand": draw(st.booleans()), "left": left}


def rummikub_hand(draw: Draw) -> dict[str, object]:
    winner = draw(st.one_of(st.none(), st.sampled_from(PLAYERS)))
    return {"winner": winner, "left": {p: draw(st.integers(1, 60)) for p in PLAYERS if p != winner}}


def carousel_hand(draw: Draw) -> dict[str, object]:
    left = {p: draw(st.integers(1, 60)) for p in PLAYERS}
    knocker = draw(st.one_of(st.none(), st.sampled_from(PLAYERS)))
    if knocker is not None:
        left[knocker] = draw(st.integers(1, 5))
    return {"knocker": knocker, "left": left}


MAKERS = {"zoliky": zoliky_hand, "rummikub": rummikub_hand, "carousel": carousel_hand}
OPTIONS: dict[str, list[dict[str, object]]] = {
    "zoliky": [{}, {"elimination": 0}, {"elimination": 60}, {"double_from_hand": True}],
    "rummikub": [{}, {"hands": 4}],
    "carousel": [{}, {"target": 100}],
}


def outcome_or_error(build: object) -> object:
    try:
        game = build() if callable(build) else build
        assert isinstance(game, Game)
        return game.state.as_dict()
    except EngineError as error:
        return (error.code, dict(error.params))


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(sorted(MAKERS)))
def test_editing_an_early_hand_equals_scoring_the_edited_list(data: st.DataObject, family: str) -> None:
    options = data.draw(st.sampled_from(OPTIONS[family]))
    game_rules = rules(family, **options)
    make = MAKERS[family]
    outcomes = [make(data.draw) for _ in range(data.draw(st.integers(1, 8)))]
    game = start(rules=game_rules, players=PLAYERS)
    for outcome in outcomes:  # the valid prefix, played hand by hand
        try:
            game = game.play(outcome)
        except EngineError:
            break
    if not game.outcomes:
        return
    index = data.draw(st.integers(0, len(game.outcomes) - 1))
    new = make(data.draw)
    edited = [*game.outcomes[:index], new, *game.outcomes[index + 1 :]]
    assert outcome_or_error(lambda: game.replace(index, new)) == outcome_or_error(
        lambda: start(rules=game_rules, players=PLAYERS).play_all(edited)
    )
    deleted = [*game.outcomes[:index], *game.outcomes[index + 1 :]]
    assert outcome_or_error(lambda: game.delete(index)) == outcome_or_error(
        lambda: start(rules=game_rules, players=PLAYERS).play_all(deleted)
    )
    # and the service function agrees with the incremental game
    state = game.state.as_dict()
    assert score_game(rules=game_rules, players=PLAYERS, hands=list(game.outcomes)).as_dict() == state


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(sorted(MAKERS)))
def test_a_hand_scored_before_scores_as_if_never_seen(data: st.DataObject, family: str) -> None:
    """scoring.game keeps the hands it scored lately: met again under other house rules or by
    other players, a hand (valid or not) scores exactly as it does the first time."""
    first, second = (rules(family, **data.draw(st.sampled_from(OPTIONS[family]))) for _ in range(2))
    seated = [PLAYERS, data.draw(st.sampled_from([PLAYERS, PLAYERS, PLAYERS[:3]]))]
    outcomes = [MAKERS[family](data.draw) for _ in range(data.draw(st.integers(1, 8)))]

    def scored(game_rules: RuleSet, players: list[str]) -> object:
        return outcome_or_error(lambda: start(rules=game_rules, players=players).play_all(outcomes))

    forget_scored()
    afresh = scored(second, seated[1])
    forget_scored()
    scored(first, seated[0])  # the same hands, kept under the first rules and players
    assert scored(second, seated[1]) == afresh
    assert scored(second, seated[1]) == afresh  # now every hand from what was kept
