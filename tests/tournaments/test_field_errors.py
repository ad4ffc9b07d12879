"""A refused tournament or season setting is named at its field in the API's problem, as the
pages show it beside the field: the services say which field each refusal is about."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

TOURNAMENT = {"name": "Cup", "date": "2026-12-05", "family": "rummikub"}
SEASON = {"name": "Winter", "starts": "2026-12-01", "ends": "2027-02-28", "families": ["gin"]}


@pytest.mark.parametrize(
    ("path", "body", "code", "field"),
    [
        ("tournaments", {**TOURNAMENT, "table_min": 4, "table_max": 2}, "table_limits", "table_preferred"),
        ("tournaments", {**TOURNAMENT, "final": "knockout"}, "final_knockout_family", "final"),
        ("seasons", {**SEASON, "ends": "2026-11-01"}, "season_dates", "ends"),
    ],
)
def test_a_refused_setting_is_named_at_its_field(
    path: str, body: dict[str, Any], code: str, field: str
) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.post(f"/api/v1/clubs/{club.slug}/{path}/", body, format="json")
    assert answer.status_code == 400, answer.json()
    problem = answer.json()
    assert problem["code"] == code
    assert list(problem["fields"]) == [field] and problem["fields"][field] == [problem["message"]]
