"""The seasons and ratings resources of the API: access per role, create (idempotent), read a
standings page, change with If-Match (428, stale 412), a player's ratings, head to head."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ApiToken, Club, Player
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.pipeline import drain
from tests.tournaments.support import play_round, tournament
from tournaments.models import Season
from tournaments.rating_history import rebuild_club

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"
API = "/api/v1"


def _problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    if code is not None:
        assert body["code"] == code, body
    return body


def _client(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _body(**changes: Any) -> dict[str, Any]:
    today = timezone.localdate()
    return {
        "name": "Season 2026",
        "starts": str(today - datetime.timedelta(days=30)),
        "ends": str(today + datetime.timedelta(days=30)),
        "families": ["rummikub"],
        **changes,
    }


@pytest.fixture
def organiser() -> User:
    return UserFactory.create(username="org")


@pytest.fixture
def club(organiser: User) -> Club:
    made = ClubFactory.create(name="Tuesday club", organiser=organiser)
    t = tournament(made, organiser, players=8, rounds=1)
    play_round(t, 1, organiser)
    rebuild_club(club=made)
    return made


def _players(club: Club) -> tuple[Player, Player]:
    anna = Player.objects.get(club=club, name="Anna")
    bara = Player.objects.get(club=club, name="Bára")
    return anna, bara


def test_create_list_and_read(club: Club, organiser: User) -> None:
    client = _client(organiser)
    url = f"{API}/clubs/{club.slug}/seasons/"
    key = str(uuid.uuid4())
    created = client.post(url, _body(), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert created.status_code == 201, created.content
    resent = client.post(url, _body(), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert resent.json()["public_id"] == created.json()["public_id"]
    assert Season.objects.count() == 1
    # The standings are the worker's: the answer says they are on their way.
    assert created.json()["standings"]["pending"] is True
    drain()
    season = client.get(f"{API}/seasons/{created.json()['public_id']}/").json()
    assert created["ETag"] == season["etag"] and season["version"] == 1
    assert season["standings"]["pending"] is False and season["standings"]["as_of"] is not None
    stored = Season.objects.get(public_id=season["public_id"])
    assert stored.computed_at is not None  # written as every answer writes a time: with the site's offset
    assert season["computed_at"] == timezone.localtime(stored.computed_at).isoformat()
    rows = season["standings"]["rows"]
    assert len(rows) == 8 and rows[0]["rank"] == 1 and float(rows[0]["points"]) == rows[0]["points_value"]
    listed = _client().get(url).json()["results"]
    assert [s["public_id"] for s in listed] == [season["public_id"]]
    detail = _client().get(f"{API}/seasons/{season['public_id']}/", {"family": "rummikub", "page": "1"})
    assert detail.status_code == 200 and detail.json()["standings"]["updating"] is False
    _problem(_client().get(f"{API}/seasons/{season['public_id']}/", {"page": "x"}), 400, "invalid")
    _problem(_client().get(f"{API}/seasons/{season['public_id']}/", {"family": "chess"}), 400, "invalid")
    _problem(_client().get(f"{API}/seasons/nope/"), 404, "not_found")


def test_create_refused_and_invalid(club: Club, organiser: User) -> None:
    url = f"{API}/clubs/{club.slug}/seasons/"
    member = UserFactory.create(username="member")
    add_member(club, member)
    _problem(_client(member).post(url, _body(), format="json"), 403, "permission_denied")
    _problem(_client().post(url, _body(), format="json"), 401)
    _row, token = token_create(user=organiser, name="ro", scope=ApiToken.Scope.READ)
    read_only = APIClient()
    read_only.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    _problem(read_only.post(url, _body(), format="json"), 403)
    assert read_only.get(url).status_code == 200
    body = _problem(_client(organiser).post(url, _body(families=["chess"]), format="json"), 400, "invalid")
    assert "families" in body["fields"]
    today = timezone.localdate()
    bad_dates = _body(ends=str(today - datetime.timedelta(days=60)))
    _problem(_client(organiser).post(url, bad_dates, format="json"), 400, "season_dates")
    assert Season.objects.count() == 0


def test_patch_if_match(club: Club, organiser: User) -> None:
    client = _client(organiser)
    season = client.post(f"{API}/clubs/{club.slug}/seasons/", _body(), format="json").json()
    url = f"{API}/seasons/{season['public_id']}/"
    _problem(client.patch(url, {"min_games": 2}, format="json"), 428, "precondition_required")
    key = str(uuid.uuid4())
    changed = client.patch(
        url, {"min_games": 2}, format="json", HTTP_IF_MATCH=season["etag"], HTTP_IDEMPOTENCY_KEY=key
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["min_games"] == 2 and changed.json()["version"] == 2
    resent = client.patch(
        url, {"min_games": 2}, format="json", HTTP_IF_MATCH=season["etag"], HTTP_IDEMPOTENCY_KEY=key
    )
    assert resent.status_code == 200 and resent.json()["version"] == 2
    stale = _problem(client.patch(url, {"name": "X"}, format="json", HTTP_IF_MATCH=season["etag"]), 412)
    assert stale["code"] == "stale_edit" and stale["current"]["min_games"] == 2
    member = UserFactory.create(username="member")
    add_member(club, member)
    _problem(_client(member).patch(url, {"name": "X"}, format="json", HTTP_IF_MATCH="*"), 403)


def test_members_only_club_is_404_to_outsiders(club: Club, organiser: User) -> None:
    season = _client(organiser).post(f"{API}/clubs/{club.slug}/seasons/", _body(), format="json").json()
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    anna, bara = _players(club)
    urls = [
        f"{API}/clubs/{club.slug}/seasons/",
        f"{API}/seasons/{season['public_id']}/",
        f"{API}/clubs/{club.slug}/players/{anna.pk}/ratings/",
        f"{API}/clubs/{club.slug}/players/{anna.pk}/versus/{bara.pk}/",
    ]
    outsider = UserFactory.create(username="outsider")
    member = UserFactory.create(username="member")
    add_member(club, member)
    for url in urls:
        _problem(_client().get(url), 404, "not_found")
        _problem(_client(outsider).get(url), 404, "not_found")
        assert _client(member).get(url).status_code == 200


def test_player_ratings(club: Club) -> None:
    anna, _bara = _players(club)
    url = f"{API}/clubs/{club.slug}/players/{anna.pk}/ratings/"
    body = _client().get(url).json()
    assert body["name"] == "Anna" and body["family"] == "rummikub"
    (rummikub,) = body["families"]
    assert (
        rummikub["games"] == 1 and isinstance(rummikub["mu"], float) and isinstance(rummikub["rating"], int)
    )
    assert len(body["history"]) == 1 and body["history"][0]["place"] >= 1
    assert _client().get(url, {"family": "rummikub"}).status_code == 200
    _problem(_client().get(url, {"family": "chess"}), 400, "invalid")
    _problem(_client().get(f"{API}/clubs/{club.slug}/players/99999/ratings/"), 404)
    _problem(_client().get(f"{API}/clubs/nope/players/{anna.pk}/ratings/"), 404)


def test_head_to_head(club: Club) -> None:
    anna, bara = _players(club)
    base = f"{API}/clubs/{club.slug}/players/{anna.pk}/versus"
    body = _client().get(f"{base}/{bara.pk}/").json()
    record = body["record"]
    assert record["games"] == len(body["meetings"])
    assert record["ahead"] + record["level"] + record["behind"] == record["games"]
    assert body["other_name"] == "Bára" and {r["family"] for r in body["ratings"]} == {"rummikub"}
    _problem(_client().get(f"{base}/{anna.pk}/"), 400, "invalid")
    _problem(_client().get(f"{base}/99999/"), 404)
    other_club = ClubFactory.create(name="Other club", organiser=UserFactory.create(username="o2"))
    stranger = Player.objects.create(club=other_club, name="Zed", key="zed", loose_key="zed")
    _problem(_client().get(f"{base}/{stranger.pk}/"), 404)
