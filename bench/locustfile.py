"""A tournament night for Locust, run by bench/load_night.py (which starts the servers, seeds the
evening and reads what this file writes at the end). Each table has a scorekeeper phone saving a
hand every 30-60 s as htmx does, and three phones following the live view (3 s polls with the
tag they hold; each remembers the most hands it was shown, and polls once more at the end,
after its table's scorekeeper stopped); the venue has one projector showing the tournament's
screen (a 4 s poll with its tag, the next screenful every 15 s) and spectators opening the
standings, the round, "where do I sit", and the players' pages.

With several servers (``LOAD_BASES``, a JSON list of base URLs) each phone sends its requests to
them in turn, as a round-robin proxy would: one phone's session and CSRF cookie must then be
good on every server. Only the hosts bench/load_night.py passes are contacted (127.0.0.1)."""

from __future__ import annotations

import html
import itertools
import json
import os
import random
import re
import threading
import time
from collections import defaultdict
from typing import Any
from urllib.parse import urlencode

from locust import FastHttpUser, between, constant, events, task
from locust.exception import StopUser

NIGHT: dict[str, Any] = json.loads(os.environ.get("LOAD_NIGHT", '{"tables": []}'))
TABLES = len(NIGHT["tables"])
SPECTATORS = int(os.environ.get("LOAD_SPECTATORS", "20"))
FOLLOWERS = 3  # per table
POLL_INTERVAL = 3.0  # seconds between a follower's polls, as static/js/live.js
# How long a follower's last poll waits for its table's scorekeeper to stop: Locust stops its
# hundreds of phones one after another, and a scorekeeper stopped late may save meanwhile.
STOP_WAIT = 20.0
# The application servers, as the proxy spreads requests over them (empty: Locust's --host).
BASES: list[str] = json.loads(os.environ.get("LOAD_BASES", "[]"))
_seats = {"scorekeeper": iter(range(TABLES)), "follower": iter(range(TABLES * FOLLOWERS))}
_lock = threading.Lock()
_phones = itertools.count(1)  # each phone its own address (the site limits some things per address)

# What the run leaves for bench/load_night.py: every request's time by kind, the errors, the
# saves the server acknowledged (game -> request ids), what each follower was last shown, and
# the answers each server gave (base URL -> "kind status" -> count).
timings: dict[str, list[float]] = defaultdict(list)
errors: list[str] = []
acknowledged: dict[str, list[str]] = defaultdict(list)
followers: dict[int, dict[str, Any]] = {}
served: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
measuring = {"from": 0.0}  # requests before this (joining the table) are not timed
# Per game: when its last save was acknowledged, and whether its scorekeeper has stopped (a
# follower's last poll waits for it, so that a save answered during the stop is not missed).
last_saved: dict[str, float] = {}
keeper_stopped: dict[str, threading.Event] = defaultdict(threading.Event)


@events.request.add_listener
def _timed(
    request_type: str,
    name: str,
    response_time: float,
    exception: Exception | None,
    url: str = "",
    response: Any = None,
    **kw: Any,
) -> None:
    base = next((b for b in BASES if url.startswith(b)), "")
    served[base][f"{name} {getattr(response, 'status_code', 0) or 'none'}"] += 1
    if exception is not None:
        errors.append(f"{name} ({url}): {type(exception).__name__}: {exception}"[:300])
    elif time.monotonic() >= measuring["from"]:
        timings[name].append(response_time)


@events.test_start.add_listener
def _start(**kw: Any) -> None:
    measuring["from"] = time.monotonic() + float(os.environ.get("LOAD_WARMUP", "20"))


@events.quitting.add_listener
def _write(**kw: Any) -> None:
    out = os.environ.get("LOAD_NIGHT_OUT")
    if out:
        with open(out, "w") as f:
            result = {
                "timings": timings,
                "errors": errors,
                "acknowledged": acknowledged,
                "followers": list(followers.values()),
                "served": served,
            }
            json.dump(result, f)


def _next(role: str) -> int:
    with _lock:
        try:
            return next(_seats[role])
        except StopIteration:
            raise StopUser() from None


class Phone(FastHttpUser):
    """A phone, through Locust's lighter HTTP client (it shares the machine with the servers, so
    the less CPU it takes, the more the figures are the servers')."""

    abstract = True

    def on_start(self) -> None:
        # The server runs behind a TLS-terminating proxy, which adds these (README "Deploying").
        self.proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": self.address()}
        self.turn = random.randrange(len(BASES) or 1)  # the phones do not all start on one server

    def base(self) -> str:
        """The server this request goes to: each in turn, as a round-robin proxy sends them."""
        if not BASES:
            return str(self.host).rstrip("/")
        self.turn += 1
        return BASES[self.turn % len(BASES)]

    def address(self) -> str:
        with _lock:
            n = next(_phones)
        return f"10.{n // 250}.{n % 250}.1"

    def get(self, path: str, name: str, headers: dict[str, str] | None = None, **kw: Any) -> Any:
        url = self.base() + path
        sent = {**self.proxied, **(headers or {})}
        with self.client.get(
            url, name=name, headers=sent, catch_response=True, allow_redirects=False, **kw
        ) as answer:
            if answer.status_code not in (200, 304):
                answer.failure(f"{answer.status_code}")
        self.keep_cookies()
        return answer

    def keep_cookies(self) -> None:
        """The site's cookies are Secure (it is served over TLS, which the proxy ends): sent
        back over this plain loopback connection as a phone sends them over TLS. They name the
        host without its port, so every server on 127.0.0.1 gets them, as behind one proxy."""
        for cookie in self.client.cookiejar:
            cookie.secure = False

    def join(self, table: dict[str, str]) -> None:
        """Open the table's edit link (its QR code): the phone may record hands from then on."""
        url = f"{self.base()}/g/{table['game']}/edit/{table['token']}/"
        with self.client.get(
            url, name="join", headers=self.proxied, catch_response=True, allow_redirects=False
        ) as answer:
            if answer.status_code != 302:
                answer.failure(f"{answer.status_code}")
        self.keep_cookies()


HIDDEN = re.compile(r'<input type="hidden" name="([\w-]+)"(?: value="([^"]*)")?')
WINNER = re.compile(r'<input type="radio" name="winner" value="([^"]+)"')
POINTS = re.compile(r'<input type="number" name="(points_\d+)"')
# A hand's row on the score sheet (games_tags.sheet_rows: its number, a link for an editor); the
# totals' row is headed by a sign, not a number.
SHEET_ROW = re.compile(r'<tr><th scope="row">(?:<a [^>]*>)?\d')


def hands_shown(page: str) -> int:
    return len(SHEET_ROW.findall(page))


def hand_data(page: str, rng: random.Random) -> dict[str, str]:
    """A valid Rummikub hand through the form's own fields: one player goes out, the others
    count the tiles they hold."""
    start = page.find('class="hand-form')
    if start < 0:
        raise ValueError("no hand form on the page")
    form = page[start : page.index("</form>", start)]
    data = {name: html.unescape(value or "") for name, value in HIDDEN.findall(form)}
    winners, counts = WINNER.findall(form), POINTS.findall(form)
    if not winners or len(winners) != len(counts) or "request_id" not in data:
        raise ValueError(f"unexpected hand form: {winners} {counts}")
    out = rng.randrange(len(winners))
    data["winner"] = html.unescape(winners[out])
    for i, name in enumerate(counts):
        data[name] = "" if i == out else str(rng.randint(1, 40))
    return data


class Scorekeeper(Phone):
    """The phone that records the table's hands, with JavaScript: each save is one htmx POST
    answered with the updated sheet and the next hand's form."""

    fixed_count = TABLES
    wait_time = between(30, 60)

    def on_start(self) -> None:
        super().on_start()
        self.table = NIGHT["tables"][_next("scorekeeper")]
        self.stopped = keeper_stopped[self.table["game"]]
        self.rng = random.Random(self.table["game"])
        self.path = f"/g/{self.table['game']}/"
        self.join(self.table)
        self.page = self.get(self.path, "game page (scorekeeper)").text
        time.sleep(self.rng.uniform(0, 30))  # the tables do not save in step

    @task
    def save(self) -> None:
        try:
            data = hand_data(self.page, self.rng)
        except ValueError as error:
            errors.append(f"scorekeeper {self.table['game']}: {error}")
            self.page = self.get(self.path, "game page (scorekeeper)").text
            return
        # The page's origin as the browser names it: the host the request goes to (behind the
        # proxy: the site's one public name), else Django's CSRF check refuses the save.
        base = self.base()
        origin = "https://" + base.split("//", 1)[-1]
        headers = {
            **self.proxied,
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "HX-Target": "game-body",
            "HX-Current-URL": f"{origin}{self.path}",
            "Origin": origin,
            "Referer": f"{origin}{self.path}",
        }
        with self.client.post(
            f"{base}{self.path}hands/",
            data=urlencode(data),
            headers=headers,
            name="save (htmx)",
            catch_response=True,
        ) as answer:
            following = HIDDEN.findall(answer.text) if answer.status_code == 200 else []
            ids = [value for name, value in following if name == "request_id"]
            if answer.status_code != 200 or not ids or ids[0] == data["request_id"]:
                alert = re.findall(r'role="alert">\s*(?:<p>)?([^<]+)<', answer.text)[:2]
                answer.failure(f"{answer.status_code} {alert}")
                self.page = self.get(self.path, "game page (scorekeeper)").text
                return
            acknowledged[self.table["game"]].append(data["request_id"])
            last_saved[self.table["game"]] = time.monotonic()
            self.page = answer.text
        self.keep_cookies()

    def on_stop(self) -> None:
        # Also when stopped before its first save (on_start may not have got this far).
        stopped = getattr(self, "stopped", None)
        if stopped is not None:
            stopped.set()


class Follower(Phone):
    """Another phone at a table: the first opened the edit link (a player who may correct a
    hand), the others the game as anyone sees it; all follow it through the live view."""

    fixed_count = TABLES * FOLLOWERS
    wait_time = constant(POLL_INTERVAL)

    def on_start(self) -> None:
        super().on_start()
        n = _next("follower")
        self.table = NIGHT["tables"][n // FOLLOWERS]
        # What this phone was shown: the most hands on its sheet, and when it last asked.
        self.seen: dict[str, Any] = {"game": self.table["game"], "hands": 0, "final_poll": False}
        followers[n] = self.seen
        if n % FOLLOWERS == 0:
            self.join(self.table)
        self.path = f"/g/{self.table['game']}/"
        self.polled = self.answered = time.monotonic()
        page = self.get(self.path, "game page (follower)").text
        self.answered = time.monotonic()
        self.seen["hands"] = max(self.seen["hands"], hands_shown(page))
        found = re.search(r'data-live-etag="([^"]+)"', page)
        self.etag = html.unescape(found.group(1)) if found else ""
        time.sleep(random.uniform(0, POLL_INTERVAL))  # the phones do not poll in step

    @task
    def poll(self, name: str = "live poll") -> None:
        self.polled = time.monotonic()
        answer = self.get(f"{self.path}live/", name, headers={"If-None-Match": self.etag})
        self.answered = time.monotonic()
        shown = hands_shown(answer.text) if answer.status_code == 200 else None
        # The last answers, for the report of a follower that missed a save.
        self.seen.setdefault("answers", []).append(
            (round(self.polled, 2), round(self.answered, 2), answer.status_code, shown)
        )
        del self.seen["answers"][:-4]
        if answer.status_code == 200:
            self.etag = answer.headers.get("ETag", self.etag)
            self.seen["hands"] = max(self.seen["hands"], shown or 0)

    def on_stop(self) -> None:
        """The run stops: once the table's scorekeeper has stopped (its save in flight
        answered), ask once more, as the phone would on its next poll, so that the check sees
        what it would show."""
        seen = getattr(self, "seen", None)
        if seen is None:
            return
        seen["keeper_stopped"] = keeper_stopped[seen["game"]].wait(STOP_WAIT)
        saved = last_saved.get(seen["game"])
        seen["last_saved"] = round(saved, 2) if saved is not None else None
        seen["final_poll"] = True
        self.poll("live poll (final)")


SCREEN = re.compile(r'data-page="(\d+)" data-pages="(\d+)" data-turn="(\d+)"')


class Projector(Phone):
    """The venue's screen as static/js/screen.js runs it: every 4 s it asks for the page it
    shows with that page's tag (a 304 while nothing changed); every ``data-turn`` seconds it
    asks for the next screenful of a big tournament instead."""

    fixed_count = 1
    wait_time = constant(4)

    def on_start(self) -> None:
        super().on_start()
        self.page, self.pages, self.turn_every, self.etag, self.turned = 1, 1, 15, "", time.monotonic()

    @task
    def screen(self) -> None:
        turn = self.pages > 1 and time.monotonic() - self.turned >= self.turn_every
        page = self.page % self.pages + 1 if turn else self.page
        headers = {} if turn or not self.etag else {"If-None-Match": self.etag}
        answer = self.get(
            f"/t/{NIGHT['tournament']}/screen/?page={page}",
            "screen poll" if headers else "screen",
            headers=headers,
        )
        if answer.status_code == 200:
            found = SCREEN.search(answer.text)
            if found:
                self.page, self.pages, self.turn_every = (int(x) for x in found.groups())
            self.etag = answer.headers.get("ETag", "")
            if turn:
                self.turned = time.monotonic()


class Spectator(Phone):
    """Someone in the room with the tournament open: the standings, the round's tables, where
    a player sits, a player's evening, now and then a player's page in the club."""

    fixed_count = SPECTATORS
    wait_time = between(5, 15)

    @task(3)
    def standings(self) -> None:
        self.get(f"/t/{NIGHT['tournament']}/standings/", "standings")

    @task(2)
    def round_page(self) -> None:
        # One page of the round's tables, as a phone is shown them (16 a page).
        page = random.randint(1, max(1, -(-TABLES // 16)))
        self.get(f"/t/{NIGHT['tournament']}/r/1/?page={page}", "round page")

    @task(2)
    def find_seat(self) -> None:
        # A name as typed into "Where do I sit?" (the seed's players are "Player 000"...).
        number = random.randrange(len(NIGHT["entries"]))
        self.get(f"/t/{NIGHT['tournament']}/seat/", "find seat", params={"q": f"Player {number:03}"})

    @task(2)
    def tournament_player(self) -> None:
        entry = random.choice(NIGHT["entries"])
        self.get(f"/t/{NIGHT['tournament']}/p/{entry}/", "tournament player")

    @task(1)
    def player(self) -> None:
        pk = random.choice(NIGHT["players"])
        self.get(f"/c/{NIGHT['club']}/players/{pk}/", "player page")
