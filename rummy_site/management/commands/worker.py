"""The site's task worker: django-tasks-db's ``db_worker`` (same options), made to outlive faults.

Beside the worker's loop, a thread of its own renews the leases of the club jobs this process is
at and, every ``DERIVED_SWEEP_SECONDS``, sweeps: a club with marks and no job queued or alive (a
killed worker's, or one whose queueing was lost) is queued again (``tournaments.derived.sweep``).
A database that cannot be reached (restarted, its connection ended) stops neither: each waits and
tries again with a new connection, where ``db_worker`` would exit. ``manage.py serve`` and
``scripts/with-worker`` start this; in production run one or more beside gunicorn.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError, close_old_connections, connection
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from federations import derived as federation_derived
from tournaments import derived

log = logging.getLogger(__name__)


class Worker(db_worker.Worker):
    def run(self) -> None:
        stop = threading.Event()
        threading.Thread(target=_sweeper, args=(stop,), name="sweeper", daemon=True).start()
        try:
            self._run()
        finally:
            stop.set()

    def _run(self) -> None:
        while True:
            try:
                super().run()
                return
            except DatabaseError:
                log.exception("the database cannot be reached: trying again")
                connection.close()
                time.sleep(max(self.interval, 1.0))


def _sweeper(stop: threading.Event) -> None:
    """Renew this process's leases every third of a lease; sweep every sweep interval."""
    tick = min(settings.DERIVED_LEASE_SECONDS / 3, settings.DERIVED_SWEEP_SECONDS)
    next_sweep = 0.0
    while not stop.wait(tick):
        try:
            close_old_connections()
            derived.renew()
            federation_derived.renew()
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + settings.DERIVED_SWEEP_SECONDS
                derived.sweep()
                federation_derived.sweep()
        except Exception:  # the thread must outlive any one sweep (a database away, a bug)
            log.exception("the sweep failed: trying again")
            connection.close()


class Command(db_worker.Command):
    help = "Run the site's task worker: db_worker, plus leases and a sweep that retake a dead worker's work."

    def handle(self, *args: Any, **options: Any) -> None:
        self.configure_logging(options["verbosity"])
        queue_names = options["queue_name"].split(",")
        excluded = options["exclude_queues"].split(",") if options["exclude_queues"] else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
            excluded_queue_names=excluded,
        )
        if options["reload"] and not options["batch"]:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":  # the child that runs the loop
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
