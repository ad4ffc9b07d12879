"""Production mode refuses to start without a real secret and passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

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
