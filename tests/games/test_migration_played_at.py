"""Games stored before they had their own date of play were played when they were started."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0018_club_rating_list_settings")]


def _migrate(targets: list[tuple[str, str]] | None = None) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    nodes = targets if targets is not None else executor.loader.graph.leaf_nodes()
    executor.migrate(nodes)
    return executor.loader.project_state(nodes).apps


def test_a_stored_game_is_dated_when_it_was_started() -> None:
    started = datetime.datetime(2026, 3, 14, 19, 30, tzinfo=datetime.UTC)
    try:
        apps = _migrate(BEFORE)
        OldGame = apps.get_model("games", "Game")
        pk = OldGame.objects.create(family="rummikub", options={}).pk
        OldGame.objects.filter(pk=pk).update(created_at=started)
    finally:
        _migrate()
    assert Game.objects.get(pk=pk).played_at == started
