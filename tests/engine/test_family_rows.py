"""The engine reads a family's row, never its name: each shipped row registered again under
another key plays exactly as the original (melds, laydowns, values, the best arrangement and the
best opening), and the registry's lists follow what is registered."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrange import arrange
from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.laydown import check_laydown
from engine.melds import check_meld
from engine.notation import parse_hand, parse_melds
from engine.opening import best_opening
from engine.rules import (
    CAROUSEL,
    FAMILIES,
    GIN,
    OPTIONS,
    RUMMIKUB,
    ZOLIKY,
    FamilyRules,
    RuleSet,
    register_rules,
    rule_set,
    unregister_rules,
)
from engine.values import card_value, slot_value

ROWS = [ZOLIKY, GIN, CAROUSEL, RUMMIKUB]
CARD_MELDS = [
    "JK 5H 6H JK",
    "5H JK JK",
    "JK JK JK",
    "JK JK 7H 8H",
    "AS 2S 3S",
    "QS KS AS",
    "KS AS 2S",
    "7H 7D 7C 7S",
    "7H 7D 7C 7S 7H",
    "JK 9S",
]
CARD_LAYDOWNS = ["AS 2S 3S | QH QD QC", "2S 3S 4S", "JK 5H 6H | KS KD KC | AH AD AC", "9H TH JH QH"]
TILE_MELDS = ["R1 R2 R3", "JK R5 R6", "K12 K13 K1", "B7 R7 Y7 K7", "JK JK R3", "Y10 Y11 Y12 Y13"]
TILE_LAYDOWNS = ["R10 R11 R12", "B1 B2 B3 | K9 B9 R9", "JK Y12 Y13 | R4 R5 R6"]


def _result(play: Callable[[str], object], text: str) -> object:
    try:
        return play(text)
    except EngineError as error:
        return ("error", error.code, dict(error.params))


def _played(rules: RuleSet) -> list[object]:
    melds, laydowns = (TILE_MELDS, TILE_LAYDOWNS) if rules.tiles else (CARD_MELDS, CARD_LAYDOWNS)

    def meld(text: str) -> object:
        return check_meld(parse_hand(text, rules), rules)

    def arranged(text: str) -> object:
        return arrange(parse_hand(text, rules), rules)

    def laydown(text: str) -> object:
        return check_laydown(parse_melds(text, rules), rules)

    def opening(text: str) -> object:
        return best_opening([c for m in parse_melds(text, rules) for c in m], rules)

    def joker(_text: str) -> object:
        return card_value(JOKER, rules)

    played: list[object] = [_result(play, text) for text in melds for play in (meld, arranged)]
    played.extend(_result(play, text) for text in laydowns for play in (laydown, opening))
    played.append(_result(joker, ""))
    played.extend(card_value(Card(rank, 0), rules) for rank in range(1, 14))
    played.extend(slot_value(rank, rules, in_group=group) for rank in range(1, 15) for group in (False, True))
    return played


@pytest.fixture
def twin() -> Iterator[Callable[[FamilyRules], str]]:
    added: list[str] = []

    def register(row: FamilyRules) -> str:
        key = f"{row.key}_twin"
        register_rules(replace(row, key=key))
        added.append(key)
        return key

    yield register
    for key in added:
        unregister_rules(key)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.key)
def test_a_row_under_another_name_plays_exactly_as_the_family(
    row: FamilyRules, twin: Callable[[FamilyRules], str]
) -> None:
    key = twin(row)
    assert key in FAMILIES and list(OPTIONS[key]) == list(OPTIONS[row.key])
    original, copy = rule_set(row.key), rule_set(key)
    assert replace(copy, family=row.key) == original
    assert _played(copy) == _played(original)


@settings(max_examples=25, deadline=None)
@given(
    row=st.sampled_from(ROWS),
    choice=st.data(),
)
def test_the_same_house_rules_play_the_same_under_either_name(
    row: FamilyRules, choice: st.DataObject
) -> None:
    options: dict[str, object] = {}
    for option in row.options:
        if isinstance(option.default, bool):
            options[option.name] = choice.draw(st.booleans())
    if row.key == "zoliky" and options.get("flush"):
        options["hand_size"] = 10
    key = f"{row.key}_twin"
    register_rules(replace(row, key=key))
    try:
        assert _played(rule_set(key, options)) == _played(rule_set(row.key, options))
    finally:
        unregister_rules(key)


def test_an_unregistered_family_is_unknown_again() -> None:
    register_rules(replace(GIN, key="gin_twin"))
    unregister_rules("gin_twin")
    assert "gin_twin" not in FAMILIES and "gin_twin" not in OPTIONS
    with pytest.raises(EngineError) as unknown:
        rule_set("gin_twin")
    assert unknown.value.code == "unknown_family"
