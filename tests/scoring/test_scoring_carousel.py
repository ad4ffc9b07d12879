"""Carousel rummy with knocking (RULES.md §3); higher is better. Worked by hand.

Values in hand: joker 25, J/Q/K 10, 2-10 face, ace 1. The hand's lowest count wins the sum
of the differences; a winner who did not knock gets the undercut bonus (10); going out 25.
"""

from __future__ import annotations

from ._support import hand, points

THREE = ["Ann", "Bob", "Cid"]


def test_issue_example_knock_with_cards_valued() -> None:
    # Cid 7H JK = 7 + 25 = 32; Ann knocks with 3: (12 - 3) + (32 - 3) = 38
    outcome = {"players": THREE, "knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}}
    result = hand("carousel", outcome)
    assert result.counts == {"Ann": 3, "Bob": 12, "Cid": 32}
    assert result.points == {"Ann": 38, "Bob": 0, "Cid": 0}
    assert result.details["undercut"] is False
    assert result.details["ending"] == "knock"


def test_two_players_the_difference() -> None:
    outcome = {"players": ["Ann", "Bob"], "knocker": "Bob", "left": {"Ann": 14, "Bob": 5}}
    assert points("carousel", outcome) == {"Ann": 0, "Bob": 9}


def test_values_ace_1_faces_10_joker_25_and_option() -> None:
    outcome = {"players": ["Ann", "Bob"], "knocker": "Ann", "left": {"Ann": "AS 2H", "Bob": "KH QD JC JK"}}
    assert hand("carousel", outcome).counts == {"Ann": 3, "Bob": 55}
    assert hand("carousel", outcome, joker_value=50).counts == {"Ann": 3, "Bob": 80}


def test_undercut_the_lowest_hand_wins_with_the_bonus() -> None:
    # Ann knocks with 5 but Bob holds 2: (5 - 2) + (20 - 2) + 10 = 31
    outcome = {"players": THREE, "knocker": "Ann", "left": {"Ann": 5, "Bob": 2, "Cid": 20}}
    result = hand("carousel", outcome)
    assert result.points == {"Ann": 0, "Bob": 31, "Cid": 0}
    assert result.details["undercut"] is True
    assert result.details["bonuses"] == {"Bob": {"undercut": 10}}
    assert points("carousel", outcome, undercut_bonus=15)["Bob"] == 36


def test_tie_with_the_knocker_goes_to_the_other_player() -> None:
    # Ann knocks 4, Bob 4: Bob wins (0 + 6) + 10 = 16
    outcome = {"players": THREE, "knocker": "Ann", "left": {"Ann": 4, "Bob": 4, "Cid": 10}}
    result = hand("carousel", outcome)
    assert result.points == {"Ann": 0, "Bob": 16, "Cid": 0}
    assert result.winners == ("Bob",)


def test_two_players_tied_with_the_knocker_both_win_with_the_bonus() -> None:
    # Ann knocks 4; Bob and Cid 4; Dan 14: each (0 + 0 + 10) + 10 = 20
    outcome = {
        "players": ["Ann", "Bob", "Cid", "Dan"],
        "knocker": "Ann",
        "left": {"Ann": 4, "Bob": 4, "Cid": 4, "Dan": 14},
    }
    result = hand("carousel", outcome)
    assert result.points == {"Ann": 0, "Bob": 20, "Cid": 20, "Dan": 0}
    assert result.winners == ("Bob", "Cid")


def test_going_out_earns_the_out_bonus_and_no_undercut() -> None:
    # Ann out: 12 + 30 + 25 = 67
    outcome = {"players": THREE, "knocker": None, "out": "Ann", "left": {"Bob": 12, "Cid": 30}}
    result = hand("carousel", outcome)
    assert result.points == {"Ann": 67, "Bob": 0, "Cid": 0}
    assert result.details["bonuses"] == {"Ann": {"out": 25}}
    assert points("carousel", outcome, out_bonus=0)["Ann"] == 42


def test_stock_exhausted_lowest_wins_without_bonus() -> None:
    # nobody knocked, nobody out: Bob 3 wins (8 - 3) + (10 - 3) = 12
    outcome = {"players": THREE, "knocker": None, "out": None, "left": {"Ann": 8, "Bob": 3, "Cid": 10}}
    result = hand("carousel", outcome)
    assert result.points == {"Ann": 0, "Bob": 12, "Cid": 0}
    assert result.details["ending"] == "stock"
    assert result.details["undercut"] is False


def test_stock_exhausted_tie_both_win() -> None:
    outcome = {"players": THREE, "left": {"Ann": 3, "Bob": 3, "Cid": 10}}
    assert points("carousel", outcome) == {"Ann": 7, "Bob": 7, "Cid": 0}


def test_knock_limit_option() -> None:
    outcome = {"players": ["Ann", "Bob"], "knocker": "Ann", "left": {"Ann": 8, "Bob": 20}}
    assert points("carousel", outcome, knock_limit=10) == {"Ann": 12, "Bob": 0}


def test_five_players() -> None:
    five = ["A", "B", "C", "D", "E"]
    outcome = {"players": five, "knocker": "C", "left": {"A": 10, "B": 20, "C": 1, "D": 30, "E": 40}}
    assert points("carousel", outcome)["C"] == 9 + 19 + 29 + 39
