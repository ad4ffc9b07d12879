"""Leagues and ratings at scale: a club with 500 players, 5,000 games and 100,000
hands over two seasons (``manage.py generate_club``), then

- a full rating rebuild of every game (goal: at most 5 s), and a correction of last week's
  game (re-rates only what follows it: the events rewritten are counted);
- the season standings page: median server time (goal: at most 50 ms) and its query count,
  beside the same page of a club with 20 games (the count must be the same);
- recording a hand in a game of that club beside a hand in a new club with no history
  (goal: within 20%).

In-process (Django's test client), on a temporary database this script migrates and fills.
SQLite by default; ``--pg`` uses a scratch PostgreSQL database on 127.0.0.1:5432 (user
postgres, trust auth), dropped at the end:

    .venv/bin/python bench/bench_league.py          # about a minute
    .venv/bin/python bench/bench_league.py --pg
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
_TMP = tempfile.TemporaryDirectory(prefix="bench-league-")
if PG:
    DB = f"bench_league_{os.getpid()}"
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
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.models import Club, Game, Hand  # noqa: E402
from games.services.clubs import club_create  # noqa: E402
from games.services.games import game_start  # noqa: E402
from games.services.hands import hand_edit, hand_record  # noqa: E402
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS  # noqa: E402
from tournaments.models import RatingEvent  # noqa: E402
from tournaments.rating_history import mark_dirty, rebuild, refresh  # noqa: E402
from tournaments.seasons import rebuild_seasons  # noqa: E402
from tournaments.services.seasons import SeasonSettings, season_create  # noqa: E402


def median_ms(run: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def seasons(club: Club, user: User) -> list[str]:
    """Two seasons: last year and this year, all games counted, every family."""
    today = timezone.localdate()
    ids = []
    for years_back in (1, 0):
        year = today.year - years_back
        settings = SeasonSettings(
            name=f"Season {year}",
            starts=datetime.date(year, 1, 1) if years_back else today - datetime.timedelta(days=365),
            ends=datetime.date(year, 12, 31) if years_back else today,
            families=["rummikub"],
            counts="both",
            game_points="table",
            tournament_points="preset",
            custom_points="",
            best_events=0,
            drop_worst=0,
            min_games=5,
            tiebreaks=DEFAULT_LEAGUE_TIEBREAKS,
        )
        ids.append(season_create(club=club, settings=settings, user=user).public_id)
    return ids


def main() -> None:
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("generate_club", "--name", "Big club", "--organiser", "bench", stdout=open(os.devnull, "w"))
    print(f"generated 500 players, 5,000 games, 100,000 hands in {time.perf_counter() - started:.1f} s")
    if PG:
        # As autovacuum would after a bulk load: the planner needs the tables' new sizes.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    user = User.objects.get(username="bench")
    big = Club.objects.get(name="Big club")

    started = time.perf_counter()
    rated = rebuild(club=big, family="rummikub")
    full = time.perf_counter() - started
    print(f"full rating rebuild: {rated} games in {full:.2f} s (goal: at most 5 s)")

    big_seasons = seasons(big, user)
    started = time.perf_counter()
    rebuild_seasons(big)
    print(f"both seasons' standings rebuilt in {time.perf_counter() - started:.2f} s")

    # A correction of a game from last week: only it and the games after it are re-rated.
    week_ago = timezone.now() - datetime.timedelta(days=7)
    game = Game.objects.filter(club=big, created_at__lte=week_ago).order_by("-created_at").first()
    assert game is not None
    later = Game.objects.filter(club=big, created_at__gt=game.created_at).count()
    kept_before = set(
        RatingEvent.objects.filter(club=big, played_at__lt=game.created_at).values_list("pk", flat=True)
    )
    hand = Hand.objects.filter(game=game).order_by("-number").first()
    assert hand is not None
    outcome = dict(hand.outcome)
    started = time.perf_counter()
    hand_edit(
        hand=hand,
        outcome=outcome | {"left": {k: v + 1 for k, v in outcome["left"].items()}},
        version=hand.version,
        user=user,
    )
    mark_dirty(game)

    def seasons_of(club: Club, families: list[str]) -> None:
        rebuild_seasons(club, families)

    refresh(club=big, after=seasons_of)
    correction = time.perf_counter() - started
    kept_after = set(
        RatingEvent.objects.filter(club=big, played_at__lt=game.created_at).values_list("pk", flat=True)
    )
    print(
        f"correction of last week's game: re-rated it and the {later} games after it in {correction:.2f} s "
        f"(with both seasons); earlier events untouched: {kept_before == kept_after}"
    )

    small = club_create(name="Small club", user=user)
    for i in range(20):
        names = ["Ann", "Bob", "Cid", "Dan"]
        g = game_start(family="rummikub", options={}, players=names, owner=user, club=small, hand_limit=1)
        hand_record(
            game=g,
            outcome={"winner": names[i % 4], "left": {n: 5 + i for n in names if n != names[i % 4]}},
            request_id=None,
            user=user,
        )
    rebuild(club=small, family="rummikub")
    small_seasons = seasons(small, user)

    client = Client()
    print(f"{'page':44} {'median ms':>10} {'queries':>8}")
    for label, public_id in (
        ("season standings, 20 games", small_seasons[1]),
        ("season standings, 5,000 games", big_seasons[1]),
    ):
        path = f"/s/{public_id}/"
        client.get(path)
        ms = median_ms(lambda path=path: client.get(path), 30)  # type: ignore[misc]
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        print(f"{label:44} {ms:10.2f} {len(queries):8d}   ({len(response.content) / 1024:.0f} KB)")
    print("goal: at most 50 ms, the same query count")

    # A hand at the table: a club with this history beside a club with none.
    def saver(club: Club) -> Callable[[], object]:
        names = ["Ann", "Bob", "Cid", "Dan"]
        g = game_start(family="rummikub", options={}, players=names, owner=user, club=club)
        counter = iter(range(10**6))

        def save() -> object:
            i = next(counter)
            return hand_record(
                game=g,
                outcome={"winner": names[i % 4], "left": {n: 3 for n in names if n != names[i % 4]}},
                request_id=None,
                user=user,
            )

        return save

    empty = club_create(name="Empty club", user=user)
    in_big, in_empty = saver(big), saver(empty)
    for _ in range(5):
        in_big(), in_empty()
    big_ms = median_ms(in_big, 40)
    empty_ms = median_ms(in_empty, 40)
    ratio = big_ms / empty_ms
    print(f"hand save in the big club {big_ms:.2f} ms, in an empty club {empty_ms:.2f} ms: ratio {ratio:.2f}")
    print("goal: within 1.20")


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
