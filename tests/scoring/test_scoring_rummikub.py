"""Rummikub (RULES.md §4); higher is better. Worked by hand; the official rule's scoring:
every other player loses his rack total (a joker 30), the winner gains their sum."""

from __future__ import annotations

from ._support import hand, points

THREE = ["Ann", "Bob", "Cid"]


def test_issue_example_going_out() -> None:
    # Cid R7 B13 JK = 7 + 13 + 30 = 50; Ann gains 24 + 50 = 74
    result = hand("rummikub", {"players": THREE, "winner": "Ann", "left": {"Bob": 24, "Cid": "R7 B13 JK"}})
    assert result.points == {"Ann": 74, "Bob": -24, "Cid": -50}
    assert result.counts == {"Ann": 0, "Bob": 24, "Cid": 50}
    assert result.details["ending"] == "out"
    assert sum(result.points.values()) == 0


def test_joker_penalty_option_and_orange_synonym() -> None:
    outcome = {"players": ["Ann", "Bob"], "winner": "Bob", "left": {"Ann": "JK O5 Y1 K13"}}
    assert points("rummikub", outcome) == {"Ann": -49, "Bob": 49}
    assert points("rummikub", outcome, joker_penalty=25) == {"Ann": -44, "Bob": 44}


def test_rules_example_pool_dry() -> None:
    # RULES.md: racks 15, 8, 22, 19: the 8 scores (15-8)+(22-8)+(19-8), the others -15, -22, -19.
    # (15-8)+(22-8)+(19-8) = 7 + 14 + 11 = 32. RULES.md prints "+40", an arithmetic slip:
    # the formula it states is what is implemented (see docs/design/scoring.md).
    outcome = {"players": ["P", "Q", "R", "S"], "winner": None, "left": {"P": 15, "Q": 8, "R": 22, "S": 19}}
    result = hand("rummikub", outcome)
    assert result.points == {"P": -15, "Q": 32, "R": -22, "S": -19}
    assert result.winners == ("Q",)
    assert result.details["ending"] == "pool_dry"


def test_pool_dry_tie_both_lowest_win() -> None:
    outcome = {"players": THREE, "left": {"Ann": 5, "Bob": 5, "Cid": 12}}
    result = hand("rummikub", outcome)
    assert result.points == {"Ann": 7, "Bob": 7, "Cid": -12}
    assert result.winners == ("Ann", "Bob")


def test_four_players_out() -> None:
    outcome = {
        "players": ["A", "B", "C", "D"],
        "winner": "D",
        "left": {"A": "R1 R2", "B": "B10", "C": "K13 K13"},
    }
    assert points("rummikub", outcome) == {"A": -3, "B": -10, "C": -26, "D": 39}
