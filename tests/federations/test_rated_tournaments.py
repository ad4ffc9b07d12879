"""A club's organisers mark their tournaments federation-rated for a federation that counts
only those, on the club's federations page and through the API: the list follows, a resend
changes nothing twice, and only the club's organisers may."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationRatingEvent,
    RatedTournament,
)
from federations.ratings import differences, refresh
from federations.services.federations import Settings, federation_update
from tests.factories import UserFactory, add_member
from tests.federations.support import World, world
from tests.tournaments.support import play_round, tournament

pytestmark = pytest.mark.django_db


def counting_events() -> tuple[World, Federation]:
    w = world(clubs=1)
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    current = Settings.of(w.federation)
    federation = federation_update(
        federation=w.federation,
        settings=Settings(**{**current.__dict__, "counts": Federation.Counts.EVENTS}),
        version=w.federation.version,
    )
    return w, federation


def test_the_club_page_marks_a_tournament_and_the_list_follows() -> None:
    w, federation = counting_events()
    club, organiser = w.clubs[0], w.organisers[0]
    cup = tournament(club, organiser, players=8)
    play_round(cup, 1, organiser)
    browser = Client()
    browser.force_login(organiser)
    page = browser.get(reverse("federations:club", kwargs={"slug": club.slug}))
    assert cup.name in page.text and "Count it for the federation" in page.text
    action = reverse(
        "federations:club_rate",
        kwargs={"slug": club.slug, "fed": federation.slug, "public_id": cup.public_id},
    )
    request = str(uuid.uuid4())
    for _ in range(2):  # a resend changes nothing twice
        done = browser.post(action, {"rated": "1", "request_id": request}, follow=True)
    assert "counts for" in done.text and "Take the mark back" in done.text
    assert FederationChange.objects.filter(action="marked").count() == 1
    refresh(federation)
    assert FederationRatingEvent.objects.filter(federation=federation).exists()
    assert differences(federation) == []
    browser.post(action, {"rated": "0", "request_id": str(uuid.uuid4())})
    refresh(federation)
    assert not FederationRatingEvent.objects.filter(federation=federation).exists()
    # A member who does not run the club may not.
    member = UserFactory.create()
    add_member(club, member)
    other = Client()
    other.force_login(member)
    assert other.post(action, {"rated": "1"}).status_code == 403
    assert not RatedTournament.objects.exists()


def test_the_api_lists_and_marks_the_clubs_tournaments() -> None:
    w, federation = counting_events()
    club, organiser = w.clubs[0], w.organisers[0]
    cup = tournament(club, organiser, players=8)
    api = APIClient()
    api.force_authenticate(organiser)
    base = f"/api/v1/clubs/{club.slug}/federations/{federation.slug}/tournaments/"
    assert api.get(base).json() == [
        {"public_id": cup.public_id, "name": cup.name, "date": cup.date.isoformat(), "rated": False}
    ]
    key = str(uuid.uuid4())
    marked = api.post(f"{base}{cup.public_id}/", {"rated": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert marked.status_code == 200 and marked.json()["rated"] is True
    again = api.post(f"{base}{cup.public_id}/", {"rated": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.json() == marked.json()
    assert RatedTournament.objects.filter(federation=federation, tournament=cup).count() == 1
    assert api.post(f"{base}nowhere/", {"rated": True}, format="json").status_code == 404
    assert api.post(f"{base}{cup.public_id}/", {"rated": "maybe"}, format="json").status_code == 400
    outsider = APIClient()
    outsider.force_authenticate(UserFactory.create())
    assert outsider.get(base).status_code in (403, 404)
