"""Games stored before they had their own date of play were played when they were started."""

from __future__ import annotations

import datetime

import pytest

from games.models import Game
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0018_club_rating_list_settings")]


def test_a_stored_game_is_dated_when_it_was_started() -> None:
    started = datetime.datetime(2026, 3, 14, 19, 30, tzinfo=datetime.UTC)
    try:
        apps = migrate(BEFORE)
        OldGame = apps.get_model("games", "Game")
        pk = OldGame.objects.create(family="rummikub", options={}).pk
        OldGame.objects.filter(pk=pk).update(created_at=started)
    finally:
        migrate()
    assert Game.objects.get(pk=pk).played_at == started
