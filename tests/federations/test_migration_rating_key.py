"""A federation's live list kept before its lines carried the person's name key gets the keys
when the site is upgraded, so equal ratings are listed by name as a fresh derivation lists them."""

from __future__ import annotations

import datetime

import pytest

from federations.models import FederationClub
from federations.ratings import differences, refresh
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from tests.federations.support import world
from tests.migrating import migrate
from tests.tournaments.fault_club import play

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_upgrade_gives_each_line_its_persons_name_key() -> None:
    w = world(clubs=1)
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    play(w.clubs[0], w.organisers[0], ["Žofie", "Ann"], "Žofie")
    for number, name in enumerate(("Žofie", "Ann"), start=1):
        person_add(federation=w.federation, name=f"{name} Nováková")
        player = Player.objects.get(club=w.clubs[0], name=name)
        link_make(federation=w.federation, club=w.clubs[0], player=player, person_id=str(number))
    refresh(w.federation)
    try:
        old = migrate([("federations", "0003_change_imported")])
        # The lines as the older schema kept them: no key.
        assert "key" not in {f.name for f in old.get_model("federations", "FederationRating")._meta.fields}
    finally:
        migrate()
    assert differences(w.federation) == []
