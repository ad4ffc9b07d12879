"""LOG_FORMAT=json: one JSON line per request for log tools; no token in any log line or error
report; Sentry only when SENTRY_DSN is set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.urls import resolve
from django.utils import translation

from rummy_site.logs import before_send, scrub_path, scrub_text

ROOT = Path(__file__).resolve().parent.parent
SECRET = "Zq8-secretTOKENvalue_0123456789abcdefghijkl"

REQUESTS = f"""
import django
from django.test import Client

django.setup()
from django.contrib.auth import get_user_model

user = get_user_model().objects.create_user("logged", password="x-Secret-12345")
client = Client()
client.get("/")
client.get("/clubs/join/{SECRET}/")
client.force_login(user)
client.get("/g/nosuchgame/edit/{SECRET}/?next=/clubs/join/{SECRET}/")
print("user", user.pk)
"""


def _env(database: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SENTRY_DSN")}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1", DATABASE_URL=database, **extra)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_json_logs_have_one_line_per_request_with_its_fields_and_no_token(
    tmp_path: Path, migrated_sqlite: Callable[[Path], str]
) -> None:
    env = _env(migrated_sqlite(tmp_path / "logs.sqlite3"), LOG_FORMAT="json")
    done = _run([sys.executable, "-c", REQUESTS], env)
    user_id = int(done.stdout.split()[-1])
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]  # every line is JSON
    requests = [line for line in lines if line["logger"] == "rummy_site.requests"]
    assert [(r["method"], r["path"], r["status"], r["user_id"]) for r in requests] == [
        ("GET", "/", 200, None),
        ("GET", "/clubs/join/[token]/", 404, None),
        ("GET", "/g/nosuchgame/edit/[token]/", 404, user_id),
    ]
    assert all(isinstance(r["duration_ms"], float) and r["duration_ms"] >= 0 for r in requests)
    assert all({"time", "level", "message"} <= set(line) for line in lines)
    assert SECRET not in done.stderr
    # Django's own "Not Found: <path>" lines are scrubbed too.
    assert any(line["logger"] == "django.request" and "[token]" in line["message"] for line in lines)


def test_text_logs_scrub_tokens_and_print_no_request_lines(
    tmp_path: Path, migrated_sqlite: Callable[[Path], str]
) -> None:
    env = _env(migrated_sqlite(tmp_path / "logs.sqlite3"))
    done = _run([sys.executable, "-c", REQUESTS], env)
    assert "Not Found: /clubs/join/[token]/" in done.stderr
    assert SECRET not in done.stderr
    assert not any(line.startswith("{") for line in done.stderr.splitlines())


@pytest.mark.parametrize(
    ("path", "scrubbed"),
    [
        (f"/clubs/join/{SECRET}/", "/clubs/join/[token]/"),
        (f"/cs/clubs/join/{SECRET}/", "/cs/clubs/join/[token]/"),
        (f"/g/Ab12Cd34Ef56/edit/{SECRET}/", "/g/Ab12Cd34Ef56/edit/[token]/"),
        (f"/accounts/reset/MTI/{SECRET}/", "/accounts/reset/[token]/"),
        ("/accounts/reset/done/", "/accounts/reset/done/"),
        ("/g/Ab12Cd34Ef56/edit/", "/g/Ab12Cd34Ef56/edit/"),
        ("/clubs/join/", "/clubs/join/"),
        ("/c/the-club/members/", "/c/the-club/members/"),
    ],
)
def test_paths_lose_their_tokens(path: str, scrubbed: str) -> None:
    assert scrub_path(path) == scrubbed


def test_a_views_token_argument_is_scrubbed_wherever_it_stands() -> None:
    path = f"/clubs/join/{SECRET}/"
    with translation.override("en"):
        match = resolve(path)
    assert scrub_path(path, match) == "/clubs/join/[token]/"


def test_free_text_loses_api_tokens_bearer_headers_and_fragments() -> None:
    text = f"Authorization: Bearer {SECRET}; rs_{SECRET}; https://x.org/g/a/edit/#{SECRET}"
    assert SECRET not in scrub_text(text)


def test_sentry_reports_are_scrubbed_before_they_are_sent() -> None:
    event: dict[str, Any] = {
        "request": {
            "url": f"https://rummy.example.org/clubs/join/{SECRET}/",
            "query_string": f"next=/clubs/join/{SECRET}/",
            "cookies": {"sessionid": SECRET},
            "headers": {
                "Authorization": f"Bearer {SECRET}",
                "Cookie": f"sessionid={SECRET}",
                "Accept": "*/*",
            },
            "data": {"token": SECRET, "name": "Ann"},
        },
        "exception": {"values": [{"type": "Http404", "value": f"No invite at /clubs/join/{SECRET}/"}]},
        "breadcrumbs": {"values": [{"message": f"GET /g/abc/edit/{SECRET}/"}]},
        "transaction": f"/clubs/join/{SECRET}/",
    }
    sent = before_send(event, {})
    assert SECRET not in json.dumps(sent)
    assert sent["request"]["url"] == "https://rummy.example.org/clubs/join/[token]/"
    assert sent["request"]["headers"]["Accept"] == "*/*"
    assert sent["request"]["data"]["name"] == "Ann"
    assert "cookies" not in sent["request"]


SENTRY_LOADED = """
import sys
import django
django.setup()
print("sentry_sdk" in sys.modules)
"""


def test_sentry_is_imported_only_when_a_dsn_is_set(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'logs.sqlite3'}"  # never opened
    without = _run([sys.executable, "-c", SENTRY_LOADED], _env(database))
    assert without.stdout.strip() == "False"
    dsn = "https://public@o0.ingest.sentry.invalid/1"  # never reached: nothing goes wrong here
    with_dsn = _run([sys.executable, "-c", SENTRY_LOADED], _env(database, SENTRY_DSN=dsn))
    assert with_dsn.stdout.strip() == "True"


def test_the_debug_servers_request_lines_are_scrubbed_too() -> None:
    import logging

    handler = logging.getLogger("django.server").handlers[0]
    line = (f"GET /clubs/join/{SECRET}/ HTTP/1.1", "404")
    record = logging.LogRecord("django.server", logging.INFO, __file__, 0, '"%s" %s', line, None)
    assert handler.filter(record)
    assert record.getMessage() == '"GET /clubs/join/[token]/ HTTP/1.1" 404'
