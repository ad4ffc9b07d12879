"""Hardening: the Content Security Policy header and templates it allows,
pages with secrets not stored, the edit token kept out of URLs the server sees, and quiet 403s.
(The browser side of the policy: tests/browser/test_csp_browser.py.)"""

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game
from games.services.access import edit_url
from tests.factories import ClubFactory, GameFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)


def no_store(response: Any) -> bool:
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


# ---------------------------------------------------------------------- Content Security Policy


def test_every_page_carries_the_policy(client: Client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives == {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
        "object-src": "'none'",
    }
    assert "Content-Security-Policy" in client.get("/no-such-page/").headers


TEMPLATE_INLINE = [
    (re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style\b", re.I), "<style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "on* event attribute"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
    (re.compile(r"\shx-on", re.I), "hx-on attribute (evaluated as script)"),
]
SCRIPT_INLINE = [
    (re.compile(r"setAttribute\(\s*[\"'](style|on[a-z]+)[\"']", re.I), "style or on* attribute set"),
    (re.compile(r"innerHTML|insertAdjacentHTML|document\.write", re.I), "markup built from strings"),
    (re.compile(r"\beval\(|new Function\(", re.I), "eval"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def test_no_template_or_script_needs_inline_script_or_style() -> None:
    found = []
    templates = list(ROOT.joinpath("templates").rglob("*.html"))
    scripts = list(ROOT.joinpath("static", "js").rglob("*.js"))
    assert len(templates) > 20 and len(scripts) >= 4
    for paths, patterns in [(templates, TEMPLATE_INLINE), (scripts, SCRIPT_INLINE)]:
        for path in paths:
            text = path.read_text(encoding="utf-8")
            found += [
                f"{path.relative_to(ROOT)}: {what}" for pattern, what in patterns if pattern.search(text)
            ]
    assert found == []


def test_htmx_is_told_not_to_inject_styles_or_evaluate_code(client: Client) -> None:
    page = client.get("/").content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", page)
    assert config is not None
    assert '"includeIndicatorStyles": false' in config.group(1)
    assert '"allowEval": false' in config.group(1)


# ---------------------------------------------------------------------- pages with secrets


def editor(game: Game) -> Client:
    client = Client()
    response = client.post(f"/g/{game.public_id}/edit/", {"token": game.edit_token})
    assert response.status_code == 302
    return client


def test_the_game_page_with_its_edit_link_is_not_stored() -> None:
    game = GameFactory.create()
    response = editor(game).get(f"/g/{game.public_id}/")
    assert game.edit_token in response.content.decode()
    assert no_store(response)


def test_the_members_page_with_its_invite_links_is_not_stored() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client()
    client.force_login(organiser)
    client.post(f"/c/{club.slug}/invites/", {})
    response = client.get(f"/c/{club.slug}/members/")
    invite = club.invites.get()
    assert invite.token in response.content.decode()
    assert no_store(response)
    join = Client().get(f"/clubs/join/{invite.token}/")
    assert invite.token in join.content.decode() and no_store(join)
    signup = Client().get(f"/accounts/signup/?next=/clubs/join/{invite.token}/")
    assert invite.token in signup.content.decode() and no_store(signup)
    login = Client().get(f"/accounts/login/?next=/clubs/join/{invite.token}/")
    assert invite.token in login.content.decode() and no_store(login)


# ---------------------------------------------------------------------- the edit link


def test_the_shared_edit_link_carries_the_token_in_its_fragment() -> None:
    game = GameFactory.create()
    assert edit_url(game) == f"/g/{game.public_id}/edit/#{game.edit_token}"
    page = editor(game).get(f"/g/{game.public_id}/").content.decode()
    assert f"/g/{game.public_id}/edit/#{game.edit_token}" in page
    assert f"/edit/{game.edit_token}" not in page


def test_the_edit_link_page_posts_the_token_so_no_request_line_carries_it() -> None:
    game = GameFactory.create()
    client = Client()
    page = client.get(f"/g/{game.public_id}/edit/")  # what the server sees of /g/<id>/edit/#<token>
    assert page.status_code == 200 and no_store(page)
    html = page.content.decode()
    assert 'name="token"' in html and "csrfmiddlewaretoken" in html and "js/edit_link.js" in html
    assert game.edit_token not in html
    response = client.post(f"/g/{game.public_id}/edit/", {"token": game.edit_token})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.public_id}/"
    assert 'name="request_id"' in client.get(f"/g/{game.public_id}/").content.decode()  # may record


def test_the_edit_link_page_needs_the_csrf_token() -> None:
    game = GameFactory.create()
    client = Client(enforce_csrf_checks=True)
    assert client.post(f"/g/{game.public_id}/edit/", {"token": game.edit_token}).status_code == 403


@pytest.mark.parametrize(
    "pasted",
    [
        "{token}",
        "  https://rummy.example.org/g/{id}/edit/#{token}  ",
        "http://192.168.1.20:8000/cs/g/{id}/edit/{token}/",
    ],
)
def test_without_javascript_the_link_can_be_pasted(pasted: str) -> None:
    game = GameFactory.create()
    client = Client()
    text = pasted.format(token=game.edit_token, id=game.public_id)
    assert client.post(f"/g/{game.public_id}/edit/", {"token": text}).status_code == 302


def test_a_wrong_token_is_refused_on_the_page() -> None:
    game = GameFactory.create()
    client = Client()
    response = client.post(f"/g/{game.public_id}/edit/", {"token": "not-the-token"})
    assert response.status_code == 404
    assert 'role="alert"' in response.content.decode()
    assert 'name="request_id"' not in client.get(f"/g/{game.public_id}/").content.decode()
    assert client.post(f"/g/{game.public_id}/edit/", {"token": ""}).status_code == 404
    assert client.get("/g/no-such-game/edit/").status_code == 404


def test_links_shared_before_still_work_and_redirect_at_once() -> None:
    game = GameFactory.create()
    client = Client()
    response = client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    assert response.status_code == 302 and response["Location"] == f"/g/{game.public_id}/"
    assert no_store(response)
    assert 'name="request_id"' in client.get(f"/g/{game.public_id}/").content.decode()


# ---------------------------------------------------------------------- logs


def test_an_ordinary_403_logs_one_line_without_a_traceback(client: Client, caplog: Any) -> None:
    game = GameFactory.create()
    with caplog.at_level(logging.WARNING):
        response = client.post(f"/g/{game.public_id}/end/", {"ended": "1"})
    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    assert records[0].levelno == logging.WARNING and "Forbidden" in records[0].getMessage()
    assert records[0].exc_info is None and not records[0].exc_text
    assert "Traceback" not in caplog.text


def test_a_server_error_keeps_its_traceback() -> None:
    from rummy_site.security import QuietClientErrors

    try:
        raise RuntimeError("boom")
    except RuntimeError as error:
        record = logging.LogRecord(
            "django.request", logging.ERROR, "", 0, "boom", None, (RuntimeError, error, None)
        )
    record.status_code = 500
    assert QuietClientErrors().filter(record) and record.exc_info is not None
