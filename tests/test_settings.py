"""Production mode refuses to start without a real secret and passes check --deploy."""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STRONG_SECRET = "k3J9-x8vQw2Lr5Tz0pYb7Nc4Md1Fs6Gh9Ja2Ue5Wi8Ko3Xl7Rq0Vt4Ym6Zn1Bp-Qs"


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    clean.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def test_production_without_secret_refuses_to_start() -> None:
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="rummy.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_with_weak_secret_refuses_to_start() -> None:
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="rummy.example.org", SECRET_KEY="short")
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_production_without_allowed_hosts_refuses_to_start() -> None:
    result = manage("check", DEBUG="0", SECRET_KEY=STRONG_SECRET)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS is not set" in result.stderr


def test_production_with_secret_passes_deploy_check_without_warnings() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=STRONG_SECRET,
        ALLOWED_HOSTS="rummy.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_bad_boolean_is_a_loud_error() -> None:
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


PRODUCTION_PAGE = """
import re
import django
from django.test import Client

django.setup()
client = Client(HTTP_HOST="rummy.example.org")
page = client.get("/", secure=True)
assert page.status_code == 200, page.status_code
script = re.search(r'src="(/static/vendor/htmx/[^"]+)"', page.content.decode()).group(1)
assert re.search(r"htmx-2.0.11.min.[0-9a-f]{12}.js$", script), script
asset = client.get(script, secure=True, HTTP_ACCEPT_ENCODING="gzip")
assert asset.status_code == 200 and asset["Content-Encoding"] == "gzip", asset.status_code
assert "max-age" in asset["Cache-Control"]
print("ok")
"""


PRODUCTION_EDGES = """
import django
from django.test import Client

django.setup()
client = Client(HTTP_HOST="rummy.example.org")
assert client.get("/healthz").status_code == 200
assert client.get("/games/").status_code == 301
chosen = client.post("/i18n/setlang/", {"language": "cs", "next": "/"}, secure=True)
assert chosen.cookies["django_language"]["secure"] is True, chosen.cookies
print("ok")
"""


def test_production_health_checks_over_http_and_keeps_the_language_cookie_secure(
    tmp_path: Path, migrated_sqlite: Callable[[Path], str]
) -> None:
    env = {"DEBUG": "0", "SECRET_KEY": STRONG_SECRET, "ALLOWED_HOSTS": "rummy.example.org"}
    # A database of its own, migrated: /healthz also reads how far the task worker is behind.
    env["DATABASE_URL"] = migrated_sqlite(tmp_path / "edges.sqlite3")
    env["STATIC_ROOT"] = str(tmp_path)
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    clean.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", **env)
    served = subprocess.run(
        [sys.executable, "-c", PRODUCTION_EDGES],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert served.stdout.strip() == "ok", served.stderr


def test_production_serves_hashed_compressed_static_files(collected_static: Path) -> None:
    env = {"DEBUG": "0", "SECRET_KEY": STRONG_SECRET, "ALLOWED_HOSTS": "rummy.example.org"}
    env["STATIC_ROOT"] = str(collected_static)
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    clean.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", **env)
    served = subprocess.run(
        [sys.executable, "-c", PRODUCTION_PAGE],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert served.stdout.strip() == "ok", served.stderr


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("PROXY_COUNT", "two", "PROXY_COUNT must be a whole number"),
        ("CONN_MAX_AGE", "-1", "CONN_MAX_AGE must be a whole number"),
        ("SECURE_HSTS_SECONDS", "1y", "SECURE_HSTS_SECONDS must be a whole number"),
        ("PUBLIC_URL", "rummy.example.org", "PUBLIC_URL must be an http:// or https:// address"),
        ("LAN_URL", "http://", "LAN_URL must be an http:// or https:// address"),
        ("API_ANON_RATE", "lots", "API_ANON_RATE must be a count per period"),
        ("API_USER_RATE", "10/fortnight", "API_USER_RATE must be a count per period"),
        ("DATABASE_URL", "mysqlx://db/rummy", "DATABASE_URL is not a database address"),
        ("MAX_BODY_BYTES", "2MB", "MAX_BODY_BYTES must be a whole number"),
        ("SIGNUPS_PER_HOUR", "0", "SIGNUPS_PER_HOUR must be a whole number of at least 1"),
        ("INVITE_TRIES_PER_HOUR", "many", "INVITE_TRIES_PER_HOUR must be a whole number"),
        ("CSRF_TRUSTED_ORIGINS", "rummy.example.org", "CSRF_TRUSTED_ORIGINS must list http:// or https://"),
        ("TRUSTED_PROXIES", "the-proxy", "TRUSTED_PROXIES must list addresses or networks"),
        ("TIME_ZONE", "Europe/Atlantis", "TIME_ZONE must be a time zone name"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT must be one of text, json"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of DEBUG, INFO"),
        ("SENTRY_DSN", "not-a-dsn", "SENTRY_DSN is not a Sentry DSN"),
    ],
)
def test_a_bad_setting_stops_the_site_with_a_message_naming_it(name: str, value: str, message: str) -> None:
    result = manage(
        "check", DEBUG="0", SECRET_KEY=STRONG_SECRET, ALLOWED_HOSTS="rummy.example.org", **{name: value}
    )
    assert result.returncode != 0
    assert message in result.stderr
    assert "ValueError" not in result.stderr.splitlines()[-1]


def test_good_settings_of_every_kind_are_accepted() -> None:
    result = manage(
        "check",
        DEBUG="0",
        SECRET_KEY=STRONG_SECRET,
        ALLOWED_HOSTS="rummy.example.org",
        PROXY_COUNT="2",
        CONN_MAX_AGE="0",
        PUBLIC_URL="https://rummy.example.org/",
        API_ANON_RATE="100/hour",
        MAX_BODY_BYTES="1048576",
        SIGNUPS_PER_HOUR="5",
        CSRF_TRUSTED_ORIGINS="https://rummy.example.org",
        TIME_ZONE="Europe/Oslo",
        LOG_FORMAT="JSON",
        LOG_LEVEL="info",
    )
    assert result.returncode == 0, result.stderr
