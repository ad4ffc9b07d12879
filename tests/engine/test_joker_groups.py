"""Žolíky's jokers in groups, against a reference that reads the rules without the engine.

By the source rule a group may hold any number of jokers and only a run is limited to half;
the stricter reading (``half_jokers_groups``) limits groups too. Hands hold 3-4 jokers, where
the two readings part.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrange import arrange
from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.melds import check_meld
from engine.rules import RuleSet, rule_set
from tests.engine.reference import least_deadwood, legal_meld

readings = st.builds(
    lambda strict, half, groups, adjacent: rule_set(
        "zoliky",
        {
            "half_jokers_groups": strict,
            "half_jokers": half,
            "all_joker_groups": groups,
            "adjacent_jokers": adjacent,
        },
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@st.composite
def naturals(draw: st.DrawFn, most: int) -> list[Card]:
    """Up to ``most`` cards (two decks), half the time from a few neighbouring ranks and suits."""
    cards = [Card(r, s) for s in range(4) for r in range(1, 14)] * 2
    if draw(st.booleans()):
        start, width = draw(st.integers(1, 13)), draw(st.integers(2, 5))
        ranks = {(start + i - 1) % 13 + 1 for i in range(width)}
        suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=3))
        cards = [c for c in cards if c.rank in ranks and c.suit in suits]
    chosen = draw(st.lists(st.integers(0, len(cards) - 1), unique=True, max_size=most))
    return [cards[i] for i in chosen]


def legal(cards: list[Card], rules: RuleSet) -> bool:
    try:
        check_meld(cards, rules)
    except EngineError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(st.data(), readings, st.integers(1, 4))
def test_meld_check_matches_the_rules(data: st.DataObject, rules: RuleSet, jokers: int) -> None:
    cards = data.draw(naturals(most=5)) + [JOKER] * jokers
    cards = data.draw(st.permutations(cards))
    assert legal(cards, rules) == legal_meld(cards, rules), cards


@settings(max_examples=250, deadline=None)
@given(st.data(), readings, st.integers(3, 4))
def test_least_deadwood_matches_the_rules(data: st.DataObject, rules: RuleSet, jokers: int) -> None:
    cards = data.draw(naturals(most=6)) + [JOKER] * jokers
    cards = data.draw(st.permutations(cards))
    result = arrange(cards, rules)
    assert result.deadwood_points == least_deadwood(cards, rules, independent=True), cards
    for meld in result.melds:
        assert legal_meld([JOKER if c.is_joker else c for c in meld], rules), meld
