"""An invite link names the address other phones open, with a QR code that decodes to it."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from games.models import Invite
from tests.factories import ClubFactory, UserFactory
from tests.games.test_share import qr_text

pytestmark = pytest.mark.django_db


@override_settings(LAN_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["localhost"])
def test_at_localhost_the_invite_link_names_the_wifi_address_and_its_code_reads_the_same() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client(HTTP_HOST="localhost:8000")
    client.force_login(organiser)
    client.post(f"/c/{club.slug}/invites/", {"days": "7"})
    invite = Invite.objects.get(club=club)
    page = client.get(f"/c/{club.slug}/members/").content.decode()
    link = f"http://192.168.1.20:8000/clubs/join/{invite.token}/"
    assert f'readonly value="{link}"' in page
    assert "localhost" not in re.sub(r"<head>.*</head>", "", page, flags=re.S).split("invite-title")[1]
    svg = re.search(r'<details class="invite-qr">.*?(<svg .*?</svg>)', page, re.S)
    assert svg is not None
    assert qr_text(svg[1]) == link
