"""What the federation seasons' pages and API read: the federation's seasons, one page of a
season's standings (a fixed number of queries, whatever the size of the register: the tests
pin them) and a person's league card."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from federations.models import (
    Federation,
    FederationSeason,
    FederationSeasonResult,
    FederationSeasonStanding,
    Person,
)
from federations.seasons import ALL, CardLine, card_lines
from federations.selectors.ratings import freshness
from federations.services.register import person_label
from games.text.collation import by_name

PAGE = 100
MAX_ID = 2**31 - 1


def federation_seasons(*, federation: Federation) -> list[FederationSeason]:
    """The federation's seasons, the latest first (1 query)."""
    return list(FederationSeason.objects.filter(federation=federation).order_by("-starts", "-id"))


def season_by_public_id(*, federation: Federation, public_id: str) -> FederationSeason | None:
    return (
        FederationSeason.objects.select_related("federation")
        .filter(federation=federation, public_id=public_id[:16])
        .first()
    )


def qualifies(season: FederationSeason, row: FederationSeasonStanding) -> bool:
    """Among the season's top ``qualify`` ranked people (a tie at the line qualifies both)."""
    return bool(season.qualify) and row.ranked and row.rank <= season.qualify


@dataclass(frozen=True)
class StandingLine:
    row: FederationSeasonStanding
    label: str  # the person's federation id
    qualifies: bool


@dataclass(frozen=True)
class SeasonView:
    season: FederationSeason
    family: str  # "" for every family of the season together
    rows: list[FederationSeasonStanding]  # this page's: ranked first, then below the line
    pending: bool  # a change is not yet in these standings (the worker is catching up)
    as_of: datetime.datetime | None
    page: int = 1
    pages: int = 1
    total: int = 0  # lines of the family's standings

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None

    @property
    def lines(self) -> list[StandingLine]:
        federation = self.season.federation
        return [
            StandingLine(r, person_label(federation, r.person.number), qualifies(self.season, r))
            for r in self.rows
        ]

    @property
    def groups(self) -> tuple[list[StandingLine], list[StandingLine], list[StandingLine]]:
        """This page's lines: above the qualification line (every ranked one without a
        line), ranked below it, and below the minimum of tournaments."""
        lines = self.lines
        above = [line for line in lines if line.row.ranked and (line.qualifies or not self.season.qualify)]
        below = [line for line in lines if line.row.ranked and self.season.qualify and not line.qualifies]
        return above, below, [line for line in lines if not line.row.ranked]


def standing_order(row: FederationSeasonStanding) -> tuple[bool, int, tuple[object, ...]]:
    """Ranked first, by rank; people sharing one by name, in the reader's language."""
    return (not row.ranked, row.rank, by_name(row.person.name))


def season_view(*, season: FederationSeason, family: str = "", page: int = 1) -> SeasonView:
    """One page of the season's standings of ``family`` ("" or an unknown one: all families):
    4 queries, whatever the size of the register."""
    if family not in season.families or len(season.families) == 1:
        family = ALL
    standings = FederationSeasonStanding.objects.filter(season=season, family=family)
    total = standings.count()
    pages = max(1, -(-total // PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * PAGE
    rows = list(
        standings.select_related("person").order_by("-ranked", "rank", "person__key")[start : start + PAGE]
    )
    rows.sort(key=standing_order)
    fresh = freshness(season.federation)
    return SeasonView(season, family, rows, fresh.pending, fresh.as_of, page, pages, total)


def season_person(*, season: FederationSeason, number: int) -> Person | None:
    """The register entry of that number (a merged one: the entry it was merged into)."""
    if not 0 < number <= MAX_ID:
        return None
    person = (
        Person.objects.select_related("merged_into")
        .filter(federation_id=season.federation_id, number=number)
        .first()
    )
    while person is not None and person.merged_into is not None:
        person = Person.objects.select_related("merged_into").filter(pk=person.merged_into.pk).first()
    return person


@dataclass(frozen=True)
class Card:
    season: FederationSeason
    person: Person
    label: str
    family: str
    standing: FederationSeasonStanding | None
    lines: list[CardLine]
    pending: bool
    as_of: datetime.datetime | None

    @property
    def total(self) -> Fraction:
        return sum((line.points for line in self.lines if line.counted), Fraction(0))

    @property
    def counted(self) -> int:
        return sum(1 for line in self.lines if line.counted)

    @property
    def events_missing(self) -> int:
        return max(0, self.season.min_events - len(self.lines))


def league_card(*, season: FederationSeason, person: Person, family: str = "") -> Card:
    """A person's tournaments of the season (of ``family``; "": all) with the points each
    earned and whether they count, from the stored results (4 queries)."""
    if family not in season.families or len(season.families) == 1:
        family = ALL
    results = FederationSeasonResult.objects.filter(season=season, person=person).select_related(
        "tournament__club"
    )
    if family:
        results = results.filter(family=family)
    standing = FederationSeasonStanding.objects.filter(season=season, family=family, person=person).first()
    fresh = freshness(season.federation)
    return Card(
        season,
        person,
        person_label(season.federation, person.number),
        family,
        standing,
        card_lines(season, list(results.order_by("date", "tournament_id"))),
        fresh.pending,
        fresh.as_of,
    )


@dataclass(frozen=True)
class PersonSeasonLine:
    season: FederationSeason
    standing: FederationSeasonStanding


def person_seasons(*, person: Person) -> list[PersonSeasonLine]:
    """The person's lines (all families together) in the federation's seasons, latest first
    (1 query)."""
    rows = (
        FederationSeasonStanding.objects.filter(person=person, family=ALL)
        .select_related("season")
        .order_by("-season__starts", "-season_id")
    )
    return [PersonSeasonLine(row.season, row) for row in rows]
