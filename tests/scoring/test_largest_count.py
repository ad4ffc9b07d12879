"""A count no hand can hold is refused, and the most a hand can hold is accepted.

The maximum is checked against an exhaustive search over the pack: every way to hold the
family's largest hand, by how many cards of each value it takes."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from engine.cards import JOKER, Card
from engine.notation import code
from engine.rules import RuleSet, rule_set
from engine.values import card_value, largest_count
from scoring.errors import ScoringError
from scoring.game import score_game

RULE_SETS = [
    rule_set("zoliky"),
    rule_set("zoliky", {"joker_penalty": 50}),
    rule_set("zoliky", {"hand_size": 10, "joker_penalty": 30}),
    rule_set("gin"),
    rule_set("carousel"),
    rule_set("carousel", {"decks": 1, "joker_value": 0}),
    rule_set("rummikub"),
    rule_set("rummikub", {"joker_penalty": 0}),
]


def pack(rules: RuleSet) -> list[Card]:
    cards = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)] * rules.decks
    return cards + [JOKER] * rules.jokers


def most_held(rules: RuleSet) -> int:
    """The most a hand of ``rules.largest_hand`` cards of the pack can be worth, over every
    choice of how many cards of each value it holds."""
    kinds = sorted(Counter(card_value(c, rules) for c in pack(rules)).items())

    @cache
    def best(index: int, room: int) -> int | None:
        if index == len(kinds):
            return 0 if room == 0 else None
        value, have = kinds[index]
        found = [
            value * take + rest
            for take in range(min(have, room) + 1)
            if (rest := best(index + 1, room - take)) is not None
        ]
        return max(found) if found else None

    result = best(0, rules.largest_hand)
    assert result is not None
    return result


def best_hand(rules: RuleSet) -> list[Card]:
    return sorted(pack(rules), key=lambda c: card_value(c, rules), reverse=True)[: rules.largest_hand]


def left_outcome(rules: RuleSet, count: object) -> tuple[list[str], dict[str, object]]:
    if rules.family == "gin":
        return ["Ann", "Bob"], {"knocker": "Ann", "deadwood": {"Ann": 0, "Bob": count}, "gin": True}
    if rules.family == "zoliky":
        return ["Ann", "Bob", "Cid"], {"closer": "Bob", "left": {"Ann": 12, "Cid": count}}
    if rules.family == "carousel":
        return ["Ann", "Bob"], {"knocker": None, "out": "Bob", "left": {"Ann": count}}
    return ["Ann", "Bob"], {"winner": "Bob", "left": {"Ann": count}}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.family}-{r.largest_hand}")
def test_the_largest_count_is_the_pack_s_best_hand(rules: RuleSet) -> None:
    assert largest_count(rules) == most_held(rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.family}-{r.largest_hand}")
def test_the_largest_count_is_accepted_and_one_more_refused(rules: RuleSet) -> None:
    maximum = largest_count(rules)
    players, held = left_outcome(rules, maximum)
    score_game(rules=rules, players=players, hands=[held], ended=True)
    cards = " ".join(code(c, rules) for c in best_hand(rules))
    players, typed = left_outcome(rules, cards)
    score_game(rules=rules, players=players, hands=[typed], ended=True)
    players, over = left_outcome(rules, maximum + 1)
    with pytest.raises(ScoringError) as caught:
        score_game(rules=rules, players=players, hands=[over], ended=True)
    assert caught.value.code == "count_too_high"
    assert caught.value.params["maximum"] == maximum


def test_a_zoliky_count_of_two_thousand_is_refused() -> None:
    # Three players, Bob closes, Ann 12, Cid 2000: Cid would be out after one hand.
    with pytest.raises(ScoringError) as caught:
        score_game(
            rules=rule_set("zoliky"),
            players=["Ann", "Bob", "Cid"],
            hands=[{"closer": "Bob", "left": {"Ann": 12, "Cid": 2000}}],
        )
    error = caught.value
    assert (error.code, error.params["player"], error.params["maximum"]) == ("count_too_high", "Cid", 168)
    assert "no hand can hold more than 168" in error.message
