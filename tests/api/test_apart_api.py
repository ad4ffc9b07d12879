"""Who must not meet through the API: organisers list, add and remove pairs (If-Match, resends),
others are refused, and the round read carries the seating report for organisers only."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Entry, TournamentChange

pytestmark = pytest.mark.django_db
API = "/api/v1"


def test_pairs_through_the_api_and_the_report_in_the_round() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, 4)
    ids = {e.player.name: e.pk for e in Entry.objects.filter(tournament=cup).select_related("player")}
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"{API}/tournaments/{cup.public_id}/apart/"
    listed = client.get(url)
    assert listed.status_code == 200 and listed.json()["pairs"] == []
    tag = listed["ETag"]
    body = {"first": ids["Bára"], "second": ids["Anna"]}
    assert client.post(url, body, format="json").status_code == 428
    key = str(uuid.uuid4())
    added = client.post(url, body, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key)
    assert added.status_code == 200, added.content
    pair = added.json()["pairs"][0]
    assert (pair["first"]["name"], pair["second"]["name"]) == ("Anna", "Bára")
    again = client.post(url, body, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and len(again.json()["pairs"]) == 1
    assert TournamentChange.objects.filter(tournament=cup, action="apart").count() == 1
    stale = client.post(url, {**body, "keep": False}, format="json", HTTP_IF_MATCH=tag)
    assert stale.status_code == 412
    same = client.post(
        url, {"first": ids["Anna"], "second": ids["Anna"]}, format="json", HTTP_IF_MATCH=added["ETag"]
    )
    assert same.status_code == 400
    # Outsiders see nothing of it.
    assert APIClient().get(url).status_code in (401, 403)
    # Four players sit at one table: the pair is seated together, and the report says so.
    seated = client.post(
        f"{API}/tournaments/{cup.public_id}/rounds/1/seat/",
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert seated.status_code in (200, 201), seated.content
    report = client.get(f"{API}/tournaments/{cup.public_id}/rounds/1/").json()["report"]
    assert report["apart_met"] == [{"first": "Anna", "second": "Bára"}]
    assert report["repeats"] == [] and report["smaller_again"] == [] and report["bigger_again"] == []
    assert "report" not in APIClient().get(f"{API}/tournaments/{cup.public_id}/rounds/1/").json()
    removed = client.post(url, {**body, "keep": False}, format="json", HTTP_IF_MATCH=added["ETag"])
    assert removed.status_code == 200 and removed.json()["pairs"] == []
    settings = client.patch(
        f"{API}/tournaments/{cup.public_id}/",
        {"seed_by_rating": True},
        format="json",
        HTTP_IF_MATCH=removed["ETag"],
    )
    assert settings.status_code == 200 and settings.json()["seed_by_rating"] is True
