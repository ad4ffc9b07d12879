"""Faults in the derived-numbers pipeline: a worker killed at each step of a club's job, its
connection dropped, the database out of reach. After each, the club is whole again by itself
within the stated bound (``derived.whole_within()`` and the job's own time), with no further
change, and ``rebuild_derived --check`` passes.

Real worker processes (``manage.py worker``) run against PostgreSQL's test database; on SQLite
(whose test database lives in this process's memory) against a database file of their own,
written by a process of its own (``fault_club.py``). The same kill points are also run in this
process on either database, the worker's death stood in for by an exception that skips every
error path of the job.
"""

from __future__ import annotations

import datetime
import io
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

import tournaments.rating_history as ratings_module
from games.models import Club, Game
from tests.tournaments.fault_club import a_club_committed, correct
from tests.tournaments.pipeline import (
    LEASE,
    ROOT,
    SLACK,
    SWEEP,
    Workers,
    database_tasks,
    run_worker,
    worker_env,
)
from tournaments import derived
from tournaments.models import DerivedState, RatingDirty, SeasonDirty

pytestmark = [pytest.mark.django_db(transaction=True)]

FAMILY = "rummikub"
# The steps of a club's job (tournaments/faults.py), in order.
POINTS = ["start", "rating-commit", "ratings", "season-commit", "season", "end", "done"]

on_sqlite = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="on PostgreSQL the workers use the test database (the tests above)",
)


def on_postgresql(why: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql", reason=why
    )


@pytest.fixture(autouse=True)
def short_leases() -> Iterator[None]:
    with database_tasks(), override_settings(DERIVED_LEASE_SECONDS=LEASE, DERIVED_SWEEP_SECONDS=SWEEP):
        yield


def a_club() -> tuple[Club, User, list[Game]]:
    """A club with a season and four finished games, its numbers current."""
    club, user, games = a_club_committed()
    run_worker()
    assert derived.differences(club) == []
    return club, user, games


def marked(club: Club) -> bool:
    return RatingDirty.objects.filter(club=club).exists() or SeasonDirty.objects.filter(club=club).exists()


def whole(club: Club) -> bool:
    return not marked(club) and derived.differences(club) == []


def check_passes() -> None:
    call_command("rebuild_derived", "--check", stdout=io.StringIO())


# ---------------------------------------------------------------------- real worker processes


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    started = Workers(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def wait_whole(club: Club, *, within: float, workers: Workers) -> float:
    """Seconds until the club is whole again: no mark left, and then every number as a fresh
    derivation."""
    began = time.monotonic()
    while marked(club):
        assert time.monotonic() - began < within, f"not whole after {within} s\n{workers.logs()}"
        time.sleep(0.02)
    took = time.monotonic() - began
    assert derived.differences(club) == []
    return took


@on_postgresql("the test database: on SQLite, in memory (the SQLite test below uses a file)")
@pytest.mark.parametrize("point", POINTS)
def test_a_worker_killed_at_any_step_of_a_job_leaves_its_club_to_be_whole_again_by_itself(
    point: str, workers: Workers
) -> None:
    club, user, games = a_club()
    correct(games[0], user, "Cid")
    doomed = workers.start(pause_at=point)
    workers.wait_paused(doomed)
    workers.wait_ready(workers.start())  # another worker, told nothing
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    bound = derived.whole_within().total_seconds() + SLACK
    took = wait_whole(club, within=bound, workers=workers)
    print(f"\nkilled at {point!r}: whole again {took:.2f} s after the kill (bound {bound:.1f} s)")
    check_passes()
    # The dead worker's task is noted as lost once its lease lapsed, not left running.
    deadline = time.monotonic() + bound
    while DBTaskResult.objects.filter(status="RUNNING").exists():
        assert time.monotonic() < deadline, workers.logs()
        time.sleep(0.05)
    lost = DBTaskResult.objects.filter(exception_class_path="tournaments.derived.WorkerLost")
    assert lost.count() == 1
    health = Client().get("/healthz").json()["derived"]
    assert (health["oldest_pending_seconds"], health["stuck"], health["failing"]) == (None, [], [])


@on_postgresql("ending a worker's connection is PostgreSQL's (an SQLite file has none)")
@pytest.mark.parametrize("point", ["start", "rating-commit", "season-commit"])
def test_a_connection_ended_mid_job_is_retried_and_the_worker_goes_on(point: str, workers: Workers) -> None:
    club, user, games = a_club()
    other, other_user, other_games = a_club()
    correct(games[0], user, "Cid")
    worker = workers.start(pause_at=point)
    workers.wait_paused(worker)
    with connection.cursor() as cursor:  # every other session on the test database: the worker's
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    workers.pause_file.unlink()
    took = wait_whole(club, within=derived.backoff(1).total_seconds() + SLACK, workers=workers)
    print(f"\nconnection ended at {point!r}: whole again {took:.2f} s after")
    assert worker.poll() is None  # the same worker did it
    failed = DBTaskResult.objects.get(status="FAILED")
    assert (
        "OperationalError" in failed.exception_class_path or "InterfaceError" in failed.exception_class_path
    )
    assert DerivedState.objects.get(club=club).failures == 0  # counted, then cleared by the retry
    # The worker goes on with the next change.
    correct(other_games[0], other_user, "Bob")
    wait_whole(other, within=SLACK, workers=workers)
    check_passes()


@on_postgresql("a database server out of reach is PostgreSQL's (an SQLite file is always there)")
def test_a_database_out_of_reach_mid_job_leaves_the_club_to_be_retried(workers: Workers) -> None:
    """As a PostgreSQL restart: the job's connection ends and no new one can be opened for a
    while, so even noting the failure fails; the worker waits, and its sweep queues the club."""
    club, user, games = a_club()
    correct(games[0], user, "Cid")
    worker = workers.start(pause_at="rating-commit")
    workers.wait_paused(worker)
    db = connection.settings_dict
    name = db["NAME"]
    admin = psycopg.connect(
        host=db["HOST"],
        port=db["PORT"],
        user=db["USER"],
        password=db["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    )
    admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        workers.pause_file.unlink()
        time.sleep(2)  # the job fails, noting it fails, the worker's loop fails: all wait
        assert worker.poll() is None, workers.logs()
    finally:
        admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
        admin.close()
    back = time.monotonic()
    took = wait_whole(club, within=derived.whole_within().total_seconds() + SLACK, workers=workers)
    print(f"\ndatabase back: whole again {time.monotonic() - back:.2f} s after ({took:.2f} s)")
    assert worker.poll() is None
    assert "and so did noting it" in workers.logs(tail=None)  # the sweep it was that retried
    check_passes()


def sqlite_marked(path: Path) -> bool:
    with closing(sqlite3.connect(path, timeout=20)) as db:
        (count,) = db.execute(
            "SELECT (SELECT count(*) FROM tournaments_ratingdirty)"
            " + (SELECT count(*) FROM tournaments_seasondirty)"
        ).fetchone()
        return bool(count)


@on_sqlite
@pytest.mark.parametrize("point", ["start", "rating-commit", "ratings", "season-commit"])
def test_on_sqlite_a_worker_killed_mid_job_leaves_its_club_to_be_whole_again_by_itself(
    point: str, workers: Workers, migrated_sqlite: Callable[[Path], str], tmp_path: Path
) -> None:
    path = tmp_path / "club.sqlite3"
    workers.url = migrated_sqlite(path)
    code = "from tests.tournaments.fault_club import prepare; prepare()"
    env = worker_env(workers.url)
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True, timeout=600
    )
    doomed = workers.start(pause_at=point)
    workers.wait_paused(doomed)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    killed = time.monotonic()
    # Started after the kill: a process starting while another holds SQLite's write lock
    # (paused inside a transaction) fails Django's checks, which open a write transaction.
    workers.wait_ready(workers.start())
    began, bound = time.monotonic(), derived.whole_within().total_seconds() + SLACK
    while sqlite_marked(path):
        assert time.monotonic() - began < bound, f"not whole after {bound} s\n{workers.logs()}"
        time.sleep(0.02)
    now = time.monotonic()
    print(
        f"\nSQLite, killed at {point!r}: whole {now - began:.2f} s after a worker was up"
        f" ({now - killed:.2f} s after the kill)"
    )
    checked = subprocess.run(
        [sys.executable, "manage.py", "rebuild_derived", "--check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


# ---------------------------------------------------------------------- in this process


class Killed(BaseException):
    """A worker's death: no ``except Exception`` of the job sees it."""


def age_marks(club: Club, seconds: float = 5) -> None:
    """The club's marks as written ``seconds`` ago."""
    then = timezone.now() - datetime.timedelta(seconds=seconds)
    RatingDirty.objects.filter(club=club).update(created_at=then)
    SeasonDirty.objects.filter(club=club).update(created_at=then)


@pytest.mark.parametrize("point", POINTS)
def test_every_kill_point_leaves_no_number_stale_without_its_mark(point: str, monkeypatch: Any) -> None:
    club, user, games = a_club()
    correct(games[0], user, "Cid")

    def die(name: str) -> None:
        if name == point:
            raise Killed(name)

    monkeypatch.setattr(derived, "checkpoint", die)
    monkeypatch.setattr(ratings_module, "checkpoint", die)
    run_worker()  # the job dies at the point; the worker notes its task failed
    monkeypatch.undo()
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1
    # Whatever committed before the death is whole, or still marked.
    stale = derived.differences(club)
    if not RatingDirty.objects.filter(club=club).exists():
        assert [line for line in stale if f": {FAMILY} rating" in line] == []  # events and list
    if not SeasonDirty.objects.filter(club=club).exists():
        assert [line for line in stale if ": season " in line] == []
    # No retry was queued (the job never saw its death): the sweep queues it.
    age_marks(club)
    assert derived.sweep() == ([club.pk] if marked(club) else [])
    run_worker()
    assert whole(club)
    check_passes()


def test_the_sweep_queues_a_club_with_marks_and_no_live_job() -> None:
    club, user, games = a_club()
    correct(games[0], user, "Cid")
    # The queued job is lost (a web process killed between its commit and the queueing).
    DBTaskResult.objects.filter(status="READY").delete()
    with override_settings(DERIVED_SWEEP_SECONDS=60):
        assert derived.sweep() == []  # within the sweep's grace the write may still be queueing
    age_marks(club)
    # A live lease (a worker at the club) keeps the sweep away, and the club is not stuck.
    DerivedState.objects.filter(club=club).update(
        lease_task=str(uuid.uuid4()), lease_until=timezone.now() + datetime.timedelta(seconds=30)
    )
    assert derived.sweep() == []
    assert Client().get("/healthz").json()["derived"]["stuck"] == []
    # Lapsed: the club is stuck, named with its age, and the sweep queues it, once.
    DerivedState.objects.filter(club=club).update(lease_until=timezone.now() - datetime.timedelta(seconds=1))
    stuck = Client().get("/healthz").json()["derived"]["stuck"]
    assert [c["club"] for c in stuck] == [club.slug] and stuck[0]["pending_seconds"] >= 5
    assert derived.sweep() == [club.pk]
    assert derived.sweep() == []
    run_worker()
    assert whole(club)
    assert Client().get("/healthz").json()["derived"]["stuck"] == []


def test_a_failure_that_cannot_be_noted_is_retried_by_the_sweep(monkeypatch: Any) -> None:
    club, user, games = a_club()
    correct(games[0], user, "Cid")

    def broken(*args: Any) -> Any:
        raise OperationalError("the database went away")

    monkeypatch.setattr(ratings_module, "_plan", broken)
    monkeypatch.setattr(derived, "failed", broken)
    run_worker()
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1
    assert not DBTaskResult.objects.ready().exists()  # no retry could be queued
    monkeypatch.undo()
    age_marks(club)
    assert derived.sweep() == [club.pk]
    run_worker()
    assert whole(club)
    check_passes()


def test_the_admin_names_the_stuck_and_the_failing_clubs_with_their_age() -> None:
    stuck, user, games = a_club()
    failing, _user, _games = a_club()
    current, _user, _games = a_club()
    correct(games[0], user, "Cid")  # its job lost, its marks a minute old
    age_marks(stuck, 60)
    DerivedState.objects.filter(club=failing).update(failures=3, failed_at=timezone.now())
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="root-Secret-1"))
    page = admin.get("/admin/tournaments/derivedstate/").content.decode()
    assert "stuck for 1\xa0minute" in page
    assert "failing (tries in a row: 3)" in page
    assert "current" in page
    only_stuck = admin.get("/admin/tournaments/derivedstate/?state=stuck").content.decode()
    assert stuck.name in only_stuck and failing.name not in only_stuck and current.name not in only_stuck
    only_failing = admin.get("/admin/tournaments/derivedstate/?state=failing").content.decode()
    assert failing.name in only_failing and stuck.name not in only_failing
