"""The club rating list at scale: a club with 500 players and 5,000 rated Rummikub games
(``manage.py generate_club``, rated by a full rebuild), then the median server time of the
rating list (the selector alone, and the whole page through Django's test client) and its
query count, beside a club of 20 players (goal: at most 30 ms for 500 players, the same count).

In-process, on a temporary database this script migrates and fills. SQLite by default;
``--pg`` uses a scratch PostgreSQL database on 127.0.0.1:5432 (user postgres, trust auth),
dropped at the end:

    .venv/bin/python bench/bench_rating_list.py          # about a minute
    .venv/bin/python bench/bench_rating_list.py --pg
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "--pg" in sys.argv
_TMP = tempfile.TemporaryDirectory(prefix="bench-rating-list-")
if PG:
    DB = f"bench_rating_list_{os.getpid()}"
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB}"
else:
    os.environ["DATABASE_URL"] = f"sqlite:///{_TMP.name}/bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings_test"

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.models import Club  # noqa: E402
from games.services.clubs import club_create  # noqa: E402
from games.services.games import game_start  # noqa: E402
from games.services.hands import hand_record  # noqa: E402
from tournaments.rating_history import rebuild  # noqa: E402
from tournaments.selectors.league import rating_list  # noqa: E402

GOAL_MS = 30.0


def median_ms(run: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def small_club(user: User) -> Club:
    club = club_create(name="Small club", user=user)
    names = [f"Player {i}" for i in range(20)]
    for i in range(40):
        table = [names[(i * 3 + k) % 20] for k in range(4)]
        game = game_start(family="rummikub", options={}, players=table, owner=user, club=club, hand_limit=1)
        hand_record(
            game=game,
            outcome={"winner": table[0], "left": {n: 5 + k for k, n in enumerate(table[1:])}},
            request_id=None,
            user=user,
        )
    rebuild(club=club, family="rummikub")
    return club


def main() -> None:
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("generate_club", "--name", "Big club", "--organiser", "bench", stdout=open(os.devnull, "w"))
    print(f"generated 500 players, 5,000 games in {time.perf_counter() - started:.1f} s")
    user = User.objects.get(username="bench")
    big = Club.objects.get(name="Big club")
    rebuild(club=big, family="rummikub")
    small = small_club(user)
    if PG:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would after a bulk load

    client = Client()
    client.force_login(user)
    print(f"{'':38} {'players':>8} {'median ms':>10} {'queries':>8}")
    for club in (small, big):
        players = len(rating_list(club=club).rows)
        selector = median_ms(lambda club=club: rating_list(club=club), 30)  # type: ignore[misc]
        path = f"/c/{club.slug}/ratings/"
        client.get(path)
        page = median_ms(lambda path=path: client.get(path), 30)  # type: ignore[misc]
        with CaptureQueriesContext(connection) as queries:
            rating_list(club=club)
        print(f"{'rating list (selector), ' + club.name:38} {players:8d} {selector:10.2f} {len(queries):8d}")
        print(f"{'rating list (whole page), ' + club.name:38} {players:8d} {page:10.2f}")
    print(f"goal: at most {GOAL_MS:.0f} ms for 500 players, the same query count")
    # On a shared machine the figures scale with its load: print it beside them.
    print(
        "load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()),
        f"on {os.cpu_count()} cores",
    )


if __name__ == "__main__":
    try:
        main()
    finally:
        if PG:
            connections.close_all()
            subprocess.run(
                ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE {DB}"], check=False
            )
