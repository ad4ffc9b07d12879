"""How every write to a tournament runs, on the model of ``games.services.hands``: one
transaction with the tournament's row locked, versions that refuse a stale form, request ids
that make a resent form change nothing twice (the change recorded with the request id is found
and returned), and each change recorded in the tournament's history.

Who may call the services is the views' check (``tournaments.access``): only the club's
organisers. What a table scores is written by the games app's own services, through the
table's game.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.db import IntegrityError, transaction

from games.services.errors import RequestIdReused
from tournaments.models import Entry, Tournament, TournamentChange
from tournaments.services.common import Actor, acting_user
from tournaments.tournament_data import last_round, tournament_data


def record_change(
    tournament: Tournament,
    action: str,
    user: Actor,
    request_id: uuid.UUID | None,
    *,
    target: str = "",
    **data: object,
) -> TournamentChange:
    """The change in the tournament's history, with the request id that made it."""
    return TournamentChange.objects.create(
        tournament=tournament,
        action=action,
        data=data,
        user=acting_user(user),
        request_id=request_id,
        target=target,
    )


def entry_target(entry: Entry | int, operation: str) -> str:
    """What a request id names: one operation on one object (see ``resent``)."""
    return f"entry-{entry if isinstance(entry, int) else entry.pk}:{operation}"[:60]


def round_target(number: int, operation: str) -> str:
    return f"round-{number}:{operation}"[:60]


def _replayed(tournament: Tournament, request_id: uuid.UUID | None, target: str) -> TournamentChange | None:
    """The change recorded with ``request_id``: a resend of the same operation on the same object
    gets it back; the id given to another operation or object is refused, so that a reused id
    can neither pass for a resend nor skip the version check."""
    if request_id is None:
        return None
    change = TournamentChange.objects.filter(tournament=tournament, request_id=request_id).first()
    if change is not None and change.target != target:
        raise RequestIdReused()
    return change


def resent(*, tournament: Tournament, request_id: uuid.UUID | None, target: str) -> bool:
    """Whether this request repeats a change already made (the service will return it and change
    nothing); a request id used for another change is refused (``idempotency_key_reused``)."""
    return _replayed(tournament, request_id, target) is not None


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


def write_once[T](
    tournament: Tournament, request_id: uuid.UUID | None, target: str, write: Callable[[Tournament], T]
) -> T | TournamentChange:
    """Run ``write`` with the tournament locked, once per request id: a resend gets the change
    the first send recorded (and changes nothing); two sends racing each other meet at the
    unique request id, and the second gets the first one's change."""
    replay = _replayed(tournament, request_id, target)
    if replay is not None:
        return replay
    try:
        with transaction.atomic():
            locked = _locked(tournament)
            replay = _replayed(locked, request_id, target)
            if replay is not None:
                return replay
            return write(locked)
    except IntegrityError:
        replay = _replayed(tournament, request_id, target)
        if replay is None:
            raise
        return replay


def finished(tournament: Tournament) -> bool:
    """Whether the tournament's last round is confirmed (the seasons count it then)."""
    return last_round(tournament_data(tournament)) is not None
