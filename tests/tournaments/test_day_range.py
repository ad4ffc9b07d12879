"""A season's or a tournament's day far outside any club's calendar (the year 1, the year 9999)
is refused at its field with a message, in the API and the services, never a server error."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tournaments.models import Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("starts", "ends"), [("0001-01-01", "2000-01-04"), ("2026-01-01", "9999-12-31")])
def test_a_season_of_days_out_of_range_is_refused(starts: str, ends: str) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    body = {"name": "Long season", "starts": starts, "ends": ends, "families": ["gin"]}
    answer = api.post(f"/api/v1/clubs/{club.slug}/seasons/", body, format="json")
    assert answer.status_code == 400
    problem = answer.json()
    assert problem["code"] == "day_range"
    field = "starts" if starts.startswith("0001") else "ends"
    assert problem["fields"] == {field: ["Choose a day in the years 1900 to 2999."]}
    assert not Season.objects.exists()


def test_a_tournament_in_the_year_one_is_refused() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    body = {"name": "Old cup", "date": "0001-01-01", "family": "rummikub"}
    answer = api.post(f"/api/v1/clubs/{club.slug}/tournaments/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "day_range"
    assert not Tournament.objects.exists()
