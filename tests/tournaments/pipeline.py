"""Running the derived-numbers pipeline in tests.

``drain()`` does what the worker does after a commit: it applies every club's marks. Tests
whose writes run inside the test's own transaction (their ``on_commit`` never fires) call it
where a worker would have caught up. ``run_worker()`` runs the real worker's loop
(``manage.py db_worker``) over the database queue until it is empty: for tests that commit
(``transaction=True``) with ``database_tasks()`` in force. ``Workers`` starts real worker
processes (``manage.py worker``) that a fault test can pause at a named step and kill.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.db import connection
from django.test import override_settings
from django_tasks_db.management.commands.db_worker import Worker

from tournaments import derived
from tournaments.models import RatingDirty, SeasonDirty

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
ROOT = Path(__file__).resolve().parents[2]
# Short enough for tests of seconds: a lease of 1.5 s renewed every 0.5 s, a sweep every 0.3 s.
LEASE, SWEEP = 1.5, 0.3
# The job's own time (a small club) and a busy machine's delays.
SLACK = 3.0


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


# ---------------------------------------------------------------------- real worker processes


def postgres_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def worker_env(url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DERIVED_")}
    env.update(
        DJANGO_SETTINGS_MODULE="rummy_site.settings",
        DEBUG="1",
        DATABASE_URL=url,
        DERIVED_LEASE_SECONDS=str(LEASE),
        DERIVED_SWEEP_SECONDS=str(SWEEP),
        **extra,
    )
    return env


class Workers:
    """Worker processes started by a test, all stopped at its end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[subprocess.Popen[bytes]] = []
        self.url = ""  # the database: the test database (PostgreSQL) unless set

    def start(self, *, pause_at: str = "") -> subprocess.Popen[bytes]:
        extra = {"DERIVED_PAUSE_AT": pause_at, "DERIVED_PAUSE_FILE": str(self.pause_file)} if pause_at else {}
        with open(self.folder / f"worker-{len(self.started)}.log", "wb") as log:  # the child keeps its own
            process = subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "worker",
                    "--no-reload",
                    "--interval",
                    "0.1",
                    "--no-startup-delay",
                ],
                cwd=ROOT,
                env=worker_env(self.url or postgres_url(), **extra),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.started.append(process)
        return process

    @property
    def pause_file(self) -> Path:
        return self.folder / "paused"

    def wait_paused(self, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not self.pause_file.exists():
            assert process.poll() is None, self.logs()
            assert time.monotonic() < deadline, f"the worker never reached its pause\n{self.logs()}"
            time.sleep(0.02)

    def wait_ready(self, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
        """Until the worker's loop runs (Django started, the database opened)."""
        log = self.folder / f"worker-{self.started.index(process)}.log"
        deadline = time.monotonic() + timeout
        while b"Starting worker" not in log.read_bytes():
            assert process.poll() is None, self.logs()
            assert time.monotonic() < deadline, f"the worker never started\n{self.logs()}"
            time.sleep(0.02)

    def logs(self, tail: int | None = 3000) -> str:
        return "\n".join(
            p.read_text(errors="replace")[-(tail or 0) :] for p in sorted(self.folder.glob("worker-*.log"))
        )

    def stop(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
