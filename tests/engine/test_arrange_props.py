"""Property tests: arrange() against the brute-force reference on random hands, jokers included."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrange import Arrangement, arrange
from engine.cards import JOKER, Card
from engine.melds import check_meld
from engine.rules import RuleSet, rule_set
from engine.values import hand_value
from tests.engine.reference import least_deadwood

MAX_CARDS = 9  # the reference tries every partition: keep it small


def pack(rules: RuleSet) -> list[Card]:
    return [Card(r, s) for s in range(4) for r in range(1, 14)] * rules.decks + [JOKER] * rules.jokers


@st.composite
def hands(draw: st.DrawFn, rules: RuleSet, max_size: int = MAX_CARDS) -> list[Card]:
    """Cards from the whole pack, or (half the time) from a few neighbouring ranks and suits,
    where melds and joker choices are dense."""
    cards = pack(rules)
    if draw(st.booleans()):
        start, width = draw(st.integers(1, 13)), draw(st.integers(3, 6))
        ranks = {(start + i - 1) % 13 + 1 for i in range(width)}
        suits = draw(st.sets(st.integers(0, 3), min_size=1))
        cards = [c for c in cards if c.is_joker or (c.rank in ranks and c.suit in suits)]
    chosen = draw(st.lists(st.integers(0, len(cards) - 1), unique=True, max_size=max_size))
    return [cards[i] for i in chosen]


zoliky_rules = st.builds(
    lambda half, groups, adjacent, penalty: rule_set(
        "zoliky",
        {
            "half_jokers": half,
            "all_joker_groups": groups,
            "adjacent_jokers": adjacent,
            "joker_penalty": penalty,
        },
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([15, 30, 50]),
)
gin_rules = st.builds(lambda high: rule_set("gin", {"ace_high": high}), st.booleans())
carousel_rules = st.builds(lambda decks: rule_set("carousel", {"decks": decks}), st.sampled_from([1, 2]))
rummikub_rules = st.builds(lambda pen: rule_set("rummikub", {"joker_penalty": pen}), st.sampled_from([0, 30]))


def plain(card: Card) -> tuple[int, int]:
    return (0, 0) if card.is_joker else (card.rank, card.suit)


def check_against_reference(cards: Sequence[Card], rules: RuleSet) -> Arrangement:
    result = arrange(cards, rules)
    assert result.deadwood_points == least_deadwood(cards, rules), (cards, result)
    assert result.deadwood_points == hand_value(result.deadwood, rules)
    laid = [c for meld in result.melds for c in meld]
    assert Counter(map(plain, laid + list(result.deadwood))) == Counter(map(plain, cards))
    for meld in result.melds:
        checked = check_meld(meld, rules)  # raises if illegal
        for pos, card in enumerate(meld):
            if card.is_joker:
                assert card.stands_for is not None
                assert checked.jokers[pos] == card.stands_for
    return result


@settings(max_examples=300, deadline=None)
@given(st.data(), zoliky_rules)
def test_zoliky_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    check_against_reference(data.draw(hands(rules)), rules)


@settings(max_examples=200, deadline=None)
@given(st.data(), gin_rules)
def test_gin_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    check_against_reference(data.draw(hands(rules, max_size=11)), rules)


@settings(max_examples=200, deadline=None)
@given(st.data(), carousel_rules)
def test_carousel_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    check_against_reference(data.draw(hands(rules)), rules)


@settings(max_examples=200, deadline=None)
@given(st.data(), rummikub_rules)
def test_rummikub_matches_reference(data: st.DataObject, rules: RuleSet) -> None:
    check_against_reference(data.draw(hands(rules)), rules)


@settings(max_examples=100, deadline=None)
@given(st.data(), zoliky_rules)
def test_result_does_not_depend_on_card_order(data: st.DataObject, rules: RuleSet) -> None:
    cards = data.draw(hands(rules, max_size=14))
    shuffled = data.draw(st.permutations(cards))
    first, second = arrange(cards, rules), arrange(shuffled, rules)
    assert [list(map(plain, m)) for m in first.melds] == [list(map(plain, m)) for m in second.melds]
    assert [c.stands_for for m in first.melds for c in m] == [c.stands_for for m in second.melds for c in m]
    assert list(map(plain, first.deadwood)) == list(map(plain, second.deadwood))
