"""Work done after a write commits, through Django's tasks framework: re-rating a club's games
and rebuilding its seasons' standings after a change to a finished game.

The write itself only records what must be redone (a ``RatingDirty`` row, in its own
transaction), so a hand saved at the table never waits for a lock the rebuild holds, and
nothing is lost if the rebuild fails: the row stays, the pages say "ratings updating", and the
next rebuild (or ``manage.py rebuild_derived``) picks it up. With the default backend
(``ImmediateBackend``) the task runs right after the commit in the same process; a deployment
with several servers may configure a queue backend in ``TASKS`` instead, since the task reads
everything it needs from the database.
"""

from __future__ import annotations

from django.tasks import task

from games.models import Club
from tournaments.ratings import refresh
from tournaments.seasons import rebuild_seasons


@task
def refresh_club(club_id: int) -> list[str]:
    """Re-rate what is marked and rebuild the seasons of the families re-rated."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return []

    def seasons(club: Club, families: list[str]) -> None:
        rebuild_seasons(club, families)

    return refresh(club=club, after=seasons)


@task
def rebuild_club_seasons(club_id: int) -> int:
    """Rebuild every season of the club (a tournament's last round was confirmed)."""
    club = Club.objects.filter(pk=club_id).first()
    return len(rebuild_seasons(club)) if club is not None else 0
