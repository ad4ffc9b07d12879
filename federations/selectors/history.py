"""The federation's history as its organisers read it: a page of changes, newest first, each
with what the page says of it (its names) and whether it can be undone; and every change for
the CSV."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet

from federations.models import Federation, FederationChange

PAGE_SIZE = 100
Action = FederationChange.Action
UNDOABLE = (Action.MERGED, Action.UNMERGED)


def history_rows(*, federation: Federation) -> QuerySet[FederationChange]:
    """Every change, newest first, each with ``undone``: whether a later change undid it."""
    undone = FederationChange.objects.filter(undoes=OuterRef("pk"))
    return (
        FederationChange.objects.filter(federation=federation)
        .annotate(undone=Exists(undone))
        .order_by("-created_at", "-id")
    )


def change_names(change: FederationChange) -> list[str]:
    """The names a change is about, as its data keeps them (a club, a person, an account, the
    two entries of a merge; a setting's name and values)."""
    data = change.data or {}
    names: list[str] = []
    for key in ("club_name", "name", "username"):
        value = data.get(key)
        if isinstance(value, str) and value:
            names.append(value)
    if change.action in UNDOABLE:
        names += [str(data.get("source_name", "")), str(data.get("into_name", ""))]
    if change.action == Action.PERSON_EDITED:
        before, after = data.get("before") or {}, data.get("after") or {}
        if before.get("name") != after.get("name"):
            names.append(f"{before.get('name', '')} → {after.get('name', '')}")
        else:
            names.append(str(after.get("name", "")))
    if change.action == Action.SETTINGS:
        for key, value in sorted(data.items()):
            if isinstance(value, dict) and "after" in value:
                names.append(f"{key}: {value.get('before')} → {value.get('after')}")
    return [name for name in names if name]


@dataclass(frozen=True)
class HistoryPage:
    changes: list[FederationChange]
    page: int
    pages: int


def can_undo(change: FederationChange) -> bool:
    return change.action in UNDOABLE and not getattr(change, "undone", True)


def history_page(*, federation: Federation, page: int = 1) -> HistoryPage:
    """One page of the history (two queries): each change carries ``names`` and ``undoable``."""
    rows = history_rows(federation=federation)
    count = rows.count()
    pages = max(1, -(-count // PAGE_SIZE))
    page = min(max(page, 1), pages)
    start = (page - 1) * PAGE_SIZE
    changes = list(rows[start : start + PAGE_SIZE])
    for change in changes:
        change.names = change_names(change)  # type: ignore[attr-defined]
        change.undoable = can_undo(change)  # type: ignore[attr-defined]
    return HistoryPage(changes=changes, page=page, pages=pages)


def history_change(*, federation: Federation, pk: int) -> FederationChange | None:
    """One change, with ``names`` and ``undoable`` as a page's."""
    change = history_rows(federation=federation).filter(pk=pk).first()
    if change is not None:
        change.names = change_names(change)  # type: ignore[attr-defined]
        change.undoable = can_undo(change)  # type: ignore[attr-defined]
    return change


def every_change(*, federation: Federation) -> Iterator[FederationChange]:
    """The whole log for the CSV, newest first, read in chunks."""
    return history_rows(federation=federation).iterator(chunk_size=2000)
