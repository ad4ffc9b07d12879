"""A club's audit log: what was done to the club, by whom, from where (models.AuditEntry).

The services that do those things call ``record`` inside their own transaction, so an entry
exists exactly when the change does. The address is the current request's, which
games.web.sessions.SessionSeen notes for the length of a request (none from a command or a
test that calls the service directly). An event about a user rather than a club (his API
tokens, an organiser's login) is recorded in each club it concerns (``record_for_user``).
"""

from __future__ import annotations

import contextvars
import io
import json
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games.models import AuditEntry, Club, Membership
from games.web.spreadsheet import SafeDictWriter

Action = AuditEntry.Action
Role = Membership.Role

# The address of the request being answered (set and reset by games.web.sessions.SessionSeen).
current_address: contextvars.ContextVar[str | None] = contextvars.ContextVar("audit_address", default=None)


def record(
    *,
    club: Club | int,
    action: str,
    actor: User | AnonymousUser | None = None,
    target: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one entry to the club's log (``club``: the club or its id)."""
    person = actor if isinstance(actor, User) and actor.is_authenticated else None
    return AuditEntry.objects.create(
        club_id=club.pk if isinstance(club, Club) else club,
        action=action,
        actor=person,
        actor_name=person.get_username() if person is not None else "",
        target=target[:200],
        data=data or {},
        address=current_address.get(),
    )


def record_for_user(
    *,
    user: User,
    action: str,
    roles: Iterable[str],
    target: str = "",
    data: dict[str, Any] | None = None,
) -> int:
    """Record the event in every club where ``user`` holds one of ``roles``; how many."""
    club_ids = list(
        Membership.objects.filter(user=user, role__in=list(roles)).values_list("club_id", flat=True)
    )
    for club_id in club_ids:
        record(club=club_id, action=action, actor=user, target=target, data=data)
    return len(club_ids)


CSV_COLUMNS = ["time", "action", "description", "actor", "target", "address", "details"]


def audit_export(*, club: Club, user: User | AnonymousUser | None) -> str:
    """The club's whole log as CSV (through the writer that neutralises formulas), the export
    itself recorded in it first."""
    record(club=club, action=Action.AUDIT_EXPORTED, actor=user)
    out = io.StringIO()
    writer = SafeDictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    labels = dict(Action.choices)
    for entry in AuditEntry.objects.filter(club=club).order_by("-pk").iterator():
        writer.writerow(
            {
                "time": entry.created_at.isoformat(timespec="seconds"),
                "action": entry.action,
                "description": str(labels.get(entry.action, entry.action)),
                "actor": entry.actor_name,
                "target": entry.target,
                "address": entry.address or "",
                "details": json.dumps(entry.data, ensure_ascii=False, sort_keys=True) if entry.data else "",
            }
        )
    return out.getvalue()
