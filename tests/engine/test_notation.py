"""The card and tile notation: what players type, what the engine writes back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import EngineError
from engine.notation import code, codes, display, parse_hand, parse_melds, parse_token
from engine.rules import FAMILIES, RuleSet, rule_set

ZOLIKY = rule_set("zoliky")
GIN = rule_set("gin")
CAROUSEL = rule_set("carousel")
RUMMIKUB = rule_set("rummikub")
S, H, D, C = range(4)
BLACK, BLUE, RED, YELLOW = range(4)


def error_of(text: str, rules: RuleSet) -> EngineError:
    with pytest.raises(EngineError) as caught:
        parse_hand(text, rules)
    return caught.value


def test_cards_in_every_spelling() -> None:
    cards = parse_hand("AS 10H TH qd ♥7 7♦ d7 kc", ZOLIKY)
    assert cards == [
        Card(1, S),
        Card(10, H),
        Card(10, H),
        Card(12, D),
        Card(7, H),
        Card(7, D),
        Card(7, D),
        Card(13, C),
    ]


def test_commas_and_odd_spacing() -> None:
    assert parse_hand(" 2s,3s ,  4s\t5S ", GIN) == [Card(2, S), Card(3, S), Card(4, S), Card(5, S)]


def test_emoji_suits_with_variation_selector() -> None:
    assert parse_hand("A♥️ 2♠", ZOLIKY) == [Card(1, H), Card(2, S)]


def test_joker_plain_and_declared() -> None:
    plain, declared, spaced = parse_hand("JK JK=4H joker = qs", ZOLIKY)
    assert plain.is_joker and plain.stands_for is None
    assert declared.is_joker and declared.stands_for == Card(4, H)
    assert spaced.is_joker and spaced.stands_for == Card(12, S)


def test_tiles() -> None:
    tiles = parse_hand("R7 B13 K1 Y5 o6 13b JK JK=r7", RUMMIKUB)
    assert tiles[:6] == [
        Card(7, RED),
        Card(13, BLUE),
        Card(1, BLACK),
        Card(5, YELLOW),
        Card(6, YELLOW),
        Card(13, BLUE),
    ]
    assert tiles[6].is_joker and tiles[6].stands_for is None
    assert tiles[7].stands_for == Card(7, RED)


def test_bad_card_names_the_token() -> None:
    error = error_of("AS 1X 3S", ZOLIKY)
    assert error.code == "bad_token"
    assert error.params["token"] == "1X"
    assert error.message.startswith('"1X" is not a card')


@pytest.mark.parametrize(
    "token", ["1H", "11S", "AX", "ZZ", "A", "10", "HH", "JK=JK", "JK=1X", "AS=2H", "=", "JK="]
)
def test_bad_card_tokens(token: str) -> None:
    error = error_of(token, ZOLIKY)
    assert error.code == "bad_token"
    assert error.params["token"] == token


@pytest.mark.parametrize("token", ["R0", "R14", "X7", "AS", "7", "R", "JK=AS"])
def test_bad_tile_tokens(token: str) -> None:
    error = error_of(token, RUMMIKUB)
    assert error.code == "bad_token"
    assert error.message.startswith(f'"{token}" is not a tile')


def test_no_jokers_in_gin() -> None:
    error = error_of("AS JK", GIN)
    assert error.code == "no_jokers"
    assert "a joker is not part of this game" in error.message


def test_three_copies_with_two_decks() -> None:
    error = error_of("5H 5h ♥5", ZOLIKY)
    assert error.code == "too_many_copies"
    assert error.params == {"card": "5♥", "count": 3, "decks": 2}
    assert "5♥" in error.message


def test_two_copies_with_one_deck() -> None:
    assert len(parse_hand("5H 5H", ZOLIKY)) == 2
    error = error_of("5H 5H", GIN)
    assert error.code == "too_many_copies"
    assert error.params["decks"] == 1


def test_carousel_deck_count_follows_the_option() -> None:
    assert len(parse_hand("JK JK", CAROUSEL)) == 2
    assert error_of("JK JK", rule_set("carousel", {"decks": "1"})).code == "too_many_jokers_in_pack"
    assert error_of("KD KD", rule_set("carousel", {"decks": "1"})).code == "too_many_copies"


def test_too_many_jokers() -> None:
    assert len(parse_hand("JK JK JK JK", ZOLIKY)) == 4
    error = error_of("JK JK JK JK JK", ZOLIKY)
    assert error.code == "too_many_jokers_in_pack"
    assert error.params == {"count": 5, "jokers": 4}
    assert error_of("JK JK JK", RUMMIKUB).code == "too_many_jokers_in_pack"


def test_declared_jokers_do_not_use_up_copies() -> None:
    assert len(parse_hand("5H 5H JK=5H", ZOLIKY)) == 3


@pytest.mark.parametrize("text", ["", "   ", " , ,"])
def test_empty(text: str) -> None:
    assert error_of(text, ZOLIKY).code == "empty"


def test_parse_melds_and_copies_across_melds() -> None:
    melds = parse_melds("AS 2S 3S | 5H 5D 5C", ZOLIKY)
    assert melds == [[Card(1, S), Card(2, S), Card(3, S)], [Card(5, H), Card(5, D), Card(5, C)]]
    with pytest.raises(EngineError) as caught:
        parse_melds("5H 6H 7H | 5H 5S 5D | 5H 5C JK", ZOLIKY)
    assert caught.value.code == "too_many_copies"


def test_parse_melds_empty_meld_is_named() -> None:
    with pytest.raises(EngineError) as caught:
        parse_melds("AS 2S 3S | | 5H 5D 5C", ZOLIKY)
    assert caught.value.code == "empty"
    assert caught.value.params["meld"] == 2


def test_canonical_codes() -> None:
    assert codes(parse_hand("10h as ♣q jk", ZOLIKY), ZOLIKY) == ["TH", "AS", "QC", "JK"]
    assert codes(parse_hand("k13 o5 jk", RUMMIKUB), RUMMIKUB) == ["K13", "Y5", "JK"]
    declared = parse_token("jk=10d", ZOLIKY)
    assert code(declared, ZOLIKY) == "JK"
    assert code(declared, ZOLIKY, declared=True) == "JK=TD"
    assert code(parse_token("jk=r7", RUMMIKUB), RUMMIKUB, declared=True) == "JK=R7"
    assert display(Card(10, H), ZOLIKY) == "10♥"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_card_round_trips(family: str) -> None:
    rules = rule_set(family)
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]
    assert parse_hand(" ".join(codes(deck, rules)), rules) == deck
    if rules.jokers:
        declared = [Card(0, 0, stands_for=card) for card in deck[: rules.jokers]]
        back = parse_hand(" ".join(codes(declared, rules, declared=True)), rules)
        assert [c.stands_for for c in back] == deck[: rules.jokers]


PARSE_CODES = {"bad_token", "no_jokers", "too_many_copies", "too_many_jokers_in_pack", "empty"}
TOKENISH = st.text(alphabet="AKQJT1234567890SHDCBRYOkqjshdc♠♥♦♣=| ,\t", max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(TOKENISH, st.text(max_size=40)), family=st.sampled_from(FAMILIES))
def test_parser_raises_only_engine_errors(text: str, family: str) -> None:
    rules = rule_set(family)
    for parse in (parse_hand, parse_melds):
        try:
            parse(text, rules)
        except EngineError as error:
            assert error.code in {
                "bad_token",
                "no_jokers",
                "too_many_copies",
                "too_many_jokers_in_pack",
                "empty",
            }
            assert error.message


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), max_size=20),
    family=st.sampled_from(FAMILIES),
)
def test_codes_round_trip(cards: list[tuple[int, int]], family: str) -> None:
    rules = rule_set(family)
    hand = [Card(rank, suit) for rank, suit in cards]
    text = ", ".join(codes(hand, rules))
    try:
        assert parse_hand(text, rules) == hand
    except EngineError as error:
        assert error.code in {"too_many_copies", "empty"}
