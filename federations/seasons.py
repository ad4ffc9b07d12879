"""A federation's seasons (a Grand Prix): the database side of ``scoring.league`` for the
tournaments of its member clubs, as ``tournaments.seasons`` is for a club's season.

A season counts each tournament that is marked federation-rated for the federation
(``RatedTournament``: a club's mark, or a federation open's), of one of its families, dated in
it, dated while its club was a member (from the membership's "count from" day, and before the
moment it left), once its last round is confirmed. Its players are placed by the tournament's
final standings; only the register's people are in the season: each entry's player counts as
the entry he is linked to (a merged entry as the one it was merged into), and the others are
left out. The register's people are placed among themselves with the tournament's competition
places kept: a guest finishing second does not take the Grand Prix's second place (the person
behind him is third, as he was), and a tie stays a tie. Points by place, best N, dropping the
worst, the minimum of tournaments and the tie-breaks are a club season's
(``scoring.league.league_standings``, tournament events only).

Kept by the federation's worker (``federations.derived``): every change that can move a season
marks it (``FederationSeasonDirty``) in its own transaction; the job derives each marked
season whole by reading only, then writes the lines and results that came out different in one
transaction that removes the marks it read.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from django.db import transaction
from django.db.models import Model, Q, QuerySet
from django.utils import timezone

from federations.models import (
    Federation,
    FederationClub,
    FederationSeason,
    FederationSeasonDirty,
    FederationSeasonResult,
    FederationSeasonStanding,
    Person,
    PersonLink,
    RatedTournament,
)
from scoring.league import (
    DEFAULT_LEAGUE_TIEBREAKS,
    PRESET_PLACES,
    LeagueEvent,
    event_marks,
    league_standings,
    tournament_event_points,
)
from tournaments.faults import checkpoint
from tournaments.models import Round, Tournament
from tournaments.rating_history import differing, update_rows
from tournaments.tournament_data import compute_standings, last_round, tournament_data

ALL = ""  # the lines of every family of the season together

STANDING_FIELDS = (
    "rank",
    "ranked",
    "previous_rank",
    "separated_by",
    "points",
    "exact_points",
    "events",
    "wins",
    "average_place",
    "played",
)
RESULT_FIELDS = ("family", "date", "place", "finished", "players", "exact_points")


def _day_start(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


def people_of(federation_id: int) -> dict[int, int]:
    """Each linked player's register entry, a merged entry followed to the one it was merged
    into (claims waiting for their club do not count): 2 queries."""
    links = dict(
        PersonLink.objects.filter(federation_id=federation_id, state=PersonLink.State.LINKED).values_list(
            "player_id", "person_id"
        )
    )
    merged = dict(
        Person.objects.filter(federation_id=federation_id, merged_into__isnull=False).values_list(
            "pk", "merged_into_id"
        )
    )

    def survivor(person: int) -> int:
        seen = {person}
        while person in merged and merged[person] not in seen:
            person = merged[person]
            seen.add(person)
        return person

    return {player: survivor(person) for player, person in links.items()}


def counted_tournaments(season: FederationSeason) -> list[Tournament]:
    """The season's federation-rated tournaments of member clubs, in date order (2 queries);
    whether each is over is read with its results."""
    periods: dict[int, list[tuple[datetime.date, datetime.datetime | None]]] = defaultdict(list)
    for club_id, counts_from, ended_at in FederationClub.objects.filter(
        federation_id=season.federation_id, joined_at__isnull=False, counts_from__isnull=False
    ).values_list("club_id", "counts_from", "ended_at"):
        periods[club_id].append((cast(datetime.date, counts_from), ended_at))
    marked = RatedTournament.objects.filter(federation_id=season.federation_id).values("tournament_id")
    tournaments = (
        Tournament.objects.filter(
            pk__in=marked, family__in=season.families, date__range=(season.starts, season.ends)
        )
        .select_related("club")
        .order_by("date", "pk")
    )

    def member(t: Tournament) -> bool:
        return any(
            start <= t.date and (ended is None or _day_start(t.date) < ended)
            for start, ended in periods.get(t.club_id, [])
        )

    return [t for t in tournaments if member(t)]


@dataclass(frozen=True)
class Counted:
    """A tournament the season counts, with the register's people placed in it."""

    tournament: Tournament
    people: tuple[int, ...]  # in the order of the final standings
    places: tuple[int, ...]  # among the register's people, competition places kept
    finished: tuple[int, ...]  # each one's place in the tournament's own standings

    @property
    def family(self) -> str:
        return self.tournament.family

    @property
    def key(self) -> tuple[datetime.date, int]:
        return (self.tournament.date, self.tournament.pk)


def reranked(ranks: Sequence[int]) -> tuple[int, ...]:
    """Competition places among a subset of a tournament's players, from their places in it:
    one more than the number of the subset placed strictly better ("1224" stays "1224")."""
    return tuple(1 + sum(1 for other in ranks if other < rank) for rank in ranks)


def season_tournaments(season: FederationSeason) -> list[Counted]:
    """Every tournament the season counts, its people placed (see the module)."""
    links = people_of(season.federation_id)
    found: list[Counted] = []
    for tournament in counted_tournaments(season):
        data = tournament_data(tournament)
        if last_round(data) is None:
            continue
        played = [r for r in compute_standings(data) if r.tables or r.byes]
        if len(played) < 2:
            continue
        placed: list[tuple[int, int]] = []
        seen: set[int] = set()
        for row in sorted(played, key=lambda r: r.rank):
            person = links.get(data.entries[row.player].player_id)
            if person is None or person in seen:
                continue
            seen.add(person)
            placed.append((row.rank, person))
        if not placed:
            continue
        ranks = [rank for rank, _person in placed]
        found.append(Counted(tournament, tuple(p for _r, p in placed), reranked(ranks), tuple(ranks)))
    return found


def place_points(season: FederationSeason) -> tuple[Fraction, ...]:
    if season.tournament_points != FederationSeason.TournamentPoints.CUSTOM:
        return PRESET_PLACES
    return tuple(Fraction(p) for p in season.custom_points)


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.001"))


def table(season: FederationSeason, counted: Sequence[Counted], family: str) -> Sequence[Any]:
    """The league table of ``family`` (``ALL``: every family) over these tournaments."""
    chosen = [c for c in counted if family in (ALL, c.family)]
    events = [LeagueEvent(key=c.key, kind="tournament", players=c.people, places=c.places) for c in chosen]
    players = sorted({p for c in chosen for p in c.people})
    played = Counter(p for c in chosen for p in c.people)
    latest = max((c.key for c in chosen), default=None)
    before = Counter(p for c in chosen if c.key != latest for p in c.people)
    return league_standings(
        players,
        events,
        game_points="table",  # no games: only tournaments count
        place_points=place_points(season),
        best_events=season.best_events,
        drop_worst=season.drop_worst,
        min_games=season.min_events,
        games_played=played,
        previous_games_played=before,
        tiebreaks=tuple(season.tiebreaks) or DEFAULT_LEAGUE_TIEBREAKS,
    )


def families_of(season: FederationSeason) -> list[str]:
    return [ALL, *season.families] if len(season.families) > 1 else [ALL]


def derive(
    season: FederationSeason,
) -> tuple[list[FederationSeasonStanding], list[FederationSeasonResult]]:
    """The season's lines and results as they should be stored (unsaved), reading only."""
    counted = season_tournaments(season)
    standings: list[FederationSeasonStanding] = []
    for family in families_of(season):
        for position, row in enumerate(table(season, counted, family), start=1):
            standings.append(
                FederationSeasonStanding(
                    season=season,
                    family=family,
                    person_id=row.player,
                    rank=row.rank if row.rank is not None else position,
                    ranked=row.rank is not None,
                    previous_rank=row.previous_rank,
                    separated_by=row.separated_by or "",
                    points=_decimal(row.points),
                    exact_points=str(row.points),
                    events=row.events,
                    wins=row.wins,
                    average_place=float(row.average_place) if row.average_place is not None else None,
                    played=row.played,
                )
            )
    by_place = place_points(season)
    results = [
        FederationSeasonResult(
            season=season,
            tournament_id=c.tournament.pk,
            person_id=person,
            family=c.family,
            date=c.tournament.date,
            place=place,
            finished=finished,
            players=len(c.people),
            exact_points=str(points),
        )
        for c in counted
        for person, place, finished, points in zip(
            c.people, c.places, c.finished, tournament_event_points(c.places, by_place), strict=True
        )
    ]
    return standings, results


def _swap[M: Model](
    stored: QuerySet[M], rows: Sequence[M], by: tuple[str, ...], fields: tuple[str, ...]
) -> int:
    """Write only the rows that differ from the stored ones (inside the caller's transaction)."""
    found = differing(stored, rows, by, fields)
    for at in range(0, len(found.gone), 500):
        stored.model._default_manager.filter(pk__in=found.gone[at : at + 500]).delete()
    update_rows(stored.model, fields, found.changed)
    stored.model._default_manager.bulk_create(found.new, batch_size=500)
    return len(found.gone) + len(found.changed) + len(found.new)


def store(
    season: FederationSeason,
    standings: Sequence[FederationSeasonStanding],
    results: Sequence[FederationSeasonResult],
    marks: Iterable[int] = (),
) -> int:
    """Put the derived rows in place, writing only those that differ, and remove the marks
    read, in one transaction (nothing when the season was deleted meanwhile). Returns the rows
    written."""
    with transaction.atomic():
        locked = FederationSeason.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
        if locked is None:
            return 0
        written = _swap(
            FederationSeasonStanding.objects.filter(season=locked),
            standings,
            ("family", "person_id"),
            STANDING_FIELDS,
        )
        written += _swap(
            FederationSeasonResult.objects.filter(season=locked),
            results,
            ("tournament_id", "person_id"),
            RESULT_FIELDS,
        )
        FederationSeason.objects.filter(pk=locked.pk).update(computed_at=timezone.now())
        FederationSeasonDirty.objects.filter(pk__in=list(marks)).delete()
        checkpoint("federation-season-commit")
        return written


def rebuild(season: FederationSeason) -> int:
    return store(season, *derive(season))


def refresh(federation: Federation) -> list[int]:
    """Derive every marked season of the federation again; a mark added meanwhile stays, and
    the season is derived again from it. Returns the seasons derived."""
    done: list[int] = []
    marked = FederationSeasonDirty.objects.filter(federation=federation)
    for season_id in sorted(set(marked.values_list("season_id", flat=True))):
        while True:
            marks = list(
                FederationSeasonDirty.objects.filter(season_id=season_id).values_list("pk", flat=True)
            )
            season = FederationSeason.objects.filter(pk=season_id).first()
            if not marks or season is None:
                break
            store(season, *derive(season), marks=marks)
            done.append(season_id)
    return done


# ---------------------------------------------------------------------- what marks a season


def mark(
    federation_id: int, *, family: str | None = None, days: Iterable[datetime.date] | None = None
) -> int:
    """Mark the federation's seasons (of ``family``, containing one of ``days``; None: any) to
    be derived again: rows added, never updated. Returns how many."""
    seasons = FederationSeason.objects.filter(federation_id=federation_id)
    wanted = None if days is None else sorted(set(days))
    if wanted is not None:
        if not wanted:
            return 0
        seasons = seasons.filter(starts__lte=wanted[-1], ends__gte=wanted[0])
    chosen = [
        pk
        for pk, families, starts, ends in seasons.values_list("pk", "families", "starts", "ends")
        if (family is None or family in families)
        and (wanted is None or any(starts <= day <= ends for day in wanted))
    ]
    FederationSeasonDirty.objects.bulk_create(
        [FederationSeasonDirty(season_id=pk, federation_id=federation_id) for pk in chosen]
    )
    return len(chosen)


def rated_in(tournament_ids: Iterable[int]) -> list[tuple[int, int]]:
    """(federation, tournament) for each federation that rates one of these tournaments."""
    return list(
        RatedTournament.objects.filter(tournament_id__in=list(tournament_ids)).values_list(
            "federation_id", "tournament_id"
        )
    )


def confirmed_table_of(game_id: int, federation_ids: Sequence[int]) -> list[tuple[int, str, datetime.date]]:
    """(federation, family, date) of the rated tournament whose confirmed round the game is a
    table of, for each of ``federation_ids`` that rates it (1 query): a table of a round under
    way moves no season until the round is confirmed (which the tournament reports)."""
    return list(
        RatedTournament.objects.filter(
            federation_id__in=list(federation_ids),
            tournament__round_set__tables__game_id=game_id,
            tournament__round_set__status=Round.Status.CONFIRMED,
        ).values_list("federation_id", "tournament__family", "tournament__date")
    )


# ---------------------------------------------------------------------- checking


def differences(federation: Federation) -> list[str]:
    """Where the stored lines and results of the federation's seasons differ from a fresh
    derivation (``rebuild_derived --check``, the tests)."""
    found: list[str] = []
    for season in FederationSeason.objects.filter(federation=federation).order_by("pk"):
        standings, results = derive(season)
        for model, rows, by, fields in (
            (FederationSeasonStanding, standings, ("family", "person_id"), STANDING_FIELDS),
            (FederationSeasonResult, results, ("tournament_id", "person_id"), RESULT_FIELDS),
        ):
            stored = {
                tuple(getattr(r, f) for f in by): tuple(getattr(r, f) for f in fields)
                for r in model.objects.filter(season=season)  # type: ignore[attr-defined]
            }
            fresh = {tuple(getattr(r, f) for f in by): tuple(getattr(r, f) for f in fields) for r in rows}
            for key in sorted(stored.keys() | fresh.keys(), key=str):
                if stored.get(key) != fresh.get(key):
                    found.append(
                        f"{federation.slug} season {season.public_id} {model.__name__} {key}: "
                        f"stored {stored.get(key)}, derived {fresh.get(key)}"
                    )
    return found


# ---------------------------------------------------------------------- the league card


@dataclass(frozen=True)
class CardLine:
    result: FederationSeasonResult
    points: Fraction
    mark: str  # scoring.league.EventMark: counted, dropped_worst, not_best

    @property
    def counted(self) -> bool:
        return self.mark == "counted"


def card_lines(season: FederationSeason, results: Sequence[FederationSeasonResult]) -> list[CardLine]:
    """A person's results of the season (in date order) with whether each one's points count:
    ``scoring.league.event_marks``, the function the standings' points are summed by."""
    points = [Fraction(r.exact_points) for r in results]
    marks = event_marks(points, best_events=season.best_events, drop_worst=season.drop_worst)
    return [CardLine(r, p, m) for r, p, m in zip(results, points, marks, strict=True)]


def result_order(family: str) -> Q:
    return Q() if family == ALL else Q(family=family)
