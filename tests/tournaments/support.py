"""Building tournaments for tests through the services, as an organiser would."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Club, Game
from games.services.games import game_start
from games.services.hands import hand_record
from scoring.families import family_info
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS
from scoring.standings import DEFAULT_TIEBREAKS
from tournaments.models import Round, Table, Tournament
from tournaments.services.entries import entries_add
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.seasons import SeasonSettings
from tournaments.services.tournament_settings import Settings, tournament_create

NAMES = [
    "Anna", "Bára", "Cyril", "David", "Eva", "Filip", "Gita", "Hana", "Igor", "Jana",
    "Karel", "Lída", "Marek", "Nina", "Oto", "Petra", "Quido", "Radka", "Šimon", "Tereza",
]  # fmt: skip


def settings(family: str = "rummikub", **changes: object) -> Settings:
    info = family_info(family)
    values: dict[str, object] = {
        "name": "Autumn cup",
        "date": datetime.date(2026, 11, 30),
        "family": family,
        "options": {},
        "rounds": 3,
        "round_hands": 1,
        "table_min": info.min_players,
        "table_max": info.max_players,
        "table_preferred": info.table_preferred,
        "byes_allowed": True,
        "seating": "balanced",
        "seat_order": "random",
        "points": "table",
        "custom_points": "",
        "tiebreaks": DEFAULT_TIEBREAKS,
    }
    values.update(changes)
    return Settings(**values)  # type: ignore[arg-type]


def tournament(
    club: Club,
    organiser: User,
    players: int | Sequence[str] = 12,
    family: str = "rummikub",
    **changes: object,
) -> Tournament:
    made = tournament_create(club=club, settings=settings(family, **changes), user=organiser)
    names = NAMES[:players] if isinstance(players, int) else list(players)
    entries_add(tournament=made, names=names, checked_in=True, user=organiser)
    return made


def rummikub_hand(names: Sequence[str], scores: Mapping[str, int] | None = None) -> dict[str, object]:
    """The first player goes out; the others keep tiles worth 5, 10, 15... (or ``scores``)."""
    left = {name: (scores or {}).get(name, 5 * (i + 1)) for i, name in enumerate(names[1:])}
    return {"winner": names[0], "left": left}


def play_round(t: Tournament, number: int, organiser: User, *, confirm: bool = True) -> Round:
    """Seat, start, record one hand at every table (seat 1 wins) and confirm round ``number``."""
    played = round_seat(tournament=t, number=number, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        hand_record(game=table.game, outcome=rummikub_hand(names), request_id=None, user=organiser)
    if confirm:
        played = round_confirm(played=played, round_version=played.version, user=organiser)
    return played


def season_settings(**changes: Any) -> SeasonSettings:
    """A season of the last and the next 30 days, counting Rummikub games and tournaments."""
    today = timezone.localdate()
    values: dict[str, Any] = {
        "name": "Season 2026",
        "starts": today - datetime.timedelta(days=30),
        "ends": today + datetime.timedelta(days=30),
        "families": ["rummikub"],
        "counts": "both",
        "game_points": "table",
        "tournament_points": "preset",
        "custom_points": "",
        "best_events": 0,
        "drop_worst": 0,
        "min_games": 0,
        "tiebreaks": DEFAULT_LEAGUE_TIEBREAKS,
    }
    values.update(changes)
    return SeasonSettings(**values)


def ago(days: int, hour: int = 19) -> datetime.datetime:
    """``hour`` o'clock ``days`` days ago, in the site's time zone."""
    day = timezone.localdate() - datetime.timedelta(days=days)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def finished_game(club: Club, user: User, names: list[str], *, at: datetime.datetime | None = None) -> Game:
    """A finished one-hand Rummikub game of the club, played at ``at`` (default now): the first
    name wins, the others in order."""
    game = game_start(
        family="rummikub", options={}, players=names, owner=user, club=club, hand_limit=1, played_at=at
    )
    left = {name: 5 * i for i, name in enumerate(names) if i}
    hand_record(game=game, outcome={"winner": names[0], "left": left}, request_id=None, user=user)
    return game


def small_league() -> dict[str, Any]:
    """A club's season (the top two qualify) and three finished Rummikub games of four players
    on two evenings, with the worker's numbers caught up: the organiser, club, season, games."""
    from tests.factories import ClubFactory, UserFactory
    from tests.tournaments.pipeline import drain
    from tournaments.services.seasons import season_create

    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(club=club, settings=season_settings(qualify=2), user=organiser)
    games = [
        finished_game(club, organiser, ["Ann", "Bob", "Cid", "Dan"], at=ago(3)),
        finished_game(club, organiser, ["Bob", "Cid", "Ann", "Dan"], at=ago(3, 21)),
        finished_game(club, organiser, ["Dan", "Cid", "Bob", "Ann"], at=ago(1)),
    ]
    drain()
    return {"organiser": organiser, "club": club, "season": season, "games": games}
