"""Small hardening edges: API error documents keep the site's security headers, tournament and
season names are cleaned like player and club names."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Club, Hand
from tests.factories import ClubFactory, GameFactory, UserFactory
from tests.tournaments import support
from tournaments.models import Season, Table, Tournament

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


def test_the_same_idempotency_key_with_another_body_is_a_422() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    url = f"/api/v1/games/{game.public_id}/hands/"
    key = str(uuid.uuid4())
    first = client.post(
        url,
        '{"winner": "Ann", "left": {"Bob": 24}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert first.status_code == 201
    # The resend (spaced and ordered otherwise) is the same request: the first answer again.
    again = client.post(
        url, '{"left":{"Bob":24},"winner":"Ann"}', content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert again.status_code in (200, 201) and again.json()["number"] == first.json()["number"]
    other = client.post(
        url,
        '{"winner": "Bob", "left": {"Ann": 5}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert Hand.objects.filter(game=game).count() == 1
    # Nor may the key name another operation or object.
    elsewhere = client.post(
        f"/api/v1/games/{game.public_id}/end/",
        "{}",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert elsewhere.status_code == 422
    assert Hand.objects.filter(game=game).count() == 1


def test_a_refused_request_may_be_corrected_and_resent_with_its_key() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    url = f"/api/v1/games/{game.public_id}/hands/"
    key = str(uuid.uuid4())
    wrong = client.post(
        url,
        '{"winner": "Zed", "left": {"Bob": 24}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert wrong.status_code == 400
    right = client.post(
        url,
        '{"winner": "Ann", "left": {"Bob": 24}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert right.status_code == 201


@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.MEMBERS])
def test_a_tables_game_names_its_tournament_only_to_who_may_see_it(visibility: str) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    made = support.tournament(club, organiser, players=4, name="Secret cup")
    support.play_round(made, 1, organiser, confirm=False)
    table = Table.objects.filter(round__tournament=made).exclude(game=None).first()
    assert table is not None and table.game is not None
    game = table.game
    insider = Client()
    insider.force_login(organiser)
    seen = insider.get(f"/g/{game.public_id}/").content.decode()
    assert "Secret cup" in seen and f'href="/t/{made.public_id}/"' in seen
    outsider = Client().get(f"/g/{game.public_id}/")
    assert outsider.status_code == 200
    shown = "Secret cup" in outsider.content.decode()
    assert shown == (visibility == Club.Visibility.PUBLIC)
    assert (f"/t/{made.public_id}/" in outsider.content.decode()) == shown
