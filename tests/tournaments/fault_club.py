"""The small club of the fault tests (``test_pipeline_faults.py``), also written from a process of
its own into the SQLite database file its workers use: ``manage.py shell -c "from
tests.tournaments.fault_club import prepare; prepare()"`` makes the club, its numbers current,
then commits one correction and queues its job, for a worker to take."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.models import Club, Game
from games.services.games import game_start
from games.services.hands import hand_edit, hand_record
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import season_settings
from tournaments import derived
from tournaments.services.seasons import season_create

FAMILY = "rummikub"


def a_club_committed() -> tuple[Club, User, list[Game]]:
    """A club with a season and four finished games, their jobs queued."""
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    season_create(club=club, settings=season_settings(), user=user)
    games = [
        play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=3),
        play(club, user, ["Bob", "Cid", "Dan"], "Bob", back=2),
        play(club, user, ["Ann", "Cid", "Dan"], "Dan", back=1),
        play(club, user, ["Ann", "Bob", "Dan"], "Ann", back=0),
    ]
    return club, user, games


def play(club: Club, user: User, names: list[str], winner: str, *, back: int = 0) -> Game:
    """A finished one-hand Rummikub game (``back`` days ago: a back-dated game)."""
    game = game_start(family=FAMILY, options={}, players=names, owner=user, club=club, hand_limit=1)
    if back:
        Game.objects.filter(pk=game.pk).update(played_at=timezone.now() - datetime.timedelta(days=back))
        game.refresh_from_db()
    left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
    hand_record(game=game, outcome={"winner": winner, "left": left}, request_id=None, user=user)
    return game


def correct(game: Game, user: User, winner: str) -> None:
    """A correction that moves places: the club's ratings, its rating list and its season."""
    hand = game.hands.get()
    names = list(game.seats.order_by("position").values_list("name", flat=True))
    left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
    hand_edit(hand=hand, outcome={"winner": winner, "left": left}, version=hand.version, user=user)


def prepare() -> None:
    club, user, games = a_club_committed()
    derived.apply(club.pk)
    DBTaskResult.objects.all().delete()
    correct(games[0], user, "Cid")
