"""Taking a registered player off a tournament before round 1 is seated: recorded, his pairs
kept apart go with him, a resend changes nothing twice, and after the seating he can only
drop out."""

from __future__ import annotations

import uuid

import pytest

from engine.errors import EngineError
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Entry, TournamentChange
from tournaments.services.entries import entry_remove
from tournaments.services.round_seating import apart_set, round_seat

pytestmark = pytest.mark.django_db


def test_a_player_is_taken_off_before_round_1_and_not_after() -> None:
    organiser = UserFactory.create()
    cup = tournament(ClubFactory.create(organiser=organiser), organiser, players=6)
    anna, bara, cyril = (Entry.objects.get(tournament=cup, player__name=n) for n in ("Anna", "Bára", "Cyril"))
    cup = apart_set(tournament=cup, first=anna, second=bara, keep=True, version=cup.version, user=organiser)
    key = uuid.uuid4()
    entry_remove(entry=anna, user=organiser, request_id=key)
    entry_remove(entry=anna, user=organiser, request_id=key)  # a resend
    cup.refresh_from_db()
    assert not Entry.objects.filter(pk=anna.pk).exists() and cup.apart == []
    assert TournamentChange.objects.filter(tournament=cup, action="unregistered").count() == 1
    with pytest.raises(EngineError) as gone:
        entry_remove(entry=anna, user=organiser)
    assert gone.value.code == "entry_gone"
    round_seat(tournament=cup, number=1, user=organiser)
    with pytest.raises(EngineError) as seated:
        entry_remove(entry=cyril, user=organiser)
    assert seated.value.code == "entry_remove_seated"
    assert Entry.objects.filter(pk=cyril.pk).exists()
