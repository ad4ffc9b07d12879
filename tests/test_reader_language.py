"""The reader's language holds on every address: an address without a language prefix (every
shared link, QR code and printed table card) answers in the language he chose, else his phone's,
else the site's; an address with a prefix answers in that one; caches are told which is which."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.http import HttpResponseBase
from django.test import Client, override_settings
from django.urls import clear_url_caches, reverse
from django.utils import translation

from games.web.links import absolute_url, unprefixed
from tests.factories import GameFactory
from tests.test_settings import manage

pytestmark = pytest.mark.django_db


def language_of(response: HttpResponseBase) -> str:
    body = response.content.decode()  # type: ignore[attr-defined]
    found = re.search(r'<html lang="([\w-]+)"', body)
    assert found, body[:200]
    assert response["Content-Language"] == found[1]
    return found[1]


@pytest.fixture
def site_in_czech() -> Iterator[None]:
    """LANGUAGE_CODE=cs, with the URL resolver's caches cleared on the way in and out: the
    default language is the one whose addresses carry no prefix."""
    with override_settings(LANGUAGE_CODE="cs"):
        clear_url_caches()
        yield
    clear_url_caches()


def test_a_chosen_language_holds_on_the_home_page_and_a_shared_game_link(client: Client) -> None:
    game = GameFactory.create()
    client.cookies["django_language"] = "pl"
    assert language_of(client.get("/")) == "pl"
    page = client.get(f"/g/{game.public_id}/")
    assert page.status_code == 200
    assert language_of(page) == "pl"
    # Its own links keep the language: the next click stays in Polish.
    assert 'href="/pl/' in page.content.decode()


def test_a_first_visit_follows_the_phones_languages_among_the_five(client: Client) -> None:
    game = GameFactory.create()
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="cs-CZ,cs;q=0.9,en;q=0.8")) == "cs"
    assert language_of(client.get(f"/g/{game.public_id}/", HTTP_ACCEPT_LANGUAGE="nb-NO,nb")) == "nb"
    # A language the site lacks is passed over for the next the phone names.
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,sk;q=0.8")) == "sk"
    # The menu's choice outranks the phone's.
    client.cookies["django_language"] = "pl"
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="cs")) == "pl"


def test_without_a_choice_or_a_known_language_the_site_speaks_english(client: Client) -> None:
    assert language_of(client.get("/")) == "en"
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,fr;q=0.5")) == "en"


def test_the_sites_language_setting_is_the_default(client: Client, site_in_czech: None) -> None:
    game = GameFactory.create()
    assert language_of(client.get("/")) == "cs"
    assert language_of(client.get(f"/g/{game.public_id}/", HTTP_ACCEPT_LANGUAGE="de")) == "cs"
    # A reader's own choice still holds, and English now has its prefix.
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="pl")) == "pl"
    with translation.override("en"):
        assert reverse("home") == "/en/"
    assert language_of(client.get("/en/")) == "en"


def test_links_printed_or_shared_before_keep_answering(client: Client, site_in_czech: None) -> None:
    """Old links: unprefixed English ones (now the reader's language) and prefixed ones of every
    language, the new default's included (/cs/… from before the site spoke Czech)."""
    game = GameFactory.create()
    for prefix, language in (("/cs", "cs"), ("/pl", "pl"), ("/en", "en"), ("", "cs")):
        page = client.get(f"{prefix}/g/{game.public_id}/")
        assert page.status_code == 200, prefix
        assert language_of(page) == language


def test_old_prefixed_and_unprefixed_links_answer_on_an_english_site(client: Client) -> None:
    game = GameFactory.create()
    client.cookies["django_language"] = "sk"
    for prefix, language in (("/pl", "pl"), ("/cs", "cs"), ("/en", "en"), ("", "sk")):
        page = client.get(f"{prefix}/g/{game.public_id}/")
        assert page.status_code == 200, prefix
        assert language_of(page) == language
    assert client.get("/de/").status_code == 404


def test_unprefixed_answers_vary_on_the_cookie_and_accept_language(client: Client) -> None:
    game = GameFactory.create()
    for path in ("/", f"/g/{game.public_id}/"):
        vary = {v.strip().lower() for v in client.get(path)["Vary"].split(",")}
        assert {"cookie", "accept-language"} <= vary, path
    # A prefixed address names its language: it needs neither.
    prefixed = client.get("/pl/").get("Vary", "")
    assert "accept-language" not in prefixed.lower()


def test_the_game_pages_tag_differs_by_language(client: Client) -> None:
    """A phone holding the English page's ETag gets the Polish page, not a 304, after choosing
    Polish: the page's tag is made with its language."""
    game = GameFactory.create()
    english = client.get(f"/g/{game.public_id}/")
    client.cookies["django_language"] = "pl"
    again = client.get(f"/g/{game.public_id}/", HTTP_IF_NONE_MATCH=english["ETag"])
    assert again.status_code == 200
    assert language_of(again) == "pl"


def test_shared_links_carry_no_language_prefix(rf: object) -> None:
    assert unprefixed("/cs/g/abc/") == "/g/abc/"
    assert unprefixed("/pl/") == "/"
    assert unprefixed("/g/cs/") == "/g/cs/"
    request = rf.get("/pl/g/abc/", HTTP_HOST="club.example.org")  # type: ignore[attr-defined]
    with translation.override("pl"):
        assert absolute_url(request, reverse("home")) == "http://club.example.org/"


def test_the_game_pages_share_card_links_have_no_prefix(client: Client) -> None:
    game = GameFactory.create()
    page = client.get(f"/pl/g/{game.public_id}/").content.decode()
    assert f"http://testserver/g/{game.public_id}/" in page
    assert "://testserver/pl/g/" not in page


def test_the_language_setting_is_read_from_the_environment() -> None:
    code = "from django.conf import settings; print(settings.LANGUAGE_CODE)"
    assert manage("shell", "-c", code, LANGUAGE_CODE="cs").stdout.split()[-1] == "cs"
    assert manage("shell", "-c", code).stdout.split()[-1] == "en"
    refused = manage("shell", "-c", code, LANGUAGE_CODE="de")
    assert refused.returncode != 0
    assert "LANGUAGE_CODE must be one of en, cs, sk, pl, nb" in refused.stderr
