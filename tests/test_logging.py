"""Each log line is printed once (Django's own handler and the root's both printed them)."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

A_REQUEST = """
import django
from django.test import Client

django.setup()
Client().get("/no-such-page/")
"""


def _run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_no_line_is_logged_twice_by_load_demo_or_a_request(
    tmp_path: Path, migrated_sqlite: Callable[[Path], str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.update(
        DJANGO_SETTINGS_MODULE="rummy_site.settings",
        DEBUG="1",
        LOG_LEVEL="INFO",
        DATABASE_URL=migrated_sqlite(tmp_path / "log.sqlite3"),
    )
    output = _run([sys.executable, "manage.py", "load_demo"], env)
    output += _run([sys.executable, "-c", A_REQUEST], env)
    lines = [line for line in output.splitlines() if line.strip()]
    assert any("Not Found: /no-such-page/" in line for line in lines)
    assert any(line.startswith("Demo organiser:") for line in lines)
    repeated = [line for line, count in collections.Counter(lines).items() if count > 1]
    assert repeated == []
