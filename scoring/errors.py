"""Scoring's own exception: an outcome or a game that cannot happen.

``ScoringError`` is an :class:`engine.errors.EngineError`, so the web layer and the
command line handle engine and scoring errors alike: a stable ``code``, ``params`` for the
translated message (``scoring.messages.MESSAGES[code]``) and an English ``message``.
"""

from __future__ import annotations

from engine.errors import EngineError

from .messages import MESSAGES


class ScoringError(EngineError):
    """An outcome, a game or a settlement request that breaks a rule of scoring.

    The English message is the code's template filled with ``params`` unless ``message``
    is given (the game level prefixes the hand number that way).
    """

    def __init__(self, code: str, message: str | None = None, **params: object) -> None:
        if message is None:
            message = MESSAGES[code].format(**params)
        super().__init__(code, message, **params)


def in_hand(error: EngineError, hand: int) -> EngineError:
    """The same error located in the game's ``hand`` (1-based): param ``hand`` added and the
    English message prefixed with ``hand N:``; the code stays, so translations still apply."""
    params = {**error.params, "hand": hand}
    message = f"hand {hand}: {error.message}"
    if isinstance(error, ScoringError):
        return ScoringError(error.code, message, **params)
    return EngineError(error.code, message, **params)


def for_player(error: EngineError, player: str, field: str) -> EngineError:
    """An engine error about a player's cards (a bad token, too many copies) naming the
    player and the outcome field it came from."""
    params = {**error.params, "player": player, "field": field}
    message = f"{field} of {player}: {error.message}"
    if isinstance(error, ScoringError):
        return ScoringError(error.code, message, **params)
    return EngineError(error.code, message, **params)
