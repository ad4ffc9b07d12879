"""The derived-numbers pipeline on a big club (``manage.py generate_club``: 500 players, 5,000
games, 100,000 hands over two seasons, with both seasons made), each figure beside its peer:

- a first-week correction as the request sees it (the write and its marks; the worker does
  the rest), beside the same correction in a club of 20 games (goal: within 1.5x);
- a hand that ends a game, beside the same in an empty club (goal: within 1.2x);
- how long one worker takes to make ratings and standings current after a last-week and after
  a first-week correction (goals: 3 s and 10 s);
- other tables' saves (another club) while the worker rebuilds, p95 beside idle (goal: 2x);
- a burst of 50 corrections: how many rebuilds the worker makes (goal: one);
- ``rebuild_derived --club`` (goal: 30 s).

In-process, on a temporary database this script migrates and fills, the queue in the
database as in production. SQLite by default; ``--pg`` uses a scratch PostgreSQL database on
127.0.0.1:5432 (user postgres, trust auth), dropped at the end:

    .venv/bin/python bench/bench_pipeline.py
    .venv/bin/python bench/bench_pipeline.py --pg
"""

from __future__ import annotations

import datetime
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
_TMP = tempfile.TemporaryDirectory(prefix="bench-pipeline-")
if PG:
    DB = f"bench_pipeline_{os.getpid()}"
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DB}"
else:
    os.environ["DATABASE_URL"] = f"sqlite:///{_TMP.name}/bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings_test"

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

import tournaments.ratings as ratings_module  # noqa: E402
from games.models import Club, Game, Hand  # noqa: E402
from games.services.clubs import club_create  # noqa: E402
from games.services.games import game_start  # noqa: E402
from games.services.hands import hand_edit, hand_record  # noqa: E402
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS  # noqa: E402
from tournaments import derived  # noqa: E402
from tournaments.services import SeasonSettings, season_create  # noqa: E402

override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}).enable()
NAMES = ["Ann", "Bob", "Cid", "Dan"]
PACE = 0.05  # s between the other club's saves: twenty a second, far more than tables make


def season(club: Club, user: User, starts: datetime.date, ends: datetime.date, name: str) -> None:
    season_create(
        club=club,
        settings=SeasonSettings(
            name=name, starts=starts, ends=ends, families=["rummikub"], counts="games",
            game_points="table", tournament_points="preset", custom_points="", best_events=0,
            drop_worst=0, min_games=0, tiebreaks=DEFAULT_LEAGUE_TIEBREAKS,
        ),
        user=user,
    )  # fmt: skip


def nudge(hand: Hand, user: User) -> None:
    """Correct the hand: one more point left for each loser (or back)."""
    hand.refresh_from_db()
    left = dict(hand.outcome["left"])
    step = 1 if hand.version % 2 else -1
    outcome = dict(hand.outcome) | {"left": {k: max(0, v + step) for k, v in left.items()}}
    hand_edit(hand=hand, outcome=outcome, version=hand.version, user=user)


def timed(run: Callable[[], object], times: int) -> list[float]:
    out = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        out.append((time.perf_counter() - started) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def catch_up(club: Club) -> float:
    started = time.perf_counter()
    while derived.apply(club.pk) is None or derived.freshness(club.pk).pending:
        pass
    return time.perf_counter() - started


def main() -> None:
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("generate_club", "--name", "Big club", "--organiser", "bench", stdout=open(os.devnull, "w"))
    print(f"generated the club in {time.perf_counter() - started:.1f} s ({'PostgreSQL' if PG else 'SQLite'})")
    user = User.objects.get(username="bench")
    big = Club.objects.get(name="Big club")
    today = timezone.localdate()
    season(big, user, today - datetime.timedelta(days=730), today - datetime.timedelta(days=366), "Last year")
    season(big, user, today - datetime.timedelta(days=365), today + datetime.timedelta(days=30), "This year")
    started = time.perf_counter()
    call_command("rebuild_derived", "--club", big.slug, stdout=open(os.devnull, "w"))
    print(f"rebuild_derived --club: {time.perf_counter() - started:.1f} s (goal: at most 30 s)")
    catch_up(big)

    small = club_create(name="Small club", user=user)
    for i in range(20):
        g = game_start(family="rummikub", options={}, players=NAMES, owner=user, club=small, hand_limit=1)
        winner = NAMES[i % 4]
        outcome = {"winner": winner, "left": {n: 5 + i for n in NAMES if n != winner}}
        hand_record(game=g, outcome=outcome, request_id=None, user=user)
    season(small, user, today - datetime.timedelta(days=30), today + datetime.timedelta(days=30), "Small")
    catch_up(small)

    games = Game.objects.filter(club=big, family="rummikub").order_by("created_at")
    first_week = Hand.objects.filter(game=games.first()).order_by("-number").first()
    week_ago = timezone.now() - datetime.timedelta(days=7)
    last_week = (
        Hand.objects.filter(game=games.filter(created_at__lte=week_ago).last()).order_by("-number").first()
    )
    small_hand = Hand.objects.filter(game__club=small).order_by("game__created_at").first()
    assert first_week and last_week and small_hand

    # The request: a correction answers after its write and marks, whatever the club's size.
    nudge(first_week, user)  # warm
    catch_up(big)
    big_ms, small_ms = [], []
    for _ in range(7):
        big_ms += timed(lambda: nudge(first_week, user), 1)
        small_ms += timed(lambda: nudge(small_hand, user), 1)
        catch_up(big), catch_up(small)
    b, s = statistics.median(big_ms), statistics.median(small_ms)
    print(
        f"first-week correction, request: big {b:.1f} ms, 20-game club {s:.1f} ms: {b / s:.2f}x (goal 1.5x)"
    )

    # A hand that ends a game.
    def ender(club: Club) -> Callable[[], object]:
        def end() -> object:
            g = game_start(family="rummikub", options={}, players=NAMES, owner=user, club=club, hand_limit=1)
            started = time.perf_counter()
            hand_record(
                game=g,
                outcome={"winner": "Ann", "left": {"Bob": 3, "Cid": 4, "Dan": 5}},
                request_id=None,
                user=user,
            )
            return time.perf_counter() - started

        return end

    empty = club_create(name="Empty club", user=user)
    end_big, end_empty = ender(big), ender(empty)
    for _ in range(3):
        end_big(), end_empty()
    ends_big = [1000 * float(end_big()) for _ in range(15)]  # type: ignore[arg-type]
    ends_empty = [1000 * float(end_empty()) for _ in range(15)]  # type: ignore[arg-type]
    b, s = statistics.median(ends_big), statistics.median(ends_empty)
    print(f"game-ending hand: big {b:.1f} ms, empty club {s:.1f} ms: {b / s:.2f}x (goal 1.2x)")
    catch_up(big), catch_up(empty)

    # One worker: current after a last-week and a first-week correction.
    nudge(last_week, user)
    print(f"current after a last-week correction: {catch_up(big):.2f} s (goal 3 s)")
    nudge(first_week, user)
    print(f"current after a first-week correction: {catch_up(big):.2f} s (goal 10 s)")

    # Other tables' saves while the worker rebuilds (its own thread and connection).
    other = club_create(name="Other club", user=user)
    g = game_start(family="rummikub", options={}, players=NAMES, owner=user, club=other)
    counter = iter(range(10**6))

    def save() -> object:
        i = next(counter)
        winner = NAMES[i % 4]
        outcome = {"winner": winner, "left": {n: 3 for n in NAMES if n != winner}}
        return hand_record(game=g, outcome=outcome, request_id=None, user=user)

    idle = []
    for _ in range(40):
        idle += timed(save, 1)
        time.sleep(PACE)
    nudge(first_week, user)  # queued in the database; a worker process of its own applies it
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--batch", "--no-reload", "--no-startup-delay", "-v0"],
        cwd=ROOT,
        env=env,
    )
    busy: list[float] = []
    started = time.perf_counter()
    while worker.poll() is None:
        busy += timed(save, 1)
        time.sleep(PACE)  # phones leave gaps: a writer that never pauses starves SQLite's others
    took = time.perf_counter() - started
    assert not derived.freshness(big.pk).pending
    print(
        f"other tables' saves: idle p95 {p95(idle):.1f} ms, while a worker process rebuilds "
        f"p95 {p95(busy):.1f} ms ({len(busy)} saves in {took:.1f} s): {p95(busy) / p95(idle):.2f}x (goal 2x)"
    )

    # A burst of 50 corrections: one rebuild.
    calls: list[object] = []
    real = ratings_module._write

    def counted(club: Club, family: str, since: object, made: list[object]) -> None:
        calls.append(since)
        real(club, family, since, made)  # type: ignore[arg-type]

    ratings_module._write = counted  # type: ignore[assignment]
    hands = list(Hand.objects.filter(game__in=games[:50]))
    for hand in hands:
        nudge(hand, user)
    took = catch_up(big)
    ratings_module._write = real
    print(f"50 corrections: {len(calls)} rating rebuild(s), current after {took:.2f} s")


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
