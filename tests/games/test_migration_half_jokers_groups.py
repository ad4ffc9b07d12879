"""Žolíky games and tournaments stored before the group joker limit became its own house rule
keep the reading they were played under; new ones get the source's rule."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.melds import check_meld
from engine.notation import parse_hand
from engine.rules import rule_set
from games.models import Game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0011_game_family_from_registry"), ("tournaments", "0003_family_from_registry")]


def _migrate(targets: list[tuple[str, str]] | None = None) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    nodes = targets if targets is not None else executor.loader.graph.leaf_nodes()
    executor.migrate(nodes)
    return executor.loader.project_state(nodes).apps


def test_stored_games_keep_the_strict_reading() -> None:
    old = dict(rule_set("zoliky").options)
    old.pop("half_jokers_groups")
    try:
        apps = _migrate(BEFORE)
        OldGame = apps.get_model("games", "Game")
        strict = OldGame.objects.create(family="zoliky", options=old).pk
        loose = OldGame.objects.create(family="zoliky", options={**old, "half_jokers": False}).pk
        gin = OldGame.objects.create(family="gin", options={"target": 20}).pk
        club = apps.get_model("games", "Club").objects.create(name="Club", slug="club")
        OldTournament = apps.get_model("tournaments", "Tournament")
        cup = OldTournament.objects.create(
            club=club,
            name="Cup",
            date=datetime.date(2026, 11, 1),
            family="zoliky",
            options={"half_jokers": True},
            table_min=3,
            table_max=4,
            table_preferred=4,
        ).pk
    finally:
        _migrate()
    meld = "5H JK JK"
    games = Game.objects.in_bulk([strict, loose, gin])
    rules = rule_set("zoliky", games[strict].options)
    assert games[strict].options["half_jokers_groups"] is True
    with pytest.raises(Exception, match="at most half"):
        check_meld(parse_hand(meld, rules), rules)
    assert games[loose].options["half_jokers_groups"] is False
    assert games[gin].options == {"target": 20}
    assert Tournament.objects.get(pk=cup).options == {"half_jokers": True, "half_jokers_groups": True}
    assert rule_set("zoliky").options["half_jokers_groups"] is False  # a new game: the source's rule
