"""Gin in cards mode: both hands (and the knocker's declared melds) as cards; the engine
finds the melds, deadwood and layoffs and checks the knock. Worked by hand."""

from __future__ import annotations

from ._support import hand, rejected

AB = ["Ann", "Bob"]

# ----------------------------------------------------------------------------- cards mode
# Ann: A-2-3♠, 7♥7♦7♣, 9-10-J♣ and 4♦ (deadwood 4).
ANN = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"
# Bob: K♥K♦K♣; 4♠ then 5♠ go onto A-2-3♠, 7♠ onto the sevens, Q♣ and 8♣ onto 9-J♣; 5♥ 6♦ = 11.
BOB = "4S 5S 7S QC 8C KH KD KC 5H 6D"


def cards_hand(ann: str, bob: str, **extra: object) -> dict[str, object]:
    return {"players": AB, "knocker": "Ann", "hands": {"Ann": ann, "Bob": bob}, **extra}


def test_cards_knock_with_chained_layoffs() -> None:
    result = hand("gin", cards_hand(ANN, BOB))
    assert result.details["deadwood"] == {"Ann": 4, "Bob": 11}
    assert result.details["deadwood_cards"] == {"Ann": ["4D"], "Bob": ["5H", "6D"]}
    assert sorted(layoff["card"] for layoff in result.details["layoffs"]) == ["4S", "5S", "7S", "8C", "QC"]  # type: ignore[attr-defined]
    assert result.points == {"Ann": 7, "Bob": 0}
    assert result.details["melds_declared"] is False


def test_cards_undercut() -> None:
    # Ann's deadwood 9♦ = 9; Bob after layoffs 5♥ A♦ = 6 -> undercut 25 + 3
    result = hand("gin", cards_hand(ANN.replace("4D", "9D"), BOB.replace("6D", "AD")))
    assert result.details["kind"] == "undercut"
    assert result.points == {"Ann": 0, "Bob": 28}


def test_cards_gin_allows_no_layoffs() -> None:
    # Ann gin with 9-10-J-Q♣; Bob keeps K♥K♦K♣ and 4♠5♠7♠8♣5♥6♦2♥ = 37 -> 25 + 37
    result = hand("gin", cards_hand("AS 2S 3S 7H 7D 7C 9C TC JC QC", "4S 5S 7S 8C KH KD KC 5H 6D 2H"))
    assert result.details["gin"] is True
    assert result.details["layoffs"] == []
    assert result.points == {"Ann": 62, "Bob": 0}


# Ann can meld 7♥7♦7♣ + 7♠8♠9♠ + A-2-3♣ (deadwood 2♦) or 7♥7♦7♣7♠ + A-2-3♣ (deadwood 19).
ANN2 = "7H 7D 7C 7S 8S 9S AC 2C 3C 2D"
# Bob: 4-5-6♥, K♣K♥K♠; 10♠ then J♠ onto 7-8-9♠ when Ann declares it; Q♦ 3♦ = 13.
BOB2 = "TS JS 4H 5H 6H KC KH KS QD 3D"


def test_cards_declared_melds_decide_layoffs() -> None:
    result = hand("gin", cards_hand(ANN2, BOB2, melds="7H 7D 7C | 7S 8S 9S | AC 2C 3C"))
    assert result.details["melds_declared"] is True
    assert result.details["deadwood"] == {"Ann": 2, "Bob": 13}
    assert result.points == {"Ann": 11, "Bob": 0}


def test_cards_declared_melds_over_the_limit_are_an_illegal_knock() -> None:
    error = rejected("gin", cards_hand(ANN2, BOB2, melds="7H 7D 7C 7S | AC 2C 3C"), "knock_over_limit")
    assert error.params == {"player": "Ann", "points": 19, "limit": 10}


def test_cards_gin_declared_with_deadwood() -> None:
    rejected("gin", cards_hand(ANN, BOB, gin=True), "gin_with_deadwood")


def test_cards_hand_size_melds_not_in_hand_and_shared_cards() -> None:
    rejected("gin", cards_hand(ANN, "4S 5S 7S QC 8C KH KD KC 5H"), "hand_size")
    rejected("gin", cards_hand(ANN, BOB, melds="AS 2S 3S | 8H 8D 8C"), "melds_not_in_hand")
    rejected("gin", cards_hand(ANN, BOB.replace("6D", "4D")), "too_many_copies")
