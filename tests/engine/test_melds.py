"""Meld validation per family: kinds, points, joker identities and the error codes."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.melds import Meld, check_meld
from engine.messages import MESSAGES
from engine.notation import code, parse_hand
from engine.rules import RuleSet, rule_set

ZOLIKY = rule_set("zoliky")
GIN = rule_set("gin")
CAROUSEL = rule_set("carousel")
RUMMIKUB = rule_set("rummikub")
CARD_FAMILIES = [ZOLIKY, GIN, CAROUSEL]
TWO_DECKS = [ZOLIKY, CAROUSEL, RUMMIKUB]


def meld(text: str, rules: RuleSet) -> Meld:
    return check_meld(parse_hand(text, rules), rules)


def jokers(m: Meld, rules: RuleSet) -> dict[int, str]:
    return {pos: code(card, rules) for pos, card in m.jokers.items()}


def error(text: str, rules: RuleSet) -> EngineError:
    with pytest.raises(EngineError) as caught:
        meld(text, rules)
    return caught.value


def full_run(rules: RuleSet) -> str:
    """A (legal in two-deck games) 14-card run A..K plus a second ace, in the family's notation."""
    if rules.tiles:
        return " ".join(f"R{n}" for n in range(1, 14)) + " R1"
    return "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


# --- ace low and high, wrap-around, length -------------------------------------------------


@pytest.mark.parametrize("rules", CARD_FAMILIES, ids=lambda r: r.family)
def test_ace_low(rules: RuleSet) -> None:
    m = meld("3S AS 2S", rules)
    assert (m.kind, m.points, dict(m.jokers)) == ("run", 6, {})


@pytest.mark.parametrize(("rules", "points"), [(ZOLIKY, 31), (CAROUSEL, 31)], ids=["zoliky", "carousel"])
def test_ace_high_is_worth_eleven(rules: RuleSet, points: int) -> None:
    assert meld("QS KS AS", rules).points == points


def test_gin_ace_is_low_only_unless_the_option() -> None:
    assert error("QS KS AS", GIN).code == "ace_not_high"
    assert meld("QS KS AS", rule_set("gin", {"ace_high": "true"})).points == 21


def test_rummikub_one_is_low_only() -> None:
    assert meld("R1 R2 R3", RUMMIKUB).points == 6
    assert error("R12 R13 R1", RUMMIKUB).code == "ace_not_high"


@pytest.mark.parametrize(
    "rules", [*CARD_FAMILIES, rule_set("gin", {"ace_high": "1"})], ids=lambda r: r.family
)
def test_king_ace_two_wraps_around(rules: RuleSet) -> None:
    e = error("KS AS 2S", rules)
    assert e.code == "wraps_around"
    assert "K♠" in e.message


def test_rummikub_13_1_2_wraps_around() -> None:
    assert error("R13 R1 R2", RUMMIKUB).code == "wraps_around"
    assert error("R13 JK R1", RUMMIKUB).code == "ace_not_high"  # 12-13-1: the ace typed high


@pytest.mark.parametrize("text", ["R13 JK R2", "R12 R13 JK R2", "R13 JK JK R3"])
def test_rummikub_round_the_corner_without_an_ace(text: str) -> None:
    e = error(text, RUMMIKUB)
    assert e.code == "wraps_around"
    assert "round the corner from the king to the ace" in e.message
    assert error("B12 B13 B1 B2", RUMMIKUB).code == "wraps_around"


@pytest.mark.parametrize("rules", TWO_DECKS, ids=lambda r: r.family)
def test_fourteen_card_run_is_too_long(rules: RuleSet) -> None:
    e = error(full_run(rules), rules)
    assert e.code == "too_long"
    assert e.params == {"kind": "run", "maximum": 13, "count": 14}


def test_fourteen_card_run_in_gin_is_too_long() -> None:
    cards = [Card(r, 0) for r in range(1, 14)] + [Card(1, 0)]
    with pytest.raises(EngineError) as caught:
        check_meld(cards, GIN)
    assert caught.value.code == "too_long"


@pytest.mark.parametrize("rules", [ZOLIKY, CAROUSEL], ids=lambda r: r.family)
def test_thirteen_card_run_counts_the_ace_high(rules: RuleSet) -> None:
    # A..K holds every rank: read as 2..K-A the ace is worth 11, which is worth most.
    assert meld("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", rules).points == 54 + 30 + 11
    m = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK", rules)
    assert (m.points, jokers(m, rules)) == (54 + 30 + 11, {12: "KH"})
    m = meld("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JK", rules)  # 11 cards: A..J beats nothing higher
    assert (m.points, jokers(m, rules)) == (1 + 54 + 10, {10: "JH"})


# --- groups -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", TWO_DECKS, ids=lambda r: r.family)
def test_two_same_suit_cards_in_a_group(rules: RuleSet) -> None:
    text = "R5 R5 B5" if rules.tiles else "5H 5H 5S"
    e = error(text, rules)
    assert e.code == "duplicate_suit"
    assert e.params["card"] == ("R5" if rules.tiles else "5♥")


def test_group_ace_values() -> None:
    assert meld("AH AS AD", ZOLIKY).points == 33
    assert meld("AH AS AD", CAROUSEL).points == 33
    assert meld("AH AS AD", GIN).points == 3
    assert meld("KH KS KD KC", GIN).points == 40


@pytest.mark.parametrize("rules", TWO_DECKS, ids=lambda r: r.family)
def test_group_of_five_is_too_long(rules: RuleSet) -> None:
    text = "R5 B5 K5 Y5 JK" if rules.tiles else "5H 5S 5D 5C JK"
    e = error(text, rules)
    assert e.code == "too_long"
    assert e.params["kind"] == "group"


def test_group_joker_takes_a_missing_suit() -> None:
    m = meld("7H JK 7S", ZOLIKY)
    assert (m.kind, m.points, jokers(m, ZOLIKY)) == ("group", 21, {1: "7D"})
    m = meld("R7 JK B7", RUMMIKUB)
    assert (m.kind, m.points, jokers(m, RUMMIKUB)) == ("group", 21, {1: "K7"})


def test_mixed_cards() -> None:
    assert error("5H 6S 7H", ZOLIKY).code == "mixed_suits"
    assert error("5H 5S 7D", ZOLIKY).code == "mixed_ranks"
    assert error("R5 B6 R7", RUMMIKUB).code == "mixed_suits"
    assert error("2H 3H", ZOLIKY).code == "too_short"
    e = error("5H 9H JK", ZOLIKY)
    assert (e.code, e.params["jokers"]) == ("not_consecutive", 1)
    assert error("5H 5H 6H", ZOLIKY).code == "duplicate_rank"


# --- jokers -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ZOLIKY, CAROUSEL], ids=lambda r: r.family)
def test_ambiguous_joker_is_valued_at_its_best(rules: RuleSet) -> None:
    m = meld("JK 5H 6H", rules)
    assert (m.kind, m.points, jokers(m, rules)) == ("run", 18, {0: "7H"})


def test_ambiguous_joker_rummikub() -> None:
    m = meld("JK R5 R6", RUMMIKUB)
    assert (m.points, jokers(m, RUMMIKUB)) == (18, {0: "R7"})


@pytest.mark.parametrize("rules", TWO_DECKS, ids=lambda r: r.family)
def test_joker_at_either_end_of_a_run(rules: RuleSet) -> None:
    if rules.tiles:
        low = meld("JK R12 R13", rules)
        assert (low.points, jokers(low, rules)) == (36, {0: "R11"})
        high = meld("R1 R2 JK", rules)
        assert (high.points, jokers(high, rules)) == (6, {2: "R3"})
    else:
        low = meld("JK QH KH AH", rules)
        assert (low.points, jokers(low, rules)) == (41, {0: "JH"})
        high = meld("AH 2H JK", rules)
        assert (high.points, jokers(high, rules)) == (6, {2: "3H"})


def test_joker_next_to_the_king_prefers_the_high_ace() -> None:
    m = meld("JK QH KH", ZOLIKY)
    assert (m.points, jokers(m, ZOLIKY)) == (31, {0: "AH"})


def test_tie_takes_the_lowest_run() -> None:
    m = meld("JH QH JK", ZOLIKY)  # 10-J-Q and J-Q-K are both worth 30
    assert (m.points, jokers(m, ZOLIKY)) == (30, {2: "TH"})


def test_joker_in_a_gap_is_worth_the_card_it_replaces() -> None:
    m = meld("AH 2H JK 4H", ZOLIKY)  # the seed's example: the joker is the 3, worth 3
    assert (m.points, jokers(m, ZOLIKY)) == (10, {2: "3H"})


def test_several_jokers_take_the_missing_cards_in_order() -> None:
    m = meld("JK 5H JK 8H", CAROUSEL)
    assert jokers(m, CAROUSEL) == {0: "6H", 2: "7H"}
    assert m.points == 26


def test_declared_joker() -> None:
    m = meld("JK=4H 5H 6H", ZOLIKY)
    assert (m.points, jokers(m, ZOLIKY)) == (15, {0: "4H"})
    m = meld("7H 7S JK=7C", ZOLIKY)
    assert jokers(m, ZOLIKY) == {2: "7C"}


@pytest.mark.parametrize(
    ("text", "rules"),
    [("JK=9H 5H 6H", ZOLIKY), ("5H 5S JK=5H", ZOLIKY), ("5H 6H JK=5H", CAROUSEL), ("JK=B7 R8 R9", RUMMIKUB)],
)
def test_declared_joker_that_contradicts_the_meld(text: str, rules: RuleSet) -> None:
    e = error(text, rules)
    assert e.code == "joker_mismatch"
    assert e.params["position"] == text.split().index(next(t for t in text.split() if "=" in t))


def test_cards_keep_their_order() -> None:
    cards = parse_hand("JK 5H 6H", ZOLIKY)
    assert check_meld(cards, ZOLIKY).cards == tuple(cards)


# --- Žolíky joker house rules -------------------------------------------------------------


def test_half_jokers_on() -> None:
    e = error("5H 6H JK JK JK", ZOLIKY)  # five cards: a run, never a group
    assert (e.code, e.params) == ("too_many_jokers", {"jokers": 3, "count": 5})
    m = meld("JK 5H 6H JK", ZOLIKY)  # exactly half is allowed
    assert (m.points, jokers(m, ZOLIKY)) == (5 + 6 + 7 + 8, {0: "7H", 3: "8H"})


def test_groups_may_hold_any_number_of_jokers() -> None:
    # The source limits jokers only in a run: 5H JK JK is a group of fives, not a run.
    m = meld("5H JK JK", ZOLIKY)
    assert (m.kind, m.points, jokers(m, ZOLIKY)) == ("group", 15, {1: "5S", 2: "5D"})
    m = meld("AH JK JK JK", ZOLIKY)
    assert (m.kind, m.points, jokers(m, ZOLIKY)) == ("group", 44, {1: "AS", 2: "AD", 3: "AC"})
    e = error("JK=9H JK=TH JK 8H", ZOLIKY)  # declared as a run, the half limit holds
    assert e.code == "joker_mismatch"


def test_half_jokers_in_groups_house_rule() -> None:
    strict = rule_set("zoliky", {"half_jokers_groups": "on"})
    e = error("5H JK JK", strict)
    assert (e.code, e.params) == ("too_many_jokers", {"jokers": 2, "count": 3})
    assert meld("5H 5S JK JK", strict).kind == "group"
    assert meld("JK JK JK", strict).kind == "group"  # all-joker groups are their own rule


def test_half_jokers_off() -> None:
    rules = rule_set("zoliky", {"half_jokers": "off"})
    m = meld("5H 6H JK JK JK", rules)
    assert (m.points, jokers(m, rules)) == (35, {2: "7H", 3: "8H", 4: "9H"})
    m = meld("5H JK JK", rules)
    assert (m.kind, m.points) == ("run", 18)


def test_half_jokers_does_not_exist_outside_zoliky() -> None:
    m = meld("5H JK JK", CAROUSEL)
    assert (m.kind, m.points, jokers(m, CAROUSEL)) == ("run", 18, {1: "6H", 2: "7H"})
    for name in ("half_jokers", "half_jokers_groups"):
        with pytest.raises(EngineError) as caught:
            rule_set("carousel", {name: "false"})
        assert caught.value.code == "unknown_option"


def test_all_joker_group() -> None:
    m = meld("JK JK JK", ZOLIKY)
    assert (m.kind, m.points, jokers(m, ZOLIKY)) == ("group", 33, {0: "AS", 1: "AH", 2: "AD"})
    assert meld("JK JK JK JK", ZOLIKY).points == 44
    m = meld("JK=5H JK JK", ZOLIKY)
    assert (m.kind, m.points, jokers(m, ZOLIKY)) == ("group", 15, {0: "5H", 1: "5S", 2: "5D"})
    off = rule_set("zoliky", {"all_joker_groups": "no"})
    assert error("JK JK JK", off).code == "all_jokers"


def test_all_jokers_elsewhere() -> None:
    for rules in (CAROUSEL, RUMMIKUB):
        with pytest.raises(EngineError) as caught:
            check_meld([JOKER, JOKER, JOKER], rules)
        assert caught.value.code == "all_jokers"


def test_adjacent_jokers_option() -> None:
    off = rule_set("zoliky", {"adjacent_jokers": "false"})
    assert meld("2H 3H JK JK 6H", ZOLIKY).points == 20
    assert error("2H 3H JK JK 6H", off).code == "adjacent_jokers"
    m = meld("2H JK 4H JK 6H", off)
    assert jokers(m, off) == {1: "3H", 3: "5H"}
    # two jokers that could sit apart are placed apart
    m = meld("5H JK 7H JK", off)
    assert jokers(m, off) == {1: "6H", 3: "8H"}


def test_gin_rejects_jokers() -> None:
    with pytest.raises(EngineError) as caught:
        check_meld([Card(5, 1), Card(6, 1), JOKER], GIN)
    assert caught.value.code == "no_jokers"


# --- properties ---------------------------------------------------------------------------

ANY_CARD = st.builds(Card, st.integers(1, 13), st.integers(0, 3))
RUNISH = st.builds(
    lambda base, offsets, suit: [Card((base + o - 1) % 13 + 1, suit) for o in offsets],
    st.integers(1, 13),
    st.lists(st.integers(0, 5), min_size=1, max_size=4, unique=True),
    st.integers(0, 3),
)
GROUPISH = st.builds(
    lambda rank, suits: [Card(rank, s) for s in suits],
    st.integers(1, 13),
    st.lists(st.integers(0, 3), min_size=1, max_size=4),
)
NEAR_CARDS = st.one_of(
    RUNISH, GROUPISH, st.lists(st.builds(Card, st.integers(1, 13), st.integers(0, 1)), min_size=1, max_size=5)
)
EVERY_IDENTITY = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]
FAMILY_RULES = [
    ZOLIKY,
    CAROUSEL,
    RUMMIKUB,
    rule_set("zoliky", {"half_jokers": "false", "adjacent_jokers": "false"}),
    rule_set("gin", {"ace_high": "true"}),
]


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(
        st.one_of(ANY_CARD, st.just(JOKER), st.builds(lambda c: Card(0, 0, stands_for=c), ANY_CARD)),
        max_size=15,
    ),
    rules=st.sampled_from([*FAMILY_RULES, GIN]),
)
def test_check_meld_raises_only_engine_errors(cards: list[Card], rules: RuleSet) -> None:
    try:
        m = check_meld(cards, rules)
    except EngineError as e:
        assert MESSAGES[e.code].format(**e.params) == e.message
        return
    # a legal meld stays legal, with the same kind and points, when each joker is its card
    real = [m.jokers.get(i, card) for i, card in enumerate(cards)]
    again = check_meld(real, rules)
    assert (again.kind, again.points) == (m.kind, m.points)
    assert set(m.jokers) == {i for i, card in enumerate(cards) if card.is_joker}


@settings(max_examples=80, deadline=None)
@given(
    naturals=NEAR_CARDS,
    joker_count=st.integers(1, 2),
    where=st.randoms(use_true_random=False),
    rules=st.sampled_from(FAMILY_RULES[:4]),
)
def test_inferred_jokers_are_worth_the_most(
    naturals: list[Card], joker_count: int, where: random.Random, rules: RuleSet
) -> None:
    cards = naturals + [JOKER] * joker_count
    where.shuffle(cards)
    positions = [i for i, card in enumerate(cards) if card.is_joker]
    best: int | None = None
    for identities in itertools.product(EVERY_IDENTITY, repeat=joker_count):
        declared = list(cards)
        for pos, identity in zip(positions, identities, strict=True):
            declared[pos] = Card(0, 0, stands_for=identity)
        try:
            points = check_meld(declared, rules).points
        except EngineError:
            continue
        best = points if best is None else max(best, points)
    if best is None:
        with pytest.raises(EngineError):
            check_meld(cards, rules)
    else:
        assert check_meld(cards, rules).points == best
