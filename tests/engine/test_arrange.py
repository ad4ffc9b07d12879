"""arrange(): known hands with hand-computed answers, per family and option."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from engine.arrange import Arrangement, arrange
from engine.arrangement import quick_arrangement
from engine.cards import Card
from engine.errors import EngineError
from engine.melds import check_meld
from engine.notation import codes, parse_hand
from engine.rules import rule_set


def solve(family: str, hand: str, **options: object) -> Arrangement:
    rules = rule_set(family, options)
    result = arrange(parse_hand(hand, rules), rules)
    for meld in result.melds:
        check_meld(meld, rules)
    return result


def melds(result: Arrangement, family: str) -> list[list[str]]:
    rules = rule_set(family)
    return sorted(codes(m, rules, declared=True) for m in result.melds)


def test_gin_hand_fully_melded() -> None:
    result = solve("gin", "AS 2S 3S 4S 5H 5D 5C KH QH JH")
    assert result.deadwood_points == 0 and result.deadwood == ()
    assert melds(result, "gin") == [["5H", "5D", "5C"], ["AS", "2S", "3S", "4S"], ["JH", "QH", "KH"]]


def test_shared_card_goes_where_it_saves_most() -> None:
    # 6S in the run 4-5-6S leaves 6H 6D (12); in the group 6S 6H 6D it leaves 4S 5S (9).
    result = solve("gin", "4S 5S 6S 6H 6D")
    assert result.deadwood_points == 9
    assert melds(result, "gin") == [["6S", "6H", "6D"]]


def test_gin_no_melds_is_all_deadwood() -> None:
    result = solve("gin", "AS 3H 5D 7C 9S JH KD 2C 4S 6H")
    assert result.melds == () and result.deadwood_points == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6


def test_empty_hand() -> None:
    assert arrange([], rule_set("gin")) == Arrangement((), (), 0)


def test_the_quick_arrangement_is_an_ordinary_frozen_arrangement() -> None:
    melds = ((Card(1, 0), Card(2, 0), Card(3, 0)),)
    quick = quick_arrangement(melds, (Card(9, 1),), 9)
    assert quick == Arrangement(melds, (Card(9, 1),), 9)
    assert hash(quick) == hash(Arrangement(melds, (Card(9, 1),), 9))
    assert repr(quick) == repr(Arrangement(melds, (Card(9, 1),), 9))
    with pytest.raises(FrozenInstanceError):
        quick.deadwood_points = 0  # type: ignore[misc]


def test_the_fast_path_hands_back_cards_equal_to_the_callers_in_card_order() -> None:
    rules = rule_set("gin")
    hand = parse_hand("KD 2C 9S 3H 4S AS 5D 7C JH 6H", rules)
    result = arrange(hand, rules)
    assert result.melds == ()
    assert codes(result.deadwood, rules) == ["AS", "4S", "9S", "3H", "6H", "JH", "5D", "KD", "2C", "7C"]
    assert all(card.stands_for is None for card in result.deadwood)


@pytest.mark.parametrize(("ace_high", "points"), [(False, 21), (True, 0)])
def test_gin_ace_high_is_an_option(ace_high: bool, points: int) -> None:
    assert solve("gin", "QS KS AS", ace_high=ace_high).deadwood_points == points


def test_no_wrap_around_even_with_ace_high() -> None:
    assert solve("gin", "KS AS 2S", ace_high=True).deadwood_points == 10 + 1 + 2
    assert solve("zoliky", "KS AS 2S").deadwood_points == 10 + 11 + 2


def test_ace_low_and_high_in_zoliky() -> None:
    assert solve("zoliky", "AS 2S 3S QH KH AH").deadwood_points == 0


def test_joker_takes_the_card_worth_most() -> None:
    result = solve("zoliky", "5H 6H JK 2C")
    assert result.melds == ((Card(5, 1), Card(6, 1), Card(0, 0, stands_for=Card(7, 1))),)
    assert result.deadwood_points == 2


def test_joker_at_the_low_end_when_the_top_is_full() -> None:
    result = solve("zoliky", "QD KD AD JK", half_jokers=True)
    assert result.deadwood_points == 0
    assert melds(result, "zoliky") == [["JK=JD", "QD", "KD", "AD"]]


def test_joker_in_a_gap() -> None:
    result = solve("carousel", "4C JK 6C 9D")
    assert melds(result, "carousel") == [["4C", "JK=5C", "6C"]]
    assert result.deadwood_points == 9


@pytest.mark.parametrize(("half", "points"), [(True, 5 + 15 + 15), (False, 0)])
def test_half_jokers_option(half: bool, points: int) -> None:
    # With groups limited too, only the run limit decides whether 5H JK JK melds.
    assert solve("zoliky", "5H JK JK", half_jokers=half, half_jokers_groups=True).deadwood_points == points


@pytest.mark.parametrize(("strict", "points"), [(False, 0), (True, 5 + 15 + 15)])
def test_half_jokers_groups_option(strict: bool, points: int) -> None:
    assert solve("zoliky", "5H JK JK", half_jokers_groups=strict).deadwood_points == points


def test_jokers_fill_a_group_by_the_source_rule() -> None:
    hand = "4H AS 6S 5C 5S 4S QD 7D AC 3H 7D JK JK JK"
    assert solve("zoliky", hand).deadwood_points == 26
    assert solve("zoliky", hand, half_jokers_groups=True).deadwood_points == 29


@pytest.mark.parametrize(("allowed", "points"), [(True, 2), (False, 2 + 3 * 15)])
def test_all_joker_group_option(allowed: bool, points: int) -> None:
    result = solve("zoliky", "JK JK JK 2C", all_joker_groups=allowed, half_jokers_groups=True)
    assert result.deadwood_points == points


def test_four_jokers_make_a_group_of_aces() -> None:
    result = solve("zoliky", "JK JK JK JK")
    assert result.deadwood_points == 0
    assert melds(result, "zoliky") == [["JK=AS", "JK=AH", "JK=AD", "JK=AC"]]


@pytest.mark.parametrize(("adjacent", "points"), [(True, 0), (False, 5)])
def test_adjacent_jokers_option(adjacent: bool, points: int) -> None:
    # 5H JK JK 8H needs jokers side by side; without that, JK 8H JK is the best run.
    result = solve("zoliky", "5H 8H JK JK", half_jokers=False, adjacent_jokers=adjacent)
    assert result.deadwood_points == points


def test_two_copies_of_a_card_never_share_a_group() -> None:
    assert solve("zoliky", "5H 5H 5S").deadwood_points == 15
    result = solve("zoliky", "5H 5H 5S 5D 5C")
    assert result.deadwood_points == 5 and len(result.melds) == 1


def test_two_copies_in_two_runs() -> None:
    result = solve("rummikub", "R3 R4 R5 R3 R4 R5")
    assert result.deadwood_points == 0 and len(result.melds) == 2


def test_rummikub_13_1_2_is_not_a_run() -> None:
    assert solve("rummikub", "K13 K1 K2").deadwood_points == 16
    assert melds(solve("rummikub", "K12 K13 JK"), "rummikub") == [["JK=K11", "K12", "K13"]]


def test_joker_values_per_family() -> None:
    assert solve("carousel", "JK 2C").deadwood_points == 25 + 2
    assert solve("rummikub", "JK R2").deadwood_points == 30 + 2
    assert solve("zoliky", "JK 2C", joker_penalty=50).deadwood_points == 50 + 2


def test_known_zoliky_hand_with_four_jokers() -> None:
    result = solve("zoliky", "AS 2S JK 5H 5D JK 9C 9C TC JC JK JK KD KH")
    # Four melds take the four jokers; one 9C is left over.
    assert result.deadwood_points == 9 and len(result.melds) == 4


def test_errors_are_engine_errors() -> None:
    rules = rule_set("zoliky")
    with pytest.raises(EngineError) as error:
        arrange([Card(5, 1)] * 3, rules)
    assert error.value.code == "too_many_copies"
    with pytest.raises(EngineError) as error:
        arrange([Card(0, 0), Card(5, 1)], rule_set("gin"))
    assert error.value.code == "no_jokers"
