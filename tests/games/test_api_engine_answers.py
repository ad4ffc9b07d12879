"""What the engine API and a game's arrange and rules answers are built from: the engine's
operations without a game (games/engine_answers.py), the solver's opening (games/solver.py)
and what a rules page shows (games/text/rules.rules_shown). None of them reads the database."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from engine.cards import Card
from engine.errors import EngineError
from engine.notation import code, codes, parse_hand
from engine.rules import rule_set
from games.engine_answers import (
    MAX_GIN_HAND,
    Layoff,
    arrange_hand,
    check_melds,
    defend,
    value_cards,
)
from games.solver import TooManyCards, opening_check
from games.text.rules import rules_shown

GIN = rule_set("gin")
ZOLIKY = rule_set("zoliky")
RUMMIKUB = rule_set("rummikub")


# ---------------------------------------------------------------- check_melds


def test_check_melds_every_meld_then_the_laydown() -> None:
    checked = check_melds("AS 2S 3S 4S | QH QD QC | KH KD KC", ZOLIKY, opening=True)
    assert checked.ok and checked.refusal is None
    assert checked.laydown is not None and checked.laydown.points == 70
    assert [row.index for row in checked.melds] == [1, 2, 3]
    assert all(row.ok and row.error is None for row in checked.melds)
    assert [row.meld.kind for row in checked.melds if row.meld is not None] == ["run", "group", "group"]


def test_a_refused_meld_is_kept_with_its_cards_and_names_the_refusal() -> None:
    checked = check_melds("AS 2S 3S | 7H 8D 9C | ZZ", GIN, opening=False)
    assert not checked.ok and checked.laydown is None
    first, second, third = checked.melds
    assert first.ok and first.jokers == {}
    assert not second.ok and second.meld is None and second.jokers == {}
    assert codes(second.cards, GIN) == ["7H", "8D", "9C"]
    assert second.error is not None and second.error.code == "mixed_suits"
    assert third.cards == () and third.error is not None and third.error.code == "bad_token"
    assert checked.refusal is not None
    assert checked.refusal.meld == 2 and checked.refusal.error is second.error


def test_the_laydown_as_a_whole_may_be_refused() -> None:
    checked = check_melds("AS 2S 3S | QH QD QC", ZOLIKY, opening=True)
    assert all(row.ok for row in checked.melds) and not checked.ok
    assert checked.refusal is not None and checked.refusal.meld is None
    assert checked.refusal.error.code == "opening_too_low"
    assert check_melds("AS 2S 3S | QH QD QC", ZOLIKY, opening=False).ok


def test_check_melds_jokers_and_a_flush() -> None:
    run = check_melds("JK 5H 6H", ZOLIKY, opening=False).melds[0]
    assert {pos: code(card, ZOLIKY) for pos, card in run.jokers.items()} == {0: "7H"}
    flush_rules = rule_set("zoliky", {"flush": True, "hand_size": 10})
    flush = check_melds("AS 3S 5S 7S 9S KS QS 2S 2S 4S", flush_rules, opening=True)
    assert flush.ok and flush.melds[0].meld is not None and flush.melds[0].meld.kind == "flush"
    # A flush stands alone: beside another meld its cards are read as one run.
    beside = check_melds("AS 3S 5S 7S 9S KS QS 2S 2S 4S | 7H 8H 9H", flush_rules, opening=True)
    assert not beside.melds[0].ok


# ---------------------------------------------------------------- value, arrange, layoffs


def test_value_cards() -> None:
    valued = value_cards("KH 5S JK", ZOLIKY)
    assert codes(valued.cards, ZOLIKY) == ["KH", "5S", "JK"] and valued.points == 10 + 5 + 15


def test_arrange_hand_asks_what_the_family_asks() -> None:
    gin = arrange_hand("AS 2S 3S 4S 5H 5D 5C 7H 8H 9H KD", GIN)
    assert gin.knock is not None and gin.opening is None
    assert gin.knock.can_knock and gin.knock.gin and gin.knock.discard == Card(13, 2)
    assert arrange_hand("AS 2S 3S 4S 5H 5D 5C 7H 8H", GIN).knock is None  # nine cards
    zoliky = arrange_hand("AS 2S 3S QH QD QC 7H 8H 9H JK 5C", ZOLIKY)
    assert zoliky.knock is None and zoliky.opening is not None
    assert codes(zoliky.cards, ZOLIKY) == "AS 2S 3S QH QD QC 7H 8H 9H JK 5C".split()
    carousel = arrange_hand("AS 2S 3S 4S 5H 5D", rule_set("carousel"))
    assert carousel.knock is None and carousel.opening is None


def test_arrange_hand_bounds_the_hand() -> None:
    tiles = " ".join(f"{colour}{n}" for colour in "RBKY" for n in range(1, 7))
    assert len(arrange_hand(tiles, RUMMIKUB).cards) == RUMMIKUB.solver_max
    with pytest.raises(TooManyCards) as error:
        arrange_hand(tiles + " R7", RUMMIKUB)
    assert error.value.maximum == RUMMIKUB.solver_max


def test_defend_lays_off_onto_the_knockers_melds() -> None:
    defence = defend("JS QS KS | 4H 4D 4C", "TS 9S 4S 2D 3D 5H 7C 8C KD KH", GIN, against_gin=False)
    assert [(code(layoff.card, GIN), layoff.meld) for layoff in defence.layoffs][:2] == [("TS", 0), ("9S", 0)]
    assert all(isinstance(layoff, Layoff) for layoff in defence.layoffs)
    assert defence.layoffs == defence.result.layoffs  # the engine's pairs, read by name
    against_gin = defend("JS QS KS | 4H 4D 4C", "TS 9S 4S 2D", GIN, against_gin=True)
    assert against_gin.layoffs == () and against_gin.result.deadwood_points == 10 + 9 + 4 + 2


def test_defend_bounds_the_hand_and_checks_the_knocker() -> None:
    with pytest.raises(TooManyCards) as error:
        defend("JS QS KS", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS AH 2H", GIN, against_gin=False)
    assert error.value.maximum == MAX_GIN_HAND == 11
    with pytest.raises(EngineError) as refused:
        defend("JS QH KS", "TS", GIN, against_gin=False)
    assert refused.value.code == "mixed_suits"


# ---------------------------------------------------------------- the solver's opening


def test_opening_check_names_its_melds_and_reason() -> None:
    found = opening_check(parse_hand("AS 2S 3S 4S QH QD QC KH KD KC 9D", ZOLIKY), ZOLIKY)
    assert found.possible and found.reason is None and found.error is None
    assert [points for _cards, points in found.melds] == [meld.points for meld in found.melds]
    assert found.meld_cards == tuple(meld.cards for meld in found.melds)
    with_joker = opening_check(parse_hand("QH QD JK KH KD KC 2S 3S 4S", ZOLIKY), ZOLIKY)
    assert any("JK=" in c for cards in with_joker.meld_cards for c in codes(cards, ZOLIKY, declared=True))
    none = opening_check(parse_hand("QH QD QC KH KD KC 9S 9D 9C", ZOLIKY), ZOLIKY)
    assert not none.possible and none.reason == "no_pure_run" and none.meld_cards == ()


# ---------------------------------------------------------------- rules_shown


@pytest.mark.django_db
def test_rules_shown_reads_nothing(django_assert_num_queries: Any) -> None:
    rules = rule_set("zoliky", {"joker_penalty": 30})
    with translation.override("en"), django_assert_num_queries(0):
        shown = rules_shown(rules, 12)
    assert shown.family == "zoliky" and shown.hand_limit == 12 and shown.how
    penalty = next(rule for rule in shown.rules if rule.name == "joker_penalty")
    assert penalty.raw == 30 and penalty.usual == 15 and penalty.changed
    assert shown.example is not None and shown.example.said
    assert [row.name for row in shown.example.rows]


def test_rules_shown_without_an_example_the_rules_cannot_play() -> None:
    with translation.override("en"):
        shown = rules_shown(rule_set("gin", {"knock_limit": 0}))
    assert shown.example is None and shown.hand_limit == 0 and shown.rules
