"""Faults in the federation's job, with real worker processes on PostgreSQL: a worker killed at
each step (re-rating, publishing the month's list) leaves the federation to be whole again by
itself, within a lease and a sweep, and the previous published list whole and unchanged."""

from __future__ import annotations

import datetime
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from federations import derived
from federations.models import FederationDirty, PublishedList
from federations.publication import month_of, publish
from federations.ratings import differences, refresh
from tests.federations.support import a_federation, game_on, lines, link_all
from tests.tournaments.fault_club import correct
from tests.tournaments.pipeline import LEASE, SLACK, SWEEP, Workers, database_tasks, run_worker
from tournaments import derived as club_derived

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="the workers use the test database, which on SQLite is this process's memory",
    ),
]
POINTS = [
    "federation-start",
    "federation-rate-commit",
    "federation-rated",
    "publish-commit",
    "federation-end",
]


@pytest.fixture(autouse=True)
def short_leases() -> Iterator[None]:
    with database_tasks(), override_settings(DERIVED_LEASE_SECONDS=LEASE, DERIVED_SWEEP_SECONDS=SWEEP):
        yield


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    started = Workers(tmp_path)
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.parametrize("point", POINTS)
def test_a_worker_killed_mid_job_leaves_the_list_to_be_whole_again_and_the_last_list_untouched(
    point: str, workers: Workers
) -> None:
    w, people, founded = a_federation()
    last_month = (month_of() - datetime.timedelta(days=1)).replace(day=1)
    games = [
        game_on(w, 0, ["Ann", "Bob", "Cid"], "Ann", founded + datetime.timedelta(days=2)),
        game_on(w, 1, ["Ann", "Dan", "Bob"], "Dan", last_month + datetime.timedelta(days=3)),
    ]
    link_all(w, people)
    run_worker()  # the clubs' jobs and the federation's: re-rated, this month's list published
    PublishedList.objects.filter(month=month_of()).delete()  # as before the 1st's publication
    refresh(w.federation)
    previous = publish(w.federation, "rummikub", last_month)
    assert previous is not None
    kept = lines(previous)
    correct(games[0], w.organisers[0], "Cid")  # marks the federation; the month's list is due
    doomed = workers.start(pause_at=point)
    workers.wait_paused(doomed)
    workers.wait_ready(workers.start())  # another worker, told nothing
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    bound = club_derived.whole_within().total_seconds() + SLACK
    began = time.monotonic()
    while (
        FederationDirty.objects.filter(federation=w.federation).exists()
        or not PublishedList.objects.filter(federation=w.federation, month=month_of()).exists()
    ):
        assert time.monotonic() - began < bound, f"not whole after {bound} s\n{workers.logs()}"
        time.sleep(0.05)
    print(f"\nkilled at {point!r}: whole again {time.monotonic() - began:.2f} s after the kill")
    assert differences(w.federation) == []
    assert lines(PublishedList.objects.get(pk=previous.pk)) == kept
    current = PublishedList.objects.get(federation=w.federation, month=month_of())
    assert current.previous_id == previous.pk and current.lines.count() == 4
    assert timezone.now() > current.published_at
    assert derived.LOCK_SPACE != club_derived.LOCK_SPACE
