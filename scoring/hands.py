"""Scoring one hand from a validated outcome (see outcomes.py): its family's module scores it.

Every result gives ``points`` for every player of the hand (0 for those who score nothing),
the hand's ``winners`` and the valued ``counts``, plus ``details`` that explain the score
(the JSON contract lists them in README.md). Žolíky points are penalties (lower is better);
the other families' points are gains (higher is better). A Žolíky hand may miss a player's
count (a correction brought him back into a hand recorded without him): he is listed in
``missing``, has no count, and his points are 0 until the count is filled in.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import RuleSet

from .families import family
from .outcomes import Outcome, parse_outcome
from .scored import HandResult as HandResult
from .scored import cards_detail as cards_detail


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
