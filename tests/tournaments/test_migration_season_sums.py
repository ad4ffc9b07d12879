"""A season stored before its lines kept their exact sums is derived once more by the worker
when the site is upgraded, so the next finished game can be added to it."""

from __future__ import annotations

import pytest

from tests.migrating import migrate
from tests.tournaments.pipeline import database_tasks, run_worker
from tests.tournaments.support import season_settings
from tests.tournaments.test_pipeline import new_club, play
from tournaments import derived
from tournaments.models import Season, SeasonDirty, SeasonStanding
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0012_self_check_in")]


def test_the_upgrade_derives_every_season_once_and_its_lines_keep_their_sums() -> None:
    with database_tasks():
        club, user = new_club()
        season = season_create(club=club, settings=season_settings(), user=user)
        play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=2)
        play(club, user, ["Bob", "Cid", "Dan"], "Cid", back=1)
        run_worker()
        assert derived.differences(club) == []
        try:
            migrate(BEFORE)  # the lines as an older site stored them: no sums
        finally:
            migrate()
        assert SeasonDirty.objects.filter(season=season).count() == 1  # marked by the upgrade...
        assert derived.freshness(club.pk).pending
        run_worker()  # ...and queued for the worker
        assert not derived.freshness(club.pk).pending
        assert derived.differences(club) == []
        lines = SeasonStanding.objects.filter(season=season)
        assert lines and all(line.exact_points and line.played for line in lines)
        assert Season.objects.get(pk=season.pk).counted_until is not None
