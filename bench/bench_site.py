"""The site's own figures: the score sheet, a save, an ETag revalidation and the history page,
each beside its baseline (the home page of the same logged-in user, and ``/healthz``), then
how each grows with the game's hands and with the number of other games in the database.

In-process (Django's test client), on a temporary SQLite database that this script migrates
and fills itself: the measured games through the site's own services and forms, the other
games ("filler") with bulk_create. Run from the project root:

    .venv/bin/python bench/bench_site.py            # about 1-2 minutes
    .venv/bin/python bench/bench_site.py --quick    # fewer repetitions, no 10,000 games

Every figure is the median of several runs, in milliseconds. "warm" is a page asked again on
the same server (another phone at the table, a reload); "cold" is the first view of a version
of the game on a server that never drew it, when another server did (what it kept in memory
emptied first; the copy the servers share stays); "never drawn" is the first view of a version
anywhere (the shared copy deleted too: once per version, and not after an htmx save, which
leaves the copy).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_TMP = tempfile.TemporaryDirectory(prefix="bench-site-")
os.environ["DATABASE_URL"] = f"sqlite:///{_TMP.name}/bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings_test"

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from games import sheet_cache  # noqa: E402
from games.models import Game, Hand, Player, Result, Score, Seat, SheetCopy  # noqa: E402
from games.services.games import game_start  # noqa: E402
from games.services.hands import hand_record  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
QUICK = "--quick" in sys.argv


def outcome(i: int) -> dict[str, object]:
    """A Rummikub hand: one player goes out, the others count what they hold."""
    winner = PLAYERS[i % len(PLAYERS)]
    return {"winner": winner, "left": {p: 3 + (i * 7 + j) % 30 for j, p in enumerate(PLAYERS) if p != winner}}


def posted(i: int) -> dict[str, str]:
    """The same hand as the phone posts it through the hand form."""
    winner = PLAYERS[i % len(PLAYERS)]
    data = {"request_id": str(uuid.uuid4()), "winner": winner}
    for seat, name in enumerate(PLAYERS):
        if name != winner:
            data[f"points_{seat}"] = str(3 + (i * 7 + seat) % 30)
    return data


def forget() -> None:
    """Empty this server's recent sheets and drawn forms: the next view is as on a server that
    neither wrote nor drew this game (the copy the servers share stays)."""
    for kept in (sheet_cache.SHEETS, sheet_cache.PARTS, sheet_cache.FIELDS, sheet_cache.SHARED):
        kept.clear()


def forget_everywhere() -> None:
    """As if no server ever drew any game: the shared copies go too."""
    forget()
    SheetCopy.objects.all().delete()


def median_ms(run: Callable[[], object], times: int, before: Callable[[], object] | None = None) -> float:
    samples = []
    for _ in range(times):
        if before is not None:
            before()
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def get(client: Client, url: str, status: int = 200, **headers: str) -> object:
    response = client.get(url, **headers)  # type: ignore[arg-type]
    assert response.status_code == status, (url, response.status_code)
    return response


class Bench:
    def __init__(self) -> None:
        self.owner = User.objects.create_user("owner", password="bench-Secret-1")
        self.client = Client()
        self.client.force_login(self.owner)
        self.viewer = Client()  # no account, no session: a phone watching the sheet
        self.times = 5 if QUICK else 15

    def game(self, hands: int) -> Game:
        game = game_start(family="rummikub", options={}, players=PLAYERS, owner=self.owner)
        for i in range(hands):
            hand_record(game=game, outcome=outcome(i), request_id=None, user=self.owner)
        return Game.objects.get(pk=game.pk)

    # ------------------------------------------------------------------ the steps measured
    def home(self) -> float:
        return median_ms(lambda: get(self.client, "/"), self.times)

    def healthz(self) -> float:
        return median_ms(lambda: get(self.client, "/healthz"), self.times)

    def sheet_cold(self, game: Game) -> float:
        url = f"/g/{game.public_id}/"
        get(self.client, url)  # drawn once, on some server
        return median_ms(lambda: get(self.client, url), self.times, before=forget)

    def sheet_never_drawn(self, game: Game) -> float:
        url = f"/g/{game.public_id}/"
        return median_ms(lambda: get(self.client, url), self.times, before=forget_everywhere)

    def sheet_warm(self, game: Game) -> float:
        url = f"/g/{game.public_id}/"
        get(self.client, url)
        return median_ms(lambda: get(self.client, url), self.times)

    def saves(self, game: Game, count: int) -> float:
        """Hands posted through the form as htmx sends them; the answer redraws the sheet."""
        url = f"/g/{game.public_id}/hands/"
        start = game.hands.count()
        samples = []
        for i in range(start, start + count):
            data = posted(i)
            began = time.perf_counter()
            response = self.client.post(url, data, HTTP_HX_REQUEST="true")
            samples.append(time.perf_counter() - began)
            assert response.status_code == 200 and f"Hand {i + 2}" in response.content.decode(), i
        assert game.hands.count() == start + count
        return statistics.median(samples) * 1000

    def not_modified(self, game: Game, client: Client, page: str = "") -> tuple[float, int]:
        """An unchanged sheet (``page``: or its live part, ``live/``) asked again with its
        ETag: time and queries of the 304."""
        url = f"/g/{game.public_id}/{page}"
        etag = get(client, url)["ETag"]  # type: ignore[index]
        queries: list[str] = []

        def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            get(client, url, 304, HTTP_IF_NONE_MATCH=etag)
        return median_ms(lambda: get(client, url, 304, HTTP_IF_NONE_MATCH=etag), self.times), len(queries)

    def history(self, game: Game) -> float:
        url = f"/g/{game.public_id}/history/"
        return median_ms(lambda: get(self.client, url), self.times)


def fill_other_games(total: int) -> None:
    """Other people's games, straight into the tables (each with 4 seats, 3 hands, their
    scores and results), until the database holds ``total`` games."""
    need = total - Game.objects.count()
    if need <= 0:
        return
    other = User.objects.create_user(f"other{total}", password="x")
    players = Player.objects.bulk_create(
        Player(owner=other, name=n, key=n.lower(), loose_key=n.lower()) for n in PLAYERS
    )
    batch = 1000
    for start in range(0, need, batch):
        games = Game.objects.bulk_create(
            Game(family="rummikub", owner=other, next_hand_number=4) for _ in range(min(batch, need - start))
        )
        seats = Seat.objects.bulk_create(
            Seat(game=g, position=i, name=p.name, player=p) for g in games for i, p in enumerate(players)
        )
        hands = Hand.objects.bulk_create(
            Hand(game=g, number=n, outcome=outcome(n)) for g in games for n in (1, 2, 3)
        )
        by_game: dict[int, list[Seat]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        Score.objects.bulk_create(Score(hand=h, seat=s, points=5) for h in hands for s in by_game[h.game_id])
        Result.objects.bulk_create(
            Result(game_id=s.game_id, seat=s, player_id=s.player_id, total=15, place=1 + s.position)
            for s in seats
        )


def ratio(value: float, base: float) -> str:
    return f"{value / base:5.2f}×"  # two decimals: some figures sit near their line


def main() -> None:
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    bench = Bench()
    fill_other_games(10)

    # ------------------------------------------------------------ goals, against baselines
    g30, g100 = bench.game(30), bench.game(100)
    fill_other_games(10)
    home, healthz = bench.home(), bench.healthz()
    print(f"Baselines: home page (logged in) {home:.2f} ms; /healthz {healthz:.2f} ms\n")
    print(f"{'figure':58} {'ms':>8}  {'ratio':>6}  goal")
    rows: list[tuple[str, float, float, str]] = []
    for game, n, goal in ((g30, 30, "≤ 3× home"), (g100, 100, "≤ 5× home")):
        rows.append((f"sheet, {n} hands, owner with form, warm", bench.sheet_warm(game), home, goal))
        rows.append((f"sheet, {n} hands, owner with form, cold", bench.sheet_cold(game), home, goal))
        never = bench.sheet_never_drawn(game)
        rows.append((f"sheet, {n} hands, owner with form, never drawn", never, home, "—"))
    rows.append(("save (htmx, through the form) at 30-50 hands", bench.saves(g30, 20), home, "≤ 4× home"))
    viewer304, viewer_queries = bench.not_modified(g30, bench.viewer)
    owner304, owner_queries = bench.not_modified(g30, bench.client)
    rows.append(
        (f"304 with ETag, viewer ({viewer_queries} query)", viewer304, healthz, "≤ 1.5× /healthz, 1 query")
    )
    rows.append(
        (f"304 with ETag, owner ({owner_queries} queries: session, user, game)", owner304, healthz, "—")
    )
    live304, live_queries = bench.not_modified(g30, bench.viewer, "live/")
    rows.append((f"304 of the live view's poll, viewer ({live_queries} query)", live304, healthz, "—"))
    rows.append(("history, 50 hands", bench.history(g30), home, "—"))
    for label, value, base, goal in rows:
        print(f"{label:58} {value:8.2f}  {ratio(value, base)}  {goal}")
    print("  (ratios: against the home page, or /healthz for the 304s)")

    # ------------------------------------------------------------------------- growth
    sizes = (5, 30, 100, 300)
    fillers = (10,) if QUICK else (10, 10_000)
    print("\nGrowth: ms against the game's hands and the games in the database")
    header = f"{'step':34}" + "".join(f"{f'{n} h / {o:,} g':>17}" for o in fillers for n in sizes)
    print(header)
    table: dict[str, list[float]] = {}
    for others in fillers:
        fill_other_games(others)
        games = [bench.game(n) for n in sizes]
        for game in games:
            table.setdefault("sheet, owner, never drawn", []).append(bench.sheet_never_drawn(game))
            table.setdefault("sheet, owner, cold", []).append(bench.sheet_cold(game))
            table.setdefault("sheet, owner, warm", []).append(bench.sheet_warm(game))
            table.setdefault("save (htmx)", []).append(bench.saves(game, 5))
            table.setdefault("304, viewer", []).append(bench.not_modified(game, bench.viewer)[0])
            table.setdefault("history", []).append(bench.history(game))
        table.setdefault("home (baseline)", []).extend([bench.home()] * len(sizes))
        print(f"  (filled to {Game.objects.count():,} games)")
    for step, values in table.items():
        print(f"{step:34}" + "".join(f"{v:17.2f}" for v in values))
    print(f"\nper added hand, 100 → 300 hands ({fillers[-1]:,} games), ms/hand:")
    last = len(fillers) - 1
    for step, values in table.items():
        low, high = values[last * len(sizes) + 2], values[last * len(sizes) + 3]
        print(f"  {step:32} {(high - low) / 200:7.3f}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
