"""Cards typed in each language's letters (engine.notation.NOTATIONS)."""

from __future__ import annotations

import pytest

from engine.cards import RANKS, SUITS, Card
from engine.errors import EngineError
from engine.notation import NOTATIONS, code, in_codes, notation_for, parse_hand, parse_token, write
from engine.rules import FAMILIES, rule_set

CARD_FAMILIES = [family for family in FAMILIES if not rule_set(family).tiles]


def _pack(family: str) -> list[Card]:
    rules = rule_set(family)
    cards = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    return cards + ([Card(0, 0)] if rules.jokers else [])


@pytest.mark.parametrize("language", sorted(NOTATIONS))
@pytest.mark.parametrize("family", FAMILIES)
def test_every_card_of_every_pack_reads_back_in_every_language(family: str, language: str) -> None:
    rules = rule_set(family)
    notation = NOTATIONS[language]
    for card in _pack(family):
        typed = write(card, rules, notation)
        for spelling in {typed, typed.lower(), typed.upper()}:
            assert parse_token(spelling, rules, notation) == card, (language, spelling)
        assert in_codes(typed, rules, notation) == code(card, rules)


@pytest.mark.parametrize("language", sorted(NOTATIONS))
def test_every_spelling_of_a_notation_reads_one_card(language: str) -> None:
    """Rank and suit letters in either order and the symbols: each spelling reads as the card
    its letters name (the tables refuse an ambiguous spelling when they are built)."""
    rules = rule_set("zoliky")
    notation = NOTATIONS[language]
    symbols = "♠♥♦♣"
    for rank_word, rank in notation.ranks.items():
        for suit_word, suit in notation.suits.items():
            for spelling in (rank_word + suit_word, suit_word + rank_word, rank_word + symbols[suit]):
                assert parse_token(spelling, rules, notation) == Card(rank, suit), (language, spelling)


@pytest.mark.parametrize(
    ("language", "typed", "read"),
    [
        ("en", "KS DK QD", "KS KD QD"),
        ("cs", "KS 5P", "KH 5S"),  # srdce, piky
        ("cs", "DK KK KKř 10T AS", "QD KD KC TC AH"),  # dáma kár, král kár, král křížů, trefy
        ("cs", "JK Ž Ž=4S", "JD JK JK=4H"),  # J + K is the jack of diamonds; Ž is the joker
        ("sk", "KS 5P DT", "KH 5S QC"),
        ("pl", "DK KKa WP AT", "QH KD JS AC"),  # dama kier, król karo, walet pik, as trefl
        ("nb", "KK KnR ES AH DS", "KC JD AS AH QS"),  # konge kløver, knekt ruter, ess spar
        ("nb", "JK", "JK"),
        ("cs", "K♥ 5♠", "KH 5S"),  # the symbols read the same everywhere
        ("pl", "♦10 ♣A", "TD AC"),
    ],
)
def test_clashing_letters_read_as_the_language_writes_them(language: str, typed: str, read: str) -> None:
    rules = rule_set("zoliky")
    notation = NOTATIONS[language]
    assert " ".join(code(c, rules, declared=True) for c in parse_hand(typed, rules, notation)) == read
    assert parse_hand(in_codes(typed, rules, notation), rules) == parse_hand(read, rules)


@pytest.mark.parametrize(
    ("language", "typed"), [("cs", "QS"), ("cs", "KH"), ("pl", "DD"), ("nb", "JH"), ("sk", "TH")]
)
def test_english_letters_a_language_does_not_use_are_refused_with_its_examples(
    language: str, typed: str
) -> None:
    rules = rule_set("zoliky")
    with pytest.raises(EngineError) as raised:
        parse_hand(typed, rules, NOTATIONS[language])
    assert raised.value.code == "bad_token"
    assert raised.value.params["examples"] == NOTATIONS[language].examples


def test_melds_keep_their_separators_and_declared_jokers() -> None:
    rules = rule_set("zoliky")
    assert in_codes("5S 6S Ž=7S | KP KK KKř", rules, NOTATIONS["cs"]) == "5H 6H JK=7H | KS KD KC"


def test_tiles_read_the_same_in_every_language() -> None:
    rules = rule_set("rummikub")
    for notation in NOTATIONS.values():
        assert in_codes("R7 B13 JK", rules, notation) == "R7 B13 JK"
        assert [c.suit for c in parse_hand("K1 B2 R3 Y4", rules, notation)] == [0, 1, 2, 3]


def test_a_language_code_names_its_notation() -> None:
    assert notation_for("cs") is NOTATIONS["cs"]
    assert notation_for("nb-no") is NOTATIONS["nb"]
    assert notation_for("de") is NOTATIONS["en"]
    assert notation_for(None) is NOTATIONS["en"]
