"""The derived-numbers pipeline on a big club (``manage.py generate_club``: 500 players, 5,000
games, 100,000 hands over two seasons, with both seasons made), each figure beside its goal,
on SQLite and PostgreSQL in one run:

- a first-week correction as the request sees it (the write and its marks; the worker does
  the rest), beside the same correction in a club of 20 games (goal: within 1.5x);
- a hand that ends a game, beside the same in an empty club with a season of its own (goal:
  within 1.2x);
- how long one worker takes to make ratings and standings current after a finished game, its
  seasons brought up to date from their stored lines beside derived whole;
- how long one worker takes to make ratings and standings current after a last-week and after
  a first-week correction (goals: 3 s and 10 s);
- other tables' saves (another club) while a worker process applies a first-week correction,
  p95 beside idle (goal: 2x);
- a burst of 50 corrections: how many rating rebuilds the worker makes (goal: one);
- ``rebuild_derived --club`` (goal: 30 s).

Two kinds of correction are measured: one that moves a game's places (the winner of its last
hand changed: every later game of the family is re-rated and every season's rating column
moves), and one that changes points only (the places stay: nothing spanning games moves).

    .venv/bin/python bench/bench_pipeline.py                 # both engines, then the table
    .venv/bin/python bench/bench_pipeline.py --engine sqlite # one engine
    .venv/bin/python bench/bench_pipeline.py --fresh         # generate the club again

Generating the club takes minutes, so it is made once per engine and schema and kept:
a SQLite file under ``$BENCH_CACHE`` (default: the temporary directory) that each run copies,
and a PostgreSQL template database (127.0.0.1:5432, user postgres, trust auth) that each run
clones with ``CREATE DATABASE ... TEMPLATE``. The run's own copy is dropped at the end.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CACHE = Path(os.environ.get("BENCH_CACHE", Path(tempfile.gettempdir()) / "bench-pipeline-cache"))
PG_PREFIX = os.environ.get("BENCH_PG_PREFIX", "bench_pipeline")
GOALS = {
    "request_ratio": 1.5,
    "ending_ratio": 1.2,
    "current_last_week": 3.0,
    "current_first_week": 10.0,
    "saves_ratio": 2.0,
    "rebuild": 30.0,
    "burst_rebuilds": 1,
}


def _schema() -> str:
    """A short hash of the migrations: a cached club is reused only by the schema it was made for."""
    names = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("*/migrations/0*.py"))
    return hashlib.sha1("\n".join(names).encode()).hexdigest()[:8]


def _psql(sql: str, *, check: bool = True) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql], check=check)


def _pg_exists(name: str) -> bool:
    out = subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-tAc",
            f"SELECT 1 FROM pg_database WHERE datname='{name}'",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() == "1"


# ---------------------------------------------------------------------- the parent: both engines


def both(fresh: bool) -> None:
    figures: dict[str, dict[str, Any]] = {}
    for engine in ("sqlite", "pg"):
        args = [sys.executable, __file__, "--engine", engine, "--json"] + (["--fresh"] if fresh else [])
        out = subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True)
        for line in out.stdout.splitlines():
            if line.startswith("FIGURES "):
                figures[engine] = json.loads(line[len("FIGURES ") :])
            else:
                print(f"[{engine}] {line}", flush=True)
    print()
    print(table(figures))


def table(figures: dict[str, dict[str, Any]]) -> str:
    def cell(f: dict[str, Any], key: str) -> str:
        v = f.get(key)
        return "-" if v is None else str(v)

    rows = [
        ("first-week correction (places move), the request, beside a 20-game club", "request", "1.5x"),
        ("first-week correction (points only), the request, beside a 20-game club", "request_points", "1.5x"),
        ("a game-ending hand, beside an empty club", "ending", "1.2x"),
        ("current after a finished game: seasons added to, beside derived whole", "finished", "-"),
        ("current after a last-week correction (places move)", "current_last_week", "3 s"),
        ("current after a first-week correction (places move)", "current_first_week", "10 s"),
        ("current after a first-week correction (points only)", "current_first_week_points", "10 s"),
        ("other saves while a worker applies a first-week correction (places move), p95", "saves", "2x"),
        (
            "other saves while a worker applies a first-week correction (points only), p95",
            "saves_points",
            "2x",
        ),
        ("a burst of 50 corrections", "burst", "one rebuild"),
        ("rebuild_derived --club", "rebuild", "30 s"),
    ]
    lines = ["| figure | SQLite | PostgreSQL | goal |", "| --- | --- | --- | --- |"]
    for label, key, goal in rows:
        lite, pg = cell(figures.get("sqlite", {}), key), cell(figures.get("pg", {}), key)
        lines.append(f"| {label} | {lite} | {pg} | {goal} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------- one engine


def setup_database(engine: str, fresh: bool) -> Callable[[], None]:
    """Point DATABASE_URL at this run's copy of the cached club; returns the clean-up."""
    CACHE.mkdir(parents=True, exist_ok=True)
    schema = _schema()
    if engine == "sqlite":
        cached = CACHE / f"club-{schema}.sqlite3"
        work = Path(tempfile.mkdtemp(prefix="bench-pipeline-"))
        db = work / "bench.sqlite3"
        if fresh or not cached.exists():
            os.environ["DATABASE_URL"] = f"sqlite:///{db}"
            generate(engine)
            shutil.copyfile(db, cached)
        else:
            shutil.copyfile(cached, db)
            os.environ["DATABASE_URL"] = f"sqlite:///{db}"
        return lambda: shutil.rmtree(work, ignore_errors=True)
    template = f"{PG_PREFIX}_club_{schema}"
    name = f"{PG_PREFIX}_{os.getpid()}"
    if fresh or not _pg_exists(template):
        _psql(f"DROP DATABASE IF EXISTS {template}")
        _psql(f"CREATE DATABASE {template}")
        subprocess.run(
            [sys.executable, __file__, "--generate", engine],
            check=True,
            env=dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{template}"),
        )
    _psql(f"CREATE DATABASE {name} TEMPLATE {template}")
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"

    def drop() -> None:
        from django.db import connections

        connections.close_all()
        _psql(f"DROP DATABASE IF EXISTS {name}", check=False)

    return drop


def generate(engine: str) -> None:
    """Make the club and its two seasons in the database DATABASE_URL names, all applied."""
    subprocess.run([sys.executable, __file__, "--generate", engine], check=True, env=dict(os.environ))


def _django() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings_test"
    import django

    django.setup()
    from django.test.utils import override_settings

    override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}).enable()


def generate_here() -> None:
    _django()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from games.models import Club

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("generate_club", "--name", "Big club", "--organiser", "bench", stdout=open(os.devnull, "w"))
    user = User.objects.get(username="bench")
    big = Club.objects.get(name="Big club")
    today = timezone.localdate()
    season(big, user, today - datetime.timedelta(days=730), today - datetime.timedelta(days=366), "Last year")
    season(big, user, today - datetime.timedelta(days=365), today + datetime.timedelta(days=30), "This year")
    catch_up(big)
    print(f"generated the club and its seasons in {time.perf_counter() - started:.1f} s", file=sys.stderr)


NAMES = ["Ann", "Bob", "Cid", "Dan"]
GAME_HANDS = 12  # hands of the other table's games
PACE = 0.05  # s between the other club's saves: twenty a second, far more than tables make


def season(club: Any, user: Any, starts: datetime.date, ends: datetime.date, name: str) -> None:
    from scoring.league import DEFAULT_LEAGUE_TIEBREAKS
    from tournaments.services.seasons import SeasonSettings, season_create

    season_create(
        club=club,
        settings=SeasonSettings(
            name=name, starts=starts, ends=ends, families=["rummikub"], counts="games",
            game_points="table", tournament_points="preset", custom_points="", best_events=0,
            drop_worst=0, min_games=0, tiebreaks=DEFAULT_LEAGUE_TIEBREAKS,
        ),
        user=user,
    )  # fmt: skip


def catch_up(club: Any) -> float:
    from tournaments import derived

    started = time.perf_counter()
    while derived.apply(club.pk) is None or derived.freshness(club.pk).pending:
        pass
    return time.perf_counter() - started


def timed(run: Callable[[], object], times: int) -> list[float]:
    out = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        out.append((time.perf_counter() - started) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


class Corrector:
    """Corrects one hand back and forth: ``places`` swaps the winner of the game's last hand
    with its last-placed player (the game's places move); otherwise each loser's rack changes by
    one point (the places stay)."""

    def __init__(self, hand: Any, user: Any, *, places: bool) -> None:
        self.hand, self.user, self.places = hand, user, places
        hand.refresh_from_db()
        self.original = dict(hand.outcome)
        self.flipped = False

    def _swapped(self) -> dict[str, Any]:
        from games.models import Result

        outcome = self.original
        last = (
            Result.objects.filter(game_id=self.hand.game_id).order_by("-place").select_related("seat").first()
        )
        assert last is not None
        loser = last.seat.name
        winner = outcome["winner"]
        left = dict(outcome["left"])
        if winner is None or loser == winner:
            loser = next(n for n in left)
        rack = left.pop(loser)
        if winner is not None:
            left[winner] = rack
        return {**outcome, "winner": loser, "left": {k: v + 60 for k, v in left.items()}}

    def __call__(self) -> None:
        from games.services.hands import hand_edit

        hand = self.hand
        hand.refresh_from_db()
        if self.places:
            outcome = self.original if self.flipped else self._swapped()
        else:
            step = -1 if self.flipped else 1
            outcome = dict(self.original) | {
                "left": {k: max(0, v + step) for k, v in self.original["left"].items()}
            }
        self.flipped = not self.flipped
        hand_edit(hand=hand, outcome=outcome, version=hand.version, user=self.user)


def places_of(game_id: int) -> list[tuple[int, int]]:
    from games.models import Result

    return list(Result.objects.filter(game_id=game_id).order_by("seat_id").values_list("seat_id", "place"))


def one(engine: str, fresh: bool, as_json: bool) -> None:
    cleanup = setup_database(engine, fresh)
    try:
        figures = measure(engine)
    finally:
        cleanup()
    if as_json:
        print("FIGURES " + json.dumps(figures))
    else:
        print(table({engine: figures}))


def measure(engine: str) -> dict[str, Any]:
    _django()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    import tournaments.rating_history as ratings_module
    from games.models import Club, Game, Hand
    from games.services.clubs import club_create
    from games.services.games import game_start
    from games.services.hands import hand_record
    from rummy_site.management.commands.serve import WORKER_NICE
    from tournaments import derived

    figures: dict[str, Any] = {}
    print(f"{engine}: {connection.vendor}, the cached club (schema {_schema()})", flush=True)
    user = User.objects.get(username="bench")
    big = Club.objects.get(name="Big club")
    started = time.perf_counter()
    call_command("rebuild_derived", "--club", big.slug, stdout=open(os.devnull, "w"))
    took = time.perf_counter() - started
    figures["rebuild"] = f"{took:.1f} s"
    print(f"rebuild_derived --club: {took:.1f} s (goal: at most 30 s)", flush=True)
    catch_up(big)

    today = datetime.date.today()
    small = club_create(name="Small club", user=user)
    for i in range(20):
        g = game_start(family="rummikub", options={}, players=NAMES, owner=user, club=small, hand_limit=1)
        winner = NAMES[i % 4]
        outcome = {"winner": winner, "left": {n: 5 + i for n in NAMES if n != winner}}
        hand_record(game=g, outcome=outcome, request_id=None, user=user)
    season(small, user, today - datetime.timedelta(days=30), today + datetime.timedelta(days=30), "Small")
    catch_up(small)

    from django.utils import timezone

    games = Game.objects.filter(club=big, family="rummikub").order_by("played_at", "pk")
    first_game = games.first()
    week_ago = timezone.now() - datetime.timedelta(days=7)
    last_game = games.filter(played_at__lte=week_ago).last()
    assert first_game and last_game
    first_week = Hand.objects.filter(game=first_game).order_by("-number").first()
    last_week = Hand.objects.filter(game=last_game).order_by("-number").first()
    small_hand = Hand.objects.filter(game__club=small).order_by("game__played_at").first()
    assert first_week and last_week and small_hand
    first_places = Corrector(first_week, user, places=True)
    first_points = Corrector(first_week, user, places=False)
    last_places = Corrector(last_week, user, places=True)
    small_places = Corrector(small_hand, user, places=True)
    small_points = Corrector(small_hand, user, places=False)
    before = places_of(first_game.pk)
    first_places()
    moved = places_of(first_game.pk) != before
    first_places()
    assert places_of(first_game.pk) == before
    print(f"the places-moving correction moves the first game's places: {moved}", flush=True)
    catch_up(big), catch_up(small)

    # The request: a correction answers after its write and marks, whatever the club's size.
    for key, big_fix, small_fix in (
        ("request", first_places, small_places),
        ("request_points", first_points, small_points),
    ):
        big_ms, small_ms = [], []
        for _ in range(6):
            big_ms += timed(big_fix, 1)
            small_ms += timed(small_fix, 1)
            catch_up(big), catch_up(small)
        b, s = statistics.median(big_ms), statistics.median(small_ms)
        figures[key] = f"{b:.1f} / {s:.1f} ms: {b / s:.2f}x"
        print(
            f"{key}: first-week correction, big {b:.1f} ms, 20-game club {s:.1f} ms: {b / s:.2f}x (goal 1.5x)"
        )

    # A hand that ends a game.
    def ender(club: Club) -> Callable[[], float]:
        def end() -> float:
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

    # The empty club has a season too, so both hands mark the same things and what differs is
    # only the size of the club; the two alternate, so a drift of the machine touches both.
    empty = club_create(name="Empty club", user=user)
    year = datetime.timedelta(days=365)
    season(empty, user, today - year, today + datetime.timedelta(days=30), "This year")
    end_big, end_empty = ender(big), ender(empty)
    for _ in range(3):
        end_big(), end_empty()
    ends_big: list[float] = []
    ends_empty: list[float] = []
    for _ in range(20):
        ends_big.append(1000 * end_big())
        ends_empty.append(1000 * end_empty())
    b, s = statistics.median(ends_big), statistics.median(ends_empty)
    figures["ending"] = f"{b:.1f} / {s:.1f} ms: {b / s:.2f}x"
    print(f"game-ending hand: big {b:.1f} ms, empty club {s:.1f} ms: {b / s:.2f}x (goal 1.2x)", flush=True)
    catch_up(big), catch_up(empty)

    # The worker's side of a finished game: its seasons brought up to date from their lines,
    # beside deriving them whole (what every other change does).
    def finished_game(whole: bool) -> float:
        end_big()
        real = derived.updated_standings
        if whole:
            derived.updated_standings = lambda *args, **kwargs: None  # type: ignore[assignment]
        try:
            return 1000 * catch_up(big)
        finally:
            derived.updated_standings = real  # type: ignore[assignment]

    added, whole = [], []
    for _ in range(8):
        added.append(finished_game(False))
        whole.append(finished_game(True))
    a, w = statistics.median(added), statistics.median(whole)
    figures["finished"] = f"{a:.0f} / {w:.0f} ms: {a / w:.2f}x"
    print(f"a finished game, current after: {a:.0f} ms added to its lines, {w:.0f} ms derived", flush=True)

    # One worker: current after a last-week and a first-week correction.
    for key, fix in (
        ("current_last_week", last_places),
        ("current_first_week", first_places),
        ("current_first_week_points", first_points),
    ):
        runs = []
        for _ in range(2):
            fix()
            runs.append(catch_up(big))
        figures[key] = f"{max(runs):.2f} s"
        print(f"{key}: current after {max(runs):.2f} s", flush=True)

    # Other tables' saves while the worker applies a correction (a process of its own).
    other = club_create(name="Other club", user=user)
    counter = iter(range(10**6))
    table: dict[str, Any] = {}

    def ready() -> None:
        """The table starts its next game after a dozen hands, as tables do: a save's cost
        grows with its game's hands, so idle and busy saves must be made in games alike."""
        if table.get("hands", GAME_HANDS) == GAME_HANDS:
            table["game"] = game_start(family="rummikub", options={}, players=NAMES, owner=user, club=other)
            table["hands"] = 0

    def save() -> object:
        i = next(counter)
        winner = NAMES[i % 4]
        outcome = {"winner": winner, "left": {n: 3 for n in NAMES if n != winner}}
        table["hands"] += 1
        return hand_record(game=table["game"], outcome=outcome, request_id=None, user=user)

    idle: list[float] = []
    for _ in range(60):
        ready()
        idle += timed(save, 1)
        time.sleep(PACE)
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1")
    for key, fix in (("saves", first_places), ("saves_points", first_points)):
        busy: list[float] = []
        took_all: float = 0.0
        for _ in range(2):
            fix()  # queued in the database; a worker process of its own applies it
            worker = subprocess.Popen(
                [
                    *WORKER_NICE,  # as `manage.py serve` runs it
                    sys.executable,
                    "manage.py",
                    "worker",
                    "--batch",
                    "--no-reload",
                    "--no-startup-delay",
                    "-v0",
                ],
                cwd=ROOT,
                env=env,
            )
            started = time.perf_counter()
            while worker.poll() is None:
                ready()
                busy += timed(save, 1)
                time.sleep(PACE)  # phones leave gaps: a writer that never pauses starves SQLite's others
            took_all += time.perf_counter() - started
            assert not derived.freshness(big.pk).pending
        quiet, b = p95(idle), p95(busy)
        figures[key] = f"{b:.1f} / {quiet:.1f} ms: {b / quiet:.2f}x"
        print(
            f"{key}: other saves idle p95 {quiet:.1f} ms, while a worker process applies p95 {b:.1f} ms "
            f"({len(busy)} saves in {took_all:.1f} s): {b / quiet:.2f}x (goal 2x)",
            flush=True,
        )

    # A burst of 50 corrections: one rebuild.
    calls: list[object] = []
    real = ratings_module._write

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    ratings_module._write = counted  # type: ignore[assignment]
    for game in games[:50]:
        hand = Hand.objects.filter(game=game).order_by("-number").first()
        assert hand is not None
        Corrector(hand, user, places=True)()
    took = catch_up(big)
    ratings_module._write = real
    figures["burst"] = f"{len(calls)} rating rebuild(s), {took:.2f} s"
    print(f"50 corrections: {len(calls)} rating rebuild(s), current after {took:.2f} s", flush=True)
    return figures


if __name__ == "__main__":
    fresh = "--fresh" in sys.argv
    if "--generate" in sys.argv:
        generate_here()
    elif "--engine" in sys.argv:
        one(sys.argv[sys.argv.index("--engine") + 1], fresh, "--json" in sys.argv)
    else:
        both(fresh)
