"""People can find sign-up, and an invite-only site makes accounts only from invite links."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.services.clubs import invite_create, invite_revoke
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

NEW = {"username": "newcomer", "password1": "a-long-Passphrase-42", "password2": "a-long-Passphrase-42"}


def test_sign_up_is_linked_from_the_header_and_the_login_page(client: Client) -> None:
    home = client.get("/").content.decode()
    assert 'href="/accounts/signup/"' in home
    login = client.get("/accounts/login/?next=/games/").content.decode()
    assert 'href="/accounts/signup/?next=/games/"' in login
    assert client.get("/accounts/signup/").status_code == 200


def test_a_closed_site_offers_no_sign_up_and_makes_no_account(client: Client, settings: Any) -> None:
    settings.SIGNUP_OPEN = False
    assert "/accounts/signup/" not in client.get("/").content.decode()
    assert "/accounts/signup/" not in client.get("/accounts/login/").content.decode()
    refused = client.get("/accounts/signup/")
    assert refused.status_code == 403
    assert "invitation only" in refused.content.decode()
    assert client.post("/accounts/signup/", NEW).status_code == 403
    assert not User.objects.filter(username="newcomer").exists()


def test_a_closed_site_still_makes_an_account_from_a_current_invite(client: Client, settings: Any) -> None:
    settings.SIGNUP_OPEN = False
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    invite = invite_create(club=club, user=organiser, days=7)
    join = f"/clubs/join/{invite.token}/"
    login = client.get(f"/accounts/login/?next={join}").content.decode()
    assert f'href="/accounts/signup/?next={join}"' in login
    assert client.get(f"/accounts/signup/?next={join}").status_code == 200
    made = client.post("/accounts/signup/", {**NEW, "next": join})
    assert made.status_code == 302 and made["Location"] == join
    assert User.objects.filter(username="newcomer").exists()
    invite_revoke(invite=invite)
    other = Client()
    assert other.get(f"/accounts/signup/?next={join}").status_code == 403
    assert other.get("/accounts/signup/?next=/clubs/join/no-such-invite/").status_code == 403
