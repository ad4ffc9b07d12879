"""Scoring of the four rummy families: hands, games, and Žolíky's settlement in crowns.

Plain Python (no Django); cards and tiles are read and valued by ``engine``. The
service API for the web layer is keyword-only:

- ``score_hand(rules=..., outcome={...}, players=[...]) -> HandResult``
- ``score_game(rules=..., players=[...], hands=[{...}, ...], ended=False) -> GameState``
- ``start(rules=..., players=[...]) -> Game`` (immutable; ``play``, ``replace``, ``delete``)
- ``rescore(rules=..., players=[...], hands=[...], as_typed=...) -> Game``: after a change,
  with counts marked missing in hands recorded before a correction brought a player back
- ``settle(rules=..., totals={...}) -> Settlement``
- ``settle_evening(rules=..., games=[{...}, ...]) -> Settlement``: the evening's games at once

Every impossible input raises ``ScoringError`` (an ``EngineError``: ``code``, ``params``,
English ``message``; templates in ``scoring.messages.MESSAGES``). The JSON contract is in
README.md beside this file and in ``python -m scoring --help``.
"""

from .errors import ScoringError
from .evening import evening_totals, settle_evening
from .game import (
    Bonus,
    Elimination,
    Game,
    GameState,
    Missing,
    mark_missing_counts,
    rescore,
    score_game,
    start,
    unmarked,
)
from .hands import HandResult, score_hand
from .outcomes import Count, Outcome, parse_outcome
from .settlement import Payment, Settlement, fewest_transfers, settle, to_crowns

__all__ = [
    "Bonus",
    "Count",
    "Elimination",
    "Game",
    "GameState",
    "HandResult",
    "Missing",
    "Outcome",
    "Payment",
    "ScoringError",
    "Settlement",
    "evening_totals",
    "fewest_transfers",
    "mark_missing_counts",
    "parse_outcome",
    "rescore",
    "score_game",
    "score_hand",
    "settle",
    "settle_evening",
    "start",
    "to_crowns",
    "unmarked",
]
