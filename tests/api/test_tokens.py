"""API tokens on the account page: made and shown once, stored only as a digest, read-only or
read-write, refused at once when revoked; and every error under /api/ is a problem document."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.api.auth import AnonThrottle, TokenThrottle
from games.models import ApiToken, RateCount
from games.services.tokens import token_digest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def make_token(client: Client, scope: str) -> str:
    page = client.post("/accounts/profile/", {"action": "token_create", "name": "scoreboard", "scope": scope})
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    found = re.search(r'id="new-token" type="text" readonly value="(rs_[\w-]+)"', page.content.decode())
    assert found is not None
    return found.group(1)


def test_a_token_is_shown_once_and_stored_as_a_digest() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    token = make_token(client, "read")
    row = ApiToken.objects.get(user=user)
    assert row.digest == token_digest(token) and token not in str(list(ApiToken.objects.values()))
    again = client.get("/accounts/profile/").content.decode()
    assert token not in again and row.prefix in again


def test_tokens_authenticate_with_their_scope_and_stop_when_revoked() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    read, write = make_token(client, "read"), make_token(client, "write")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {read}")
    assert api.get("/api/v1/schema/").status_code == 200
    new_game = {"family": "rummikub", "options": {}, "players": ["Ann", "Bob"]}
    refused = api.post("/api/v1/games/", new_game, format="json")
    assert refused.status_code == 403 and refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "permission_denied" and "read-only" in refused.json()["message"]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {write}")
    assert api.post("/api/v1/games/", new_game, format="json").status_code in (200, 201)
    row = ApiToken.objects.get(digest=token_digest(write))
    client.post("/accounts/profile/", {"action": "token_revoke", "token": str(row.pk)})
    gone = api.get("/api/v1/schema/")
    assert gone.status_code == 401 and gone.json()["code"] == "not_authenticated"


def test_no_html_under_the_api() -> None:
    api = APIClient()
    missing = api.get("/api/v1/no-such-thing/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"
    body = missing.json()
    assert set(body) >= {"type", "code", "message", "fields"} and body["code"] == "not_found"
    api.credentials(HTTP_AUTHORIZATION="Bearer rs_not-a-token")
    assert api.get("/api/v1/schema/").json()["code"] == "not_authenticated"


def test_messages_follow_accept_language() -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Bearer rs_not-a-token")
    english = api.get("/api/v1/schema/").json()["message"]
    czech = api.get("/api/v1/schema/", HTTP_ACCEPT_LANGUAGE="cs").json()["message"]
    assert english != czech


def test_each_token_and_each_anonymous_address_has_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    RateCount.objects.all().delete()
    monkeypatch.setattr(TokenThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    first, second = make_token(client, "read"), make_token(client, "read")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {first}")
    assert [api.get("/api/v1/clubs/").status_code for _ in range(3)] == [200, 200, 429]
    limited = api.get("/api/v1/clubs/")
    assert limited["Content-Type"] == "application/problem+json" and limited.json()["code"] == "throttled"
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {second}")
    assert api.get("/api/v1/clubs/").status_code == 200
    anonymous = APIClient()
    assert [anonymous.get("/api/v1/clubs/").status_code for _ in range(3)] == [200, 200, 429]
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.9")
    assert elsewhere.get("/api/v1/clubs/").status_code == 200
    RateCount.objects.all().delete()
