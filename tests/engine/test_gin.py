"""Gin: knock check with the best discard, and the defender's layoffs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import EngineError
from engine.gin import knock_check, layoff
from engine.melds import check_meld
from engine.notation import codes, parse_hand, parse_melds
from engine.rules import RuleSet, rule_set
from tests.engine.reference import least_after_discard, least_after_layoffs

GIN = rule_set("gin")


def hand(text: str) -> list[Card]:
    return parse_hand(text, GIN)


def test_eleven_cards_discard_to_gin() -> None:
    result = knock_check(hand("AS 2S 3S 4S 5H 5D 5C KH QH JH 9C"), GIN)
    assert result.gin and result.can_knock
    assert result.discard == Card(9, 3)
    assert result.arrangement.deadwood == ()
    assert sum(map(len, result.arrangement.melds)) == 10


def test_eleven_cards_knock_with_best_discard() -> None:
    result = knock_check(hand("AS 2S 3S 5H 5D 5C JH QH KH 4D 9C"), GIN)
    assert result.discard == Card(9, 3)
    assert result.can_knock and not result.gin
    assert codes(result.arrangement.deadwood, GIN) == ["4D"]
    assert result.arrangement.deadwood_points == 4


def test_discard_may_come_out_of_a_meld() -> None:
    # All eleven cards are melded: throwing away an end of the five-card run keeps gin.
    result = knock_check(hand("AS 2S 3S 4S 5S 6H 6D 6C KH QH JH"), GIN)
    assert result.gin
    assert result.discard in (Card(1, 0), Card(5, 0))


def test_eleven_cards_too_much_deadwood() -> None:
    result = knock_check(hand("AS 2S 3S 7D 8C 9H TS JS QS KD 2D"), GIN)
    assert result.discard == Card(13, 2)
    assert result.arrangement.deadwood_points == 2 + 7 + 8 + 9
    assert not result.can_knock and not result.gin


def test_ten_cards_as_they_are() -> None:
    result = knock_check(hand("AS 2S 3S 5H 5D 5C JH QH KH 9C"), GIN)
    assert result.discard is None
    assert result.can_knock and result.arrangement.deadwood_points == 9
    assert not knock_check(
        hand("AS 2S 3S 5H 5D 5C JH QH KH 9C"), rule_set("gin", {"knock_limit": 8})
    ).can_knock


def test_chained_layoffs_ten_then_nine() -> None:
    knocker = parse_melds("JS QS KS | 4H 4D 4C", GIN)
    result = layoff(knocker, hand("TS 9S 2C 5H 7D KH QD 8C 3H 6D"), GIN)
    assert [(codes([c], GIN)[0], i) for c, i in result.layoffs] == [("TS", 0), ("9S", 0)]
    assert result.melds == ()
    assert result.deadwood_points == 2 + 5 + 7 + 10 + 10 + 8 + 3 + 6


def test_defender_breaks_his_own_meld_to_lay_off() -> None:
    # Own melds only: 6S 7S 8S (or 7S 7H 7D) leaves 43. Laying 8S onto 9S TS JS and
    # grouping 7S 7H 7D leaves 6S and the junk: 35.
    knocker = parse_melds("9S TS JS | 2H 3H 4H", GIN)
    cards = hand("6S 7S 8S 7H 7D KC QD 2C 3D 5H")
    result = layoff(knocker, cards, GIN)
    assert [(codes([c], GIN)[0], i) for c, i in result.layoffs] == [("8S", 0), ("5H", 1)]
    assert codes(result.melds[0], GIN) == ["7S", "7H", "7D"]
    assert result.deadwood_points == 6 + 10 + 10 + 2 + 3


def test_nothing_is_laid_off_against_gin() -> None:
    knocker = parse_melds("9S TS JS | 2H 3H 4H", GIN)
    cards = hand("6S 7S 8S 7H 7D KC QD 2C 3D 5H")
    result = layoff(knocker, cards, GIN, against_gin=True)
    assert result.layoffs == ()
    assert result.deadwood_points == 14 + 10 + 10 + 2 + 3 + 5


def test_layoffs_at_both_ends_in_playing_order() -> None:
    knocker = parse_melds("5S 6S 7S", GIN)
    result = layoff(knocker, hand("4S 3S 8S 9S KD"), GIN)
    assert [codes([c], GIN)[0] for c, _ in result.layoffs] == ["4S", "3S", "8S", "9S"]
    assert result.deadwood_points == 10


def test_layoff_onto_a_group_and_ace_high() -> None:
    knocker = parse_melds("4H 4D 4C | JS QS KS", GIN)
    result = layoff(knocker, hand("4S AS"), GIN)
    assert [(codes([c], GIN)[0], i) for c, i in result.layoffs] == [("4S", 0)]
    assert result.deadwood_points == 1
    high = rule_set("gin", {"ace_high": True})
    result = layoff(parse_melds("4H 4D 4C | JS QS KS", high), parse_hand("4S AS", high), high)
    assert result.deadwood_points == 0


def test_layoff_rejects_a_card_held_by_both() -> None:
    with pytest.raises(EngineError) as error:
        layoff(parse_melds("JS QS KS", GIN), hand("KS 2C"), GIN)
    assert error.value.code == "too_many_copies"


DECK = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
gin_rules = st.sampled_from([GIN, rule_set("gin", {"ace_high": True})])


@settings(max_examples=50, deadline=None)
@given(st.data(), gin_rules)
def test_knock_check_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    pack = DECK[:26] if data.draw(st.booleans()) else DECK  # two suits: melds are dense
    cards = data.draw(st.lists(st.sampled_from(pack), unique=True, min_size=11, max_size=11))
    result = knock_check(cards, rules)
    assert result.arrangement.deadwood_points == least_after_discard(cards, rules)
    assert result.discard is not None
    rest = list(cards)
    rest.remove(result.discard)
    shown = [c for m in result.arrangement.melds for c in m] + list(result.arrangement.deadwood)
    assert sorted(shown) == sorted(rest)


@settings(max_examples=60, deadline=None)
@given(st.data(), gin_rules)
def test_layoff_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    # A few cards of two suits around one knocker run and one knocker group.
    pool = [Card(r, s) for s in (0, 1) for r in range(1, 14)]
    start = data.draw(st.integers(1, 11))
    run = [Card(r, 0) for r in range(start, start + 3)]
    rank = data.draw(st.sampled_from([r for r in range(1, 14) if not start <= r < start + 3]))
    group = [Card(rank, s) for s in (0, 1, 2)]
    free = [c for c in [*pool, Card(rank, 3)] if c not in run and c not in group]
    cards = data.draw(st.lists(st.sampled_from(free), unique=True, min_size=1, max_size=7))
    result = layoff([run, group], cards, rules)
    assert result.deadwood_points == least_after_layoffs([run, group], cards, rules)
    melds = [list(run), list(group)]
    for card, index in result.layoffs:  # each layoff is legal in the order given
        melds[index].append(card)
        check_meld(melds[index], rules)
    for meld in result.melds:
        check_meld(meld, rules)
    laid = [c for c, _ in result.layoffs] + [c for m in result.melds for c in m] + list(result.deadwood)
    assert sorted(laid) == sorted(cards)


def test_knock_check_with_jokers_tries_every_discard() -> None:
    # Not a gin situation (gin has no jokers), but the function serves any family.
    rules = rule_set("carousel")
    cards = parse_hand("5H 6H JK 9C 9D 9S 2C 3C 4C KD QS", rules)
    result = knock_check(cards, rules)
    assert result.arrangement.deadwood_points == least_after_discard(cards, rules) == 10
    assert result.discard is not None and result.discard.rank in (12, 13)
