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
of the game on a server that never drew it (what it kept in memory emptied first). "after a
save elsewhere" is what happens at a table: this server drew the game's last version (its form
and its hands' scores are there), then another server saved a hand, and this server draws the
new version. What a whole evening feels like under load is bench/load_night.py's.
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

from games.models import Game, Hand, Player, Result, Score, Seat  # noqa: E402
from games.services.games import game_start  # noqa: E402
from games.services.hands import hand_record  # noqa: E402
from games.sheets import cache as sheet_cache  # noqa: E402

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
    neither wrote nor drew this game."""
    sheet_cache.forget_local()


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


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
        # The baseline timed in turn with what is measured (see ``against``), and its samples.
        self.base: Callable[[], object] | None = None
        self.base_samples: list[float] = []

    def against(self, base: Callable[[], object], measure: Callable[[], float]) -> tuple[float, float]:
        """``measure``'s figure and its baseline's, timed in turn (the step, the baseline, the
        step...): both then see the same moments of a shared machine whose speed drifts during
        the run, so their ratio holds where two figures taken a minute apart do not."""
        self.base, self.base_samples = base, []
        try:
            value = measure()
        finally:
            self.base = None
        return value, statistics.median(self.base_samples) * 1000

    def median_ms(
        self, run: Callable[[], object], before: Callable[[], object] | None = None, times: int | None = None
    ) -> float:
        samples = []
        for _ in range(self.times if times is None else times):
            if before is not None:
                before()
            samples.append(timed(run))
            if self.base is not None:
                self.base_samples.append(timed(self.base))
        return statistics.median(samples) * 1000

    def get_home(self) -> object:
        return get(self.client, "/")

    def get_healthz(self) -> object:
        return get(self.client, "/healthz")

    def game(self, hands: int) -> Game:
        game = game_start(family="rummikub", options={}, players=PLAYERS, owner=self.owner)
        for i in range(hands):
            hand_record(game=game, outcome=outcome(i), request_id=None, user=self.owner)
        return Game.objects.get(pk=game.pk)

    # ------------------------------------------------------------------ the steps measured
    def home(self) -> float:
        return self.median_ms(self.get_home)

    def healthz(self) -> float:
        return self.median_ms(self.get_healthz)

    def sheet_cold(self, game: Game) -> float:
        url = f"/g/{game.public_id}/"
        get(self.client, url)  # drawn once, on some server
        return self.median_ms(lambda: get(self.client, url), before=forget)

    def sheet_after_save_elsewhere(self, game: Game) -> float:
        """The first view of a version after another server saved its hand (the game grows by
        one hand per sample): this server drew the version before, and the save leaves nothing
        in its memory (it does score the new hand in this process: about 20 µs of help)."""
        url = f"/g/{game.public_id}/"

        def save_elsewhere() -> None:
            forget()
            get(self.client, url)  # this server follows the game: it draws the last version
            latest = Game.objects.get(pk=game.pk)
            hand_record(game=latest, outcome=outcome(latest.hands.count()), request_id=None, user=None)

        return self.median_ms(lambda: get(self.client, url), before=save_elsewhere)

    def sheet_warm(self, game: Game) -> float:
        url = f"/g/{game.public_id}/"
        get(self.client, url)
        return self.median_ms(lambda: get(self.client, url))

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
            if self.base is not None:
                self.base_samples.append(timed(self.base))
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
        # A 304 takes half a millisecond, a tenth of the shared machine's jitter: many more
        # samples (15 gave 1.24-1.54x from run to run).
        asked = self.median_ms(lambda: get(client, url, 304, HTTP_IF_NONE_MATCH=etag), times=20 * self.times)
        return asked, len(queries)

    def history(self, game: Game) -> float:
        url = f"/g/{game.public_id}/history/"
        return self.median_ms(lambda: get(self.client, url))


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
    g30, g100, g30b = bench.game(30), bench.game(100), bench.game(30)
    fill_other_games(10)
    home, healthz = bench.home(), bench.healthz()
    print(f"Baselines: home page (logged in) {home:.2f} ms; /healthz {healthz:.2f} ms")
    print("(each figure's ratio is to its baseline timed in turn with it, request by request)\n")
    print(f"{'figure':58} {'ms':>8}  {'ratio':>6}  goal")
    rows: list[tuple[str, tuple[float, float], str]] = []

    def against_home(label: str, goal: str, measure: Callable[..., float], *args: object) -> None:
        rows.append((label, bench.against(bench.get_home, lambda: measure(*args)), goal))

    for game, n, goal in ((g30, 30, "≤ 3× home"), (g100, 100, "≤ 5× home")):
        against_home(f"sheet, {n} hands, owner with form, warm", goal, bench.sheet_warm, game)
        against_home(f"sheet, {n} hands, owner with form, cold", goal, bench.sheet_cold, game)
    grown = f"30→{30 + bench.times}"
    against_home(f"sheet, {grown} hands, after a save elsewhere", "—", bench.sheet_after_save_elsewhere, g30b)
    against_home("save (htmx, through the form) at 30-50 hands", "≤ 4× home", bench.saves, g30, 20)
    queries: dict[str, int] = {}

    def not_modified(key: str, client: Client, page: str = "") -> float:
        value, queries[key] = bench.not_modified(g30, client, page)
        return value

    viewer304 = bench.against(bench.get_healthz, lambda: not_modified("viewer", bench.viewer))
    owner304 = bench.against(bench.get_healthz, lambda: not_modified("owner", bench.client))
    live304 = bench.against(bench.get_healthz, lambda: not_modified("live", bench.viewer, "live/"))
    rows.append((f"304 with ETag, viewer ({queries['viewer']} query)", viewer304, "≤ 1.5× /healthz, 1 query"))
    rows.append((f"304 with ETag, owner ({queries['owner']} queries: session, user, game)", owner304, "—"))
    rows.append((f"304 of the live view's poll, viewer ({queries['live']} query)", live304, "—"))
    against_home("history, 50 hands", "—", bench.history, g30)
    for label, (value, base), goal in rows:
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
