"""Every accounts page (log in, password change, forgotten password with and without e-mail,
the reset link's page, active sessions, the admin's reset link) is a page of the site, not
Django's admin look, in each of the five languages, and fits a phone (the site's viewport)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
LANGUAGES = ["", "cs", "sk", "pl", "nb"]
ANONYMOUS = [
    "/accounts/login/",
    "/accounts/password_reset/",
    "/accounts/reset/link/",
    "/accounts/password_reset/done/",
    "/accounts/reset/done/",
    "/accounts/reset/MQ/bad-token/",
]
LOGGED_IN = ["/accounts/password_change/", "/accounts/password_change/done/", "/accounts/sessions/"]
LOCMEM = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}


def title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    assert match is not None
    return match.group(1).strip()


def pages(client: Client, paths: list[str]) -> dict[str, dict[str, str]]:
    """path -> language -> the page's title, each page checked to be the site's."""
    titles: dict[str, dict[str, str]] = {}
    for path in paths:
        for language in LANGUAGES:
            address = f"/{language}{path}" if language else path
            response = client.get(address, follow=True)
            html = response.content.decode()
            assert response.status_code == 200, address
            assert f'<html lang="{language or "en"}"' in html, address
            assert 'name="viewport"' in html and "css/site.css" in html, address
            assert "Django administration" not in html and "admin/css" not in html, address
            titles.setdefault(path, {})[language] = title(html)
    return titles


def assert_translated(titles: dict[str, dict[str, str]]) -> None:
    for path, by_language in titles.items():
        english = by_language[""]
        for language in LANGUAGES[1:]:
            assert by_language[language] != english, (path, language, english)


def test_the_anonymous_accounts_pages_without_e_mail() -> None:
    assert_translated(pages(Client(), ANONYMOUS))


def test_the_e_mail_reset_pages_when_the_site_can_send_e_mail() -> None:
    with override_settings(EMAIL_ENABLED=True, MAILERS=LOCMEM):
        titles = pages(Client(), ["/accounts/password_reset/"])
        html = Client().get("/cs/accounts/password_reset/").content.decode()
    assert 'name="email"' in html
    assert_translated(titles)


def test_the_pages_of_a_logged_in_user_and_of_the_site_admin() -> None:
    client = Client()
    client.force_login(UserFactory.create(username="ann"))
    assert_translated(pages(client, LOGGED_IN))
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="table-Secret-1"))
    assert_translated(pages(admin, ["/accounts/reset/links/new/"]))
