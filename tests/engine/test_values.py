"""Penalty values of cards left in hand, per family, and the value of cards inside melds."""

from __future__ import annotations

import pytest

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.notation import parse_hand
from engine.rules import rule_set
from engine.values import ACE_HIGH, card_value, hand_value, slot_value


@pytest.mark.parametrize(
    ("family", "hand", "points"),
    [
        ("zoliky", "AS 2H 9D TC JS QH KD", 11 + 2 + 9 + 10 + 30),
        ("zoliky", "JK", 15),
        ("gin", "AS 2H 9D TC JS QH KD", 1 + 2 + 9 + 10 + 30),
        ("carousel", "AS 2H 9D TC JS QH KD", 1 + 2 + 9 + 10 + 30),
        ("carousel", "JK", 25),
        ("rummikub", "R1 B9 K13 Y12", 1 + 9 + 13 + 12),
        ("rummikub", "JK R2", 32),
    ],
)
def test_hand_values(family: str, hand: str, points: int) -> None:
    rules = rule_set(family)
    assert hand_value(parse_hand(hand, rules), rules) == points


def test_joker_penalty_options() -> None:
    assert card_value(JOKER, rule_set("zoliky", {"joker_penalty": "30"})) == 30
    assert card_value(JOKER, rule_set("zoliky", {"joker_penalty": 50})) == 50
    assert card_value(JOKER, rule_set("carousel", {"joker_value": "20"})) == 20
    assert card_value(JOKER, rule_set("rummikub", {"joker_penalty": "50"})) == 50


def test_empty_hand_is_worth_nothing() -> None:
    assert hand_value([], rule_set("zoliky")) == 0


def test_gin_has_no_joker_value() -> None:
    with pytest.raises(EngineError) as caught:
        card_value(JOKER, rule_set("gin"))
    assert caught.value.code == "no_jokers"


def test_ace_inside_melds() -> None:
    zoliky, gin, rummikub = rule_set("zoliky"), rule_set("gin"), rule_set("rummikub")
    assert slot_value(1, zoliky, in_group=False) == 1
    assert slot_value(ACE_HIGH, zoliky, in_group=False) == 11
    assert slot_value(1, zoliky, in_group=True) == 11
    assert slot_value(1, gin, in_group=True) == 1
    assert slot_value(ACE_HIGH, gin, in_group=False) == 1
    assert slot_value(13, rummikub, in_group=False) == 13
    assert card_value(Card(13, 0), gin) == 10
