"""best_opening(): the opening laydown worth most, or why there is none."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.laydown import Laydown, check_laydown
from engine.melds import check_meld
from engine.notation import codes, parse_hand
from engine.opening import best_opening
from engine.rules import RuleSet, rule_set
from tests.engine.reference import most_opening_points
from tests.engine.test_arrange_props import hands

ZOLIKY = rule_set("zoliky")
RUMMIKUB = rule_set("rummikub")


def opening(text: str, rules: RuleSet = ZOLIKY) -> Laydown:
    result = best_opening(parse_hand(text, rules), rules)
    assert check_laydown([m.cards for m in result.melds], rules).points == result.points
    return result


def no_opening(text: str, rules: RuleSet = ZOLIKY) -> dict[str, object]:
    with pytest.raises(EngineError) as error:
        best_opening(parse_hand(text, rules), rules)
    assert error.value.code == "no_opening"
    return dict(error.value.params)


def laid(result: Laydown, rules: RuleSet = ZOLIKY) -> list[list[str]]:
    return sorted(codes(m.cards, rules, declared=True) for m in result.melds)


def test_zoliky_opening_with_a_pure_run() -> None:
    result = opening("AS 2S 3S 4S KH KD KC QH QD QC 5C 7D 9H 2C")
    assert result.points == 10 + 30 + 30
    assert laid(result) == [["AS", "2S", "3S", "4S"], ["KH", "KD", "KC"], ["QH", "QD", "QC"]]


def test_zoliky_below_the_limit() -> None:
    assert no_opening("5S 6S 7S 2H 2D 2C 9C KD") == {"best_points": 24, "required": 42, "reason": "too_low"}


def test_zoliky_without_a_pure_run() -> None:
    assert no_opening("KH KD KC QH QD QC 2S 5D") == {
        "best_points": 60,
        "required": 42,
        "reason": "no_pure_run",
    }


def test_a_run_with_a_joker_is_not_pure() -> None:
    params = no_opening("5S 6S JK KH KD KC QH QD QC 2C")
    assert params["reason"] == "no_pure_run"


def test_pure_run_rule_is_an_option() -> None:
    rules = rule_set("zoliky", {"opening_pure_run": False})
    assert opening("KH KD KC QH QD QC 2S 5D", rules).points == 60


def test_opening_limit_is_an_option() -> None:
    rules = rule_set("zoliky", {"opening_points": 24})
    assert opening("5S 6S 7S 2H 2D 2C 9C KD", rules).points == 24


def test_joker_stands_for_the_card_worth_most() -> None:
    rules = rule_set("zoliky", {"opening_pure_run": False})
    result = opening("TS JS QS JK 9H 9D 9C 2C", rules)
    assert result.points == 40 + 27
    assert ["TS", "JS", "QS", "JK=KS"] in laid(result)


def test_the_pure_run_can_cost_the_joker_its_best_place() -> None:
    # T J Q K(joker) + 9 9 9 = 67 has no pure run; T J Q + 9 9 9 9(joker) = 66 has.
    result = opening("TS JS QS JK 9H 9D 9C 2C")
    assert result.points == 30 + 36
    assert laid(result) == [["9H", "9D", "9C", "JK=9S"], ["TS", "JS", "QS"]]


def test_zoliky_keeps_a_card_for_the_discard() -> None:
    # All ten cards meld (70); the best laydown that keeps one leaves the ace: 2S 3S 4S + 60.
    result = opening("AS 2S 3S 4S KH KD KC QH QD QC")
    assert result.points == 69
    assert ["2S", "3S", "4S"] in laid(result)


def test_rummikub_may_lay_the_whole_rack() -> None:
    assert opening("R10 R11 R12 K1 K2 K3", RUMMIKUB).points == 33 + 6


def test_rummikub_below_thirty() -> None:
    assert no_opening("R1 R2 R3 K5 B5 Y5", RUMMIKUB) == {
        "best_points": 21,
        "required": 30,
        "reason": "too_low",
    }


def test_rummikub_joker_counts_as_its_tile() -> None:
    result = opening("R10 R11 R12 JK", RUMMIKUB)
    assert result.points == 46 and laid(result, RUMMIKUB) == [["R10", "R11", "R12", "JK=R13"]]


def test_no_meld_at_all() -> None:
    assert no_opening("2S 9H KD", rule_set("carousel")) == {
        "best_points": 0,
        "required": 0,
        "reason": "too_low",
    }


zoliky_rules = st.builds(
    lambda half, adjacent, points: rule_set(
        "zoliky", {"half_jokers": half, "adjacent_jokers": adjacent, "opening_points": points}
    ),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 20, 42]),
)


@settings(max_examples=150, deadline=None)
@given(
    st.data(),
    st.one_of(zoliky_rules, st.just(RUMMIKUB), st.just(rule_set("rummikub", {"opening_points": 10}))),
)
def test_best_opening_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    cards = data.draw(hands(rules, max_size=8))
    zoliky = rules.family == "zoliky"
    expected = most_opening_points(cards, rules, pure_run=zoliky, keep_one=zoliky)
    required = rules.opt_int("opening_points")
    try:
        result = best_opening(cards, rules)
    except EngineError as error:
        assert error.code == "no_opening"
        assert expected is None or expected < required
        return
    assert result.points == expected
    assert check_laydown([m.cards for m in result.melds], rules).points == result.points


# The objective best_opening maximises: points, then fewer jokers laid, then fewer cards laid.
Worth = tuple[int, int, int]


def exhaustive(cards: Sequence[Card], rules: RuleSet, *, pure_run: bool, keep_one: bool) -> Worth | None:
    """(points, -jokers, -cards) of the best laydown, trying every set of disjoint melds (each
    judged by check_meld); None when no laydown of at least one meld qualifies."""

    @cache
    def meld(key: tuple[tuple[int, int], ...]) -> tuple[int, int, bool] | None:
        try:
            checked = check_meld([JOKER if r == 0 else Card(r, s) for r, s in key], rules)
        except EngineError:
            return None
        return checked.points, len(checked.jokers), checked.kind == "run" and not checked.jokers

    @cache
    def best(rest: tuple[tuple[int, int], ...], need: bool, kept: bool, laid: bool) -> Worth | None:
        if not rest:
            return (0, 0, 0) if laid and not need and (kept or not keep_one) else None
        first, others = rest[0], rest[1:]
        found = best(others, need, True, laid)  # the first card stays in hand
        for size in range(2, len(others) + 1):
            for chosen in combinations(range(len(others)), size):
                key = tuple(sorted((first, *(others[i] for i in chosen))))
                this = meld(key)
                if this is None:
                    continue
                left = tuple(c for i, c in enumerate(others) if i not in chosen)
                after = best(left, need and not this[2], kept, True)
                if after is not None:
                    total = (this[0] + after[0], after[1] - this[1], after[2] - len(key))
                    found = total if found is None else max(found, total)
        return found

    key = tuple(sorted((0, 0) if c.is_joker else (c.rank, c.suit) for c in cards))
    return best(key, pure_run, False, False)


@st.composite
def dense_racks(draw: st.DrawFn, rules: RuleSet) -> list[Card]:
    """Up to 9 cards of a few neighbouring ranks (both copies where the game has two decks)
    and jokers: overlapping melds, where a pruned search would go wrong first."""
    start, width = draw(st.integers(1, 11)), draw(st.integers(3, 5))
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=2)))
    pool = [Card(r, s) for s in suits for r in range(start, min(13, start + width - 1) + 1)] * rules.decks
    jokers = draw(st.integers(0, min(rules.jokers, 3)))
    chosen = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=1, max_size=9 - jokers))
    return [pool[i] for i in chosen] + [JOKER] * jokers


exhaustive_rules = st.sampled_from(
    [
        RUMMIKUB,
        rule_set("rummikub", {"opening_points": 0}),
        ZOLIKY,
        rule_set("zoliky", {"opening_points": 0}),
        rule_set("zoliky", {"half_jokers": True, "adjacent_jokers": True, "opening_points": 20}),
        rule_set("zoliky", {"all_joker_groups": False, "opening_pure_run": False}),
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.data(), exhaustive_rules)
def test_best_opening_matches_exhaustive_search(data: st.DataObject, rules: RuleSet) -> None:
    cards = data.draw(dense_racks(rules))
    pure_run, keep_one = rules.rule("opening_pure_run"), rules.opening_keeps_card
    expected = exhaustive(cards, rules, pure_run=pure_run, keep_one=keep_one)
    anyway = exhaustive(cards, rules, pure_run=False, keep_one=keep_one)
    required = rules.opt_int("opening_points")
    try:
        result = best_opening(cards, rules)
    except EngineError as error:
        assert error.code == "no_opening"
        assert expected is None or expected[0] < required
        assert error.params["best_points"] == (anyway[0] if anyway else 0)
        reached = pure_run and anyway is not None and anyway[0] >= required
        assert error.params["reason"] == ("no_pure_run" if reached else "too_low")
        return
    assert expected is not None and result.points == expected[0] >= required
    assert check_laydown([m.cards for m in result.melds], rules).points == result.points
    if not keep_one:  # keeping a card back compares points only, so these ties are Rummikub's
        jokers = sum(len(m.jokers) for m in result.melds)
        assert (-jokers, -sum(len(m.cards) for m in result.melds)) == expected[1:]
