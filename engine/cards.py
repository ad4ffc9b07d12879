"""Cards and tiles: one small immutable value type for both.

A French card and a Rummikub tile are both a rank (1-13) and one of four suits or
colours; the rule set says which. Ace is rank 1 (J=11, Q=12, K=13); a joker has rank 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS = range(1, 14)
RUN_MAX = 13  # the longest run: a suit has 13 ranks
SUITS = range(4)

# Cards: spades, hearts, diamonds, clubs. Tiles: black, blue, red, yellow (orange).
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
COLOUR_LETTERS = "KBRY"
RANK_LETTERS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_RANK_CODES = ["JK"] + [RANK_LETTERS.get(rank, str(rank)) for rank in RANKS]  # by rank


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card or tile. ``stands_for`` is a joker's declared identity (not compared)."""

    rank: int
    suit: int
    stands_for: Card | None = field(default=None, compare=False)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK


JOKER = Card(JOKER_RANK, 0)


def card_code(card: Card) -> str:
    """Canonical card notation: rank then suit letter, ten as ``T`` (``AS``, ``TH``, ``JK``)."""
    if card.rank == JOKER_RANK:
        return "JK"
    return _RANK_CODES[card.rank] + SUIT_LETTERS[card.suit]


def tile_code(tile: Card) -> str:
    """Canonical tile notation: colour letter then number (``R7``, ``B13``, ``JK``)."""
    if tile.is_joker:
        return "JK"
    return f"{COLOUR_LETTERS[tile.suit]}{tile.rank}"
