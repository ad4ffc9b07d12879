"""How every federation write runs, on the model of ``games.services.hands``: one transaction
with the federation's row locked (a club's side of a federation write locks it too, so the two
sides never cross), versions that refuse a stale form, request ids that make a resend change
nothing twice, and each change recorded in the federation's history."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction

from federations.models import Federation, FederationChange
from games.models import Club
from games.services.errors import RequestIdReused, StaleVersion

Actor = User | AnonymousUser | None


def acting_user(user: Actor) -> User | None:
    return user if user is not None and user.is_authenticated else None


def record(
    federation: Federation,
    action: str,
    user: Actor,
    request_id: uuid.UUID | None,
    *,
    target: str = "",
    club: Club | int | None = None,
    undoes: FederationChange | None = None,
    details: Mapping[str, object] | None = None,
    **data: object,
) -> FederationChange:
    """The change in the federation's history, with who made it and the request id."""
    actor = acting_user(user)
    return FederationChange.objects.create(
        federation=federation,
        action=action,
        club_id=club if isinstance(club, int) or club is None else club.pk,
        data={**(details or {}), **data},
        user=actor,
        user_name=actor.get_username() if actor is not None else "",
        request_id=request_id,
        target=target[:60],
        undoes=undoes,
    )


def _replayed(federation: Federation, request_id: uuid.UUID | None, target: str) -> FederationChange | None:
    if request_id is None:
        return None
    change = FederationChange.objects.filter(federation=federation, request_id=request_id).first()
    if change is not None and change.target != target[:60]:
        raise RequestIdReused()
    return change


def resent(federation: Federation, request_id: uuid.UUID | None, target: str) -> bool:
    """Whether this request repeats a change already made (the service will return it and change
    nothing); a request id used for another change is refused (``idempotency_key_reused``)."""
    return _replayed(federation, request_id, target) is not None


def write_once[T](
    federation: Federation,
    request_id: uuid.UUID | None,
    target: str,
    write: Callable[[Federation], T],
) -> T | FederationChange:
    """Run ``write`` with the federation locked, once per request id: a resend gets the change
    the first send recorded and changes nothing; two sends racing each other meet at the unique
    request id, and the second gets the first one's change."""
    replay = _replayed(federation, request_id, target)
    if replay is not None:
        return replay
    try:
        with transaction.atomic():
            locked = Federation.objects.select_for_update(no_key=True).get(pk=federation.pk)
            replay = _replayed(locked, request_id, target)
            if replay is not None:
                return replay
            return write(locked)
    except IntegrityError:
        replay = _replayed(federation, request_id, target)
        if replay is None:
            raise
        return replay


def check_version(current: int, sent: int | None, code: str) -> None:
    """A form names the version it showed; another meanwhile refuses the write (a
    ``StaleVersion``, which the API answers with a 412 and the object as it is now)."""
    if sent is None or current != sent:
        raise StaleVersion(kind=code.removeprefix("stale_"))
