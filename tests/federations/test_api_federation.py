"""The federation organisers' API as a program uses it: create (a resend with its
Idempotency-Key makes one federation), settings under If-Match (428, stale 412), organisers,
clubs invited and ended, the register with its search, an edit and a merge undone through the
history, the history's CSV; and who may do what (a members-only federation is a 404 to
outsiders; the tools are the organisers')."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from federations.models import Federation, FederationChange, FederationClub, Person
from federations.services.memberships import club_answer
from games.models import ApiToken
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member
from tests.federations.support import world

pytestmark = pytest.mark.django_db
API = "/api/v1/federations"
PROBLEM = "application/problem+json"


def _client(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    if code is not None:
        assert body["code"] == code, body
    return body


def _key() -> str:
    return str(uuid.uuid4())


def test_create_once_with_a_resend_and_change_the_settings_under_if_match() -> None:
    user = UserFactory.create(username="founder")
    client = _client(user)
    key = _key()
    made = client.post(
        f"{API}/",
        {"name": "Polska federacja remika", "id_prefix": "pl"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert made.status_code == 201, made.content
    again = client.post(
        f"{API}/",
        {"name": "Polska federacja remika", "id_prefix": "pl"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert again.status_code == 201 and again.json()["slug"] == made.json()["slug"]
    assert Federation.objects.filter(name="Polska federacja remika").count() == 1
    # The same key with another body is refused.
    _problem(
        client.post(f"{API}/", {"name": "Inna"}, format="json", HTTP_IDEMPOTENCY_KEY=key),
        422,
        "idempotency_key_reused",
    )
    _problem(client.post(f"{API}/", {"name": "  "}, format="json"), 400, "invalid")
    _problem(_client().post(f"{API}/", {"name": "Anonim"}, format="json"), 401)

    body = made.json()
    slug, tag = body["slug"], made["ETag"]
    assert body["id_prefix"] == "PL" and body["organiser"] is True and body["etag"] == tag
    listed = client.get(f"{API}/").json()
    assert [f["slug"] for f in listed["results"]] == [slug] and listed["results"][0]["member_count"] == 0

    _problem(client.patch(f"{API}/{slug}/", {"inactive_days": 100}, format="json"), 428)
    changed = client.patch(
        f"{API}/{slug}/",
        {"inactive_days": 100, "visibility": "members"},
        format="json",
        HTTP_IF_MATCH=tag,
        HTTP_IDEMPOTENCY_KEY=_key(),
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["inactive_days"] == 100 and changed.json()["name"] == "Polska federacja remika"
    stale = _problem(
        client.patch(f"{API}/{slug}/", {"inactive_days": 5}, format="json", HTTP_IF_MATCH=tag),
        412,
        "stale_edit",
    )
    assert stale["current"]["inactive_days"] == 100
    _problem(
        client.patch(f"{API}/{slug}/", {"counts": "nonsense"}, format="json", HTTP_IF_MATCH=changed["ETag"]),
        400,
    )


def test_organisers_clubs_and_who_may_call() -> None:
    w = world(clubs=1)
    slug = w.federation.slug
    client = _client(w.director)
    UserFactory.create(username="helper")
    added = client.post(
        f"{API}/{slug}/organisers/", {"username": "helper"}, format="json", HTTP_IDEMPOTENCY_KEY=_key()
    )
    assert added.status_code == 201 and {o["username"] for o in added.json()} == {"director", "helper"}
    _problem(
        client.post(f"{API}/{slug}/organisers/", {"username": "ghost"}, format="json"),
        400,
        "organiser_unknown",
    )
    key = _key()
    assert client.delete(f"{API}/{slug}/organisers/helper/", HTTP_IDEMPOTENCY_KEY=key).status_code == 204
    assert (
        client.delete(f"{API}/{slug}/organisers/helper/", HTTP_IDEMPOTENCY_KEY=key).status_code == 204
    )  # the resend
    _problem(client.delete(f"{API}/{slug}/organisers/director/"), 400, "organiser_last")

    club_organiser = UserFactory.create()
    club = ClubFactory.create(name="Klub Wrocław", organiser=club_organiser)
    key = _key()
    invited = client.post(
        f"{API}/{slug}/clubs/",
        {"club": club.slug, "counts_from": "2025-03-01"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert invited.status_code == 201, invited.content
    resent = client.post(
        f"{API}/{slug}/clubs/",
        {"club": club.slug, "counts_from": "2025-03-01"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert resent.status_code == 201 and FederationClub.objects.filter(club=club).count() == 1
    _problem(
        client.post(f"{API}/{slug}/clubs/", {"club": club.slug}, format="json"), 400, "club_already_invited"
    )
    membership = FederationClub.objects.get(club=club)
    club_answer(membership=membership, accept=True, version=membership.version, user=club_organiser)
    clubs = client.get(f"{API}/{slug}/clubs/").json()
    row = next(m for m in clubs["members"] if m["club"] == club.slug)
    assert row["counts_from"] == "2025-03-01" and row["state"] == "member"
    end = f"{API}/{slug}/clubs/{club.slug}/end/"
    _problem(client.post(end), 428)
    _problem(client.post(end, HTTP_IF_MATCH=invited["ETag"]), 412, "stale_edit")
    key = _key()
    ended = client.post(end, HTTP_IF_MATCH=row["etag"], HTTP_IDEMPOTENCY_KEY=key)
    assert ended.status_code == 200 and ended.json()["state"] == "ended"
    assert (
        client.post(end, HTTP_IF_MATCH=row["etag"], HTTP_IDEMPOTENCY_KEY=key).status_code == 200
    )  # the resend
    _problem(client.post(end, HTTP_IF_MATCH=row["etag"]), 404)

    # Access: a members-only federation is a 404 to outsiders; its tools are the organisers'.
    w.federation.refresh_from_db()
    w.federation.visibility = Federation.Visibility.MEMBERS
    w.federation.save()
    member = UserFactory.create()
    add_member(w.clubs[0], member)
    outsider = _client(UserFactory.create())
    for path in ("", "register/", "clubs/", "history/"):
        _problem(outsider.get(f"{API}/{slug}/{path}"), 404)
        _problem(_client().get(f"{API}/{slug}/{path}"), 404)
    assert _client(member).get(f"{API}/{slug}/").status_code == 200
    assert _client(member).get(f"{API}/{slug}/register/").status_code == 200
    for path in ("clubs/", "history/", "organisers/", "history/csv/"):
        _problem(_client(member).get(f"{API}/{slug}/{path}"), 403)
    _problem(_client(member).post(f"{API}/{slug}/register/", {"name": "X"}, format="json"), 403)
    # A read-only token of the organiser reads but does not write.
    _record, token = token_create(user=w.director, name="read", scope=ApiToken.Scope.READ)
    reader = APIClient(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert reader.get(f"{API}/{slug}/clubs/").status_code == 200
    _problem(reader.post(f"{API}/{slug}/register/", {"name": "X"}, format="json"), 403)


def test_register_search_edit_merge_undo_and_csv() -> None:
    w = world(clubs=1)
    slug, club = w.federation.slug, w.clubs[0]
    client = _client(w.director)
    key = _key()
    first = client.post(
        f"{API}/{slug}/register/",
        {"name": "Jan Novák", "home_club": club.slug},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert first.status_code == 201, first.content
    assert first.json()["id"] == "CZ-00001" and first.json()["home_club"] == club.slug
    again = client.post(
        f"{API}/{slug}/register/",
        {"name": "Jan Novák", "home_club": club.slug},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert again.json()["number"] == 1 and Person.objects.filter(federation=w.federation).count() == 1
    client.post(f"{API}/{slug}/register/", {"name": "Jan Novak"}, format="json")
    client.post(f"{API}/{slug}/register/", {"name": "Eva Svobodová"}, format="json")
    other = ClubFactory.create()
    _problem(
        client.post(f"{API}/{slug}/register/", {"name": "X", "home_club": other.slug}, format="json"),
        400,
        "home_club_not_member",
    )
    found = _client().get(f"{API}/{slug}/register/", {"q": "svobodova"}).json()
    assert [e["name"] for e in found["entries"]] == ["Eva Svobodová"] and found["count"] == 1
    assert [
        e["number"] for e in _client().get(f"{API}/{slug}/register/", {"q": "CZ-00002"}).json()["entries"]
    ] == [2]
    _problem(_client().get(f"{API}/{slug}/register/", {"page": "0"}), 400)

    entry = client.get(f"{API}/{slug}/register/2/")
    edited = client.patch(
        f"{API}/{slug}/register/2/", {"home_club": club.slug}, format="json", HTTP_IF_MATCH=entry["ETag"]
    )
    assert edited.status_code == 200 and edited.json()["home_club"] == club.slug
    assert edited.json()["name"] == "Jan Novak"
    _problem(
        client.patch(f"{API}/{slug}/register/2/", {"name": "Y"}, format="json", HTTP_IF_MATCH=entry["ETag"]),
        412,
    )
    _problem(client.get(f"{API}/{slug}/register/99999999999/"), 404)

    one, two = client.get(f"{API}/{slug}/register/1/").json(), client.get(f"{API}/{slug}/register/2/").json()
    body = {"source": 2, "into": 1, "source_version": two["version"], "into_version": one["version"]}
    _problem(client.post(f"{API}/{slug}/merges/", {**body, "into_version": 0}, format="json"), 412)
    merged = client.post(f"{API}/{slug}/merges/", body, format="json", HTTP_IDEMPOTENCY_KEY=_key())
    assert merged.status_code == 201, merged.content
    assert merged.json()["source"]["merged_into"] == 1
    assert [e["number"] for e in client.get(f"{API}/{slug}/register/").json()["entries"]] == [1, 3]

    history = client.get(f"{API}/{slug}/history/").json()
    top = history["changes"][0]
    assert top["action"] == "merged" and top["undoable"] is True and top["user_name"] == "director"
    key = _key()
    undone = client.post(f"{API}/{slug}/history/{top['id']}/undo/", HTTP_IDEMPOTENCY_KEY=key)
    assert undone.status_code == 201 and undone.json()["action"] == "unmerged"
    assert (
        client.post(f"{API}/{slug}/history/{top['id']}/undo/", HTTP_IDEMPOTENCY_KEY=key).json()["id"]
        == undone.json()["id"]
    )
    _problem(client.post(f"{API}/{slug}/history/{top['id']}/undo/"), 400, "nothing_to_undo")
    assert Person.objects.get(federation=w.federation, number=2).merged_into is None
    assert FederationChange.objects.filter(federation=w.federation, action="unmerged").count() == 1

    response = client.get(f"{API}/{slug}/history/csv/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["time", "action", "description", "user", "club", "details"]
    assert [r[1] for r in rows[1:3]] == ["unmerged", "merged"]
