"""The production server as `make run` starts it (gunicorn, two workers with threads) is ready
before it answers, and refuses an oversized body with a 413 that the client reads.

Each test starts ``manage.py serve`` on 127.0.0.1 and a free port, on a database of its own:
a fresh SQLite file, or a fresh PostgreSQL database beside the tests' when DATABASE_URL names
PostgreSQL.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from rummy_site import input_guard

ROOT = Path(__file__).resolve().parent.parent
WRITERS = 32
TOO_BIG = 5_000_000


@dataclass
class Served:
    port: int
    token: str
    game: str
    club: str


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _postgres_admin(url: str, *statements: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def database(
    tmp_path_factory: pytest.TempPathFactory, collected_static: Path, migrated_sqlite: Callable[[Path], str]
) -> Iterator[dict[str, str]]:
    """A migrated database of the server's own, with a user, a read-write token of theirs, a
    game and a club they organise; the environment that serves it."""
    folder = tmp_path_factory.mktemp("served")
    tests_url = os.environ.get("DATABASE_URL", "")
    postgres = tests_url.startswith(("postgres://", "postgresql://"))
    if postgres:
        # One per pytest-xdist worker, should two workers serve at once.
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        name = urlsplit(tests_url).path.lstrip("/") + "_served" + (f"_{worker}" if worker else "")
        _postgres_admin(
            tests_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'
        )
        url = urlunsplit(urlsplit(tests_url)._replace(path=f"/{name}"))
    else:
        url = migrated_sqlite(folder / "club.sqlite3")
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY")}
    env.update(
        DJANGO_SETTINGS_MODULE="rummy_site.settings",
        DEBUG="1",
        DATABASE_URL=url,
        LOCAL_DATA_DIR=str(folder / "var"),
        STATIC_ROOT=str(collected_static),
    )
    manage = [sys.executable, "manage.py"]
    if postgres:
        migrated = subprocess.run(
            [*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert migrated.returncode == 0, migrated.stderr
    made = subprocess.run(
        [*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert made.returncode == 0, made.stderr
    env.update(json.loads(made.stdout.strip().splitlines()[-1]))
    yield env
    if postgres:
        _postgres_admin(tests_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SETUP = """
import json
from django.contrib.auth.models import User
from games.services.games import game_start
from games.services.clubs import club_create
from games.services.tokens import token_create
user = User.objects.create_user("keeper", password="a long enough password 1")
club = club_create(name="Served club", user=user)
game = game_start(family="zoliky", options={}, players=["Ann", "Bob", "Cid"], owner=user)
print(json.dumps({"T_TOKEN": token_create(user=user, name="phones", scope="write")[1],
                  "T_GAME": str(game.public_id), "T_CLUB": club.slug}))
"""


@contextmanager
def _serving(database: dict[str, str], log: Path) -> Iterator[Served]:
    """``manage.py serve`` freshly started: yielded as soon as it answers its first request."""
    env = {k: v for k, v in database.items() if not k.startswith("T_")}
    port = _free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", "/healthz")
                connection.getresponse().read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the club server did not start:\n{log.read_text()}")
                time.sleep(0.2)
        yield Served(port, database["T_TOKEN"], database["T_GAME"], database["T_CLUB"])
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.fixture
def fresh(database: dict[str, str], tmp_path: Path) -> Iterator[Served]:
    with _serving(database, tmp_path / "server.log") as served:
        yield served


@pytest.fixture(scope="module")
def served(database: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with _serving(database, tmp_path_factory.mktemp("log") / "server.log") as served:
        yield served


def _post(
    served: Served, path: str, body: bytes, timeout: float = 60, method: str = "POST"
) -> tuple[int, bytes]:
    """A client that sends the whole request before it reads (as Python's http.client does)."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=timeout)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {served.token}"}
    try:
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_fresh_server_answers_its_first_concurrent_writes_without_a_server_error(fresh: Served) -> None:
    served = fresh
    start = threading.Barrier(WRITERS)
    answers: list[tuple[int, bytes] | Exception] = []

    def write(number: int) -> None:
        start.wait()
        if number % 2:
            path = f"/api/v1/games/{served.game}/hands/"
            body = {"closer": "Ann", "from_hand": False, "left": {"Bob": 1 + number % 3, "Cid": 2}}
        else:
            path = "/api/v1/games/"
            body = {"family": "zoliky", "options": {}, "players": ["Ann", "Bob", "Cid"], "first_dealer": 1}
        try:
            answers.append(_post(served, path, json.dumps(body).encode()))
        except Exception as error:  # a reset or a timeout: counted below
            answers.append(error)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
    assert len(answers) == WRITERS
    server_errors = [a for a in answers if not isinstance(a, tuple) or a[0] >= 500]
    assert server_errors == []
    assert [a[0] for a in answers if isinstance(a, tuple)] == [201] * WRITERS, answers


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/games/"),
        ("POST", "/api/v1/games/{game}/hands/"),
        ("POST", "/api/v1/clubs/import/"),
        ("PATCH", "/api/v1/clubs/{club}/"),
        ("POST", "/api/v1/engine/check-meld/"),
    ],
)
def test_a_client_that_sends_a_too_big_body_before_reading_gets_the_413(
    served: Served, method: str, path: str
) -> None:
    path = path.format(game=served.game, club=served.club)
    status, body = _post(served, path, b"x" * TOO_BIG, method=method)
    assert status == 413
    assert json.loads(body)["code"] == "too_big"
    # The server is still there for the next request on a new connection.
    assert _post(served, "/api/v1/engine/check-meld/", b"{}")[0] == 400


def _stalled_upload(served: Served, length: int, sent: int) -> tuple[bytes, float]:
    """A client that announces ``length`` bytes, sends ``sent`` of them and then waits: the
    answer's status line and how long it took to come."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as client:
        head = (
            f"POST /api/v1/games/ HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
        )
        began = time.monotonic()
        client.sendall(head.encode() + b"x" * sent)
        answer = client.recv(64)
        return answer.split(b"\r\n", 1)[0], time.monotonic() - began


def test_a_refusal_holds_no_thread_for_a_client_that_stops_sending(served: Served) -> None:
    status, waited = _stalled_upload(served, TOO_BIG, 100_000)
    assert status.startswith(b"HTTP/1.1 413 ")
    assert waited < input_guard.DRAIN_SECONDS + 5


def test_a_body_beyond_what_is_drained_is_refused_at_once(served: Served) -> None:
    status, waited = _stalled_upload(served, input_guard.DRAIN_BYTES + 1, 100_000)
    assert status.startswith(b"HTTP/1.1 413 ")
    assert waited < input_guard.DRAIN_IDLE_SECONDS + 5
