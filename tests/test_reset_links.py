"""Password help without e-mail: an organiser makes a one-time reset link for a member of his
club (shown once, on the Wi-Fi address, with its token after "#", logged in the club's audit
log); the link sets the password once, within its time, ends the account's sessions, and
tries are throttled; an organiser cannot make one for a member of another club, for an
account that also belongs to a club he does not run, or for a site admin; the site admin can
for anyone. Without EMAIL_URL the e-mail reset page says whom to ask."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import AuditEntry, Membership, ResetLink
from games.services.resets import reset_link_create
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
PASSWORD = "table-Secret-1"
NEW = "brand-New-Secret-7"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_link(organiser: User, club_slug: str, membership: Membership) -> str:
    page = logged_in(organiser).post(f"/c/{club_slug}/members/{membership.pk}/reset-link/")
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    match = re.search(r'id="reset-link" type="text" readonly value="([^"]+)"', page.content.decode())
    assert match is not None
    return match.group(1)


def use(link: str, password: str = NEW, client: Client | None = None) -> int:
    path, token = link.split("://", 1)[1].split("/", 1)[1], link.rsplit("#", 1)[1]
    client = client or Client()
    response = client.post(
        "/" + path.split("#")[0], {"token": token, "new_password1": password, "new_password2": password}
    )
    return response.status_code


def can_log_in(user: User, password: str) -> bool:
    return (
        Client().post("/accounts/login/", {"username": user.username, "password": password}).status_code
        == 302
    )


@pytest.fixture
def club_world() -> dict:
    olga = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Tuesday club", organiser=olga)
    mike = UserFactory.create(username="mike")
    membership = add_member(club, mike)
    return {"olga": olga, "club": club, "mike": mike, "membership": membership}


@override_settings(PUBLIC_URL="http://192.168.1.20:8000")
def test_the_link_is_on_the_public_address_with_its_token_out_of_the_path_and_logged(
    club_world: dict,
) -> None:
    olga, club, membership = club_world["olga"], club_world["club"], club_world["membership"]
    link = make_link(olga, club.slug, membership)
    assert link.startswith("http://192.168.1.20:8000/accounts/reset/link/#")
    token = link.rsplit("#", 1)[1]
    assert len(token) >= 40 and not ResetLink.objects.filter(digest=token).exists()  # only its digest
    entry = AuditEntry.objects.get(action=AuditEntry.Action.RESET_LINK)
    assert (entry.club_id, entry.actor_name, entry.target) == (club.pk, "olga", "mike")
    page = Client().get("/accounts/reset/link/").content.decode()
    assert "js/reset_link" in page and 'name="viewport"' in page
    assert page.count('name="token"') == 1  # the one field the script fills: nothing posts a second


def test_the_link_works_once_and_ends_the_member_s_sessions(club_world: dict) -> None:
    olga, club, mike, membership = (club_world[k] for k in ("olga", "club", "mike", "membership"))
    old_phone = Client()
    old_phone.post("/accounts/login/", {"username": "mike", "password": PASSWORD})
    assert old_phone.get("/accounts/profile/").status_code == 200
    link = make_link(olga, club.slug, membership)
    assert use(link) == 302
    assert can_log_in(mike, NEW) and not can_log_in(mike, PASSWORD)
    assert old_phone.get("/accounts/profile/").status_code == 302  # logged out
    assert use(link, "another-Secret-9") == 404
    assert can_log_in(mike, NEW)


def test_a_weak_password_is_refused_at_the_field_and_the_link_still_works(club_world: dict) -> None:
    link = make_link(club_world["olga"], club_world["club"].slug, club_world["membership"])
    token = link.rsplit("#", 1)[1]
    page = Client().post(
        "/accounts/reset/link/", {"token": token, "new_password1": "abc", "new_password2": "abc"}
    )
    assert page.status_code == 400 and 'role="alert"' in page.content.decode()
    assert use(link) == 302


def test_the_link_expires_and_a_newer_link_replaces_it(club_world: dict) -> None:
    olga, club, membership = club_world["olga"], club_world["club"], club_world["membership"]
    first = make_link(olga, club.slug, membership)
    second = make_link(olga, club.slug, membership)
    assert use(first) == 404
    ResetLink.objects.filter(used_at=None).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert use(second) == 404
    assert can_log_in(club_world["mike"], PASSWORD)


def test_a_pasted_link_works_without_javascript(club_world: dict) -> None:
    link = make_link(club_world["olga"], club_world["club"].slug, club_world["membership"])
    response = Client().post(
        "/accounts/reset/link/", {"pasted": link, "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 302 and can_log_in(club_world["mike"], NEW)


def test_only_for_one_s_own_club_s_members(club_world: dict) -> None:
    olga, club, mike = club_world["olga"], club_world["club"], club_world["mike"]
    other = ClubFactory.create(name="Other club", organiser=UserFactory.create(username="otto"))
    stranger = add_member(other, UserFactory.create(username="sven"))
    # A member of another club: not found in this one.
    assert logged_in(olga).post(f"/c/{club.slug}/members/{stranger.pk}/reset-link/").status_code == 404
    assert logged_in(olga).post(f"/c/{other.slug}/members/{stranger.pk}/reset-link/").status_code == 403
    # A member of this club who also belongs to a club olga does not run: refused.
    add_member(other, mike)
    response = logged_in(olga).post(
        f"/c/{club.slug}/members/{club_world['membership'].pk}/reset-link/", follow=True
    )
    assert (
        "site&#x27;s administrator" in response.content.decode()
        or "administrator" in response.content.decode()
    )
    # A scorekeeper or member is refused the organisers' action.
    kate = UserFactory.create(username="kate")
    add_member(club, kate, Membership.Role.SCOREKEEPER)
    assert (
        logged_in(kate).post(f"/c/{club.slug}/members/{club_world['membership'].pk}/reset-link/").status_code
        == 403
    )
    # A site admin who is a member is not reset by the club's organiser.
    admin = User.objects.create_superuser("root", password=PASSWORD)
    admin_membership = add_member(club, admin)
    logged_in(olga).post(f"/c/{club.slug}/members/{admin_membership.pk}/reset-link/")
    assert not ResetLink.objects.exists()


def test_the_site_admin_makes_a_link_for_anyone_and_others_are_refused_his_page() -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    loner = UserFactory.create(username="lonely")  # in no club
    page = logged_in(admin).post("/accounts/reset/links/new/", {"username": "lonely"})
    assert page.status_code == 200
    link = re.search(r'id="reset-link" type="text" readonly value="([^"]+)"', page.content.decode())
    assert link is not None and use(link.group(1)) == 302 and can_log_in(loner, NEW)
    assert logged_in(admin).post("/accounts/reset/links/new/", {"username": "nobody"}).status_code == 200
    assert (
        logged_in(UserFactory.create(username="plain")).get("/accounts/reset/links/new/").status_code == 403
    )


@override_settings(RESET_LINKS_PER_HOUR=3)
def test_making_links_is_throttled_per_organiser(club_world: dict) -> None:
    olga, club, membership = club_world["olga"], club_world["club"], club_world["membership"]
    for _ in range(3):
        make_link(olga, club.slug, membership)
    refused = logged_in(olga).post(f"/c/{club.slug}/members/{membership.pk}/reset-link/")
    assert refused.status_code == 302 and ResetLink.objects.count() == 3


@override_settings(RESET_TRIES_PER_HOUR=5)
def test_tries_are_throttled_per_address_even_with_the_right_link(club_world: dict) -> None:
    link = make_link(club_world["olga"], club_world["club"].slug, club_world["membership"])
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(5):
        assert guesser.post("/accounts/reset/link/", {"token": f"guess{n}"}).status_code == 404
    assert use(link, client=guesser) == 429
    assert can_log_in(club_world["mike"], PASSWORD)
    assert use(link, client=Client(REMOTE_ADDR="203.0.113.10")) == 302


def test_the_api_makes_a_link_for_organisers_only(club_world: dict) -> None:
    olga, club, membership = club_world["olga"], club_world["club"], club_world["membership"]
    api = APIClient()
    api.force_authenticate(olga)
    body = api.post(f"/api/v1/clubs/{club.slug}/members/{membership.pk}/reset-link/")
    assert body.status_code == 201 and body["Cache-Control"] == "no-store"
    assert body.json()["username"] == "mike" and "/accounts/reset/link/#" in body.json()["url"]
    assert use(body.json()["url"]) == 302
    member = APIClient()
    member.force_authenticate(club_world["mike"])
    assert member.post(f"/api/v1/clubs/{club.slug}/members/{membership.pk}/reset-link/").status_code == 403


def test_without_email_the_reset_page_says_whom_to_ask_and_with_it_sends_the_mail(
    mailoutbox: list, settings: object
) -> None:
    page = Client().get("/accounts/password_reset/")
    assert page.status_code == 200 and "organiser" in page.content.decode()
    assert 'href="/accounts/password_reset/"' in Client().get("/accounts/login/").content.decode()
    UserFactory.create(username="erin", email="erin@example.org")
    locmem = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    with override_settings(EMAIL_ENABLED=True, MAILERS=locmem):
        form = Client().get("/accounts/password_reset/")
        assert 'name="email"' in form.content.decode()
        done = Client().post("/accounts/password_reset/", {"email": "erin@example.org"})
        assert done.status_code == 302
    assert len(mailoutbox) == 1 and "/accounts/reset/" in mailoutbox[0].body


def test_the_reset_link_admin_is_made_by_the_service_for_a_club_less_user() -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    row, token = reset_link_create(user=UserFactory.create(username="x"), by=admin, club=None)
    assert row.expires_at - row.created_at <= datetime.timedelta(minutes=30) and token
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.RESET_LINK).exists()


def test_with_e_mail_the_account_page_takes_an_address_no_other_account_has() -> None:
    ann = UserFactory.create(username="ann")
    UserFactory.create(username="bob", email="bob@example.org")
    client = logged_in(ann)
    assert 'name="email"' not in client.get("/accounts/profile/").content.decode()
    with override_settings(EMAIL_ENABLED=True):
        taken = client.post("/accounts/profile/", {"display_name": "", "email": "BOB@example.org"})
        assert (
            taken.status_code == 200 and "Another account has this e-mail address." in taken.content.decode()
        )
        assert (
            client.post("/accounts/profile/", {"display_name": "", "email": "ann@example.org"}).status_code
            == 302
        )
    ann.refresh_from_db()
    assert ann.email == "ann@example.org"


@override_settings(RESET_LINKS_PER_HOUR=1)
def test_the_api_refuses_an_account_it_may_not_reset_as_forbidden_and_too_many_as_throttled(
    club_world: dict,
) -> None:
    olga, club, membership = club_world["olga"], club_world["club"], club_world["membership"]
    api = APIClient()
    api.force_authenticate(olga)
    own = Membership.objects.get(club=club, user=olga)
    refused = api.post(f"/api/v1/clubs/{club.slug}/members/{own.pk}/reset-link/")
    assert refused.status_code == 403 and refused.json()["code"] == "reset_not_allowed"
    assert api.post(f"/api/v1/clubs/{club.slug}/members/{membership.pk}/reset-link/").status_code == 201
    again = api.post(f"/api/v1/clubs/{club.slug}/members/{membership.pk}/reset-link/")
    assert again.status_code == 429 and again.json()["code"] == "reset_link_limit"
    assert again.json()["params"]["wait"] > 0
    assert ResetLink.objects.count() == 1
