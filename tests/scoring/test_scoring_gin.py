"""Knock rummy for two with gin scoring (RULES.md §2); higher is better, one scorer a hand.

Standard published gin scoring (Hoyle, Bicycle, pagat.com): a knock scores the difference
in deadwood; gin scores a 25 bonus plus the opponent's deadwood; an undercut scores a 25
bonus plus the difference; a tie is an undercut unless the house gives ties to the knocker.
"""

from __future__ import annotations

import pytest

from ._support import hand, points, rejected

AB = ["Ann", "Bob"]


def gin_hand(knocker: str | None, ann: object, bob: object, **extra: object) -> dict[str, object]:
    return {"players": AB, "knocker": knocker, "deadwood": {"Ann": ann, "Bob": bob}, **extra}


def test_issue_example_knock_scores_the_difference() -> None:
    result = hand("gin", gin_hand("Ann", 7, 12, gin=False))
    assert result.points == {"Ann": 5, "Bob": 0}
    assert result.details["kind"] == "knock"
    assert result.winners == ("Ann",)


@pytest.mark.parametrize(
    ("knocker_deadwood", "opponent_deadwood", "scorer", "score", "kind"),
    [
        (8, 20, "Ann", 12, "knock"),  # knock: 20 - 8
        (0, 30, "Ann", 55, "gin"),  # gin: 25 + 30
        (9, 5, "Bob", 29, "undercut"),  # undercut: 25 + (9 - 5)
        (10, 0, "Bob", 35, "undercut"),  # the opponent melded everything: 25 + 10
        (7, 7, "Bob", 25, "undercut"),  # a tie is an undercut by default: 25 + 0
    ],
)
def test_published_gin_scoring(
    knocker_deadwood: int, opponent_deadwood: int, scorer: str, score: int, kind: str
) -> None:
    result = hand("gin", gin_hand("Ann", knocker_deadwood, opponent_deadwood))
    assert result.details["kind"] == kind
    assert result.details["scorer"] == scorer
    assert result.points == {"Ann": score if scorer == "Ann" else 0, "Bob": score if scorer == "Bob" else 0}


def test_tie_to_knocker_option() -> None:
    result = hand("gin", gin_hand("Ann", 7, 7), tie_to_knocker=True)
    assert result.details["kind"] == "knock"
    assert result.points == {"Ann": 0, "Bob": 0}
    assert result.winners == ("Ann",)


def test_bonus_options() -> None:
    assert points("gin", gin_hand("Ann", 0, 30, gin=True), gin_bonus=20) == {"Ann": 50, "Bob": 0}
    assert points("gin", gin_hand("Ann", 9, 5), undercut_bonus=10) == {"Ann": 0, "Bob": 14}


def test_deadwood_zero_is_gin_even_if_not_declared() -> None:
    result = hand("gin", gin_hand("Bob", 12, 0))
    assert result.details["gin"] is True
    assert result.points == {"Ann": 0, "Bob": 37}


def test_knock_limit_option() -> None:
    assert points("gin", gin_hand("Ann", 3, 9), knock_limit=5) == {"Ann": 6, "Bob": 0}
    rejected("gin", gin_hand("Ann", 6, 9), "knock_over_limit", knock_limit=5)


def test_deadwood_as_cards_ace_1_faces_10() -> None:
    # A 1 + 2 + 3 = 6 ; K + Q = 20
    result = hand("gin", gin_hand("Ann", "AS 2H 3C", "KH QD"))
    assert result.counts == {"Ann": 6, "Bob": 20}
    assert result.points == {"Ann": 14, "Bob": 0}


def test_void_hand_without_a_knocker_scores_nothing() -> None:
    result = hand("gin", {"players": AB, "knocker": None})
    assert result.points == {"Ann": 0, "Bob": 0}
    assert result.winners == ()
    assert result.details["kind"] == "void"
