"""`make run` serves the club in production mode: no debug pages, no forged hosts, on plain HTTP."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rummy_site.management.commands import serve

ROOT = Path(__file__).resolve().parent.parent


def test_the_secret_key_is_made_once_kept_private_and_read_back(tmp_path: Path) -> None:
    first = serve.secret_key(tmp_path / "var")
    assert len(first) >= 50
    assert serve.secret_key(tmp_path / "var") == first
    mode = stat.S_IMODE((tmp_path / "var" / serve.SECRET_FILE).stat().st_mode)
    assert mode == 0o600


def test_a_damaged_secret_key_file_is_replaced_by_a_strong_key(tmp_path: Path) -> None:
    (tmp_path / serve.SECRET_FILE).write_text("short\n")
    assert len(serve.secret_key(tmp_path)) >= 50


def test_the_server_allows_only_this_computers_names_and_runs_without_debug() -> None:
    env = serve.server_env(port="8000", base={"PATH": "/bin"}, addresses=["192.168.1.5"], key="k" * 60)
    assert env["DEBUG"] == "0"
    assert env["HTTPS"] == "0"  # plain HTTP on a club's Wi-Fi: no redirect to a missing certificate
    assert env["PROXY_COUNT"] == "0"  # nothing in front: X-Forwarded-For is the client's to forge
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert "*" not in hosts
    assert {"localhost", "127.0.0.1", "192.168.1.5"} <= set(hosts)
    assert env["LAN_URL"] == "http://192.168.1.5:8000"
    assert env["PATH"] == "/bin"


# Stands in for collectstatic: writes the manifest, and counts its runs (or fails when told).
FAKE_COLLECT = """
import os, pathlib
root = pathlib.Path(os.environ["STATIC_ROOT"])
root.mkdir(parents=True, exist_ok=True)
(root / "staticfiles.json").write_text("{}")
with open(os.environ["RUNS"], "a") as runs:
    runs.write("run\\n")
raise SystemExit(int(os.environ.get("FAIL", "0")))
"""


def test_a_start_compresses_the_static_files_again_only_when_a_source_changed(
    tmp_path: Path,
    settings: Any,
) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "site.css").write_text("body { margin: 0 }")
    settings.STATICFILES_DIRS = [sources]
    settings.STATIC_ROOT = tmp_path / "static"
    runs = tmp_path / "runs"
    env = {**os.environ, "STATIC_ROOT": str(settings.STATIC_ROOT), "RUNS": str(runs)}
    fake = [sys.executable, "-c", FAKE_COLLECT]

    def count() -> int:
        return len(runs.read_text().splitlines()) if runs.exists() else 0

    assert serve.collect_static(fake, env) and count() == 1
    assert serve.collect_static(fake, env) and count() == 1  # nothing changed: nothing collected
    (sources / "site.css").write_text("body { margin: 1px }")
    assert serve.collect_static(fake, env) and count() == 2
    (sources / "new.js").write_text("")
    assert not serve.collect_static(fake, {**env, "FAIL": "1"}) and count() == 3
    # A failed collection is not taken for a current one.
    assert serve.collect_static(fake, env) and count() == 4
    assert serve.collect_static(fake, env) and count() == 4
    assert not (settings.STATIC_ROOT / serve.COLLECTED_FROM).exists()  # never served as a static file


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(port: int, path: str, host: str = "127.0.0.1") -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Host": f"{host}:{port}"})
    response = connection.getresponse()
    response.read()
    return response


def _body(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
    return connection.getresponse().read().decode()


@pytest.fixture(scope="module")
def club_server(  # type: ignore[no-untyped-def]
    tmp_path_factory: pytest.TempPathFactory, collected_static: Path, migrated_sqlite
):
    """``manage.py serve`` as `make run` starts it, on a fresh SQLite database; one for the
    module (the test that stops it comes last)."""
    tmp_path = tmp_path_factory.mktemp("club")
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY")}
    env.update(
        DJANGO_SETTINGS_MODULE="rummy_site.settings",
        DEBUG="1",
        DATABASE_URL=migrated_sqlite(tmp_path / "club.sqlite3"),
        LOCAL_DATA_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(collected_static),
    )
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while True:
        try:
            _get(port, "/healthz")
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.stdout.read().decode() if process.stdout else ""
                pytest.fail(f"the club server did not start:\n{output}")
            time.sleep(0.3)
    yield port, process
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)


def test_the_club_server_shows_no_debug_page_and_refuses_forged_hosts(club_server) -> None:  # type: ignore[no-untyped-def]
    port, _process = club_server
    missing = _body(port, "/no-such-page/")
    assert "URLconf" not in missing and "Traceback" not in missing and "DEBUG" not in missing
    assert _get(port, "/no-such-page/").status == 404
    # A forged Host (which would otherwise name another site in links and redirects) is refused.
    assert _get(port, "/accounts/login/?next=http://evil.example/", host="evil.example").status == 400
    login = _get(port, "/accounts/login/")
    assert login.status == 200  # plain HTTP: no redirect to HTTPS
    assert "secure" not in (login.getheader("Set-Cookie") or "").lower()
    assert _get(port, "/static/vendor/htmx/htmx-2.0.11.min.js").status == 200  # WhiteNoise


def _children(pid: int) -> dict[int, str]:
    """The processes ``pid`` started, with their command lines (read from /proc)."""
    found = {}
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found[int(status.parent.name)] = (
                    (status.parent / "cmdline").read_bytes().decode().replace("\0", " ")
                )
        except (OSError, IndexError, ValueError):
            continue
    return found


def _nice(pid: int) -> int:
    """A process's CPU priority (its "nice" value, from /proc)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_stopping_the_club_server_stops_every_process_it_started(club_server) -> None:  # type: ignore[no-untyped-def]
    port, process = club_server
    started = _children(process.pid)
    assert any("gunicorn" in command for command in started.values()), started
    assert any("manage.py worker" in command for command in started.values()), started  # the task worker
    # The worker's rebuilds give way to the tables' saves on a machine the two share.
    worker = next(pid for pid, command in started.items() if "manage.py worker" in command)
    web = next(pid for pid, command in started.items() if "gunicorn" in command)
    assert _nice(worker) > _nice(web)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    with pytest.raises(OSError):
        _get(port, "/healthz")
    assert not [pid for pid in started if Path(f"/proc/{pid}").exists()]
