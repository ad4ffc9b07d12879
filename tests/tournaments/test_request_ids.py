"""A request id (a form's hidden id, the API's Idempotency-Key) names one operation on one
object: sent again, it changes nothing twice and gets the same answer; given to another
operation or another object, it is refused (a message on the form, 422 in the API), and the
other write is never silently skipped nor let past its version check."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from engine.errors import EngineError
from games.text.errors import error_message
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Entry, Tournament, TournamentChange
from tournaments.services.entries import entry_check_in, entry_drop, entry_pin
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_start

pytestmark = pytest.mark.django_db
API = "/api/v1"


@pytest.fixture
def organiser() -> User:
    return UserFactory.create()


@pytest.fixture
def cup(organiser: User) -> Tournament:
    t = tournament(ClubFactory.create(organiser=organiser), organiser, 8)
    Entry.objects.filter(tournament=t).update(checked_in=False)
    return t


def _entries(t: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t).order_by("pk"))


def test_the_same_id_resent_changes_once_and_answers_the_same(cup: Tournament, organiser: User) -> None:
    anna = _entries(cup)[0]
    key = uuid.uuid4()
    first = entry_check_in(entry=anna, checked_in=True, version=anna.version, user=organiser, request_id=key)
    stale = Entry.objects.get(pk=anna.pk)
    stale.version = first.version - 1  # the resend carries the version the first send saw
    again = entry_check_in(
        entry=stale, checked_in=True, version=stale.version, user=organiser, request_id=key
    )
    assert again.checked_in and again.version == first.version
    assert TournamentChange.objects.filter(tournament=cup, request_id=key).count() == 1


@pytest.mark.parametrize("other", ["another_entry", "another_operation", "another_pin", "a_round"])
def test_an_id_given_to_another_operation_or_object_is_refused(
    cup: Tournament, organiser: User, other: str
) -> None:
    anna, bea = _entries(cup)[:2]
    key = uuid.uuid4()
    entry_check_in(entry=anna, checked_in=True, version=anna.version, user=organiser, request_id=key)
    entry_pin(entry=bea, table=2, version=bea.version, user=organiser, request_id=uuid.uuid4())
    anna.refresh_from_db()
    bea.refresh_from_db()
    before = TournamentChange.objects.filter(tournament=cup).count()
    with pytest.raises(EngineError) as refused:
        match other:
            case "another_entry":
                entry_check_in(
                    entry=bea, checked_in=True, version=bea.version, user=organiser, request_id=key
                )
            case "another_operation":
                entry_drop(entry=anna, dropped=True, version=anna.version, user=organiser, request_id=key)
            case "another_pin":
                entry_pin(entry=anna, table=3, version=anna.version, user=organiser, request_id=key)
            case _:
                round_seat(tournament=cup, number=1, user=organiser, request_id=key)
    assert refused.value.code == "idempotency_key_reused"
    assert "already sent for another change" in error_message(refused.value)
    assert TournamentChange.objects.filter(tournament=cup).count() == before
    assert not Entry.objects.get(pk=bea.pk).checked_in
    assert Entry.objects.get(pk=anna.pk).dropped_after is None


def test_a_reused_id_never_skips_the_version_check(cup: Tournament, organiser: User) -> None:
    for entry in _entries(cup):
        entry_check_in(entry=entry, checked_in=True, version=entry.version, user=organiser)
    played = round_seat(tournament=cup, number=1, user=organiser, request_id=(key := uuid.uuid4()))
    with pytest.raises(EngineError) as refused:
        # A stale version and another round's operation: refused, not answered as the seating.
        round_start(played=played, round_version=played.version - 1, user=organiser, request_id=key)
    assert refused.value.code == "idempotency_key_reused"
    played.refresh_from_db()
    assert played.status == "seated"


def test_the_form_says_so_and_changes_nothing(cup: Tournament, organiser: User) -> None:
    anna, bea = _entries(cup)[:2]
    client = Client()
    client.force_login(organiser)
    key = str(uuid.uuid4())
    form = {"action": "check_in", "version": str(anna.version), "request_id": key}
    client.post(f"/t/{cup.public_id}/players/{anna.pk}/", form)
    client.post(f"/t/{cup.public_id}/players/{anna.pk}/", form)
    assert Entry.objects.get(pk=anna.pk).checked_in
    assert TournamentChange.objects.filter(tournament=cup, request_id=key).count() == 1
    page = client.post(
        f"/t/{cup.public_id}/players/{bea.pk}/",
        {"action": "check_in", "version": str(bea.version), "request_id": key},
        follow=True,
    )
    assert "This form was already sent for another change" in page.content.decode()
    assert not Entry.objects.get(pk=bea.pk).checked_in


def test_the_api_answers_422_for_a_key_a_form_used_on_another_object(
    cup: Tournament, organiser: User
) -> None:
    anna, bea = _entries(cup)[:2]
    key = uuid.uuid4()
    entry_check_in(entry=anna, checked_in=True, version=anna.version, user=organiser, request_id=key)
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"{API}/tournaments/{cup.public_id}/entries/"
    tag = f'"entry-{bea.pk}-v{bea.version}"'
    refused = client.post(f"{url}{bea.pk}/check-in/", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=str(key))
    assert refused.status_code == 422, refused.content
    assert refused.json()["code"] == "idempotency_key_reused"
    assert not Entry.objects.get(pk=bea.pk).checked_in
    # Without If-Match the reused key is still no pass: refused before the precondition.
    bare = client.post(f"{url}{bea.pk}/drop/", HTTP_IDEMPOTENCY_KEY=str(key))
    assert bare.status_code == 422
    # The same operation on the same object is the resend: answered, nothing changed again.
    tag = f'"entry-{anna.pk}-v{anna.version}"'
    resend = client.post(f"{url}{anna.pk}/check-in/", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=str(key))
    assert resend.status_code == 200 and resend.json()["checked_in"] is True
    assert TournamentChange.objects.filter(tournament=cup, request_id=key).count() == 1
