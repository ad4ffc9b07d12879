"""The print pages read the tournament in a fixed number of queries, and the settings form
takes the final and says at the field what is wrong with it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, tournament
from tests.tournaments.test_access import option_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("page", ["r/1/print/", "r/1/slips/", "standings/print/"])
def test_print_pages_take_the_same_queries_for_any_size(page: str) -> None:
    counts = []
    for players in (8, 16):
        organiser = UserFactory.create()
        club = ClubFactory.create(organiser=organiser)
        cup = tournament(club, organiser, players=players)
        play_round(cup, 1, organiser, confirm=False)
        client = Client()
        client.force_login(organiser)
        counts.append(_queries(client, f"/t/{cup.public_id}/{page}"))
    assert counts[0] == counts[1]


def test_the_settings_form_takes_a_final_and_refuses_a_bad_one_at_its_field() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client()
    client.force_login(organiser)
    data: dict[str, Any] = {
        "name": "Gin night",
        "date": "2026-12-01",
        "rounds": "2",
        "round_hands": "2",
        "table_min": "2",
        "table_preferred": "2",
        "table_max": "2",
        "byes_allowed": "on",
        "seating": "swiss",
        "seat_order": "random",
        "points": "table",
        "final": "knockout",
        "final_size": "6",
        "final_counts": "decides",
        "family": "gin",
        **option_data("gin"),
    }
    url = f"/c/{club.slug}/tournaments/new/?family=gin"
    refused = client.post(url, data)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "A knockout has 4 or 8 players." in page
    assert not Tournament.objects.exists()
    made = client.post(url, {**data, "final_size": "8"})
    assert made.status_code == 302
    cup = Tournament.objects.get()
    assert (cup.final, cup.final_size, cup.final_counts) == ("knockout", 8, "decides")
    settings = client.get(f"/t/{cup.public_id}/settings/").content.decode()
    assert re.search(r'<input[^>]*name="final" value="knockout"[^>]*checked', settings)
