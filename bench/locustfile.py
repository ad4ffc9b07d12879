"""A tournament night for Locust, run by bench/load_night.py (which starts the server, seeds the
evening and reads what this file writes at the end). Each table has a scorekeeper phone saving a
hand every 30-60 s as htmx does, and three phones following the live view (3 s polls with the
tag they hold); the venue has one projector showing the tournament's screen (it reloads itself
every 30 s) and spectators opening the standings and the players' pages.

Only the host bench/load_night.py passes is contacted (127.0.0.1)."""

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

from locust import HttpUser, between, constant, events, task
from locust.exception import StopUser

NIGHT: dict[str, Any] = json.loads(os.environ.get("LOAD_NIGHT", '{"tables": []}'))
TABLES = len(NIGHT["tables"])
SPECTATORS = int(os.environ.get("LOAD_SPECTATORS", "20"))
FOLLOWERS = 3  # per table
_seats = {"scorekeeper": iter(range(TABLES)), "follower": iter(range(TABLES * FOLLOWERS))}
_lock = threading.Lock()
_phones = itertools.count(1)  # each phone its own address (the site limits some things per address)

# What the run leaves for bench/load_night.py: every request's time by kind, the errors, and the
# saves the server acknowledged (game -> request ids).
timings: dict[str, list[float]] = defaultdict(list)
errors: list[str] = []
acknowledged: dict[str, list[str]] = defaultdict(list)
measuring = {"from": 0.0}  # requests before this (joining the table) are not timed


@events.request.add_listener
def _timed(
    request_type: str, name: str, response_time: float, exception: Exception | None, **kw: Any
) -> None:
    if exception is not None:
        errors.append(f"{name}: {type(exception).__name__}: {exception}"[:300])
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
            json.dump({"timings": timings, "errors": errors, "acknowledged": acknowledged}, f)


def _next(role: str) -> int:
    with _lock:
        try:
            return next(_seats[role])
        except StopIteration:
            raise StopUser() from None


class Phone(HttpUser):
    abstract = True

    def on_start(self) -> None:
        # The server runs behind a TLS-terminating proxy, which adds these (README "Deploying").
        self.client.headers.update({"X-Forwarded-Proto": "https", "X-Forwarded-For": self.address()})

    def address(self) -> str:
        with _lock:
            n = next(_phones)
        return f"10.{n // 250}.{n % 250}.1"

    def get(self, path: str, name: str, **kw: Any) -> Any:
        with self.client.get(path, name=name, catch_response=True, allow_redirects=False, **kw) as answer:
            if answer.status_code not in (200, 304):
                answer.failure(f"{answer.status_code}")
        self.keep_cookies()
        return answer

    def keep_cookies(self) -> None:
        """The site's cookies are Secure (it is served over TLS, which the proxy ends): sent
        back over this plain loopback connection as a phone sends them over TLS."""
        for cookie in self.client.cookies:
            cookie.secure = False

    def join(self, table: dict[str, str]) -> None:
        """Open the table's edit link (its QR code): the phone may record hands from then on."""
        path = f"/g/{table['game']}/edit/{table['token']}/"
        with self.client.get(path, name="join", catch_response=True, allow_redirects=False) as answer:
            if answer.status_code != 302:
                answer.failure(f"{answer.status_code}")
        self.keep_cookies()


HIDDEN = re.compile(r'<input type="hidden" name="([\w-]+)"(?: value="([^"]*)")?')
WINNER = re.compile(r'<input type="radio" name="winner" value="([^"]+)"')
POINTS = re.compile(r'<input type="number" name="(points_\d+)"')


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
        headers = {
            "HX-Request": "true",
            "HX-Target": "game-body",
            "HX-Current-URL": f"https://{self.host_name}{self.path}",
            "Origin": f"https://{self.host_name}",
            "Referer": f"https://{self.host_name}{self.path}",
        }
        with self.client.post(
            f"{self.path}hands/", data=data, headers=headers, name="save (htmx)", catch_response=True
        ) as answer:
            following = HIDDEN.findall(answer.text) if answer.status_code == 200 else []
            ids = [value for name, value in following if name == "request_id"]
            if answer.status_code != 200 or not ids or ids[0] == data["request_id"]:
                alert = re.findall(r'role="alert">\s*(?:<p>)?([^<]+)<', answer.text)[:2]
                answer.failure(f"{answer.status_code} {alert}")
                self.page = self.get(self.path, "game page (scorekeeper)").text
                return
            acknowledged[self.table["game"]].append(data["request_id"])
            self.page = answer.text
        self.keep_cookies()

    @property
    def host_name(self) -> str:
        return str(self.host).split("//", 1)[-1].rstrip("/")


class Follower(Phone):
    """Another phone at a table: the first opened the edit link (a player who may correct a
    hand), the others the game as anyone sees it; all follow it through the live view."""

    fixed_count = TABLES * FOLLOWERS
    wait_time = constant(3)

    def on_start(self) -> None:
        super().on_start()
        n = _next("follower")
        self.table = NIGHT["tables"][n // FOLLOWERS]
        if n % FOLLOWERS == 0:
            self.join(self.table)
        self.path = f"/g/{self.table['game']}/"
        page = self.get(self.path, "game page (follower)").text
        found = re.search(r'data-live-etag="([^"]+)"', page)
        self.etag = html.unescape(found.group(1)) if found else ""
        time.sleep(random.uniform(0, 3))  # the phones do not poll in step

    @task
    def poll(self) -> None:
        answer = self.get(f"{self.path}live/", "live poll", headers={"If-None-Match": self.etag})
        if answer.status_code == 200:
            self.etag = answer.headers.get("ETag", self.etag)


class Projector(Phone):
    """The venue's screen: the tournament's standings and tables, reloaded every 30 s."""

    fixed_count = 1
    wait_time = constant(30)

    @task
    def screen(self) -> None:
        self.get(f"/t/{NIGHT['tournament']}/screen/", "screen")


class Spectator(Phone):
    """Someone in the room with the tournament open: the standings, now and then a player."""

    fixed_count = SPECTATORS
    wait_time = between(5, 15)

    @task(2)
    def standings(self) -> None:
        self.get(f"/t/{NIGHT['tournament']}/standings/", "standings")

    @task(1)
    def player(self) -> None:
        pk = random.choice(NIGHT["players"])
        self.get(f"/c/{NIGHT['club']}/players/{pk}/", "player page")
