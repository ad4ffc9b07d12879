"""Reads of a club's audit log (models.AuditEntry), newest first."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import AuditEntry, Club

PAGE = 50


def audit_entries(*, club: Club) -> QuerySet[AuditEntry]:
    """All the club's entries, newest first (the API pages through them)."""
    return AuditEntry.objects.filter(club=club).order_by("-pk")


def audit_page(
    *, club: Club, before: int | None = None, size: int = PAGE
) -> tuple[list[AuditEntry], int | None]:
    """One page of the log, newest first: (entries, the id to ask ``before`` for the next page,
    or None on the last one). 1 query: the actor's name is kept on the entry."""
    entries = audit_entries(club=club)
    if before is not None:
        entries = entries.filter(pk__lt=before)
    rows = list(entries[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return rows, (rows[-1].pk if more and rows else None)
