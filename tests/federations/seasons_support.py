"""Federation seasons for the tests: federation-rated tournaments at the member clubs, played
through the services (one round, so confirming it ends the tournament), and an independent
reference of a Grand Prix's standings."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils import timezone

from federations.models import (
    Federation,
    FederationClub,
    FederationSeason,
    FederationSeasonStanding,
    Person,
    PersonLink,
    RatedTournament,
)
from federations.services.events import tournament_rate
from federations.services.seasons import GrandPrixSettings, season_create
from tests.federations.support import World
from tests.tournaments.support import play_round, tournament
from tournaments.models import Tournament
from tournaments.tournament_data import compute_standings, last_round, tournament_data

PRESET = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def cup(
    w: World, club: int, names: Sequence[str], day: datetime.date, *, rated: bool = True, confirm: bool = True
) -> Tournament:
    """A one-round Rummikub tournament at one of the clubs on ``day``, marked federation-rated
    (when its club is a member), its round played and (``confirm``) confirmed."""
    organiser = w.organisers[club]
    made = tournament(w.clubs[club], organiser, players=list(names), rounds=1, date=day, name=f"Cup {day}")
    if rated:
        tournament_rate(federation=w.federation, tournament=made, rated=True, user=organiser)
    play_round(made, 1, organiser, confirm=confirm)
    return made


def grand_prix(w: World, **changes: Any) -> FederationSeason:
    today = timezone.localdate()
    values: dict[str, Any] = {
        "name": "Grand Prix",
        "starts": today - datetime.timedelta(days=30),
        "ends": today + datetime.timedelta(days=30),
        "families": ["rummikub"],
    }
    values.update(changes)
    return season_create(
        federation=w.federation, settings=GrandPrixSettings.from_mapping(values), user=w.director
    )


# ---------------------------------------------------------------------- the reference


@dataclass(frozen=True)
class Line:
    points: Fraction
    played: int
    wins: int
    place_sum: int
    ranked: bool
    rank: int | None  # for the ranked only


def _survivor(person: Person) -> int:
    while person.merged_into_id is not None:
        person = Person.objects.get(pk=person.merged_into_id)
    return person.pk


def reference(season: FederationSeason) -> dict[int, Line]:
    """The season's standings (all families together) as the rules say, computed apart from
    ``federations.seasons``: each counted tournament's register people placed by their places
    in it, re-ranked among themselves ("the number of people placed strictly better, plus
    one"), preset or custom points by that place (tied places share the average), best N after
    dropping the worst, and ranks by points, then wins, then average place (the tests' seasons
    use no head-to-head)."""
    federation: Federation = season.federation
    links = {
        link.player_id: _survivor(link.person)
        for link in PersonLink.objects.filter(federation=federation, state="linked").select_related("person")
    }
    periods = list(
        FederationClub.objects.filter(
            federation=federation, joined_at__isnull=False, counts_from__isnull=False
        ).values_list("club_id", "counts_from", "ended_at")
    )
    table = (
        [Fraction(p) for p in season.custom_points]
        if season.tournament_points == "custom"
        else [Fraction(p) for p in PRESET]
    )
    rated = set(RatedTournament.objects.filter(federation=federation).values_list("tournament_id", flat=True))
    events: dict[int, list[tuple[int, Fraction]]] = defaultdict(list)  # person: (place, points)
    for t in Tournament.objects.filter(pk__in=rated).order_by("date", "pk"):
        if t.family not in season.families or not season.starts <= t.date <= season.ends:
            continue
        start = timezone.make_aware(datetime.datetime.combine(t.date, datetime.time()))
        if not any(
            club == t.club_id and since is not None and since <= t.date and (ended is None or start < ended)
            for club, since, ended in periods
        ):
            continue
        data = tournament_data(t)
        if last_round(data) is None:
            continue
        rows = [r for r in compute_standings(data) if r.tables or r.byes]
        if len(rows) < 2:
            continue
        people: dict[int, int] = {}
        for r in rows:
            person = links.get(data.entries[r.player].player_id)
            if person is not None and (person not in people or r.rank < people[person]):
                people[person] = r.rank
        for person, rank in people.items():
            place = 1 + sum(1 for other in people.values() if other < rank)
            tied = sum(1 for other in people.values() if other == rank)
            worth = sum(
                (table[k - 1] if k <= len(table) else Fraction(0) for k in range(place, place + tied)),
                Fraction(0),
            )
            events[person].append((place, worth / tied))
    lines: dict[int, tuple[Fraction, int, int, int]] = {}
    for person, mine in events.items():
        best = sorted((p for _place, p in mine), reverse=True)
        if season.drop_worst and len(best) > season.drop_worst:
            best = best[: -season.drop_worst]
        if season.best_events:
            best = best[: season.best_events]
        lines[person] = (
            sum(best, Fraction(0)),
            len(mine),
            sum(1 for place, _p in mine if place == 1),
            sum(place for place, _p in mine),
        )

    def key(person: int) -> tuple[Fraction, int, Fraction]:
        points, played, wins, place_sum = lines[person]
        return (-points, -wins, Fraction(place_sum, played))

    out: dict[int, Line] = {}
    for person, (points, played, wins, place_sum) in lines.items():
        ranked = played >= season.min_events
        rank = 1 + sum(
            1 for other in lines if lines[other][1] >= season.min_events and key(other) < key(person)
        )
        out[person] = Line(points, played, wins, place_sum, ranked, rank if ranked else None)
    return out


def stored(season: FederationSeason) -> dict[int, Line]:
    return {
        row.person_id: Line(
            Fraction(row.exact_points),
            row.played,
            row.wins,
            round((row.average_place or 0) * row.played),
            row.ranked,
            row.rank if row.ranked else None,
        )
        for row in FederationSeasonStanding.objects.filter(season=season, family="")
    }


def seeded_season(
    federation: Federation,
    people: int,
    *,
    families: Sequence[str] = ("rummikub",),
    qualify: int = 0,
    min_events: int = 0,
    name: str = "Grand Prix",
    long_names: bool = False,
) -> FederationSeason:
    """A season with ``people`` register entries' standing lines (and one result each) written
    as the worker would leave them: pages and their query counts, without playing hundreds of
    tournaments."""
    from decimal import Decimal

    from federations.models import FederationSeasonResult
    from federations.services.register import person_add
    from games.models import Club

    today = timezone.localdate()
    season = FederationSeason.objects.create(
        federation=federation,
        name=name,
        starts=today.replace(month=1, day=1),
        ends=today.replace(month=12, day=31),
        families=list(families),
        qualify=qualify,
        min_events=min_events,
        computed_at=timezone.now(),
    )
    club = Club.objects.filter(federations__federation=federation).first()
    organiser = club.memberships.filter(role="organiser").first() if club is not None else None
    host = tournament(club, organiser.user, players=4, rounds=1) if club and organiser else None
    made = [
        person_add(
            federation=federation,
            name=(f"Maximilián Hrabě z Vysokého Mýta {n}" if long_names else f"Hráč {n}"),
        )
        for n in range(people)
    ]
    lines = []
    # Ranked as the worker ranks them: those with enough tournaments 1, 2, 3…, then those
    # below the line at their positions after them.
    ranked = [n for n in range(people) if 1 + n % 3 >= min_events]
    order = {n: at for at, n in enumerate(ranked + [n for n in range(people) if n not in ranked], start=1)}
    for family in ["", *families] if len(families) > 1 else [""]:
        for n, person in enumerate(made):
            played = 1 + n % 3
            lines.append(
                FederationSeasonStanding(
                    season=season,
                    family=family,
                    person=person,
                    rank=order[n],
                    ranked=played >= min_events,
                    previous_rank=n + 2 if n % 2 else None,
                    points=Decimal(100 - n % 100),
                    exact_points=str(100 - n % 100),
                    events=played,
                    wins=n % 2,
                    average_place=2.5,
                    played=played,
                )
            )
    FederationSeasonStanding.objects.bulk_create(lines)
    if host is not None:
        FederationSeasonResult.objects.bulk_create(
            FederationSeasonResult(
                season=season,
                tournament=host,
                person=person,
                family=families[0],
                date=host.date,
                place=n + 1,
                finished=n + 2,
                players=people,
                exact_points="25",
            )
            for n, person in enumerate(made)
        )
    return season
