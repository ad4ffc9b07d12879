"""The database side of a season's standings: which events count, and the derived
``SeasonStanding`` rows, rebuilt from the recorded results (``scoring.league`` does the
arithmetic).

A season counts a club's finished games of its families played between its first and last
day (a game's day is the day it was played), except the tables of a tournament, and each of
the club's tournaments of those families dated in the season once its last round is
confirmed, as one event placed by its final standings. Rebuilt by the worker after every change
that moves them (``tournaments.derived`` says which), and by ``manage.py rebuild_derived``.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Club, Result
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LeagueEvent, league_standings
from scoring.ratings import Rating, display
from tournaments.models import RatingEvent, Season, SeasonStanding, Tournament
from tournaments.rating_history import update_rows
from tournaments.tournament_data import compute_standings, last_round, tournament_data

ALL = ""  # the SeasonStanding rows of every family together


def _bounds(season: Season) -> tuple[datetime.datetime, datetime.datetime]:
    """The season's first and last moment, in the site's time zone."""
    zone = timezone.get_current_timezone()
    start = datetime.datetime.combine(season.starts, datetime.time.min, tzinfo=zone)
    end = datetime.datetime.combine(season.ends, datetime.time.max, tzinfo=zone)
    return start, end


def _game_events(
    season: Season, start: datetime.datetime, end: datetime.datetime
) -> list[tuple[str, LeagueEvent]]:
    """(family, event) for every finished club game of the season that is not a tournament's
    table nor deleted; and, as a side list, nothing else (2 queries at most)."""
    rows = (
        Result.objects.filter(
            game__club_id=season.club_id,
            game__family__in=season.families,
            game__played_at__range=(start, end),
            game__tournament_table__isnull=True,
            game__deleted_at=None,
            finished=True,
        )
        .order_by("game__played_at", "game_id", "seat__position")
        .values_list("game_id", "game__played_at", "game__family", "player_id", "place")
    )
    grouped: dict[int, list[tuple[datetime.datetime, str, int, int]]] = defaultdict(list)
    for game_id, when, family, player_id, place in rows:
        grouped[game_id].append((when, family, player_id, place))
    events = []
    for game_id, seats in grouped.items():
        if len(seats) < 2:
            continue
        when, family = seats[0][0], seats[0][1]
        events.append(
            (
                family,
                LeagueEvent(
                    key=(when, 0, game_id),
                    kind="game",
                    players=tuple(s[2] for s in seats),
                    places=tuple(s[3] for s in seats),
                ),
            )
        )
    return events


def _tournament_events(season: Season) -> list[tuple[str, LeagueEvent]]:
    """(family, event) for every tournament of the season whose last round is confirmed: its
    players placed by the final standings."""
    events = []
    tournaments = Tournament.objects.filter(
        club_id=season.club_id, family__in=season.families, date__range=(season.starts, season.ends)
    ).order_by("date", "pk")
    for tournament in tournaments:
        data = tournament_data(tournament)
        if last_round(data) is None:
            continue
        rows = compute_standings(data)
        played = [r for r in rows if r.tables or r.byes]
        if len(played) < 2:
            continue
        zone = timezone.get_current_timezone()
        when = datetime.datetime.combine(tournament.date, datetime.time.max, tzinfo=zone)
        events.append(
            (
                tournament.family,
                LeagueEvent(
                    key=(when, 1, tournament.pk),
                    kind="tournament",
                    players=tuple(data.entries[r.player].player_id for r in played),
                    places=tuple(r.rank for r in played),
                ),
            )
        )
    return events


def _games_played(
    season: Season, start: datetime.datetime, end: datetime.datetime
) -> dict[tuple[str, int], int]:
    """Finished games per (family, player) in the season, tournament tables included (what the
    minimum to be ranked counts)."""
    counts: dict[tuple[str, int], int] = defaultdict(int)
    for family, player_id in Result.objects.filter(
        game__club_id=season.club_id,
        game__family__in=season.families,
        game__played_at__range=(start, end),
        game__deleted_at=None,
        finished=True,
    ).values_list("game__family", "player_id"):
        counts[(family, player_id)] += 1
    return counts


def _games_played_on(
    season: Season, start: datetime.datetime, end: datetime.datetime
) -> list[tuple[str, int, datetime.datetime]]:
    """(family, player, date of play) of each finished game seat in the season up to ``end``,
    tournament tables included."""
    return list(
        Result.objects.filter(
            game__club_id=season.club_id,
            game__family__in=season.families,
            game__played_at__range=(start, end),
            game__deleted_at=None,
            finished=True,
        ).values_list("game__family", "player_id", "game__played_at")
    )


def _ratings_at(season: Season, end: datetime.datetime, family: str) -> dict[int, Rating]:
    """Each player's rating in ``family`` after his last game up to the season's end."""
    latest: dict[int, Rating] = {}
    for player_id, mu, sigma in (
        RatingEvent.objects.filter(club_id=season.club_id, family=family, played_at__lte=end)
        .order_by("played_at", "game_id")
        .values_list("player_id", "mu", "sigma")
    ):
        latest[player_id] = Rating(mu, sigma)
    return latest


def _place_points(season: Season) -> list[Fraction] | None:
    if season.tournament_points != Season.TournamentPoints.CUSTOM:
        return None
    return [Fraction(p) for p in season.custom_points]


def rebuild_season(season: Season) -> None:
    """Rewrite the season's standings (all families together, and per family when it counts
    several) from the results, in one transaction: a failure leaves the old rows."""
    store_standings(season, standing_rows(season))


# The fields of a line a rebuild may change (its season, family and player are what it is
# matched by).
LINE_FIELDS = (
    "rank",
    "ranked",
    "previous_rank",
    "separated_by",
    "points",
    "games",
    "wins",
    "average_place",
    "events",
    "rating",
)


def store_standings(season: Season, rows: list[SeasonStanding]) -> int:
    """Put ``rows`` in place of the season's standings, in one transaction (nothing when the
    season was deleted meanwhile), writing only the lines that differ from the stored ones: a
    finished game rewrites its players' lines and those whose rank moved, not the season.
    Returns the number of lines written."""
    with transaction.atomic():
        locked = Season.objects.select_for_update().filter(pk=season.pk).first()
        if locked is None:
            return 0
        stored = {
            (family, player_id): (pk, tuple(values))
            for pk, family, player_id, *values in SeasonStanding.objects.filter(season=locked)
            .order_by()
            .values_list("pk", "family", "player_id", *LINE_FIELDS)
        }
        new: list[SeasonStanding] = []
        changed: list[SeasonStanding] = []
        for row in rows:
            old = stored.pop((row.family, row.player_id), None)
            if old is None:
                new.append(row)
            elif old[1] != tuple(getattr(row, f) for f in LINE_FIELDS):
                row.pk = old[0]
                changed.append(row)
        gone = [pk for pk, _values in stored.values()]
        for at in range(0, len(gone), 500):
            SeasonStanding.objects.filter(pk__in=gone[at : at + 500]).delete()
        update_rows(SeasonStanding, LINE_FIELDS, changed)
        SeasonStanding.objects.bulk_create(new, batch_size=500)
        locked.computed_at = timezone.now()
        locked.save(update_fields=["computed_at"])
        return len(gone) + len(changed) + len(new)


def _league_table(
    season: Season, players: Sequence[int], events: Sequence[LeagueEvent], games: Mapping[int, int]
) -> Sequence[Any]:
    """The season's league table of these players over these events, by its own settings."""
    return league_standings(
        players,
        events,
        game_points=season.game_points,  # type: ignore[arg-type]
        place_points=_place_points(season),
        best_events=season.best_events,
        drop_worst=season.drop_worst,
        min_games=season.min_games,
        games_played=games,
        tiebreaks=tuple(season.tiebreaks) or DEFAULT_LEAGUE_TIEBREAKS,
    )


def _stored_row(
    season: Season, family: str, position: int, row: Any, previous_rank: int | None, rating: Rating | None
) -> SeasonStanding:
    """A league table's row as a season's standing line (unsaved)."""
    return SeasonStanding(
        season=season,
        family=family,
        player_id=row.player,
        rank=row.rank if row.rank is not None else position,
        ranked=row.rank is not None,
        previous_rank=previous_rank,
        separated_by=row.separated_by or "",
        points=_decimal(row.points),
        games=row.games,
        wins=row.wins,
        average_place=float(row.average_place) if row.average_place is not None else None,
        events=row.events,
        rating=display(rating) if rating is not None else None,
    )


def standing_rows(season: Season) -> list[SeasonStanding]:
    """The season's standings as a rebuild would store them (unsaved), from the results and
    the stored ratings."""
    start, end = _bounds(season)
    events: list[tuple[str, LeagueEvent]] = []
    if season.counts in (Season.Counts.GAMES, Season.Counts.BOTH):
        events += _game_events(season, start, end)
    if season.counts in (Season.Counts.TOURNAMENTS, Season.Counts.BOTH):
        events += _tournament_events(season)
    played = _games_played(season, start, end)
    families = [ALL, *season.families] if len(season.families) > 1 else [ALL]
    rows: list[SeasonStanding] = []
    for family in families:
        chosen = [event for fam, event in events if family in (ALL, fam)]
        players = sorted({p for event in chosen for p in event.players})
        games: dict[int, int] = defaultdict(int)
        for (fam, player_id), count in played.items():
            if family in (ALL, fam):
                games[player_id] += count
        ratings = (
            _ratings_at(season, end, family or season.families[0])
            if len(season.families) == 1 or family
            else {}
        )
        standings = _league_table(season, players, chosen, games)
        rows += [
            _stored_row(season, family, position, row, row.previous_rank, ratings.get(row.player))
            for position, row in enumerate(standings, start=1)
        ]
    return rows


def season_events(season: Season) -> list[tuple[str, LeagueEvent]]:
    """(family, event) for every event the season counts, as ``standing_rows`` reads them (a
    player's league card lists his)."""
    start, end = _bounds(season)
    events: list[tuple[str, LeagueEvent]] = []
    if season.counts in (Season.Counts.GAMES, Season.Counts.BOTH):
        events += _game_events(season, start, end)
    if season.counts in (Season.Counts.TOURNAMENTS, Season.Counts.BOTH):
        events += _tournament_events(season)
    return events


def place_points(season: Season) -> list[Fraction] | None:
    """A tournament's league points by final place (None: the preset list)."""
    return _place_points(season)


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.001"))


def rebuild_seasons(club: Club, families: Iterable[str] | None = None) -> list[Season]:
    """Rebuild every season of the club that counts one of ``families`` (all: None)."""
    wanted = None if families is None else set(families)
    seasons = [s for s in Season.objects.filter(club=club) if wanted is None or wanted & set(s.families)]
    for season in seasons:
        rebuild_season(season)
    return seasons


def families_of(seasons: Sequence[Season]) -> set[str]:
    return {family for season in seasons for family in season.families}


# ---------------------------------------------------------------------- as they stood


def evenings(season: Season) -> list[datetime.date]:
    """The season's evenings: the days with a counted finished club game or a tournament dated
    in it, in order (1 query)."""
    start, end = _bounds(season)
    days: set[datetime.date] = set()
    if season.counts in (Season.Counts.GAMES, Season.Counts.BOTH):
        played = (
            Result.objects.filter(
                game__club_id=season.club_id,
                game__family__in=season.families,
                game__played_at__range=(start, end),
                game__tournament_table__isnull=True,
                game__deleted_at=None,
                finished=True,
            )
            .order_by()
            .values_list("game__played_at", flat=True)
            .distinct()
        )
        days |= {timezone.localtime(when).date() for when in played}
    if season.counts in (Season.Counts.TOURNAMENTS, Season.Counts.BOTH):
        days |= set(
            Tournament.objects.filter(
                club_id=season.club_id, family__in=season.families, date__range=(season.starts, season.ends)
            ).values_list("date", flat=True)
        )
    return sorted(days)


def _when(event: LeagueEvent) -> datetime.datetime:
    when = event.key[0]  # type: ignore[index]
    assert isinstance(when, datetime.datetime)
    return when


def standings_after(season: Season, family: str, day: datetime.date) -> list[SeasonStanding]:
    """The season's standings (of ``family``, "" for all) as they stood after ``day``: only what
    was played by its end counts, and each row's ``previous_rank`` is its rank after the season's
    evening before that one (None on the first). Derived on reading, unsaved."""
    start, _end = _bounds(season)
    zone = timezone.get_current_timezone()
    until = datetime.datetime.combine(day, datetime.time.max, tzinfo=zone)
    events: list[tuple[str, LeagueEvent]] = []
    if season.counts in (Season.Counts.GAMES, Season.Counts.BOTH):
        events += _game_events(season, start, until)
    if season.counts in (Season.Counts.TOURNAMENTS, Season.Counts.BOTH):
        events += [(f, e) for f, e in _tournament_events(season) if _when(e) <= until]
    chosen = [event for fam, event in events if family in (ALL, fam)]
    earlier = sorted({timezone.localtime(_when(e)).date() for e in chosen} - {day})
    before = earlier[-1] if earlier and earlier[-1] < day else None
    # Each evening's table counts the games played by its own end: the evening before ranks
    # only who had reached the minimum by then.
    played = _games_played_on(season, start, until)

    def table(upto: datetime.datetime) -> Sequence[Any]:
        counted = [e for e in chosen if _when(e) <= upto]
        games: dict[int, int] = defaultdict(int)
        for fam, player_id, when in played:
            if family in (ALL, fam) and when <= upto:
                games[player_id] += 1
        return _league_table(season, sorted({p for event in counted for p in event.players}), counted, games)

    previous: dict[int, int] = {}
    if before is not None:
        previous = {
            row.player: row.rank
            for row in table(datetime.datetime.combine(before, datetime.time.max, tzinfo=zone))
            if row.rank is not None
        }
    ratings = (
        _ratings_at(season, until, family or season.families[0])
        if len(season.families) == 1 or family
        else {}
    )
    return [
        _stored_row(season, family, position, row, previous.get(row.player), ratings.get(row.player))
        for position, row in enumerate(table(until), start=1)
    ]
