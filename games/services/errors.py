"""User errors raised by the game services (on top of the engine's and scoring's)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import EngineError


class ServiceError(EngineError):
    """A request that cannot be carried out as asked (stale edit, nothing to undo...)."""


class NotAllowed(ServiceError):
    """The caller may not do this at all (a right he lacks, not a fault of what he sent)."""


class TooOften(ServiceError):
    """Done too often lately; ``wait`` says how many seconds until the next try is taken."""


class EndUnconfirmed(ServiceError):
    """The hand would end the game and the ending was not confirmed, so nothing was recorded;
    ``reason`` and ``winners`` say how it would end."""

    def __init__(self, *, reason: str, winners: list[str]) -> None:
        super().__init__(
            "hand_ends_game",
            "this hand ends the game; it is saved once confirmed",
            reason=reason,
            winners=winners,
        )


class RequestIdReused(ServiceError):
    """The request id (an API's Idempotency-Key) was already given to another change: neither a
    resend of that one nor a new request."""

    def __init__(self) -> None:
        super().__init__("idempotency_key_reused", "the request id was used for another change")


class NameRefused(ServiceError):
    """A player's name that cannot be used: empty, too long, with control characters, or another
    player's of the same club or roster (the code says which)."""


class StaleEdit(ServiceError):
    """Someone else changed the hand since this form was loaded; ``current`` is what is stored now."""

    def __init__(self, *, hand: int, current: Mapping[str, object] | None) -> None:
        super().__init__("stale_edit", f"hand {hand} was changed by someone else meanwhile", hand=hand)
        self.current = current


class HandGone(ServiceError):
    """The hand was deleted meanwhile (a correction or a second delete from another phone)."""

    def __init__(self, *, hand: int) -> None:
        super().__init__("hand_gone", f"hand {hand} was deleted meanwhile", hand=hand)


class HandTaken(ServiceError):
    """Another phone recorded the hand this form was for; ``number`` and ``version`` name it."""

    def __init__(self, *, hand: int, number: int = 0, version: int = 0) -> None:
        super().__init__(
            "hand_taken",
            f"hand {hand} was just recorded on another phone",
            hand=hand,
            number=number,
            version=version,
        )


class StalePlayer(ServiceError):
    """Someone changed the player since the form was loaded."""

    def __init__(self, *, player: str) -> None:
        super().__init__("stale_player", f"{player} was changed meanwhile", player=player)


class StaleVersion(ServiceError):
    """Someone changed the object (a club, a member's role, a tournament, an entry, a round, a
    season) since the form or the client read the version it sends; the code names the kind
    (``stale_round``)."""

    def __init__(self, *, kind: str, **params: object) -> None:
        super().__init__(f"stale_{kind}", f"the {kind} was changed by someone else meanwhile", **params)
        self.kind = kind


class SessionUnknown(ServiceError):
    """No session of this user has that id (ended already, or someone else's)."""

    def __init__(self) -> None:
        super().__init__("session_unknown", "there is no such session")
