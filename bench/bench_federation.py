"""A federation at national size on PostgreSQL (``manage.py generate_federation``: 200 clubs,
20,000 register entries, 500,000 games over five years), each figure beside its goal:

- the federation's list page, server time and queries (goal: 50 ms, a fixed count), and the
  list's selector alone, on its first page, a page deep in the list and a search;
- how long two worker processes take to make the live list current after a correction of a
  last-week game and of a six-month-old game in one club (goals: 10 s and 2 minutes);
- another member club's table saves while the workers apply the six-month-old correction, p95
  beside idle (goal: 2x);
- the monthly publication of the list (goal: 60 s);
- ``rebuild_derived --federation`` (goal: 15 minutes).

    .venv/bin/python bench/bench_federation.py            # the figures
    .venv/bin/python bench/bench_federation.py --fresh    # generate the federation again
    .venv/bin/python bench/bench_federation.py --small    # 10 clubs, 500 people, 5,000 games

Generating the federation takes about a quarter of an hour, so it is made once per schema into
a template database (127.0.0.1:5432, user postgres, trust auth) that each run clones with
``CREATE DATABASE ... TEMPLATE``; the run's own copy is dropped at the end.
"""

from __future__ import annotations

import datetime
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from bench_pipeline import ROOT, Corrector, _django, _pg_exists, _psql, _schema, p95, timed

PREFIX = os.environ.get("BENCH_PG_PREFIX", "bench_federation")
NAMES = ["Ann", "Bob", "Cid", "Dan"]
GAME_HANDS = 12
PACE = 0.05  # s between the other club's saves


def setup(small: bool, fresh: bool) -> tuple[str, str]:
    """The template (made if missing) and this run's copy of it."""
    template = f"{PREFIX}_{'small' if small else 'full'}_{_schema()}"
    if fresh or not _pg_exists(template):
        _psql(f"DROP DATABASE IF EXISTS {template}")
        _psql(f"CREATE DATABASE {template}")
        env = dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{template}")
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [*manage, "generate_federation", *(["--small"] if small else [])], cwd=ROOT, env=env, check=True
        )
    name = f"{PREFIX}_{os.getpid()}"
    _psql(f"CREATE DATABASE {name} TEMPLATE {template}")
    return template, name


def main() -> None:
    small, fresh = "--small" in sys.argv, "--fresh" in sys.argv
    _template, name = setup(small, fresh)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    try:
        measure()
    finally:
        from django.db import connections

        connections.close_all()
        _psql(f"DROP DATABASE IF EXISTS {name}", check=False)


def workers(count: int) -> list[subprocess.Popen[bytes]]:
    from rummy_site.management.commands.serve import WORKER_NICE

    env = dict(os.environ, DJANGO_SETTINGS_MODULE="rummy_site.settings", DEBUG="1")
    return [
        subprocess.Popen(
            [*WORKER_NICE, sys.executable, "manage.py", "worker", "--no-reload", "--no-startup-delay", "-v0"],
            cwd=ROOT,
            env=env,
        )
        for _ in range(count)
    ]


def measure() -> None:
    _django()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from federations.models import Federation, FederationDirty, Person, PublishedList
    from federations.publication import month_of, publish
    from federations.selectors.ratings import live_list
    from games.models import Game, Hand
    from games.services.games import game_start
    from games.services.hands import hand_record

    federation = Federation.objects.get()
    user = federation.organisers.get().user
    people = Person.objects.filter(federation=federation).count()
    games = Game.objects.filter(club__federations__federation=federation).count()
    print(
        f"federation {federation.slug}: {federation.clubs.count()} clubs, {people} people, {games} games",
        flush=True,
    )

    # The list: the selector, and the page if it is served.
    last = Person.objects.filter(federation=federation).order_by("number").last()
    assert last is not None
    shown: list[tuple[str, dict[str, Any]]] = [
        ("first page", {}),
        ("page 100", {"page": 100}),
        ("search", {"query": last.name}),
    ]
    for label, kwargs in shown:

        def read(kwargs: dict[str, Any] = kwargs) -> object:
            return live_list(federation=federation, **kwargs)

        ms = timed(read, 15)
        with CaptureQueriesContext(connection) as queries:
            read()
        print(
            f"list selector, {label}: median {statistics.median(ms):.1f} ms, {len(queries)} queries",
            flush=True,
        )
    page = f"/en/f/{federation.slug}/ratings/"
    client = Client()
    if client.get(page).status_code == 200:
        for label, address in (("first page", page), ("page 100", page + "rummikub/?page=100")):

            def get(address: str = address) -> object:
                return client.get(address)

            ms = timed(get, 15)
            with CaptureQueriesContext(connection) as queries:
                get()
            median = statistics.median(ms)
            print(f"list page, {label}: median {median:.1f} ms, {len(queries)} queries (goal 50 ms)")

    def pending() -> bool:
        return FederationDirty.objects.filter(federation=federation).exists()

    def wait_current(began: float) -> float:
        while pending():
            time.sleep(0.05)
        return time.perf_counter() - began

    now = timezone.now()
    counted = Game.objects.filter(club__federations__federation=federation, results__finished=True).distinct()
    last_week = counted.filter(played_at__lte=now - datetime.timedelta(days=7)).order_by("-played_at").first()
    half_year = (
        counted.filter(played_at__lte=now - datetime.timedelta(days=182)).order_by("-played_at").first()
    )
    assert last_week and half_year
    fixes = {
        "last-week": Corrector(Hand.objects.filter(game=last_week).order_by("-number")[0], user, places=True),
        "six-month-old": Corrector(
            Hand.objects.filter(game=half_year).order_by("-number")[0], user, places=True
        ),
    }
    running = workers(2)
    try:
        time.sleep(3)  # the workers up
        for label, fix in fixes.items():
            runs = []
            for _ in range(3):
                began = time.perf_counter()
                fix()
                runs.append(wait_current(began))
            goal = "10 s" if label == "last-week" else "2 minutes"
            each = ", ".join(f"{run:.1f}" for run in runs)
            print(
                f"current after a {label} correction, two workers: at most {max(runs):.1f} s (goal {goal}); "
                f"each run {each} s (the first after the workers start reads a cold copy of the database)",
                flush=True,
            )

        # Another member club's saves while the workers apply the six-month-old correction.
        other = federation.clubs.exclude(club=half_year.club).first().club  # type: ignore[union-attr]
        table: dict[str, Any] = {}
        counter = iter(range(10**6))

        def ready() -> None:
            if table.get("hands", GAME_HANDS) == GAME_HANDS:
                table["game"] = game_start(
                    family="rummikub", options={}, players=NAMES, owner=user, club=other
                )
                table["hands"] = 0

        def save() -> object:
            i = next(counter)
            winner = NAMES[i % 4]
            table["hands"] += 1
            outcome = {"winner": winner, "left": {n: 3 for n in NAMES if n != winner}}
            return hand_record(game=table["game"], outcome=outcome, request_id=None, user=user)

        while pending():
            time.sleep(0.05)
        idle: list[float] = []
        for _ in range(80):
            ready()
            idle += timed(save, 1)
            time.sleep(PACE)
        while pending():
            time.sleep(0.05)
        busy: list[float] = []
        fixes["six-month-old"]()
        began = time.perf_counter()
        while pending():
            ready()
            busy += timed(save, 1)
            time.sleep(PACE)
        took = time.perf_counter() - began
        quiet, loaded = p95(idle), p95(busy)
        print(
            f"another club's saves: idle p95 {quiet:.1f} ms, while the workers apply p95 {loaded:.1f} ms "
            f"({len(busy)} saves in {took:.1f} s): {loaded / quiet:.2f}x (goal 2x)",
            flush=True,
        )
    finally:
        for worker in running:
            worker.terminate()
        for worker in running:
            worker.wait(timeout=30)

    grand_prix(federation, client if client.get(page).status_code == 200 else None)

    # The monthly publication: next month's list, from every game before its midnight.
    month = (month_of() + datetime.timedelta(days=32)).replace(day=1)
    PublishedList.objects.filter(federation=federation, month=month).delete()
    began = time.perf_counter()
    published = publish(federation, "rummikub", month)
    assert published is not None
    print(f"publication: {published.lines.count()} lines in {time.perf_counter() - began:.1f} s (goal 60 s)")

    began = time.perf_counter()
    call_command("rebuild_derived", "--federation", federation.slug, stdout=open(os.devnull, "w"))
    print(f"rebuild_derived --federation: {time.perf_counter() - began:.1f} s (goal 15 minutes)", flush=True)


def grand_prix(federation: Any, client: Any) -> None:
    """A Grand Prix over the last year's tournaments, each marked federation-rated: how long the
    worker takes to derive it (what every change that marks it costs) and its standings page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from federations import seasons
    from federations.models import FederationSeason, RatedTournament
    from tournaments.models import Tournament

    ends = timezone.localdate()
    starts = ends - datetime.timedelta(days=365)
    held = Tournament.objects.filter(club__federations__federation=federation, date__range=(starts, ends))
    RatedTournament.objects.bulk_create(
        [
            RatedTournament(federation=federation, tournament_id=pk)
            for pk in held.values_list("pk", flat=True)
        ],
        ignore_conflicts=True,
    )
    families = sorted(set(held.values_list("family", flat=True)))
    season = FederationSeason.objects.create(
        federation=federation, name="Grand Prix", starts=starts, ends=ends, families=families,
        best_events=3, qualify=16,
    )  # fmt: skip
    began = time.perf_counter()
    seasons.rebuild(season)
    took = time.perf_counter() - began
    lines = season.standings.filter(family="").count()
    print(
        f"Grand Prix over {held.count()} tournaments: derived whole in {took:.1f} s "
        f"({1000 * took / max(1, held.count()):.1f} ms a tournament), {lines} people ranked",
        flush=True,
    )
    if client is None:
        return
    address = f"/en/f/{federation.slug}/seasons/{season.public_id}/"

    def get() -> object:
        return client.get(address)

    ms = timed(get, 15)
    with CaptureQueriesContext(connection) as queries:
        get()
    print(
        f"Grand Prix page: median {statistics.median(ms):.1f} ms, {len(queries)} queries (goal 50 ms)",
        flush=True,
    )


if __name__ == "__main__":
    main()
