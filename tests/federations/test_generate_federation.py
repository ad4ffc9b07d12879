"""``generate_federation`` makes a federation whose lists are exactly what a fresh derivation
gives: every club a member, every register entry linked at his home club (one in ten at a
second club too), unregistered players at every club, and a tournament a quarter."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from federations.models import Federation, FederationRating, Person, PersonLink
from federations.ratings import differences
from games.models import Game
from tournaments.models import Table, Tournament
from tournaments.tournament_data import compute_standings, tournament_data

pytestmark = pytest.mark.django_db


def test_a_small_generated_federation_is_rated_as_a_fresh_derivation() -> None:
    out = io.StringIO()
    call_command(
        "generate_federation", "--clubs", "4", "--people", "60", "--games", "600", "--years", "2", stdout=out
    )
    federation = Federation.objects.get()
    assert "Rated:" in out.getvalue()
    assert federation.clubs.filter(state="member").count() == 4
    assert Person.objects.filter(federation=federation).count() == 60
    linked = PersonLink.objects.filter(federation=federation)
    assert linked.values("person").distinct().count() == 60  # each at his home club at least
    assert Game.objects.filter(club__federations__federation=federation).count() == 600
    assert Table.objects.exists()  # the quarterly tournaments' tables
    # Each tournament's entrants sit at one table each and are placed by its standings, so a
    # Grand Prix over them has people to rank.
    for tournament in Tournament.objects.filter(club__federations__federation=federation):
        data = tournament_data(tournament)
        seated = [e for table in data.tables for e in table.entries]
        assert len(seated) == len(set(seated)) == len(data.entries) >= 4
        assert sorted(r.player for r in compute_standings(data) if r.tables) == sorted(data.entries)
    assert 0 < FederationRating.objects.filter(federation=federation).count() <= 60
    assert differences(federation) == []
