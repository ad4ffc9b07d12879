"""Putting a game in another game's evening, and taking it out: for games the same players
played at one table without a rematch between them (a new game started by hand), so that the
evening settles them at once (games.selectors.evening).

Written as every game write is: the games' rows locked (in id order, so two phones joining the
same games meet in one order), the change recorded on the game that was put in or taken out,
a resend with the same request id answered by the change it made, and undo is itself a change.
Nothing across games is stored: the evening is read from the games whenever it is asked for.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, transaction

from games.models import Change, Game, Result
from games.sheets import rows

from .errors import ServiceError
from .games import _actor, _resent

Actor = User | AnonymousUser | None


def _linked(game: Game) -> set[int]:
    """The ids of the games linked to ``game`` by rematches or evenings (``rows.evening_sql``)."""
    with connection.cursor() as cursor:
        cursor.execute(rows.evening_sql(), [game.pk])
        return {row[0] for row in cursor.fetchall()}


def _players(game: Game) -> set[str]:
    """The game's players by their names' keys, as the evening compares them."""
    return set(Result.objects.filter(game=game).values_list("player__key", flat=True))


def _lock(*games: Game) -> list[Game]:
    found = {
        g.pk: g
        for g in Game.objects.select_for_update(no_key=True)
        .filter(pk__in=[g.pk for g in games])
        .order_by("pk")
    }
    locked = [found.get(g.pk) for g in games]
    if any(g is None or g.deleted_at is not None for g in locked):
        raise ServiceError("game_deleted", "the game was deleted")
    return [g for g in locked if g is not None]


def _set(other: Game, evening: Game | None, action: str, user: Actor, **extra: object) -> Change:
    before = other.evening.public_id if other.evening is not None else None
    other.evening = evening
    other.save(update_fields=["evening", "updated_at"])
    return Change.objects.create(
        game=other,
        action=action,
        before={"evening": before},
        after={"evening": evening.public_id if evening is not None else None},
        user=_actor(user),
        **extra,
    )


def evening_join(*, game: Game, other: Game, user: Actor, request_id: uuid.UUID | None = None) -> Change:
    """Put ``other`` in ``game``'s evening. Refused unless it is of the same family and players,
    not a tournament's table, and in no evening yet. Whether ``user`` may change both games is
    the caller's check (``access.can_edit``)."""
    with transaction.atomic():
        locked, moved = _lock(game, other)
        resent = _resent(moved, request_id, Change.Action.JOINED)
        if resent is not None:
            return resent
        if moved.pk == locked.pk or moved.pk in _linked(locked):
            raise ServiceError("evening_already", "the game is in this evening already")
        if moved.family != locked.family or _players(moved) != _players(locked):
            raise ServiceError("evening_other_players", "another game or other players")
        if moved.event_name or locked.event_name:
            raise ServiceError("evening_event", "a tournament's tables are settled by the tournament")
        if moved.evening_id is not None:
            raise ServiceError("evening_taken", "the game is in another evening")
        return _set(moved, locked, Change.Action.JOINED, user, request_id=request_id)


def evening_part(*, game: Game, other: Game, user: Actor, request_id: uuid.UUID | None = None) -> Change:
    """Take ``other``, which a scorekeeper put in ``game``'s evening, out of it again (a game
    linked by a rematch stays: the rematch made it the evening's)."""
    with transaction.atomic():
        locked, moved = _lock(game, other)
        resent = _resent(moved, request_id, Change.Action.PARTED)
        if resent is not None:
            return resent
        if moved.evening_id is None or moved.pk not in _linked(locked):
            raise ServiceError("evening_not_put", "the game was not put in this evening")
        return _set(moved, None, Change.Action.PARTED, user, request_id=request_id)


def undo_evening(locked: Game, change: Change, user: Actor) -> Change:
    """Put the game back in the evening ``change`` took it out of, or out of the one it put it
    in, if the game is still where the change left it."""
    before = (change.before or {}).get("evening")
    after = (change.after or {}).get("evening")
    current = locked.evening.public_id if locked.evening is not None else None
    if current != after:
        raise ServiceError("changed_since", "the game's evening was changed after this; undo that first")
    target = None
    if before is not None:
        target = Game.objects.filter(public_id=before, deleted_at=None).first()
        if target is None:
            raise ServiceError("game_deleted", "the game was deleted")
    action = Change.Action.JOINED if target is not None else Change.Action.PARTED
    return _set(locked, target, action, user, undoes=change)
