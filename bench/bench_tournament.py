"""The tournament pages' figures: the standings page of a 100-player, 8-round tournament
beside the same page of a 12-player, 3-round one (the query count must not grow, and the server
time should barely), and beside ``/healthz`` as the floor of a request. With ``--open``, also a
600-player open (150 tables of 4) in its second round, every table one hand in: each page a
phone opens there (a page of the round, the standings, the projector and its 304, "where do I
sit", a player's page), the first view of a version of the standings ("new") and the next
("kept" by the process).

In-process (Django's test client), on a temporary SQLite database that this script migrates
and fills through the site's own services (every table plays one Rummikub hand). Run from the
project root:

    .venv/bin/python bench/bench_tournament.py        # about 20 s (most of it building)
    .venv/bin/python bench/bench_tournament.py --pg   # on a scratch PostgreSQL database
    .venv/bin/python bench/bench_tournament.py --pg --open   # and the 600-player open (2 min)

The seating figures (100 players at 25 tables, repeats against exhaustive search) are printed
by bench/bench_seating.py.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "--pg" in sys.argv
OPEN = "--open" in sys.argv
_TMP = tempfile.TemporaryDirectory(prefix="bench-tournament-")
if PG:
    DB = f"bench_tournament_{os.getpid()}"
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB}"
else:
    os.environ["DATABASE_URL"] = f"sqlite:///{_TMP.name}/bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings_test"
# A release named, as a deployment names it: the debug setting would digest the code per tag.
os.environ.setdefault("RELEASE", "bench")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.services.clubs import club_create  # noqa: E402
from games.services.hands import hand_record  # noqa: E402
from tournaments.models import Entry, Table, Tournament  # noqa: E402
from tournaments.services.entries import entries_add  # noqa: E402
from tournaments.services.round_seating import round_seat  # noqa: E402
from tournaments.services.rounds import round_confirm, round_start  # noqa: E402
from tournaments.services.tournament_settings import tournament_create  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from tests.tournaments.support import rummikub_hand, settings  # noqa: E402


def build(organiser: User, players: int, rounds: int, playing: int = 0) -> Tournament:
    """``rounds`` confirmed rounds, then ``playing`` more started (one hand at every table)."""
    club = club_create(name=f"Bench club {players}", user=organiser)
    t = tournament_create(club=club, settings=settings(rounds=rounds + playing), user=organiser)
    entries_add(
        tournament=t, names=[f"Player {i:03}" for i in range(players)], checked_in=True, user=organiser
    )
    for number in range(1, rounds + playing + 1):
        played = round_seat(tournament=t, number=number, user=organiser)
        played = round_start(played=played, round_version=played.version, user=organiser)
        for table in Table.objects.filter(round=played).select_related("game"):
            assert table.game is not None
            names = [s.name for s in table.game.seats.all()]
            shifted = names[number % len(names) :] + names[: number % len(names)]
            hand_record(game=table.game, outcome=rummikub_hand(shifted), request_id=None, user=organiser)
        if number <= rounds:
            round_confirm(played=played, round_version=played.version, user=organiser)
    return t


def measure(client: Client, path: str, times: int = 30) -> tuple[float, int]:
    client.get(path)  # warm up
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    return statistics.median(samples), len(queries)


def main() -> None:
    call_command("migrate", verbosity=0)
    organiser = User.objects.create_user("bench-organiser", password="x")
    started = time.perf_counter()
    small = build(organiser, 12, 3)
    big = build(organiser, 100, 8)
    if PG:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"built: 12 players x 3 rounds and 100 players x 8 rounds in {time.perf_counter() - started:.1f} s")
    client = Client()
    floor, _ = measure(client, "/healthz")
    print(f"{'page':48} {'median ms':>10} {'queries':>8}")
    print(f"{'/healthz (floor of a request)':48} {floor:10.2f} {'-':>8}")
    for label, t in (("12 players, 3 rounds", small), ("100 players, 8 rounds", big)):
        for page in ("standings", "", "r/1"):
            path = f"/t/{t.public_id}/{page}{'/' if page else ''}"
            ms, queries = measure(client, path)
            name = page or "overview"
            print(f"{name + ' — ' + label:48} {ms:10.2f} {queries:8d}")
    print("goal: the 100-player standings page in at most 30 ms, with the same query count as the small one")
    if OPEN:
        the_open(organiser, client)


def new_version(t: Tournament) -> None:
    """What a finished table or a confirmation does to the standings: a new version (the
    tournament's row saved), so the next view computes them again."""
    t.refresh_from_db()
    Tournament.objects.filter(pk=t.pk).update(version=t.version + 1)


def the_open(organiser: User, client: Client) -> None:
    started = time.perf_counter()
    big = build(organiser, 600, 1, playing=1)
    if PG:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    took = time.perf_counter() - started
    print(f"\nbuilt: a 600-player open, round 1 confirmed, round 2 playing, in {took:.1f} s")
    entry = Entry.objects.filter(tournament=big).order_by("pk").first()
    assert entry is not None
    pages = {
        "a page of round 2 (16 of 150 tables)": "r/2/?page=5",
        "standings (50 of 600 rows)": "standings/?page=3",
        "projector (12 tables, 20 rows)": "screen/",
        "where do I sit": "seat/?q=Player%20417",
        "a player's page": f"p/{entry.pk}/",
    }
    print(f"{'page of the open':40} {'new ms':>8} {'kept ms':>8} {'queries':>8}")
    for label, page in pages.items():
        path = f"/t/{big.public_id}/{page}"
        fresh = []
        for _ in range(10):
            new_version(big)
            begin = time.perf_counter()
            assert client.get(path).status_code == 200
            fresh.append((time.perf_counter() - begin) * 1000)
        kept, queries = measure(client, path)
        print(f"{label:40} {statistics.median(fresh):8.2f} {kept:8.2f} {queries:8d}")
    path = f"/t/{big.public_id}/screen/"
    tag = client.get(path)["ETag"]
    samples = []
    for _ in range(30):
        begin = time.perf_counter()
        assert client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
        samples.append((time.perf_counter() - begin) * 1000)
    with CaptureQueriesContext(connection) as unchanged:
        client.get(path, HTTP_IF_NONE_MATCH=tag)
    print(f"{'projector, unchanged (304)':40} {'':8} {statistics.median(samples):8.2f} {len(unchanged):8d}")


if __name__ == "__main__":
    try:
        main()
    finally:
        if PG:
            connection.close()
            subprocess.run(
                ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {DB}"],
                check=False,
            )
