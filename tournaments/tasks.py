"""The worker's jobs (Django's tasks framework; ``manage.py db_worker`` runs them).

A job carries only a club's id and reads what to do from the marks (``tournaments.derived``),
so running it twice, or after another job already did the work, changes nothing. A job that
fails leaves the marks in place, notes the failure on the club's ``DerivedState`` and queues
itself again after a growing wait; the failed try stays in the task results (admin), and other
clubs' jobs run meanwhile. A job that finds another worker at the club queues itself again
shortly, so the marks written during that worker's pass are not left behind.
"""

from __future__ import annotations

import datetime
import logging

from django.tasks import task
from django.utils import timezone

from tournaments import derived

log = logging.getLogger(__name__)

BUSY_RETRY = datetime.timedelta(seconds=2)


def _again(club_id: int, wait: datetime.timedelta) -> bool:
    """Queue the club's job again after ``wait``, where the backend can wait (the immediate
    backend cannot: the next change, or ``rebuild_derived``, picks the marks up there)."""
    if not apply_club.get_backend().supports_defer:
        return False
    apply_club.using(run_after=timezone.now() + wait).enqueue(club_id)
    return True


@task
def apply_club(club_id: int) -> dict[str, list[str] | list[int]] | None:
    """Apply the club's marks: re-rate and rebuild what they say."""
    try:
        applied = derived.apply(club_id)
    except Exception as error:
        failures = derived.failed(club_id, error)
        log.exception("derived numbers of club %s failed (%s in a row)", club_id, failures)
        _again(club_id, derived.backoff(failures))
        raise
    if applied is None:
        _again(club_id, BUSY_RETRY)
        return None
    return {"families": applied.families, "seasons": applied.seasons}
