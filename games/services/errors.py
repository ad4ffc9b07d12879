"""User errors raised by the game services (on top of the engine's and scoring's)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import EngineError


class ServiceError(EngineError):
    """A request that cannot be carried out as asked (stale edit, nothing to undo...)."""


class StaleEdit(ServiceError):
    """Someone else changed the hand since this form was loaded; ``current`` is what is stored now."""

    def __init__(self, *, hand: int, current: Mapping[str, object] | None) -> None:
        super().__init__("stale_edit", f"hand {hand} was changed by someone else meanwhile", hand=hand)
        self.current = current
