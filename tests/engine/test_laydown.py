"""First laydowns: the opening rule of each family, and meld errors named by their index."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.errors import EngineError
from engine.laydown import Laydown, check_laydown
from engine.notation import parse_hand, parse_melds
from engine.rules import RuleSet, rule_set

ZOLIKY = rule_set("zoliky")
RUMMIKUB = rule_set("rummikub")


def laydown(text: str, rules: RuleSet, *, opening: bool = True) -> Laydown:
    return check_laydown(parse_melds(text, rules), rules, opening=opening)


def error(text: str, rules: RuleSet, *, opening: bool = True) -> EngineError:
    with pytest.raises(EngineError) as caught:
        laydown(text, rules, opening=opening)
    return caught.value


def test_zoliky_opening_with_pure_run() -> None:
    result = laydown("QH KH AH | 7S 7D JK", ZOLIKY)
    assert result.points == 31 + 21
    assert [m.kind for m in result.melds] == ["run", "group"]


def test_zoliky_opening_below_the_limit() -> None:
    e = error("2H 3H 4H | 5S 5D 5C", ZOLIKY)
    assert (e.code, e.params) == ("opening_too_low", {"points": 24, "required": 42})


def test_zoliky_opening_exactly_at_the_limit() -> None:
    assert laydown("TS JS QS | 4H 4D 4C", ZOLIKY).points == 42
    assert error("9S TS JS | 4H 4D 4C", ZOLIKY).params["points"] == 41


def test_zoliky_opening_without_a_pure_run() -> None:
    text = "JK KH AH | 9S 9D 9C | TS TD TC"  # 31 + 27 + 30 points, but the run holds a joker
    e = error(text, ZOLIKY)
    assert e.code == "no_pure_run"
    assert laydown(text, rule_set("zoliky", {"opening_pure_run": "false"})).points == 88


def test_zoliky_opening_of_groups_only_has_no_pure_run() -> None:
    assert error("KS KD KC | QS QD QC", ZOLIKY).code == "no_pure_run"


def test_zoliky_opening_limit_is_an_option() -> None:
    text = "8H 9H TH | 4S 4D 4C"  # 27 + 12 = 39
    assert error(text, ZOLIKY).code == "opening_too_low"
    assert laydown(text, rule_set("zoliky", {"opening_points": "36"})).points == 39


def test_later_laydown_has_no_opening_rule() -> None:
    assert laydown("2H 3H 4H", ZOLIKY, opening=False).points == 9


def test_meld_error_names_the_meld() -> None:
    e = error("AS 2S 3S | 5H 6S 7H", ZOLIKY)
    assert e.code == "mixed_suits"
    assert e.params["meld"] == 2
    assert e.message.startswith("meld 2:")


def test_rummikub_opening_of_thirty_from_own_tiles() -> None:
    assert laydown("R9 R10 R11", RUMMIKUB).points == 30
    e = error("R8 R9 R10", RUMMIKUB)
    assert (e.code, e.params) == ("opening_too_low", {"points": 27, "required": 30})


def test_rummikub_joker_counts_as_the_tile_it_replaces() -> None:
    # the joker stands for R12: 10 + 11 + 12 = 33, not its 30-point penalty
    assert laydown("R10 R11 JK", RUMMIKUB).points == 33
    e = error("JK R1 R2 | B3 K3 Y3", RUMMIKUB)  # joker is R3: 6 + 9 = 15
    assert (e.code, e.params["points"]) == ("opening_too_low", 15)


def test_rummikub_no_pure_run_needed() -> None:
    assert laydown("K13 B13 JK", RUMMIKUB).points == 39


@pytest.mark.parametrize("family", ["carousel", "gin"])
def test_one_legal_meld_opens(family: str) -> None:
    rules = rule_set(family)
    assert laydown("AS 2S 3S", rules).points == 6
    assert error("AS 2S 4S", rules).code == "not_consecutive"


def test_no_melds() -> None:
    with pytest.raises(EngineError) as caught:
        check_laydown([], ZOLIKY)
    assert caught.value.code == "no_melds"


def test_copies_count_across_melds() -> None:
    five_hearts = Card(5, 1)
    melds = [
        [five_hearts, Card(6, 1), Card(7, 1)],
        [five_hearts, Card(5, 0), Card(5, 2)],
        [five_hearts, Card(5, 3), Card(5, 0)],
    ]
    with pytest.raises(EngineError) as caught:
        check_laydown(melds, ZOLIKY)
    assert caught.value.code == "too_many_copies"


def test_zoliky_flush_closes_with_ten_cards_of_one_suit_only_under_the_house_rule() -> None:
    flush = rule_set("zoliky", {"flush": True, "hand_size": 10})
    cards = parse_hand("2H 2H 5H 7H 9H TH JH QH KH AH", flush)
    laydown = check_laydown([cards], flush)
    assert [m.kind for m in laydown.melds] == ["flush"]
    assert laydown.points == 2 + 2 + 5 + 7 + 9 + 10 + 10 + 10 + 10 + 11
    with pytest.raises(EngineError):  # without the house rule it is no meld at all
        check_laydown([parse_hand("2H 2H 5H 7H 9H TH JH QH KH AH", rule_set("zoliky"))], rule_set("zoliky"))
    with pytest.raises(EngineError):  # nine hearts and a spade
        check_laydown([parse_hand("2S 2H 5H 7H 9H TH JH QH KH AH", flush)], flush)
    with pytest.raises(EngineError):  # a joker is no suit
        check_laydown([parse_hand("JK 2H 5H 7H 9H TH JH QH KH AH", flush)], flush)


def test_the_flush_needs_the_ten_card_deal() -> None:
    with pytest.raises(EngineError) as caught:
        rule_set("zoliky", {"flush": True})
    assert caught.value.code == "flush_needs_ten"
    assert caught.value.params["option"] == "flush"
