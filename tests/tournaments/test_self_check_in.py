"""Self check-in at the door: the organiser opens it and shows its code; a player with no
account finds his name (accents and case aside) and checks himself in; a closed door, a wrong
link, an unknown or dropped-out player and too many tries are each refused with a message, on
the page and in the API, and nothing is checked in by them."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from games.models import Club
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, settings
from tournaments.models import Entry, Tournament, TournamentChange
from tournaments.services.entries import check_in_door, entries_add, entry_drop
from tournaments.services.tournament_settings import tournament_create

pytestmark = pytest.mark.django_db

NAMES = ["Katarína Nováková", "Katka Malá", "Milan Černý", "Ola Berg", "Petr Dvořák", "Zuzana Šimková"]


def _cup(visibility: str = Club.Visibility.PUBLIC) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    cup = tournament_create(club=club, settings=settings("rummikub"), user=organiser)
    entries_add(tournament=cup, names=NAMES, user=organiser)
    return cup, organiser


def _organiser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _open(cup: Tournament, organiser: User) -> str:
    """The organiser opens the door on the players' page; the door's link as the page shows it."""
    client = _organiser(organiser)
    cup.refresh_from_db()
    answer = client.post(
        f"/t/{cup.public_id}/door/", {"action": "open", "version": cup.version, "request_id": uuid.uuid4()}
    )
    assert answer.status_code == 302
    page = client.get(f"/t/{cup.public_id}/players/").content.decode()
    found = re.search(r'id="door-link" type="text" readonly value="https?://[^/"]+(/t/[^"]+)"', page)
    assert found is not None
    assert "QR code of the check-in link" in page
    return found[1]


def _text(page: bytes) -> str:
    return " ".join(strip_tags(page.decode()).split())


def _entry(cup: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=cup, player__name=name)


def _tap(phone: Client, link: str, entry: Entry, request_id: uuid.UUID | None = None) -> object:
    return phone.post(link, {"entry": entry.pk, "request_id": request_id or uuid.uuid4()})


def test_a_player_finds_his_name_without_accents_and_checks_himself_in() -> None:
    cup, organiser = _cup()
    link = _open(cup, organiser)
    phone = Client()  # no account
    found = _text(phone.get(link, {"q": "katarina"}).content)
    assert "Katarína Nováková" in found and "Katka" not in found
    assert "I am Katarína Nováková: check me in" in found
    assert "Katka Malá" in _text(phone.get(link, {"q": "KATKA"}).content)
    katarina = _entry(cup, "Katarína Nováková")
    request_id = uuid.uuid4()
    answer = _tap(phone, link, katarina, request_id)
    assert answer.status_code == 302  # type: ignore[attr-defined]
    done = _text(phone.get(answer["Location"]).content)  # type: ignore[index]
    assert "Katarína Nováková: you are checked in." in done
    katarina.refresh_from_db()
    assert katarina.checked_in and katarina.from_round == 1
    # The phone sends the tap again (no answer came back): still one check-in in the history.
    _tap(phone, link, katarina, request_id)
    assert TournamentChange.objects.filter(tournament=cup, action="checked_self").count() == 1
    assert "checked in" in _text(phone.get(link, {"q": "katarina"}).content)
    # The organiser sees him here, and the history says who did it.
    players = _text(_organiser(organiser).get(f"/t/{cup.public_id}/players/").content)
    assert "6 players registered, 1 checked in." in players
    history = _text(_organiser(organiser).get(f"/t/{cup.public_id}/history/").content)
    assert "A player checked in at the door Katarína Nováková" in history
    assert "the player, at the door" in history
    assert not _entry(cup, "Katka Malá").checked_in


def test_a_closed_door_a_wrong_link_and_unknown_names_check_nobody_in() -> None:
    cup, organiser = _cup()
    link = _open(cup, organiser)
    phone = Client()
    assert phone.get(f"/t/{cup.public_id}/check-in/{'x' * 16}/").status_code == 404
    nobody = _text(phone.get(link, {"q": "Xaver"}).content)
    assert "Nobody called “Xaver” is registered for this tournament." in nobody
    other_cup, _ = _cup()
    stranger = Entry.objects.filter(tournament=other_cup).first()
    assert stranger is not None
    refused = _tap(phone, link, stranger)
    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert "That player is not registered for this tournament." in _text(refused.content)  # type: ignore[attr-defined]
    cup.refresh_from_db()
    check_in_door(tournament=cup, opened=False, version=cup.version, user=organiser)
    closed = phone.get(link, {"q": "Milan"})
    assert "The check-in is closed. Ask the organiser to check you in." in _text(closed.content)
    assert "check me in" not in _text(closed.content)
    milan = _entry(cup, "Milan Černý")
    refused = _tap(phone, link, milan)
    assert refused.status_code == 400  # type: ignore[attr-defined]
    milan.refresh_from_db()
    assert not milan.checked_in and not stranger.checked_in
    # Reopened: the same link (the code printed for the door) works again.
    cup.refresh_from_db()
    assert _open(cup, organiser) == link
    assert _tap(phone, link, milan).status_code == 302  # type: ignore[attr-defined]


def test_a_dropped_out_player_is_not_offered_and_cannot_check_in() -> None:
    cup, organiser = _cup()
    link = _open(cup, organiser)
    ola = _entry(cup, "Ola Berg")
    entry_drop(entry=ola, dropped=True, version=ola.version, user=organiser)
    phone = Client()
    assert "Nobody called “Ola”" in _text(phone.get(link, {"q": "Ola"}).content)
    refused = _tap(phone, link, ola)
    assert "Ola Berg has dropped out." in _text(refused.content)  # type: ignore[attr-defined]
    ola.refresh_from_db()
    assert not ola.checked_in


def test_arriving_after_the_first_round_started_plays_from_the_next() -> None:
    cup, organiser = _cup()
    for entry in Entry.objects.filter(tournament=cup).exclude(player__name="Petr Dvořák"):
        entry.checked_in = True
        entry.save()
    link = _open(cup, organiser)
    cup.refresh_from_db()
    play_round(cup, 1, organiser, confirm=False)
    petr = _entry(cup, "Petr Dvořák")
    assert _tap(Client(), link, petr).status_code == 302  # type: ignore[attr-defined]
    petr.refresh_from_db()
    assert petr.checked_in and petr.from_round == 2


def test_a_members_only_club_s_door_needs_no_account() -> None:
    cup, organiser = _cup(Club.Visibility.MEMBERS)
    link = _open(cup, organiser)
    phone = Client()
    assert phone.get(f"/t/{cup.public_id}/").status_code == 404
    assert "Zuzana Šimková" in _text(phone.get(link, {"q": "simkova"}).content)
    assert _tap(phone, link, _entry(cup, "Zuzana Šimková")).status_code == 302  # type: ignore[attr-defined]


def test_too_many_tries_from_one_address_are_refused_for_a_while(settings: object) -> None:
    settings.CHECK_IN_TRIES_PER_HOUR = 3  # type: ignore[attr-defined]
    cup, organiser = _cup()
    link = _open(cup, organiser)
    phone = Client()
    for name in ("a", "b", "c"):
        assert phone.get(link, {"q": name}).status_code == 200
    refused = phone.get(link, {"q": "Milan"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many tries from this network" in _text(refused.content)
    milan = _entry(cup, "Milan Černý")
    assert _tap(phone, link, milan).status_code == 429  # type: ignore[attr-defined]
    milan.refresh_from_db()
    assert not milan.checked_in
    # Another address (another hall) is not held back by this one.
    other = Client(REMOTE_ADDR="198.51.100.7")
    assert other.get(link, {"q": "Milan"}).status_code == 200
    key = link.rstrip("/").rsplit("/", 1)[1]
    api = Client().get(f"/api/v1/tournaments/{cup.public_id}/check-in/{key}/", {"q": "x"})
    assert api.status_code == 429 and api.json()["code"] == "check_in_limit"


def test_the_api_opens_the_door_and_checks_a_player_in() -> None:
    cup, organiser = _cup()
    client = _organiser(organiser)
    base = f"/api/v1/tournaments/{cup.public_id}"
    door = client.get(f"{base}/door/")
    assert door.status_code == 200 and door.json()["open"] is False and door.json()["url"] is None
    assert client.post(f"{base}/door/", {"open": True}, content_type="application/json").status_code == 428
    opened = client.post(
        f"{base}/door/", {"open": True}, content_type="application/json", headers={"If-Match": door["ETag"]}
    )
    assert opened.status_code == 200, opened.json()
    body = opened.json()
    assert body["open"] is True and body["entries"] == 6 and body["checked_in"] == 0
    stale = client.post(
        f"{base}/door/", {"open": False}, content_type="application/json", headers={"If-Match": door["ETag"]}
    )
    assert stale.status_code == 412
    key = body["url"].rstrip("/").rsplit("/", 1)[1]
    assert Client().get(f"{base}/door/").status_code in (401, 403)
    phone = Client()
    assert phone.get(f"{base}/check-in/{'x' * 16}/", {"q": "Milan"}).status_code == 404
    assert phone.get(f"{base}/check-in/{key}/", {"q": " "}).status_code == 400
    found = phone.get(f"{base}/check-in/{key}/", {"q": "cerny"}).json()
    assert found["open"] is True
    assert [(r["name"], r["checked_in"]) for r in found["results"]] == [("Milan Černý", False)]
    checked = phone.post(
        f"{base}/check-in/{key}/", {"entry": found["results"][0]["id"]}, content_type="application/json"
    )
    assert checked.status_code == 200 and checked.json() == {
        "id": found["results"][0]["id"],
        "name": "Milan Černý",
        "checked_in": True,
    }
    assert client.get(f"{base}/").json()["check_in_open"] is True
    closed = client.post(
        f"{base}/door/",
        {"open": False},
        content_type="application/json",
        headers={"If-Match": opened["ETag"]},
    )
    assert closed.status_code == 200 and closed.json()["checked_in"] == 1
    refused = phone.post(
        f"{base}/check-in/{key}/", {"entry": _entry(cup, "Ola Berg").pk}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "check_in_closed"
    assert not _entry(cup, "Ola Berg").checked_in
