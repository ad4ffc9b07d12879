"""Running the derived-numbers pipeline in tests.

``drain()`` does what the worker does after a commit: it applies every club's marks. Tests
whose writes run inside the test's own transaction (their ``on_commit`` never fires) call it
where a worker would have caught up. ``run_worker()`` runs the real worker's loop
(``manage.py db_worker``) over the database queue until it is empty: for tests that commit
(``transaction=True``) with ``database_tasks()`` in force.
"""

from __future__ import annotations

from django.test import override_settings
from django_tasks_db.management.commands.db_worker import Worker

from tournaments import derived
from tournaments.models import RatingDirty, SeasonDirty

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def drain() -> None:
    clubs = set(RatingDirty.objects.values_list("club_id", flat=True))
    clubs |= set(SeasonDirty.objects.values_list("club_id", flat=True))
    for club_id in sorted(clubs):
        derived.apply(club_id)


def database_tasks() -> override_settings:
    """The site's own task backend (a queue in the database) instead of the tests' immediate
    one (as a decorator or a ``with``)."""
    return override_settings(TASKS=DATABASE_TASKS)


def run_worker(*, worker_id: str = "test-worker", max_tasks: int | None = None) -> None:
    """The db worker's loop until no task is ready (or ``max_tasks`` ran)."""
    Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=max_tasks,
        worker_id=worker_id,
        excluded_queue_names=[],
    ).run()
