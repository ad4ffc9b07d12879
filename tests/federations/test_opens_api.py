"""The opens through the API: the list, hosting (the club's organisers only, a resend changes
nothing twice), one open, its entries, entering and withdrawing with the refusals' codes,
ending it, and a members-only federation's 404 to outsiders."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from federations.models import Federation, FederationOpen, RatedTournament
from tests.factories import UserFactory
from tests.federations.opens_support import OpenWorld, an_open
from tests.federations.support import world
from tests.tournaments.support import tournament
from tournaments.services.round_seating import round_seat

pytestmark = pytest.mark.django_db


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def base(o: OpenWorld) -> str:
    return f"/api/v1/federations/{o.w.federation.slug}/opens/{o.cup.public_id}/"


def test_hosting_lists_and_reads_an_open() -> None:
    w = world()
    cup = tournament(w.clubs[0], w.organisers[0], players=4, name="Podzimní open")
    url = f"/api/v1/federations/{w.federation.slug}/opens/"
    assert api().get(url).json() == []
    body = {"tournament": cup.public_id, "self_entry": False}
    refused = api(w.organisers[1]).post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert api().post(url, body, format="json").status_code == 401
    key = str(uuid.uuid4())
    made = api(w.organisers[0]).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert made.status_code == 201
    detail = made.json()
    assert detail["open"]["name"] == "Podzimní open" and detail["open"]["self_entry"] is False
    assert detail["closed"] is False and detail["can_enter_anyone"] is True and len(detail["entries"]) == 4
    again = api(w.organisers[0]).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and FederationOpen.objects.count() == 1
    assert RatedTournament.objects.filter(tournament=cup).exists()
    listed = api().get(url).json()
    assert [(r["tournament"], r["club"], r["entries"]) for r in listed] == [
        (cup.public_id, w.clubs[0].slug, 4)
    ]
    assert api().get(f"{url}{cup.public_id}/").json()["open"]["tournament"] == cup.public_id
    assert api().get(f"{url}nowhere/").status_code == 404
    assert api(w.organisers[0]).post(url, {"tournament": "nowhere"}, format="json").status_code == 404


def test_entering_and_withdrawing_with_the_refusals_codes() -> None:
    o = an_open()
    entries = f"{base(o)}entries/"
    entered = api(o.eve_user).post(entries, {"person": str(o.eve.number)}, format="json")
    assert entered.status_code == 201
    assert any(e["name"] == "Eve Malá" and e["may_withdraw"] for e in entered.json()["entries"])
    twice = api(o.eve_user).post(entries, {"person": str(o.eve.number)}, format="json")
    assert twice.status_code == 400 and twice.json()["code"] == "open_already_entered"
    assert "person" in twice.json()["fields"]
    stranger = api(UserFactory.create()).post(entries, {"person": str(o.ann.number)}, format="json")
    assert stranger.status_code == 403
    assert api().post(entries, {"person": "1"}, format="json").status_code == 401
    unknown = api(o.w.director).post(entries, {"person": "CZ-99999"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "person_unknown"
    assert api(o.w.director).post(entries, {"person": ""}, format="json").status_code == 400
    guest = api(o.w.organisers[1]).post(entries, {"person": f"CZ-{o.bob.number:05d}"}, format="json")
    assert guest.status_code == 201
    listed = api().get(entries).json()
    assert {e["name"] for e in listed} >= {"Eve Malá", "Bob Dvořák"}
    bob = next(e for e in listed if e["name"] == "Bob Dvořák")
    assert bob["id"] == f"CZ-{o.bob.number:05d}" and bob["home_club_name"] == o.w.clubs[1].name
    assert api(o.w.organisers[1]).delete(f"{entries}{o.eve.number}/").status_code == 403
    assert api(o.eve_user).delete(f"{entries}{o.eve.number}/").status_code == 204
    gone = api(o.eve_user).delete(f"{entries}{o.eve.number}/")
    assert gone.status_code == 400 and gone.json()["code"] == "open_not_entered"
    round_seat(tournament=o.cup, number=1, user=o.w.organisers[0])
    closed = api(o.w.director).post(entries, {"person": str(o.ann.number)}, format="json")
    assert closed.status_code == 400 and closed.json()["code"] == "open_closed"
    ended = api(o.w.organisers[0]).delete(base(o))
    assert ended.status_code == 400 and ended.json()["code"] == "open_started"


def test_ending_an_open_and_a_members_only_federation() -> None:
    o = an_open()
    assert api(o.w.organisers[1]).delete(base(o)).status_code == 403
    Federation.objects.filter(pk=o.w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    outsider = api(UserFactory.create())
    assert outsider.get(base(o)).status_code == 404
    assert outsider.get(f"/api/v1/federations/{o.w.federation.slug}/opens/").status_code == 404
    assert outsider.post(f"{base(o)}entries/", {"person": "1"}, format="json").status_code == 404
    assert api(o.w.organisers[1]).get(base(o)).status_code == 200
    assert api(o.w.organisers[0]).delete(base(o)).status_code == 204
    assert not FederationOpen.objects.exists()
    assert api(o.w.organisers[0]).get(base(o)).status_code == 404
    # A write without a credential is a 401 whether or not the open is there.
    assert api().delete(base(o)).status_code == 401
    assert api().post(f"{base(o)}entries/", {"person": "1"}, format="json").status_code == 401
    assert api().delete(f"{base(o)}entries/1/").status_code == 401
