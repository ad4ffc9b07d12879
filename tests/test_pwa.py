"""Installing the site on a phone: the manifest, the service worker and its offline page, and
the game page's queue status (docs/design/offline.md)."""

import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.utils import translation

from games.templatetags.offline_tags import queue_counts
from rummy_site import pwa
from tests.factories import GameFactory, UserFactory

ROOT = Path(__file__).resolve().parent.parent


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as handle:
        head = handle.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def worker_settings(source: str) -> dict[str, object]:
    first = source.split("\n", 1)[0]
    match = re.fullmatch(r"self\.SW_SETTINGS = (.*);", first)
    assert match is not None, first
    return dict(json.loads(match.group(1)))


def test_the_service_worker_is_served_from_the_root_as_javascript(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    source = response.content.decode()
    assert 'self.addEventListener("fetch"' in source
    settings = worker_settings(source)
    precache = list(settings["precache"])  # type: ignore[call-overload]
    assert "/static/css/site.css" in precache
    assert "/static/js/offline.js" in precache
    assert "/static/icons/icon-192.png" in precache
    assert "/static/js/sw.js" not in precache  # the worker's source is served at /sw.js only
    assert settings["offline"] == {
        "en": "/offline/",
        "cs": "/cs/offline/",
        "sk": "/sk/offline/",
        "pl": "/pl/offline/",
        "nb": "/nb/offline/",
    }


def test_the_cache_version_changes_when_a_static_file_does(
    client: Client, tmp_path: Path, settings: Any
) -> None:
    pwa._cached_worker_settings.cache_clear()  # computed once per process (a deploy restarts it)
    before = worker_settings(client.get("/sw.js").content.decode())["version"]
    assert before == worker_settings(client.get("/sw.js").content.decode())["version"]
    extra = tmp_path / "static"
    extra.mkdir()
    (extra / "new.js").write_text("// a new file\n")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, extra]
    finders.get_finder.cache_clear()  # type: ignore[attr-defined]
    pwa._cached_worker_settings.cache_clear()
    try:
        after = worker_settings(client.get("/sw.js").content.decode())
    finally:
        finders.get_finder.cache_clear()  # type: ignore[attr-defined]
        pwa._cached_worker_settings.cache_clear()
    assert after["version"] != before
    assert "/static/new.js" in after["precache"]  # type: ignore[operator]


def test_the_manifest_names_the_app_its_start_and_its_icons(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Rummy score sheet"
    assert manifest["short_name"] == "Rummy"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b5d3b"
    assert manifest["background_color"]
    sizes: dict[str, set[int]] = {}
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/")
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        width, height = png_size(str(path))
        assert icon["sizes"] == f"{width}x{height}"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}


def test_the_manifest_speaks_the_language_of_its_address(client: Client) -> None:
    manifest = json.loads(client.get("/cs/manifest.webmanifest").content)
    assert manifest["start_url"] == "/cs/"
    assert manifest["lang"] == "cs"


@pytest.mark.django_db
def test_every_page_links_the_manifest_the_theme_colour_and_the_worker(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    # The phone's bar takes the header's colour, in the light and the dark scheme alike.
    assert '<meta name="theme-color" content="#0b5d3b" media="(prefers-color-scheme: light)">' in html
    assert '<meta name="theme-color" content="#0d3a26" media="(prefers-color-scheme: dark)">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html
    assert png_size(str(finders.find("icons/apple-touch-icon.png"))) == (180, 180)
    assert 'src="/static/js/pwa.js" data-service-worker="/sw.js"' in html


@pytest.mark.django_db
def test_the_offline_page_says_there_is_no_connection(client: Client) -> None:
    response = client.get("/offline/")
    assert response.status_code == 200
    assert "No connection" in response.content.decode()


@pytest.mark.django_db
def test_the_writer_sees_the_queue_status_and_its_script_a_reader_neither() -> None:
    game = GameFactory.create()
    writer = Client()
    assert writer.post(f"/g/{game.public_id}/edit/", {"token": game.edit_token}).status_code == 302
    html = writer.get(f"/g/{game.public_id}/").content.decode()
    assert 'id="offline-queue"' in html
    assert 'data-one="{n} hand waiting to be sent"' in html
    assert 'data-other="{n} hands waiting to be sent"' in html
    assert "/static/js/offline.js" in html
    assert 'id="offline-queue"' not in Client().get(f"/g/{game.public_id}/").content.decode()


def test_the_queue_count_has_a_text_for_each_plural_category() -> None:
    with translation.override("en"):
        assert queue_counts()["one"] == "{n} hand waiting to be sent"
        assert queue_counts()["other"] == "{n} hands waiting to be sent"
    with translation.override("cs"):
        counts = queue_counts()
    assert all("{n}" in text for text in counts.values())
    assert set(counts) == {"one", "two", "few", "many", "other"}


@pytest.mark.django_db
def test_the_workers_background_fetches_set_no_cookie(client: Client) -> None:
    # The worker fetches the offline page at install and a copy of the page just opened, in the
    # background: a form whose cookie was cleared must still be refused as expired, not quietly
    # given a new cookie.
    assert "csrftoken" not in client.get("/offline/", headers={"x-background-copy": "1"}).cookies
    assert "csrftoken" in client.get("/").cookies  # an ordinary fetch does set it


@pytest.mark.django_db
def test_a_background_copy_that_comes_back_after_a_login_keeps_the_phone_logged_in(client: Client) -> None:
    # The copy left with the session cookie of before the login; the login replaced that
    # session. Its answer must not delete the cookie the browser now holds for the new one.
    UserFactory.create(username="tomas", password="a-Long-pass-123")
    client.get("/")
    session = client.session
    session["seen"] = True
    session.save()
    stale = str(session.session_key)
    client.post("/accounts/login/", {"username": "tomas", "password": "a-Long-pass-123"})
    assert client.cookies["sessionid"].value != stale
    plain = Client()
    plain.cookies["sessionid"] = stale
    # Without the mark, Django deletes the cookie of a session it no longer finds.
    assert plain.get("/").cookies["sessionid"].value == ""
    marked = Client()
    marked.cookies["sessionid"] = stale
    assert "sessionid" not in marked.get("/", headers={"x-background-copy": "1"}).cookies
