"""The federation's register as its pages and API read it: a page of entries (by number, or
those a search finds by name or federation id), one entry, and the likely duplicates."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from federations.models import Federation, Person
from federations.services.register import likely_duplicates, parse_number, person_label
from games.text.names import loose_key

PAGE_SIZE = 100
MAX_NUMBER = 2**31 - 1  # the column's bound: a larger one is no entry's
MAX_QUERY = 80


def register_rows(*, federation: Federation, query: str = "") -> QuerySet[Person]:
    """The live entries (merged ones aside) by number; ``query``: those whose name contains it
    (accents and case aside) or whose federation id it is."""
    rows = Person.objects.filter(federation=federation, merged_into=None).select_related("home_club")
    query = query.strip()[:MAX_QUERY]
    if query:
        found = Q(key__contains=loose_key(query)) if loose_key(query) else Q(pk__in=[])
        number = parse_number(federation, query)
        if number is not None:
            found |= Q(number=number)
        rows = rows.filter(found)
    return rows.order_by("number")


@dataclass(frozen=True)
class RegisterRow:
    person: Person
    label: str  # the federation id, "CZ-00042"


@dataclass(frozen=True)
class RegisterPage:
    entries: list[RegisterRow]
    page: int
    pages: int
    count: int
    query: str


def register_page(*, federation: Federation, query: str = "", page: int = 1) -> RegisterPage:
    """One page of the register (two queries, whatever its size)."""
    rows = register_rows(federation=federation, query=query)
    count = rows.count()
    pages = max(1, -(-count // PAGE_SIZE))
    page = min(max(page, 1), pages)
    start = (page - 1) * PAGE_SIZE
    return RegisterPage(
        entries=[RegisterRow(p, person_label(federation, p.number)) for p in rows[start : start + PAGE_SIZE]],
        page=page,
        pages=pages,
        count=count,
        query=query.strip()[:MAX_QUERY],
    )


def register_entry(*, federation: Federation, number: int) -> Person | None:
    """The entry of that number, merged or not, with its home club and its survivor (None
    for a number no entry can have)."""
    if not 0 < number <= MAX_NUMBER:
        return None
    return (
        Person.objects.filter(federation=federation, number=number)
        .select_related("home_club", "merged_into")
        .first()
    )


def duplicates(*, federation: Federation) -> list[list[Person]]:
    """The merge candidates: live entries whose names read alike (one query)."""
    return likely_duplicates(federation)
