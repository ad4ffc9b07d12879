"""Warnings and point penalties an organiser gives a player, each with a reason: recorded
changes on the tournament's row (given, taken back), in its history and the club's audit log,
applied by the standings (``tournament_data``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from games.models import AuditEntry
from games.services.audit import record as record_audit
from games.services.errors import ServiceError
from games.text.names import has_control
from tournaments import derived
from tournaments.models import Entry, Round, Tournament, TournamentChange
from tournaments.services.common import Actor, check_version
from tournaments.services.writes import entry_target, finished, record_change, write_once

Action = TournamentChange.Action
AuditAction = AuditEntry.Action

PENALTY_KINDS = ("warning", "points")
MAX_PENALTY = 1000  # points off at once: more is a typing slip under any points scheme
MAX_REASON = 200


def penalty_target(entry: int) -> str:
    return entry_target(entry, "penalty")


def penalty_undo_target(penalty: int) -> str:
    return f"penalty-{penalty}:undo"


def checked_penalty_points(kind: str, points: Decimal | Fraction | int | None) -> Fraction:
    """A penalty's points: more than 0 and at most ``MAX_PENALTY``, in hundredths at most; a
    warning takes none."""
    if kind not in PENALTY_KINDS:
        raise ServiceError("penalty_kind", "a warning or a point penalty", field="kind")
    if kind == "warning":
        if points:
            raise ServiceError("penalty_warning_points", "a warning takes no points", field="points")
        return Fraction(0)
    if points is None:
        raise ServiceError("penalty_points_range", "points needed", field="points", maximum=MAX_PENALTY)
    exact = Fraction(str(points)) if isinstance(points, Decimal) else Fraction(points)
    if not 0 < exact <= MAX_PENALTY or (exact * 100).denominator != 1:
        raise ServiceError("penalty_points_range", "points out of range", field="points", maximum=MAX_PENALTY)
    return exact


def penalty_give(
    *,
    tournament: Tournament,
    entry_id: int,
    kind: str,
    points: Decimal | Fraction | int | None,
    round_number: int | None,
    reason: str,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Give a registered player a warning (no points) or a point penalty with a reason, off a
    round's points (``round_number``) or the tournament's total (None). The standings take the
    points off at once; the tournament's version refuses a stale form."""
    taken = checked_penalty_points(kind, points)
    said = " ".join((reason or "").split())
    if not said:
        raise ServiceError("penalty_reason", "a reason is needed", field="reason")
    if len(said) > MAX_REASON or has_control(said):
        raise ServiceError("penalty_reason_long", "reason too long", field="reason", maximum=MAX_REASON)

    def write(locked: Tournament) -> Tournament:
        # The tournament's version: any change to it (another penalty, too) may change the
        # standings the organiser looked at.
        check_version("penalties", locked.version, version)
        entry = Entry.objects.select_related("player").filter(tournament=locked, pk=entry_id).first()
        if entry is None:
            raise ServiceError("penalty_entry", "not registered", field="entry")
        numbers = set(Round.objects.filter(tournament=locked).values_list("number", flat=True))
        if round_number is not None and round_number not in numbers:
            raise ServiceError("penalty_round", "no such round", field="round", round=round_number)
        given = list(locked.penalties or [])
        penalty = {
            "id": max((int(p["id"]) for p in given), default=0) + 1,
            "entry": entry.pk,
            "player": entry.player.name,
            "kind": kind,
            "points": str(taken),
            "round": round_number,
            "reason": said,
            "undone": False,
        }
        locked.penalties = [*given, penalty]
        locked.version += 1
        locked.save(update_fields=["penalties", "version", "updated_at"])
        _penalty_recorded(locked, Action.PENALTY, penalty, user, request_id, penalty_target(entry.pk))
        return locked

    write_once(tournament, request_id, penalty_target(entry_id), write)
    tournament.refresh_from_db()
    return tournament


def penalty_undo(
    *,
    tournament: Tournament,
    penalty_id: int,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Take back a warning or a penalty: it stays in the list, marked undone, and the standings
    give the points back. Taking back one already taken back changes nothing."""

    def write(locked: Tournament) -> Tournament:
        check_version("penalties", locked.version, version)
        given = [dict(p) for p in locked.penalties or []]
        penalty = next((p for p in given if int(p["id"]) == penalty_id), None)
        if penalty is None:
            raise ServiceError("penalty_unknown", "no such penalty", field="penalty")
        if penalty.get("undone"):
            return locked
        penalty["undone"] = True
        locked.penalties = given
        locked.version += 1
        locked.save(update_fields=["penalties", "version", "updated_at"])
        target = penalty_undo_target(penalty_id)
        _penalty_recorded(locked, Action.PENALTY_UNDONE, penalty, user, request_id, target)
        return locked

    write_once(tournament, request_id, penalty_undo_target(penalty_id), write)
    tournament.refresh_from_db()
    return tournament


def _penalty_recorded(
    locked: Tournament,
    action: str,
    penalty: Mapping[str, Any],
    user: Actor,
    request_id: uuid.UUID | None,
    target: str,
) -> None:
    """The change in the tournament's history and the club's audit log; the seasons count the
    new standings when the tournament is over."""
    data = {k: penalty[k] for k in ("id", "player", "kind", "points", "round", "reason")}
    record_change(locked, action, user, request_id, target=target, **data)
    audit = AuditAction.PENALTY_GIVEN if action == Action.PENALTY else AuditAction.PENALTY_UNDONE
    record_audit(
        club=locked.club_id,
        action=audit,
        actor=user,
        target=f"{locked.name}: {penalty['player']}",
        data={"tournament": locked.public_id, **data},
    )
    if penalty["kind"] == "points" and finished(locked):
        derived.tournament_changed(locked)
