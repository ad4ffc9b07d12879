"""What a family's module hands back: a scored hand, the kind of hand it was, a game's bonuses.

These are plain values below the families and the modules that dispatch to them, so a family
builds them without importing the dispatchers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import notation
from engine.cards import Card
from engine.rules import Family, RuleSet


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand scored."""

    family: Family
    players: tuple[str, ...]
    points: Mapping[str, int]  # every player of the hand, in seat order
    winners: tuple[str, ...]  # who won the hand (Žolíky: the closer); empty for a void gin hand
    counts: Mapping[str, int]  # the valued count of each player (left in hand / deadwood)
    details: Mapping[str, object] = field(default_factory=dict)  # JSON-ready explanation
    # Players of the hand whose count is missing (seat order); their points are 0 for now.
    missing: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        result: dict[str, object] = {
            "ok": True,
            "family": self.family,
            "players": list(self.players),
            "points": dict(self.points),
            "winners": list(self.winners),
            "counts": dict(self.counts),
            **self.details,
        }
        if self.missing:
            result["missing"] = list(self.missing)
        return result


@dataclass(frozen=True, slots=True)
class HandKind:
    kind: str  # one of the family's kinds (FamilyInfo.words): closed, knock, out...
    player: str | None  # who closed, knocked or went out (None when nobody did)


@dataclass(frozen=True, slots=True)
class Bonus:
    player: str
    kind: str  # "game" (past the target) | "hands_won"
    points: int
    hands: int | None = None  # for "hands_won": how many hands

    def as_dict(self) -> dict[str, object]:
        result: dict[str, object] = {"player": self.player, "kind": self.kind, "points": self.points}
        if self.hands is not None:
            result["hands"] = self.hands
        return result


def cards_detail(
    details: dict[str, object], key: str, given: Mapping[str, tuple[Card, ...] | None], rules: RuleSet
) -> None:
    """Echo the cards given as cards, in canonical notation (nothing when all were points)."""
    if all(cards is None for cards in given.values()):
        return
    details[key] = {p: notation.codes(cards, rules) for p, cards in given.items() if cards is not None}
