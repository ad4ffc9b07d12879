"""Small hardening edges: API error documents keep the site's security headers, tournament and
season names are cleaned like player and club names."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tournaments.models import Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/v1/no-such-thing/", "/api/v1/games/%00/"])
def test_api_error_documents_keep_the_security_headers(url: str) -> None:
    answer = Client().get(url)
    assert answer.status_code in (400, 404) and answer["Content-Type"] == "application/problem+json"
    assert "frame-ancestors 'none'" in answer["Content-Security-Policy"]
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["X-Content-Type-Options"] == "nosniff"


@pytest.fixture
def organiser_api() -> tuple[Any, Any]:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    client = APIClient()
    client.force_login(user)
    return client, club


TOURNAMENT = {"name": "", "date": "2026-12-05", "family": "rummikub", "rounds": 2, "round_hands": 1}
SEASON = {"name": "", "starts": "2026-09-01", "ends": "2026-12-31", "families": ["rummikub"]}


@pytest.mark.parametrize(("kind", "body"), [("tournaments", TOURNAMENT), ("seasons", SEASON)])
def test_tournament_and_season_names_are_cleaned_like_player_names(
    organiser_api: tuple[Any, Any], kind: str, body: dict[str, Any]
) -> None:
    client, club = organiser_api
    url = f"/api/v1/clubs/{club.slug}/{kind}/"
    made = client.post(url, {**body, "name": "\u202eAutumn\u202c  \u200bCup "}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == "Autumn Cup"
    for bad in ["Cup\x07", "Cup\x1b[31m"]:
        refused = client.post(url, {**body, "name": bad}, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "name_control", refused.content
    model = Tournament if kind == "tournaments" else Season
    assert [row.name for row in model.objects.filter(club=club)] == ["Autumn Cup"]
