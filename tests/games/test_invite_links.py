"""An invite link names the address other phones open, with a QR code that decodes to it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, override_settings

from games.models import Invite
from games.services.clubs import invite_create
from tests.factories import ClubFactory, UserFactory
from tests.games.test_share import qr_text

pytestmark = pytest.mark.django_db


@override_settings(LAN_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["localhost", "192.168.1.20"])
def test_at_localhost_the_invite_link_names_the_wifi_address_and_its_code_reads_the_same() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client(HTTP_HOST="localhost:8000")
    client.force_login(organiser)
    client.post(f"/c/{club.slug}/invites/", {"days": "7"})
    invite = Invite.objects.get(club=club)
    page = client.get(f"/c/{club.slug}/members/").content.decode()
    link = f"http://192.168.1.20:8000/clubs/join/#{invite.token}"
    assert f'readonly value="{link}"' in page
    assert "localhost" not in re.sub(r"<head>.*</head>", "", page, flags=re.S).split("invite-title")[1]
    svg = re.search(r'<details class="invite-qr">.*?(<svg .*?</svg>)', page, re.S)
    assert svg is not None
    assert qr_text(svg[1]) == link
    # What a phone opens from it: the page, then its script posts the fragment's token.
    phone = Client(HTTP_HOST="192.168.1.20:8000")
    path, _, token = qr_text(svg[1]).removeprefix("http://192.168.1.20:8000").partition("#")
    assert phone.get(path).status_code == 200
    assert phone.post(path, {"token": token})["Location"] == "/clubs/join/"
    assert f"Join {club.name}" in phone.get(path).content.decode()


def test_invite_look_ups_are_throttled_per_address(settings: Any) -> None:
    settings.INVITE_TRIES_PER_HOUR = 3
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    invite = invite_create(club=club, user=organiser, days=None)
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for guess in ("a" * 43, "b" * 43):
        assert guesser.post("/clubs/join/", {"token": guess}).status_code == 404
    assert guesser.get(f"/clubs/join/{'c' * 43}/").status_code == 404  # the older form counts too
    # Over the limit even the right token is refused, so guessing gains nothing.
    refused = guesser.post("/clubs/join/", {"token": invite.token})
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Too many invite links tried from this address" in refused.content.decode()
    assert guesser.get(f"/clubs/join/{invite.token}/").status_code == 429
    # Another address is not held up.
    other = Client(REMOTE_ADDR="203.0.113.10")
    assert other.post("/clubs/join/", {"token": invite.token}).status_code == 302
