"""Every outcome that cannot happen is rejected with its code, params and message."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.messages import MESSAGES as ENGINE_MESSAGES
from scoring import score_hand
from scoring.errors import ScoringError
from scoring.messages import MESSAGES

from ._support import rejected, rules

ZOL = ["Ann", "Bob", "Cid"]


def zol(**fields: object) -> dict[str, object]:
    return {"players": ZOL, "closer": "Ann", "left": {"Bob": 23, "Cid": 30}, **fields}


# ----------------------------------------------------------------------------- the list


def test_knock_above_the_limit() -> None:
    error = rejected(
        "gin",
        {"players": ["Ann", "Bob"], "knocker": "Ann", "deadwood": {"Ann": 11, "Bob": 30}},
        "knock_over_limit",
    )
    assert error.message == "Ann cannot knock with 11 points; the limit is 10"
    error = rejected(
        "carousel",
        {"players": ["Ann", "Bob"], "knocker": "Bob", "left": {"Ann": 3, "Bob": "7H"}},
        "knock_over_limit",
    )
    assert error.params == {"player": "Bob", "points": 7, "limit": 5}


def test_gin_with_deadwood() -> None:
    error = rejected(
        "gin",
        {"players": ["Ann", "Bob"], "knocker": "Ann", "gin": True, "deadwood": {"Ann": 3, "Bob": 30}},
        "gin_with_deadwood",
    )
    assert error.message == "Ann cannot go gin with 3 points of deadwood"


def test_two_players_going_out() -> None:
    error = rejected(
        "carousel", {"players": ZOL, "out": "Ann", "left": {"Bob": "", "Cid": 4}}, "two_players_out"
    )
    assert error.message == "only one player can go out, but Bob has no cards left as well as Ann"
    rejected("carousel", {"players": ZOL, "out": "Ann", "left": {"Bob": 0, "Cid": 4}}, "two_players_out")
    rejected("zoliky", zol(left={"Bob": 0, "Cid": 30}), "two_players_out")
    rejected("rummikub", {"players": ZOL, "winner": "Ann", "left": {"Bob": "", "Cid": 4}}, "two_players_out")


def test_rummikub_winner_with_tiles_left() -> None:
    error = rejected(
        "rummikub",
        {"players": ZOL, "winner": "Ann", "left": {"Ann": "R7", "Bob": 3, "Cid": 4}},
        "winner_with_tiles",
    )
    assert error.message == "the winner Ann cannot have tiles left (7 points)"


def test_unknown_player() -> None:
    error = rejected("zoliky", zol(closer="Zed"), "unknown_player")
    assert error.message == "Zed (in closer) is not a player in this hand"
    rejected("zoliky", zol(left={"Bob": 1, "Cid": 2, "Zed": 3}), "unknown_player")
    rejected("zoliky", zol(), "unknown_player", players=["Ann", "Bob"])


def test_negative_count() -> None:
    error = rejected("zoliky", zol(left={"Bob": -5, "Cid": 30}), "negative_count")
    assert error.message == "the left of Bob cannot be negative (-5)"
    rejected("rummikub", {"players": ZOL, "winner": "Ann", "left": {"Bob": "-3", "Cid": 4}}, "negative_count")
    rejected("zoliky", zol(laid={"Bob": -1}), "negative_count", credit_laid_down=True)


# ----------------------------------------------------------------------------- more impossible things


def test_wrong_player_count_for_the_family() -> None:
    error = rejected("gin", {"players": ZOL, "knocker": "Ann", "deadwood": {}}, "player_count")
    assert error.message == "gin is played by 2 to 2 players, not 3"
    rejected("zoliky", {"players": list("ABCDEFG"), "closer": "A"}, "player_count")
    rejected("carousel", {"players": list("ABCDEF"), "left": {}}, "player_count")
    rejected("rummikub", {"players": list("ABCDE"), "left": {}}, "player_count")
    rejected("rummikub", {"players": ["A"], "winner": "A"}, "player_count")


def test_closer_with_cards_left() -> None:
    error = rejected("zoliky", zol(left={"Ann": "5H", "Bob": 1, "Cid": 2}), "closer_with_cards")
    assert error.message == "Ann closed, so cannot have cards left (5 points)"


def test_going_out_with_cards_and_knocker_with_none() -> None:
    rejected(
        "carousel", {"players": ZOL, "out": "Ann", "left": {"Ann": 2, "Bob": 3, "Cid": 4}}, "out_with_cards"
    )
    rejected(
        "carousel",
        {"players": ZOL, "knocker": "Ann", "left": {"Ann": "", "Bob": 3, "Cid": 4}},
        "knocker_without_cards",
    )
    rejected(
        "carousel",
        {"players": ZOL, "knocker": "Ann", "out": "Bob", "left": {"Ann": 1, "Cid": 4}},
        "knock_and_out",
    )


def test_an_empty_hand_that_was_not_recorded_as_going_out() -> None:
    rejected("carousel", {"players": ZOL, "left": {"Ann": 0, "Bob": 3, "Cid": 4}}, "out_not_recorded")
    rejected("rummikub", {"players": ZOL, "left": {"Ann": "", "Bob": 3, "Cid": 4}}, "out_not_recorded")
    # a joker worth 0 (house rule) makes 0 points possible with cards in hand
    result = score_hand(
        rules=rules("carousel", joker_value=0),
        outcome={"players": ZOL, "left": {"Ann": 0, "Bob": 3, "Cid": 4}},
    )
    assert result.winners == ("Ann",)


def test_counts_missing_or_malformed() -> None:
    error = rejected("zoliky", zol(left={"Bob": 23}), "missing_count")
    assert error.message == "the left of Cid is missing"
    rejected("carousel", {"players": ZOL, "knocker": "Ann", "left": {"Ann": 1, "Bob": 3}}, "missing_count")
    rejected("gin", {"players": ["Ann", "Bob"], "knocker": "Ann", "deadwood": {"Ann": 1}}, "missing_count")
    for bad in (2.5, True, None, {"x": 1}, [1, 2]):
        rejected("zoliky", zol(left={"Bob": bad, "Cid": 30}), "bad_count")


def test_bad_cards_are_the_engines_errors_naming_the_player() -> None:
    error = rejected("zoliky", zol(left={"Bob": "1X", "Cid": 30}), "bad_token")
    assert error.params["player"] == "Bob" and error.params["field"] == "left"
    assert error.message.startswith("left of Bob: ")
    rejected(
        "gin", {"players": ["Ann", "Bob"], "knocker": "Ann", "deadwood": {"Ann": "JK", "Bob": 3}}, "no_jokers"
    )


def test_more_copies_than_the_pack_across_players() -> None:
    error = rejected("zoliky", zol(left={"Bob": "KH KH", "Cid": "KH"}), "too_many_copies")
    assert error.params["count"] == 3 and error.params["decks"] == 2
    rejected("zoliky", zol(left={"Bob": "JK JK JK", "Cid": "JK JK"}), "too_many_jokers_in_pack")
    rejected(
        "carousel",
        {"players": ["A", "B"], "left": {"A": "JK", "B": "JK"}},
        "too_many_jokers_in_pack",
        decks=1,
    )


def test_outcome_shape() -> None:
    rejected("zoliky", ["not", "an", "object"], "outcome_not_object")
    error = rejected("zoliky", zol(closser="Ann"), "unknown_field")
    fields = "players, closer, from_hand, left, laid, kept_joker, missing"
    assert error.message == f"zoliky outcomes have no field 'closser' (fields: {fields})"
    rejected("zoliky", {"players": ZOL, "left": {}}, "missing_field")
    rejected("zoliky", {"closer": "Ann", "left": {}}, "missing_field")
    rejected("zoliky", zol(from_hand="yes"), "field_type")
    rejected("zoliky", zol(left=[1, 2]), "field_type")
    rejected("zoliky", zol(closer=3), "field_type")
    rejected("zoliky", {"players": "Ann Bob", "closer": "Ann"}, "field_type")
    rejected("zoliky", {"players": ["Ann", 3], "closer": "Ann"}, "bad_player_name")
    rejected("zoliky", {"players": ["Ann", "Ann"], "closer": "Ann"}, "duplicate_player")
    error = rejected(
        "zoliky",
        {"players": ["Ann", "Bob"], "closer": "Ann", "left": {"Bob": 1}},
        "missing_player",
        players=ZOL,
    )
    assert error.message == "Cid is in the game but missing from this hand's players"


def test_zoliky_options_that_are_off_or_forbid_the_outcome() -> None:
    error = rejected("zoliky", zol(laid={"Bob": 20}), "option_off")
    assert error.message == "the field 'laid' needs the house rule credit_laid_down, which is off"
    rejected("zoliky", zol(kept_joker=True), "option_off")
    rejected("zoliky", zol(from_hand=False), "must_close_from_hand", no_laydown=True)
    rejected("zoliky", zol(laid={"Bob": 20}), "laid_without_laydown", no_laydown=True, credit_laid_down=True)
    error = rejected("zoliky", zol(laid={"Bob": "AS 2S 4S"}), "not_consecutive", credit_laid_down=True)
    assert error.params["meld"] == 1 and error.params["player"] == "Bob"


def test_gin_shape() -> None:
    ab = ["Ann", "Bob"]
    rejected("gin", {"players": ab, "knocker": None, "gin": True}, "gin_without_knocker")
    rejected(
        "gin",
        {"players": ab, "knocker": "Ann", "deadwood": {"Ann": 1, "Bob": 2}, "hands": {}},
        "deadwood_or_hands",
    )
    rejected(
        "gin",
        {"players": ab, "knocker": "Ann", "deadwood": {"Ann": 1, "Bob": 2}, "melds": "AS 2S 3S"},
        "melds_without_hands",
    )
    rejected("gin", {"players": ab, "knocker": "Ann"}, "missing_field")


def test_nothing_is_changed_by_a_rejected_hand() -> None:
    before = score_hand(rules=rules("zoliky"), outcome=zol())
    with pytest.raises(EngineError):
        score_hand(rules=rules("zoliky"), outcome=zol(left={"Bob": -1, "Cid": 1}))
    assert score_hand(rules=rules("zoliky"), outcome=zol()) == before


# ----------------------------------------------------------------------------- the message catalogue


def test_every_message_is_a_template_of_names_only() -> None:
    for code, template in MESSAGES.items():
        for _, name, spec, conversion in string.Formatter().parse(template):
            if name is not None:
                assert name.isidentifier() and not spec and not conversion, (code, name)


def test_scoring_codes_do_not_clash_with_the_engines() -> None:
    assert not set(MESSAGES) & set(ENGINE_MESSAGES)


def test_every_scoring_code_is_exercised_by_a_test() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    missing = [code for code in MESSAGES if not re.search(rf'"{code}"', sources)]
    assert not missing


def test_scoring_error_is_an_engine_error() -> None:
    error = ScoringError("unknown_player", player="Zed", field="closer")
    assert isinstance(error, EngineError)
    assert error.as_dict() == {
        "ok": False,
        "code": "unknown_player",
        "error": "Zed (in closer) is not a player in this hand",
        "params": {"player": "Zed", "field": "closer"},
    }
