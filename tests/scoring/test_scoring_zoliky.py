"""Žolíky hand scoring (RULES.md §1): penalties, lower is better; worked by hand."""

from __future__ import annotations

from ._support import hand, points

THREE = ["Ann", "Bob", "Cid"]


def test_issue_example_closer_credit_and_penalties() -> None:
    # KH 10 + 5S 5 + joker 15 = 30; Bob's 23 given as points.
    outcome = {"players": THREE, "closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}}
    result = hand("zoliky", outcome)
    assert result.points == {"Ann": -10, "Bob": 23, "Cid": 30}
    assert result.winners == ("Ann",)
    assert result.counts == {"Ann": 0, "Bob": 23, "Cid": 30}
    assert result.details["left_cards"] == {"Cid": ["KH", "5S", "JK"]}


def test_card_values_in_hand_ace_11_faces_10_face_values() -> None:
    # A 11 + A 11 = 22; 2 + 10 + Q 10 = 22; J 10 + K 10 + 9 = 29
    outcome = {"players": THREE, "closer": "Cid", "left": {"Ann": "AS AH", "Bob": "2C 10D QH JS KC 9D"}}
    assert points("zoliky", outcome) == {"Ann": 22, "Bob": 51, "Cid": -10}


def test_closing_from_hand_credits_20() -> None:
    outcome = {"players": THREE, "closer": "Bob", "from_hand": True, "left": {"Ann": 12, "Cid": 40}}
    assert points("zoliky", outcome) == {"Ann": 12, "Bob": -20, "Cid": 40}


def test_closer_credit_options() -> None:
    outcome: dict[str, object] = {"players": THREE, "closer": "Bob", "left": {"Ann": 12, "Cid": 40}}
    assert points("zoliky", outcome, closer_credit=20)["Bob"] == -20
    outcome["from_hand"] = True
    assert points("zoliky", outcome, closer_credit_from_hand=40)["Bob"] == -40


def test_joker_penalty_options_15_30_50() -> None:
    outcome = {"players": ["Ann", "Bob"], "closer": "Ann", "left": {"Bob": "JK JK 3H"}}
    assert points("zoliky", outcome)["Bob"] == 33
    assert points("zoliky", outcome, joker_penalty=30)["Bob"] == 63
    assert points("zoliky", outcome, joker_penalty=50)["Bob"] == 103


def test_double_from_hand_doubles_penalties_instead_of_the_credit() -> None:
    outcome = {"players": THREE, "closer": "Ann", "from_hand": True, "left": {"Bob": 23, "Cid": "KH 5S JK"}}
    result = hand("zoliky", outcome, double_from_hand=True)
    assert result.points == {"Ann": 0, "Bob": 46, "Cid": 60}
    assert result.details["doubled"] is True
    assert result.details["credit"] == 0
    # a normal close is not affected by the option
    outcome["from_hand"] = False
    assert points("zoliky", outcome, double_from_hand=True) == {"Ann": -10, "Bob": 23, "Cid": 30}


def test_credit_laid_down_points_and_melds() -> None:
    # Bob laid A-2-3♠ (1+2+3) and 7♥7♦7♣ (21) = 27; Ann laid 50 (given as points);
    # RULES.md: in A-2-JOKER-4 the joker is 3 -> 1+2+3+4 = 10.
    outcome = {
        "players": THREE,
        "closer": "Ann",
        "left": {"Bob": 23, "Cid": "KH 5S JK"},
        "laid": {"Ann": 50, "Bob": "AS 2S 3S | 7H 7D 7C", "Cid": "AH 2H JK 4H"},
    }
    result = hand("zoliky", outcome, credit_laid_down=True)
    assert result.details["laid"] == {"Ann": 50, "Bob": 27, "Cid": 10}
    assert result.points == {"Ann": -60, "Bob": -4, "Cid": 20}


def test_laid_ace_high_and_declared_joker_values() -> None:
    # Q-K-A: ace 11 at the high end -> 10+10+11; a group of aces 11 each; JK=JH in J-Q-K: 30
    outcome = {
        "players": ["Ann", "Bob"],
        "closer": "Ann",
        "left": {"Bob": 5},
        "laid": {"Ann": "QS KS AS | AH AD AC", "Bob": "JK=JH QH KH"},
    }
    result = hand("zoliky", outcome, credit_laid_down=True)
    assert result.details["laid"] == {"Ann": 64, "Bob": 30}
    assert result.points == {"Ann": -74, "Bob": -25}


def test_credit_laid_down_with_doubled_from_hand() -> None:
    # closing from hand: the closer laid everything at once; penalties doubled, credits not
    outcome = {
        "players": ["Ann", "Bob"],
        "closer": "Ann",
        "from_hand": True,
        "left": {"Bob": 10},
        "laid": {"Ann": 60},
    }
    assert points("zoliky", outcome, credit_laid_down=True, double_from_hand=True) == {"Ann": -60, "Bob": 20}
    assert points("zoliky", outcome, credit_laid_down=True) == {"Ann": -80, "Bob": 10}


def test_keep_joker_is_recorded_without_effect() -> None:
    outcome = {"players": ["Ann", "Bob"], "closer": "Ann", "left": {"Bob": 10}, "kept_joker": True}
    result = hand("zoliky", outcome, keep_joker=True)
    assert result.points == {"Ann": -10, "Bob": 10}
    assert result.details["kept_joker"] is True


def test_no_laydown_makes_every_close_from_hand() -> None:
    outcome = {"players": ["Ann", "Bob"], "closer": "Ann", "left": {"Bob": 10}}
    result = hand("zoliky", outcome, no_laydown=True)
    assert result.details["from_hand"] is True
    assert result.points == {"Ann": -20, "Bob": 10}


def test_closer_may_be_given_an_empty_count() -> None:
    outcome = {"players": ["Ann", "Bob"], "closer": "Ann", "left": {"Ann": "", "Bob": "7H"}}
    assert points("zoliky", outcome) == {"Ann": -10, "Bob": 7}
    outcome["left"] = {"Ann": 0, "Bob": 7}
    assert points("zoliky", outcome) == {"Ann": -10, "Bob": 7}


def test_six_players_and_counts_as_digit_text_or_card_list() -> None:
    six = ["A", "B", "C", "D", "E", "F"]
    outcome = {
        "players": six,
        "closer": "F",
        "left": {"A": "12", "B": ["KH", "KD"], "C": 1, "D": 2, "E": "2H"},
    }
    assert points("zoliky", outcome) == {"A": 12, "B": 20, "C": 1, "D": 2, "E": 2, "F": -10}
