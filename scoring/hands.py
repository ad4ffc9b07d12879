"""Scoring one hand from a validated outcome (see outcomes.py): its family's module scores it.

Every result gives ``points`` for every player of the hand (0 for those who score nothing),
the hand's ``winners`` and the valued ``counts``, plus ``details`` that explain the score
(the JSON contract lists them in README.md). Žolíky points are penalties (lower is better);
the other families' points are gains (higher is better). A Žolíky hand may miss a player's
count (a correction brought him back into a hand recorded without him): he is listed in
``missing``, has no count, and his points are 0 until the count is filled in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine import notation
from engine.cards import Card
from engine.rules import Family, RuleSet

from .families import family
from .outcomes import Outcome, parse_outcome


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


def score_outcome(outcome: Outcome, rules: RuleSet) -> HandResult:
    """Score an already validated outcome (its family's module scores it)."""
    return family(rules.family).score(outcome, rules)


def score_hand(*, rules: RuleSet, outcome: object, players: Sequence[str] | None = None) -> HandResult:
    """Validate ``outcome`` (a JSON-like dict) and score it.

    ``players`` are the players seated for the hand; when None, the outcome must name them.
    Raises ScoringError (or the engine's EngineError for a bad card) and scores nothing when
    the outcome cannot have happened.
    """
    return score_outcome(parse_outcome(outcome, rules, players), rules)


def cards_detail(
    details: dict[str, object], key: str, given: Mapping[str, tuple[Card, ...] | None], rules: RuleSet
) -> None:
    """Echo the cards given as cards, in canonical notation (nothing when all were points)."""
    if all(cards is None for cards in given.values()):
        return
    details[key] = {p: notation.codes(cards, rules) for p, cards in given.items() if cards is not None}
