"""The clubs' and persons' federation resources of the API: a club's organisers answer an
invitation, link players and answer claims under If-Match (428 without, 412 stale), once per
Idempotency-Key; a player claims his entry (the same refusal whatever did not match); a
register entry read as its page shows it."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from federations.models import FederationChange, FederationClub, Person, PersonLink
from federations.services.links import link_make
from federations.services.memberships import club_invite
from federations.services.register import person_add, person_merge
from games.models import Club, Membership
from tests.factories import ClubFactory, UserFactory, add_member
from tests.federations.played import club_player, played
from tests.federations.support import own_player, world

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"
API = "/api/v1"


def problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    if code is not None:
        assert body["code"] == code, body
    return body


def client_of(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_club_accepts_an_invitation_under_if_match_once_per_key() -> None:
    w = world(clubs=1)
    organiser = UserFactory.create()
    club = ClubFactory.create(name="Karetní klub Brno", organiser=organiser)
    club_invite(federation=w.federation, club=club, user=w.director)
    api = client_of(organiser)
    listed = api.get(f"{API}/clubs/{club.slug}/federations/").json()
    assert listed["memberships"] == []
    invitation = listed["invitations"][0]
    assert invitation["federation"] == {"slug": w.federation.slug, "name": w.federation.name}
    url = f"{API}/clubs/{club.slug}/federations/{w.federation.slug}/accept/"
    problem(api.post(url), 428, "precondition_required")
    problem(api.post(url, HTTP_IF_MATCH='"membership-1-v99"'), 412, "stale_edit")
    key = str(uuid.uuid4())
    first = api.post(url, HTTP_IF_MATCH=invitation["etag"], HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 200, first.content
    assert first.json()["state"] == "member"
    # The resend answers the same and changes nothing (its If-Match is stale by now).
    again = api.post(url, HTTP_IF_MATCH=invitation["etag"], HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert FederationChange.objects.filter(action=FederationChange.Action.CLUB_JOINED, club=club).count() == 1
    listed = api.get(f"{API}/clubs/{club.slug}/federations/").json()
    assert listed["invitations"] == [] and listed["memberships"][0]["state"] == "member"
    # Leaving, stale then current; a resend after it left still answers.
    leave = f"{API}/clubs/{club.slug}/federations/{w.federation.slug}/leave/"
    problem(api.post(leave, HTTP_IF_MATCH=invitation["etag"]), 412, "stale_edit")
    key = str(uuid.uuid4())
    tag = listed["memberships"][0]["etag"]
    assert api.post(leave, HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key).json()["state"] == "ended"
    assert api.post(leave, HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key).status_code == 200
    assert FederationClub.objects.get(club=club).state == "ended"


def test_a_member_an_outsider_and_anonymous_are_refused() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    url = f"{API}/clubs/{club.slug}/federations/"
    problem(client_of(member).get(url), 403)
    problem(client_of().get(url), 401)
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    problem(client_of(UserFactory.create()).get(url), 404)
    problem(client_of().get(f"{API}/federations/{w.federation.slug}/claim/"), 401)


def test_the_club_links_a_player_and_a_wrong_id_is_refused_at_the_field() -> None:
    w = world(clubs=1)
    club, api = w.clubs[0], client_of(w.organisers[0])
    person_add(federation=w.federation, name="Jana Nováková", user=w.director)
    jana = club_player(club, "Jana N.")
    url = f"{API}/clubs/{club.slug}/federations/{w.federation.slug}/links/"
    assert api.get(url).json()["unlinked"] == [{"id": jana.pk, "name": "Jana N."}]
    wrong = problem(
        api.post(url, {"player": jana.pk, "person": "CZ-00999"}, format="json"), 400, "person_unknown"
    )
    assert wrong["fields"] == {"person": ["There is no entry CZ-00999 in the register."]}
    key = str(uuid.uuid4())
    made = api.post(url, {"player": jana.pk, "person": "CZ-00001"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert made.status_code == 201, made.content
    again = api.post(url, {"player": jana.pk, "person": "CZ-00001"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and again.json() == made.json()
    [link] = made.json()["links"]
    assert (link["player"]["name"], link["person"], link["state"]) == ("Jana N.", "CZ-00001", "linked")
    assert PersonLink.objects.count() == 1
    # The same key for another body: refused.
    problem(api.post(url, {"player": jana.pk, "person": "2"}, format="json", HTTP_IDEMPOTENCY_KEY=key), 422)
    detail = f"{url}{link['id']}/"
    problem(api.delete(detail), 428)
    problem(api.delete(detail, HTTP_IF_MATCH='"link-1-v9"'), 412, "stale_edit")
    key = str(uuid.uuid4())
    assert api.delete(detail, HTTP_IF_MATCH=link["etag"], HTTP_IDEMPOTENCY_KEY=key).status_code == 204
    assert api.delete(detail, HTTP_IF_MATCH=link["etag"], HTTP_IDEMPOTENCY_KEY=key).status_code == 204
    assert not PersonLink.objects.exists()
    problem(api.delete(f"{url}{2**40}/", HTTP_IF_MATCH="*"), 404)


def test_a_player_claims_and_the_clubs_confirm_and_refuse() -> None:
    w = world()
    petr = UserFactory.create(username="petr")
    for n, club in enumerate(w.clubs):
        own_player(club, petr, f"Petr {n}")
    person_add(federation=w.federation, name="Petr Svoboda", user=w.director)
    me = client_of(petr)
    url = f"{API}/federations/{w.federation.slug}/claim/"
    assert [p["state"] for p in me.get(url).json()["players"]] == ["none", "none"]
    answer = me.post(url, {"person": "CZ-00001", "name": "Petr Svoboda"}, format="json")
    assert answer.status_code == 200, answer.content
    assert [(p["state"], p["person"]) for p in answer.json()["players"]] == [("claimed", "CZ-00001")] * 2

    first = client_of(w.organisers[0])
    links = f"{API}/clubs/{w.clubs[0].slug}/federations/{w.federation.slug}/links/"
    [waiting] = first.get(links).json()["claims"]
    assert waiting["claimant"] == "petr"
    confirm = f"{links}{waiting['id']}/confirm/"
    problem(first.post(confirm, HTTP_IF_MATCH='"link-1-v7"'), 412, "stale_edit")
    key = str(uuid.uuid4())
    done = first.post(confirm, HTTP_IF_MATCH=waiting["etag"], HTTP_IDEMPOTENCY_KEY=key)
    assert done.status_code == 200 and done.json()["claims"] == []
    assert first.post(confirm, HTTP_IF_MATCH=waiting["etag"], HTTP_IDEMPOTENCY_KEY=key).status_code == 200

    second = client_of(w.organisers[1])
    links = f"{API}/clubs/{w.clubs[1].slug}/federations/{w.federation.slug}/links/"
    [other] = second.get(links).json()["claims"]
    refused = second.post(f"{links}{other['id']}/refuse/", HTTP_IF_MATCH=other["etag"])
    assert refused.status_code == 200 and refused.json()["claims"] == []
    assert [p["state"] for p in me.get(url).json()["players"]] == ["linked", "none"]
    assert Person.objects.get().user == petr


def test_a_strangers_claim_gets_one_refusal_whatever_he_sent() -> None:
    w = world(clubs=1)
    person_add(federation=w.federation, name="Petr Svoboda", user=w.director)
    stranger = UserFactory.create()
    own_player(w.clubs[0], stranger, "Stranger")
    url = f"{API}/federations/{w.federation.slug}/claim/"
    bodies = [
        {"person": "CZ-00001", "name": "Someone"},
        {"person": "CZ-00042", "name": "Petr Svoboda"},
        {"person": "x", "name": "Petr Svoboda"},
    ]
    answers = {
        str(problem(client_of(stranger).post(url, body, format="json"), 400, "claim_no_match")["fields"])
        for body in bodies
    }
    assert len(answers) == 1


def test_a_person_read_as_his_page_shows_him() -> None:
    w = world()
    person = person_add(federation=w.federation, name="Marie Dvořáková", user=w.director)
    duplicate = person_add(federation=w.federation, name="Marie Dvorakova", user=w.director)
    now = timezone.now()
    for n, club in enumerate(w.clubs):
        player = club_player(club, f"Marie {n}")
        link_make(federation=w.federation, club=club, player=player, person_id="1", user=w.organisers[n])
        played(club, player, place=n + 1, size=3, when=now - datetime.timedelta(days=n))
    w.clubs[1].visibility = Club.Visibility.MEMBERS
    w.clubs[1].save()
    person_merge(source=duplicate, into=person, versions=(duplicate.version, person.version), user=w.director)
    body = client_of().get(f"{API}/federations/{w.federation.slug}/people/2/").json()
    assert (body["person"], body["name"], body["is_me"]) == ("CZ-00001", "Marie Dvořáková", False)
    assert [c["player_name"] for c in body["clubs"]] == ["Marie 0", None]
    assert [c["club_name"] for c in body["clubs"]] == ["Klub 0", "Klub 1"]
    assert [(r["club_name"], r["place"], r["players"]) for r in body["results"]] == [
        ("Klub 0", 1, 3),
        ("Klub 1", 2, 3),
    ]
    problem(client_of().get(f"{API}/federations/{w.federation.slug}/people/{2**40}/"), 404)
    problem(client_of().get(f"{API}/federations/nope/people/1/"), 404)
