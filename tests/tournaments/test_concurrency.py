"""Two organisers press "Seat round 1" at the same moment, on two servers: one seating wins,
the other is refused with a message, and nothing is seated twice. Real threads, real
transactions (on PostgreSQL the row lock decides; on SQLite the write lock)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from engine.errors import EngineError
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Round, TableSeat, TournamentChange
from tournaments.services.round_seating import round_seat


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="the in-memory SQLite test database shares one cache between threads and fails their "
    "writes with 'table is locked' instead of queueing them as the file database of a real site does",
)
def test_two_organisers_seat_the_same_round_at_once() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    other = UserFactory.create()
    t = tournament(club, organiser, 12)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def seat(user: object) -> None:
        try:
            start.wait()
            round_seat(tournament=t, number=1, user=user, request_id=uuid.uuid4())  # type: ignore[arg-type]
            outcomes.append("seated")
        except EngineError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=seat, args=(user,)) for user in (organiser, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["round_already_seated", "seated"]
    assert Round.objects.filter(tournament=t).count() == 1
    assert TableSeat.objects.filter(table__round__tournament=t).count() == 12
    assert TournamentChange.objects.filter(tournament=t, action="seated").count() == 1
