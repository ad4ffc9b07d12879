"""The live view in real Chromium on two 390 × 844 phones: what phone A saves shows on phone B
within 5 seconds without a reload; B's half-typed hand survives the update; B polls nothing while
hidden and catches up as soon as it is shown again; and the same against two server processes
sharing one database (nothing is kept in one server's memory)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.conftest import new_page
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SOON = 5_000  # ms: "within 5 seconds of a save on another phone"

# Playwright cannot hide a page of a headless browser; this makes the page believe it is hidden
# (document.hidden, visibilityState) and tells it so, as a phone going to sleep does.
VISIBILITY = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true,
    get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    a = new_page(browser, width=390, height=844)
    b = new_page(browser, width=390, height=844)
    yield a, b
    a.context.close()
    b.context.close()


def game() -> Game:
    return GameFactory.create(family="rummikub", players=["Ann", "Bob"])


def open_as_editor(page: Any, base: str, game: Game) -> None:
    page.goto(f"{base}/g/{game.public_id}/edit/{game.edit_token}/")
    expect(page.locator("form.hand-form")).to_be_visible()


def totals(page: Any) -> Any:
    return page.locator(".totals .total")


def save(page: Any, bob: str) -> None:
    """Ann goes out, Bob is left with ``bob`` points; saved with htmx (no reload)."""
    page.locator("input[name=winner][value='Ann']").check()
    page.locator("input[name=points_1]").fill(bob)
    page.locator("button.save").click()


def test_a_viewer_sees_a_save_on_another_phone_without_reloading(phones: Any, live_server: Any) -> None:
    a, b = phones
    played = game()
    open_as_editor(a, live_server.url, played)
    b.goto(f"{live_server.url}/g/{played.public_id}/")
    expect(totals(b)).to_have_text(["0", "0"])
    b.evaluate("window.sameDocument = true")
    save(a, "12")
    expect(totals(a)).to_have_text(["12", "−12"])
    started = time.monotonic()
    expect(totals(b)).to_have_text(["12", "−12"], timeout=SOON)
    assert time.monotonic() - started < SOON / 1000
    expect(b.locator(".last-hand")).to_contain_text("Hand 1:")
    expect(b.locator("#live-status")).to_have_text("The sheet was updated on another phone.")
    assert b.evaluate("window.sameDocument") is True, "B was not reloaded"
    # Phone A saved the hand itself: nothing "updated on another phone" there.
    a.wait_for_timeout(3_500)
    expect(a.locator("#live-status")).to_have_text("")


def test_a_half_typed_hand_survives_a_live_update(phones: Any, live_server: Any) -> None:
    a, b = phones
    played = game()
    open_as_editor(a, live_server.url, played)
    open_as_editor(b, live_server.url, played)
    # B starts typing hand 1 and has not saved.
    b.locator("input[name=winner][value='Ann']").check()
    b.locator("input[name=points_1]").fill("30")
    save(a, "12")
    expect(totals(b)).to_have_text(["12", "−12"], timeout=SOON)
    expect(b.locator("input[name=points_1]")).to_have_value("30")
    expect(b.locator("input[name=winner][value='Ann']")).to_be_checked()
    expect(b.locator("input[name=points_1]")).to_be_focused()
    expect(b.locator("#new-hand-title")).to_contain_text("Hand 1")  # the form B is filling in
    expect(b.locator("#live-status")).to_contain_text("What you typed is kept")
    # Another save on A: still kept, the sheet moves on again.
    save(a, "5")
    expect(totals(b)).to_have_text(["17", "−17"], timeout=SOON)
    expect(b.locator("input[name=points_1]")).to_have_value("30")


def test_the_two_versions_screen_is_left_alone(phones: Any, live_server: Any) -> None:
    a, b = phones
    played = game()
    open_as_editor(a, live_server.url, played)
    open_as_editor(b, live_server.url, played)
    b.locator("input[name=winner][value='Ann']").check()
    b.locator("input[name=points_1]").fill("30")
    save(a, "12")
    expect(totals(b)).to_have_text(["12", "−12"], timeout=SOON)
    # B saves the hand it kept typing: the place was taken, so the screen with both versions
    # comes (games/views/conflict.py). The live view leaves it on screen while the user chooses.
    b.locator("button.save").click()
    expect(b.locator("[data-conflict]")).to_be_visible()
    save(a, "5")
    b.wait_for_timeout(4_000)
    expect(b.locator("[data-conflict]")).to_be_visible()


def test_an_untouched_form_is_drawn_anew_for_the_next_hand(phones: Any, live_server: Any) -> None:
    a, b = phones
    played = game()
    open_as_editor(a, live_server.url, played)
    open_as_editor(b, live_server.url, played)
    expect(b.locator("#new-hand-title")).to_contain_text("Hand 1")
    save(a, "12")
    expect(b.locator("#new-hand-title")).to_contain_text("Hand 2", timeout=SOON)
    expect(totals(b)).to_have_text(["12", "−12"])
    # The swapped-in form works like the one the page came with: it saves with htmx.
    b.evaluate("window.sameDocument = true")
    save(b, "3")
    expect(totals(b)).to_have_text(["15", "−15"])
    expect(totals(a)).to_have_text(["15", "−15"], timeout=SOON)
    assert b.evaluate("window.sameDocument") is True
    expect(b.locator("[data-picker-for]").first).to_be_visible()  # table.js wired the new form


def test_a_hidden_phone_polls_nothing_and_catches_up_when_shown(phones: Any, live_server: Any) -> None:
    a, b = phones
    played = game()
    open_as_editor(a, live_server.url, played)
    polls: list[float] = []
    b.on("request", lambda request: polls.append(time.monotonic()) if "/live/" in request.url else None)
    b.goto(f"{live_server.url}/g/{played.public_id}/")
    expect(totals(b)).to_have_text(["0", "0"])
    b.wait_for_timeout(3_500)
    assert polls, "a shown page polls"
    b.evaluate(VISIBILITY, True)
    hidden_at = time.monotonic()
    save(a, "12")
    expect(totals(a)).to_have_text(["12", "−12"])
    b.wait_for_timeout(4_000)  # more than the 3 s between polls
    assert not [t for t in polls if t > hidden_at + 0.5], "no poll while hidden"
    expect(totals(b)).to_have_text(["0", "0"])
    shown_at = time.monotonic()
    b.evaluate(VISIBILITY, False)
    # At once, not at the next 3-second tick (none is due: polling stopped while hidden).
    expect(totals(b)).to_have_text(["12", "−12"], timeout=1_500)
    assert time.monotonic() - shown_at < 1.5


# --- two application servers, one database ------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def manage(env: dict[str, str], *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"server did not answer /healthz: {log.read_text()[-2000:]}")


CREATE = (
    "from games.services.games import game_start; "
    "g = game_start(family='rummikub', options={}, players=['Ann', 'Bob'], owner=None); "
    "print(g.public_id, g.edit_token)"
)


def test_two_servers_sharing_one_database(
    phones: Any, tmp_path: Path, migrated_sqlite: Callable[[Path], str]
) -> None:
    a, b = phones
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "rummy_site.settings_test",
        "DATABASE_URL": migrated_sqlite(tmp_path / "shared.sqlite3"),
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    public_id, token = manage(env, "shell", "-c", CREATE).strip().splitlines()[-1].split()
    servers: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for n in (1, 2):
            port = free_port()
            log = tmp_path / f"server{n}.log"
            with log.open("wb") as out:
                servers.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            str(ROOT / "manage.py"),
                            "runserver",
                            "--noreload",
                            f"127.0.0.1:{port}",
                        ],
                        env=env,
                        cwd=ROOT,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
            urls.append(f"http://127.0.0.1:{port}")
            wait_until_up(urls[-1], servers[-1], log)
        one, two = urls
        a.goto(f"{one}/g/{public_id}/edit/{token}/")
        expect(a.locator("form.hand-form")).to_be_visible()
        b.goto(f"{two}/g/{public_id}/")
        expect(totals(b)).to_have_text(["0", "0"])
        b.wait_for_timeout(3_500)  # server 2 has answered a poll and keeps this version's sheet
        save(a, "12")
        expect(totals(a)).to_have_text(["12", "−12"])
        expect(totals(b)).to_have_text(["12", "−12"], timeout=SOON)
        save(a, "5")
        expect(totals(b)).to_have_text(["17", "−17"], timeout=SOON)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
