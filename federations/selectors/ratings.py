"""The federation's rating lists as the pages and the API read them: the live list a page at a
time (a fixed number of queries, whatever the size of the register), the published lists, a
person's ratings and a tournament's rating report."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from federations.models import (
    Federation,
    FederationDirty,
    FederationRating,
    FederationRatingEvent,
    FederationSeasonDirty,
    FederationState,
    Person,
    PublishedLine,
    PublishedList,
)
from federations.services.register import parse_number, person_label
from games.text.names import loose_key
from scoring.families import FAMILY_INFO
from scoring.ratings import START, Rating, display, display_sigma
from tournaments.models import Tournament

PAGE = 100


@dataclass(frozen=True)
class Freshness:
    pending: bool  # a change waits for the worker
    as_of: datetime.datetime | None  # every change before this is in the list


def freshness(federation: Federation) -> Freshness:
    # The list's marks and the seasons' in one query.
    marked = (
        Federation.objects.filter(pk=federation.pk)
        .annotate(
            rating=Exists(FederationDirty.objects.filter(federation=OuterRef("pk"))),
            season=Exists(FederationSeasonDirty.objects.filter(federation=OuterRef("pk"))),
        )
        .values_list("rating", "season")
        .first()
    )
    return Freshness(
        bool(marked and any(marked)),
        FederationState.objects.filter(federation=federation).values_list("as_of", flat=True).first(),
    )


def rated_families(federation: Federation) -> list[str]:
    """The families the federation has a list of (one query: a look into the list's index per
    family, not a pass over its lines)."""
    lists = {
        family: Exists(FederationRating.objects.filter(federation=OuterRef("pk"), family=family))
        for family in FAMILY_INFO
    }
    found = Federation.objects.filter(pk=federation.pk).values(**lists).first() or {}
    return sorted(family for family, listed in found.items() if listed)


@dataclass(frozen=True)
class ListRow:
    rank: int
    person: int
    number: int
    label: str  # the federation id ("CZ-00042")
    name: str
    home_club: str
    rating: int
    uncertainty: int
    games: int
    last_played: datetime.datetime
    provisional: bool
    inactive: bool
    # The change since the last published list (None: he was not on it, or there is none).
    trend: int | None
    new: bool  # not on the last published list (when there is one)


@dataclass(frozen=True)
class RatingPage:
    federation: Federation
    family: str
    families: list[str]
    rows: list[ListRow]
    page: int
    pages: int
    total: int
    query: str
    last_list: PublishedList | None
    fresh: Freshness


def _search(federation: Federation, query: str) -> Q:
    number = parse_number(federation, query)
    found = Q(key__contains=loose_key(query))
    return found | Q(person__number=number) if number is not None else found


def live_list(
    *,
    federation: Federation,
    family: str = "",
    page: int = 1,
    query: str = "",
    now: datetime.datetime | None = None,
    size: int | None = None,
) -> RatingPage:
    """A page of the live list of ``family`` (else the first rated): ranked by the shown rating
    (equal ratings share a rank, then by name), with the provisional and inactive marks and the
    trend since the last published list. Searching by name or id keeps each one's rank in the
    whole list. ``size``: rows a page (the CSV file reads the whole list as one page)."""
    size = size or PAGE
    families = rated_families(federation)
    fresh = freshness(federation)
    if family not in families:
        family = families[0] if families else ""
    lines = FederationRating.objects.filter(federation=federation, family=family)
    query = query.strip()[:40]
    if query:
        lines = lines.filter(_search(federation, query))
    total = lines.count()
    pages = max(1, -(-total // size))
    page = min(max(page, 1), pages)
    offset = (page - 1) * size
    # The page's lines are found in the index alone, then read with their people: joined
    # before the cut, every line above the page would be joined too.
    order = ("-rating", "key", "person_id")
    ids = list(lines.order_by(*order).values_list("pk", flat=True)[offset : offset + size])
    shown = list(
        FederationRating.objects.filter(pk__in=ids).select_related("person__home_club").order_by(*order)
    )
    above = _above(
        federation, family, {line.rating for line in shown}, first=shown[0] if shown and not query else None
    )
    last_list = (
        PublishedList.objects.filter(federation=federation, family=family).order_by("-month").first()
        if family
        else None
    )
    before = (
        dict(
            PublishedLine.objects.filter(
                published=last_list, person__in=[line.person_id for line in shown]
            ).values_list("person_id", "rating")
        )
        if last_list is not None and shown
        else {}
    )
    now = now or timezone.now()
    idle = datetime.timedelta(days=federation.inactive_days)
    rows: list[ListRow] = []
    for i, line in enumerate(shown):
        if rows and rows[-1].rating == line.rating:
            rank = rows[-1].rank
        elif query or not rows:
            rank = above[line.rating] + 1
        else:
            rank = offset + i + 1
        then = before.get(line.person_id)
        rows.append(
            ListRow(
                rank=rank,
                person=line.person_id,
                number=line.person.number,
                label=person_label(federation, line.person.number),
                name=line.person.name,
                home_club=line.person.home_club.name if line.person.home_club else "",
                rating=line.rating,
                uncertainty=display_sigma(Rating(line.mu, line.sigma)),
                games=line.games,
                last_played=line.last_played,
                provisional=line.games < federation.provisional_games,
                inactive=bool(federation.inactive_days) and now - line.last_played > idle,
                trend=line.rating - then if then is not None else None,
                new=last_list is not None and then is None,
            )
        )
    return RatingPage(federation, family, families, rows, page, pages, total, query, last_list, fresh)


def _above(
    federation: Federation, family: str, ratings: set[int], *, first: FederationRating | None
) -> dict[int, int]:
    """How many lines of the whole list rate higher than each of ``ratings`` (one query): a
    page's first row's rank, or each found row's."""
    lines = FederationRating.objects.filter(federation=federation, family=family)
    if first is not None:  # a range of the list's index, however deep the page
        return {first.rating: lines.filter(rating__gt=first.rating).count()}
    wanted = sorted(ratings)
    if not wanted:
        return {}
    counts = lines.aggregate(
        **{f"r{i}": Count("pk", filter=Q(rating__gt=value)) for i, value in enumerate(wanted)}
    )
    return {value: counts[f"r{i}"] for i, value in enumerate(wanted)}


# ---------------------------------------------------------------------- published lists


@dataclass(frozen=True)
class PublishedPage:
    federation: Federation
    published: PublishedList
    months: list[datetime.date]  # every published month of the family, newest first
    lines: list[PublishedLine]
    page: int
    pages: int
    total: int


def published_months(federation: Federation, family: str) -> list[datetime.date]:
    return list(
        PublishedList.objects.filter(federation=federation, family=family)
        .order_by("-month")
        .values_list("month", flat=True)
    )


def published_list(federation: Federation, family: str, month: datetime.date) -> PublishedList | None:
    """The family's list published for ``month`` (any day of it), None if there is none."""
    return PublishedList.objects.filter(
        federation=federation, family=family, month=month.replace(day=1)
    ).first()


def published_page(
    *, federation: Federation, published: PublishedList, page: int = 1, size: int | None = None
) -> PublishedPage:
    """A page of a published list, as it was published (``size``: rows a page)."""
    size = size or PAGE
    lines = PublishedLine.objects.filter(published=published)
    total = lines.count()
    pages = max(1, -(-total // size))
    page = min(max(page, 1), pages)
    shown = list(lines.order_by("rank", "name", "number")[(page - 1) * size : page * size])
    return PublishedPage(
        federation, published, published_months(federation, published.family), shown, page, pages, total
    )


# ---------------------------------------------------------------------- a person, a tournament


@dataclass(frozen=True)
class PersonRating:
    family: str
    rank: int
    rating: int
    uncertainty: int
    games: int
    last_played: datetime.datetime
    provisional: bool


def person_ratings(person: Person) -> list[PersonRating]:
    """The person's line in each family's live list, with his rank there (two queries)."""
    federation = person.federation
    mine = list(FederationRating.objects.filter(person=person).order_by("family"))
    if not mine:
        return []
    ranks = FederationRating.objects.filter(federation_id=person.federation_id).aggregate(
        **{
            f"r{i}": Count("pk", filter=Q(family=line.family, rating__gt=line.rating))
            for i, line in enumerate(mine)
        }
    )
    return [
        PersonRating(
            family=line.family,
            rank=ranks[f"r{i}"] + 1,
            rating=line.rating,
            uncertainty=display_sigma(Rating(line.mu, line.sigma)),
            games=line.games,
            last_played=line.last_played,
            provisional=line.games < federation.provisional_games,
        )
        for i, line in enumerate(mine)
    ]


@dataclass(frozen=True)
class ReportRow:
    person: int
    number: int
    label: str
    name: str
    games: int
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


def tournament_report(*, federation: Federation, tournament: Tournament) -> list[ReportRow]:
    """Each register entry's rating before the tournament's first table and after its last,
    from the federation's events of its tables (two queries), biggest gain first."""
    steps = (
        FederationRatingEvent.objects.filter(
            federation=federation, who__gt=0, game__tournament_table__round__tournament=tournament
        )
        .order_by("played_at", "game_id")
        .values_list("who", "mu", "sigma", "mu_before", "sigma_before")
    )
    spans: dict[int, tuple[Rating, Rating, int]] = {}
    for who, mu, sigma, mu_before, sigma_before in steps:
        start, _end, games = spans.get(who, (Rating(mu_before, sigma_before), START, 0))
        spans[who] = (start, Rating(mu, sigma), games + 1)
    people = {p.pk: p for p in Person.objects.filter(pk__in=list(spans))}
    rows = [
        ReportRow(
            person=who,
            number=people[who].number,
            label=person_label(federation, people[who].number),
            name=people[who].name,
            games=games,
            before=display(start),
            after=display(end),
        )
        for who, (start, end, games) in spans.items()
    ]
    rows.sort(key=lambda row: (-row.change, row.name, row.number))
    return rows
