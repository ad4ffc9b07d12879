"""The monthly published lists: on the 1st of each month the worker freezes each family's list
as it stood at midnight (the site's time zone), from the rating events of the games played
before then, and never changes it afterwards. A list waits while the family is marked (the
worker is catching up), so it is never made from numbers a change has outdated; it is written
in one transaction, so a worker killed while publishing leaves no half list, and the previous
list stays the latest whole one."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from federations.models import (
    Federation,
    FederationDirty,
    FederationRating,
    FederationRatingEvent,
    Person,
    PublishedLine,
    PublishedList,
)
from federations.ratings import day_start
from scoring.ratings import Rating, display, display_sigma
from tournaments.faults import checkpoint


def month_of(now: datetime.datetime | None = None) -> datetime.date:
    """The 1st of the month ``now`` is in (the site's time zone)."""
    return timezone.localdate(now or timezone.now()).replace(day=1)


def due(now: datetime.datetime | None = None, federation_id: int | None = None) -> dict[int, list[str]]:
    """Each federation's families with a live list and no list published for this month. A
    federation's first list is the one of the first 1st after it was founded."""
    month = month_of(now)
    lines = FederationRating.objects.filter(federation__created_at__lt=day_start(month))
    if federation_id is not None:
        lines = lines.filter(federation_id=federation_id)
    live = set(lines.values_list("federation_id", "family").distinct())
    if not live:
        return {}
    done = set(PublishedList.objects.filter(month=month).values_list("federation_id", "family"))
    waiting: dict[int, list[str]] = {}
    for federation_id, family in sorted(live - done):
        waiting.setdefault(federation_id, []).append(family)
    return waiting


@dataclass(frozen=True)
class _Standing:
    person: int
    mu: float
    sigma: float
    games: int
    last_played: datetime.datetime


def standings_before(federation: Federation, family: str, cutoff: datetime.datetime) -> list[_Standing]:
    """Each register entry's rating after his last game before ``cutoff``, with his games
    before it: two queries, whatever the size of the federation."""
    events = FederationRatingEvent.objects.filter(
        federation=federation, family=family, who__gt=0, played_at__lt=cutoff
    )
    counts = dict(events.values("who").annotate(n=Count("pk")).order_by().values_list("who", "n"))
    latest = (
        events.annotate(
            rank=Window(
                RowNumber(), partition_by=[F("who")], order_by=[F("played_at").desc(), F("game_id").desc()]
            )
        )
        .filter(rank=1)
        .values_list("who", "mu", "sigma", "played_at")
    )
    return [_Standing(who, mu, sigma, counts[who], at) for who, mu, sigma, at in latest]


def publish(federation: Federation, family: str, month: datetime.date) -> PublishedList | None:
    """The family's list of ``month``, made now from the events before its first midnight; the
    one already made if there is one; None while the family is marked."""
    made = PublishedList.objects.filter(federation=federation, family=family, month=month).first()
    if made is not None:
        return made
    if FederationDirty.objects.filter(federation=federation, family=family).exists():
        return None
    cutoff = day_start(month)
    standings = standings_before(federation, family, cutoff)
    people = {
        p.pk: p
        for p in Person.objects.select_related("home_club").filter(pk__in=[s.person for s in standings])
    }
    previous = (
        PublishedList.objects.filter(federation=federation, family=family, month__lt=month)
        .order_by("-month")
        .first()
    )
    before = (
        {
            person: (rating, rank)
            for person, rating, rank in PublishedLine.objects.filter(published=previous).values_list(
                "person_id", "rating", "rank"
            )
        }
        if previous is not None
        else {}
    )
    idle = datetime.timedelta(days=federation.inactive_days)
    shown = sorted(
        ((display(Rating(s.mu, s.sigma)), people[s.person], s) for s in standings),
        key=lambda row: (-row[0], row[1].key, row[1].pk),
    )
    lines: list[PublishedLine] = []
    for position, (value, person, standing) in enumerate(shown, start=1):
        rank = lines[-1].rank if lines and lines[-1].rating == value else position
        then = before.get(person.pk)
        lines.append(
            PublishedLine(
                person=person,
                number=person.number,
                name=person.name,
                home_club=person.home_club.name if person.home_club else "",
                rank=rank,
                rating=value,
                uncertainty=display_sigma(Rating(standing.mu, standing.sigma)),
                mu=standing.mu,
                sigma=standing.sigma,
                games=standing.games,
                last_played=standing.last_played,
                provisional=standing.games < federation.provisional_games,
                inactive=bool(federation.inactive_days) and cutoff - standing.last_played > idle,
                previous_rating=then[0] if then else None,
                previous_rank=then[1] if then else None,
            )
        )
    try:
        with transaction.atomic():
            published = PublishedList.objects.create(
                federation=federation, family=family, month=month, cutoff=cutoff, previous=previous
            )
            for line in lines:
                line.published = published
            PublishedLine.objects.bulk_create(lines, batch_size=2000)
            checkpoint("publish-commit")
    except IntegrityError:  # another worker published it meanwhile
        return PublishedList.objects.get(federation=federation, family=family, month=month)
    return published


def publish_due(federation: Federation, now: datetime.datetime | None = None) -> list[PublishedList]:
    """Publish this month's list of every family that has none yet (and is not marked)."""
    month = month_of(now)
    made = []
    for family in due(now, federation.pk).get(federation.pk, []):
        published = publish(federation, family, month)
        if published is not None:
            made.append(published)
    return made
