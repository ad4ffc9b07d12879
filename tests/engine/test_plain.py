"""arrange's fast path for one deck without jokers (engine/plain.py: every gin hand), against
the general search and the brute-force reference."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrange import Arrangement, Hand, arrange, build, solve, solver_tables
from engine.cards import Card
from engine.errors import EngineError
from engine.melds import check_meld
from engine.notation import codes, parse_hand
from engine.rules import RuleSet, rule_set
from tests.engine.reference import least_deadwood

DECK = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
GIN, GIN_HIGH = rule_set("gin"), rule_set("gin", {"ace_high": True})
CAROUSEL_ONE = rule_set("carousel", {"decks": 1})  # ace low and high, one deck
ONE_DECK = [GIN, GIN_HIGH, CAROUSEL_ONE]


def general(cards: Sequence[Card], rules: RuleSet) -> Arrangement:
    """The general search, which every other hand takes."""
    tables = solver_tables(rules)
    hand = Hand(cards, rules)
    return build(tables, hand, solve(tables, hand))


@st.composite
def hands(draw: st.DrawFn, max_size: int = 13) -> list[Card]:
    """Cards of one deck, half the time from a few neighbouring ranks (dense: sets and runs
    overlap, aces at both ends)."""
    cards = DECK
    if draw(st.booleans()):
        start, width = draw(st.integers(1, 13)), draw(st.integers(3, 6))
        ranks = {(start + i - 1) % 13 + 1 for i in range(width)}
        cards = [c for c in DECK if c.rank in ranks]
    chosen = draw(st.lists(st.integers(0, len(cards) - 1), unique=True, max_size=max_size))
    return [cards[i] for i in chosen]


def check_shape(cards: Sequence[Card], result: Arrangement, rules: RuleSet) -> None:
    """Legal melds of the hand's cards, every card once, in the search's order."""
    laid = [c for meld in result.melds for c in meld] + list(result.deadwood)
    assert sorted(laid) == sorted(cards)
    for meld in result.melds:
        check_meld(meld, rules)
    index = [c.suit * 16 + c.rank for c in result.deadwood]
    assert index == sorted(index)
    lowest = [min(c.suit * 16 + c.rank for c in meld) for meld in result.melds]
    assert lowest == sorted(lowest)
    assert result.deadwood_points == sum(min(c.rank, 10) for c in result.deadwood)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(ONE_DECK), hands())
def test_same_deadwood_as_the_general_search(rules: RuleSet, cards: list[Card]) -> None:
    result = arrange(cards, rules)
    expected = general(cards, rules)
    assert result.deadwood_points == expected.deadwood_points
    assert len(result.deadwood) == len(expected.deadwood)  # the fewest cards among equals
    check_shape(cards, result, rules)
    one_deck = solver_tables(rules).one_deck
    assert one_deck is not None
    if one_deck.arrange(cards) is None:  # only an ace wanted at both ends goes the long way
        assert rules.ace_low and rules.ace_high


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ONE_DECK), hands(max_size=10))
def test_matches_reference(rules: RuleSet, cards: list[Card]) -> None:
    assert arrange(cards, rules).deadwood_points == least_deadwood(cards, rules)


def melds(text: str, rules: RuleSet = GIN) -> list[list[str]]:
    return [codes(meld, rules) for meld in arrange(parse_hand(text, rules), rules).melds]


def test_a_block_is_one_run() -> None:
    assert melds("8S 2S AS 4S 3S 5S 7S 6S") == [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]]


def test_a_group_card_splits_a_run() -> None:
    # The run 4S-8S stays whole and the group takes the other three sixes.
    assert melds("4S 5S 6S 6H 6D 6C 7S 8S") == [["4S", "5S", "6S", "7S", "8S"], ["6H", "6D", "6C"]]
    # Without 6C a group needs 6S, which would leave 4S 5S 7S 8S (24) rather than 6H 6D (12).
    result = arrange(parse_hand("4S 5S 6S 6H 6D 7S 8S", GIN), GIN)
    assert result.deadwood_points == 12 and codes(result.deadwood, GIN) == ["6H", "6D"]
    # With 9S as well, the group 6S 6H 6D leaves 4S 5S (9) and the run 7S 8S 9S.
    assert melds("4S 5S 6S 6H 6D 7S 8S 9S") == [["6S", "6H", "6D"], ["7S", "8S", "9S"]]


def test_equal_choices_take_the_groups() -> None:
    # Three runs or three groups, both gin: the groups (documented tie-break).
    assert melds("5S 6S 7S 5H 6H 7H 5D 6D 7D") == [["5S", "5H", "5D"], ["6S", "6H", "6D"], ["7S", "7H", "7D"]]


def test_deadwood_in_card_order_whatever_the_input_order() -> None:
    result = arrange(parse_hand("KD 2C 9S 4H AS", GIN), GIN)
    assert codes(result.deadwood, GIN) == ["AS", "9S", "4H", "KD", "2C"]
    assert result.melds == () and result.deadwood_points == 1 + 9 + 4 + 10 + 2


@pytest.mark.parametrize("rules", [GIN_HIGH, CAROUSEL_ONE])
def test_ace_high_run_and_an_ace_wanted_at_both_ends(rules: RuleSet) -> None:
    assert melds("AS KS QS", rules) == [["QS", "KS", "AS"]]  # by its lowest card, the ace
    # A-2-3-4 or Q-K-A + 2-3-4: the ace goes high (the general search settles this one).
    result = arrange(parse_hand("QS KS AS 2S 3S 4S", rules), rules)
    assert result.deadwood_points == 0
    assert [codes(m, rules) for m in result.melds] == [["QS", "KS", "AS"], ["2S", "3S", "4S"]]
    assert arrange(parse_hand("KS AS 2S", rules), rules).melds == ()  # no wrap-around


def test_ace_low_only_in_plain_gin() -> None:
    assert melds("QS KS AS") == []
    assert melds("AS 2S 3S QS KS") == [["AS", "2S", "3S"]]


def test_copies_and_jokers_go_the_long_way() -> None:
    with pytest.raises(EngineError) as error:
        arrange([Card(5, 1), Card(5, 1), Card(6, 1)], GIN)
    assert error.value.code == "too_many_copies"
    with pytest.raises(EngineError) as error:
        arrange([Card(0, 0), Card(5, 1)], GIN)
    assert error.value.code == "no_jokers"
    # Carousel with one deck has a joker: that hand is the general search's.
    result = arrange(parse_hand("5H 6H JK 2C", CAROUSEL_ONE), CAROUSEL_ONE)
    assert [codes(m, CAROUSEL_ONE, declared=True) for m in result.melds] == [["5H", "6H", "JK=7H"]]


def test_empty_hand() -> None:
    assert arrange([], GIN) == Arrangement((), (), 0)
