"""A table's correction and the worker re-rating the same club at once, on PostgreSQL: the
correction holds its game's row lock and waits for the club's rating mark, which the worker
holds while it writes rating events that refer to that game. Both must finish: the game's lock
is one that the events' foreign key checks do not wait for, so neither waits on the other and
PostgreSQL has no deadlock to break by failing the player's save."""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings
from django.db import connection, connections, transaction

from tests.tournaments.fault_club import a_club_committed, correct
from tournaments import derived
from tournaments.models import RatingDirty, RatingEvent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="row locks and deadlocks are PostgreSQL's (SQLite locks the whole file)",
    ),
]


def _waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        # Inside a transaction the activity view is a snapshot taken once: take it anew.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def test_a_correction_and_the_worker_writing_its_games_events_both_finish() -> None:
    club, user, games = a_club_committed()
    derived.apply(club.pk)
    game = games[-1]
    event = RatingEvent.objects.filter(game=game).first()
    assert event is not None
    mark = RatingDirty.objects.create(
        club=club, family=game.family, since_at=game.played_at, since_game=game.pk
    )
    failures: list[BaseException] = []
    saved = threading.Event()

    def save() -> None:
        try:
            correct(game, user, "Bob")
            saved.set()
        except BaseException as error:
            failures.append(error)
        finally:
            connections.close_all()

    with transaction.atomic():
        # The worker's step: the mark held, then events written for the club's games.
        list(RatingDirty.objects.select_for_update().filter(pk=mark.pk))
        player = threading.Thread(target=save)
        player.start()
        deadline = time.monotonic() + 10
        while _waiting_on_a_lock() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _waiting_on_a_lock() == 1, "the correction did not come to wait for the club's mark"
        try:
            RatingEvent.objects.filter(pk=event.pk).delete()
            event.pk = None
            event.save()  # its foreign key check reads the game the correction has locked
        except BaseException as error:
            failures.append(error)
    player.join(timeout=20)
    assert not failures, failures
    assert saved.is_set()
    assert game.hands.get().version == 2
