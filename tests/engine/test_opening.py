"""best_opening(): the opening laydown worth most, or why there is none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.laydown import Laydown, check_laydown
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
