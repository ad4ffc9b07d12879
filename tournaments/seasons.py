"""The database side of a season's standings: which events count, and the derived
``SeasonStanding`` rows, rebuilt from the recorded results (``scoring.league`` does the
arithmetic).

A season counts a club's finished games of its families played between its first and last
day (a game's day is the day it was played), except the tables of a tournament, and each of
the club's tournaments of those families dated in the season once its last round is
confirmed, as one event placed by its final standings. Kept up to date by the worker after
every change that moves them (``tournaments.derived`` says which): a game finished after
every event the lines count is added to them (``updated_standings``), anything else derives
the season again (``derived_standings``); ``manage.py rebuild_derived`` derives them all.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import partial
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from games.models import Club, Result
from scoring.league import (
    DEFAULT_LEAGUE_TIEBREAKS,
    NO_EVENTS,
    LeagueEvent,
    LeagueTally,
    game_event_points,
    head_to_head_players,
    league_standings,
    league_table,
    tally_with,
)
from scoring.ranking import head_to_head
from scoring.ratings import Rating, display
from tournaments.models import RatingEvent, Season, SeasonStanding, Tournament
from tournaments.rating_history import differing, update_rows
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


def _ratings_at(
    season: Season, end: datetime.datetime, family: str, players: Iterable[int] | None = None
) -> dict[int, Rating]:
    """Each player's rating in ``family`` after his last game up to the season's end (of
    ``players`` only, when given)."""
    latest: dict[int, Rating] = {}
    events = RatingEvent.objects.filter(club_id=season.club_id, family=family, played_at__lte=end)
    if players is not None:
        events = events.filter(player_id__in=list(players))
    for player_id, mu, sigma in events.order_by("played_at", "game_id").values_list(
        "player_id", "mu", "sigma"
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
    store_standings(season, *derived_standings(season))


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
    "exact_points",
    "place_sum",
    "played",
)

EventKey = tuple[datetime.datetime, int, int]  # when, 0 for a game or 1 for a tournament, its id


def key_text(key: EventKey | None) -> list[object] | None:
    """An event's key as ``Season.counted_until`` stores it."""
    return None if key is None else [key[0].isoformat(), key[1], key[2]]


def key_of_text(text: Sequence[Any]) -> EventKey:
    return (datetime.datetime.fromisoformat(text[0]), int(text[1]), int(text[2]))


def store_standings(season: Season, rows: list[SeasonStanding], counted_until: EventKey | None = None) -> int:
    """Put ``rows`` in place of the season's standings, in one transaction (nothing when the
    season was deleted meanwhile), writing only the lines that differ from the stored ones: a
    finished game rewrites its players' lines and those whose rank moved, not the season.
    ``counted_until``: the latest event the rows count. Returns the number of lines written."""
    with transaction.atomic():
        locked = Season.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
        if locked is None:
            return 0
        found = differing(
            SeasonStanding.objects.filter(season=locked), rows, ("family", "player_id"), LINE_FIELDS
        )
        for at in range(0, len(found.gone), 500):
            SeasonStanding.objects.filter(pk__in=found.gone[at : at + 500]).delete()
        update_rows(SeasonStanding, LINE_FIELDS, found.changed)
        SeasonStanding.objects.bulk_create(found.new, batch_size=500)
        locked.computed_at = timezone.now()
        locked.counted_until = key_text(counted_until)
        locked.save(update_fields=["computed_at", "counted_until"])
        return len(found.gone) + len(found.changed) + len(found.new)


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
        exact_points=str(row.points),
        place_sum=int(row.average_place * row.played) if row.average_place is not None else 0,
        played=row.played,
    )


def standing_rows(season: Season) -> list[SeasonStanding]:
    """The season's standings as a rebuild would store them (unsaved), from the results and
    the stored ratings."""
    return derived_standings(season)[0]


def derived_standings(season: Season) -> tuple[list[SeasonStanding], EventKey | None]:
    """``standing_rows``, and the latest event they count."""
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
    return rows, max((cast(EventKey, event.key) for _family, event in events), default=None)


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


# ---------------------------------------------------------------------- brought up to date


class _Meetings:
    """The head-to-head records the ranking may ask for (``head_to_head_players``: two players
    level on every tie-break before it), read at once for those players; the season's
    tournaments are read only if one is asked for."""

    def __init__(self, season: Season, players: set[int]) -> None:
        self.season = season
        self.places: dict[int, dict[int, tuple[str, EventKey, int]]] = defaultdict(dict)
        self.read: set[int] = set()
        self.tournaments: list[tuple[str, LeagueEvent]] | None = None
        self._read(players)

    def _read(self, players: set[int]) -> None:
        """The season's games of ``players``: by player first (a few hundred rows), the
        season's conditions checked here (a filter on the games reads every game of it)."""
        wanted = players - self.read
        self.read |= wanted
        if not wanted or self.season.counts == Season.Counts.TOURNAMENTS:
            return
        season = self.season
        start, end = _bounds(season)
        for game_id, player_id, place, when, family, club_id, table, deleted in (
            Result.objects.filter(player_id__in=sorted(wanted), finished=True)
            .order_by()
            .values_list(
                "game_id",
                "player_id",
                "place",
                "game__played_at",
                "game__family",
                "game__club_id",
                "game__tournament_table",
                "game__deleted_at",
            )
        ):
            counted = club_id == season.club_id and family in season.families and start <= when <= end
            if counted and table is None and deleted is None:
                self.places[player_id][game_id] = (family, (when, 0, game_id), place)

    def _met(self, a: int, b: int) -> list[tuple[str, EventKey, int, int]]:
        """(family, key, a's place, b's place) of each counted event both played."""
        self._read({a, b})  # already read, unless asked beyond what was foreseen
        mine, theirs = self.places[a], self.places[b]
        met = [
            (fam, key, place, theirs[game][2]) for game, (fam, key, place) in mine.items() if game in theirs
        ]
        if self.season.counts in (Season.Counts.TOURNAMENTS, Season.Counts.BOTH):
            if self.tournaments is None:
                self.tournaments = _tournament_events(self.season)
            for family, event in self.tournaments:
                if a in event.players and b in event.players:
                    places = dict(zip(event.players, event.places, strict=True))
                    met.append((family, cast(EventKey, event.key), places[a], places[b]))
        return met

    def pair(self, family: str, skip: EventKey | None) -> Callable[[int, int], int]:
        """The record of two players in the events of ``family`` (``ALL``: every one), less the
        event ``skip``: > 0 when the first is ahead."""

        def record(a: int, b: int) -> int:
            shared = [
                (pa, pb) for fam, key, pa, pb in self._met(a, b) if family in (ALL, fam) and key != skip
            ]
            result = head_to_head(shared)
            return result.ahead - result.behind

        return record


def _tally(line: SeasonStanding) -> LeagueTally:
    return LeagueTally(Fraction(line.exact_points), line.events, line.wins, line.place_sum, line.played)


def _finished_events(season: Season, game_ids: Sequence[int]) -> list[tuple[str, LeagueEvent]] | None:
    """(family, event) of the season's games finished for the first time, in order; None when
    one of them counts in a way the stored lines cannot simply take (a game of one player
    still counts towards the minimum of games, a tournament's table too)."""
    start, end = _bounds(season)
    rows = (
        Result.objects.filter(game_id__in=list(game_ids), finished=True, game__deleted_at=None)
        .order_by("game__played_at", "game_id", "seat__position")
        .values_list(
            "game_id", "game__played_at", "game__family", "game__tournament_table", "player_id", "place"
        )
    )
    grouped: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for game_id, *seat in rows:
        grouped[game_id].append(tuple(seat))
    events: list[tuple[str, LeagueEvent]] = []
    for game_id, seats in grouped.items():
        when, family, table = seats[0][0], seats[0][1], seats[0][2]
        if family not in season.families or not start <= when <= end:
            continue  # not this season's (a mark for its old day)
        if table is not None or len(seats) < 2:
            return None
        players, places = tuple(s[3] for s in seats), tuple(s[4] for s in seats)
        events.append(
            (family, LeagueEvent(key=(when, 0, game_id), kind="game", players=players, places=places))
        )
    return sorted(events, key=lambda e: cast(EventKey, e[1].key))


def _family_lines(
    season: Season,
    family: str,
    lines: Mapping[int, SeasonStanding],
    chosen: Sequence[LeagueEvent],
    ratings: Callable[[Iterable[int]], dict[int, Rating]] | None,
    moved: set[int],
) -> list[SeasonStanding]:
    """One family's lines (``ALL``: the season's) with ``chosen`` added, in order, and the
    ratings of ``moved`` read again (``ratings``; None: the lines show none)."""
    now = {p: _tally(line) for p, line in lines.items()}
    games = {p: line.games for p, line in lines.items()}
    before = dict(now)
    for index, event in enumerate(chosen):
        if index == len(chosen) - 1:
            before = dict(now)
        points = game_event_points(event.places, season.game_points)  # type: ignore[arg-type]
        for player, place, worth in zip(event.players, event.places, points, strict=True):
            now[player] = tally_with(now.get(player, NO_EVENTS), place, worth)
            games[player] = games.get(player, 0) + 1
    fresh = ratings(moved & set(now)) if ratings is not None else {}

    def rating(player: int) -> int | None:
        if ratings is None:
            return None
        if player in moved:
            found = fresh.get(player)
            return display(found) if found is not None else None
        return lines[player].rating

    if not chosen:  # only ratings moved: the same lines, their rating column read again
        for player, line in lines.items():
            line.rating = rating(player)
        return list(lines.values())
    last = set(chosen[-1].players)
    players = sorted(now)
    then = {p: before.get(p, NO_EVENTS) for p in players}
    tiebreaks = tuple(season.tiebreaks) or DEFAULT_LEAGUE_TIEBREAKS

    def games_now(p: int) -> int:
        return games[p]

    def games_then(p: int) -> int:
        return games[p] - (p in last)

    asked = head_to_head_players(
        players, [(now, games_now), (then, games_then)], min_games=season.min_games, tiebreaks=tiebreaks
    )
    meetings = _Meetings(season, asked)
    table = league_table(
        players,
        now,
        then,
        games_now=games_now,
        games_then=games_then,
        pair_now=meetings.pair(family, None),
        pair_then=meetings.pair(family, cast(EventKey, chosen[-1].key)),
        min_games=season.min_games,
        tiebreaks=tiebreaks,
    )
    rows = []
    for position, row in enumerate(table, start=1):
        line = _stored_row(season, family, position, row, row.previous_rank, None)
        line.rating = rating(row.player)
        rows.append(line)
    return rows


def updated_standings(
    season: Season, finished: Sequence[int], rated: Iterable[int]
) -> tuple[list[SeasonStanding], EventKey | None] | None:
    """The season's standings brought up to date from its stored lines, when all that moved
    are games finished for the first time after every event the lines count (``finished``)
    and the ratings of some players (``rated``); None when the season must be derived again:
    best-N or dropping the worst (they need each player's events), a season of tournaments
    only, a game of one player or a tournament's table, a game before the latest one counted,
    lines stored before they kept their sums.

    Each finished game adds its places to its players' sums; the ranks are the same function
    of the sums as a derivation's (``scoring.league.league_table``), and the trend's "without
    the latest event" is the lines as they were, with the games before the last one added."""
    stored = list(SeasonStanding.objects.filter(season=season).order_by("family", "player_id"))
    counted = None if season.counted_until is None else key_of_text(season.counted_until)
    events: list[tuple[str, LeagueEvent]] = []
    if finished:
        if season.best_events or season.drop_worst or season.counts == Season.Counts.TOURNAMENTS:
            return None
        if stored and (counted is None or any(not line.exact_points for line in stored)):
            return None
        found = _finished_events(season, finished)
        if found is None or (found and counted is not None and cast(EventKey, found[0][1].key) <= counted):
            return None
        events = found
    _start, end = _bounds(season)
    moved = set(rated) | {p for _family, event in events for p in event.players}
    rows: list[SeasonStanding] = []
    for family in [ALL, *season.families] if len(season.families) > 1 else [ALL]:
        rated_family = family or season.families[0]
        ratings = (
            partial(_ratings_at, season, end, rated_family) if len(season.families) == 1 or family else None
        )
        rows += _family_lines(
            season,
            family,
            {line.player_id: line for line in stored if line.family == family},
            [event for fam, event in events if family in (ALL, fam)],
            ratings,
            moved,
        )
    return rows, (cast(EventKey, events[-1][1].key) if events else counted)
