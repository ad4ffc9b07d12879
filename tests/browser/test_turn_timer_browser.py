"""The table's turn timer in real Chromium on a 390 × 844 phone with a fake clock
(docs/design/table.md, "The turn timer"): Rummikub's minute a turn runs out with "time's up —
draw 3" and passing starts the next player's minute; gin's chess clock runs one player's time at
a time, adds the increment on each pass, and a flag falls at zero; the times the players chose
are kept on the phone; the phone that keeps the score has the timer offline, never opened."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.services.hands import hand_record
from tests.browser.test_offline_browser import wait_until, worker_ready
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the phone's vibrations (headless Chromium has no vibrator to ask).
BUZZ = "navigator.vibrate = () => { window.buzzed = (window.buzzed || 0) + 1; return true; };"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    page.add_init_script(BUZZ)
    page.clock.install(time=timezone.now())
    yield page
    page.context.close()


def test_rummikub_minute_a_turn_runs_out_with_draw_three_and_passing_starts_the_next(
    phone: Any, live_server: Any
) -> None:
    # Ann deals the first hand: Bob, on her left, plays first.
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    page = phone
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    page.get_by_role("link", name="Turn timer").click()
    who, left, said = page.locator("#timer-who"), page.locator("#timer-left"), page.locator("#timer-said")
    tap = page.locator("#timer-tap")
    expect(who).to_have_text("Bob")
    expect(left).to_have_text("1:00")
    expect(tap).to_have_text("Start: Bob")
    # One large target: the whole width, tall, on the screen without scrolling.
    box = tap.bounding_box()
    assert box is not None and box["width"] >= 390 - 2 * 16 - 1 and box["height"] >= 120
    assert box["y"] + box["height"] <= 844
    assert no_horizontal_scroll(page)

    tap.click()
    expect(tap).to_have_text("Pass to Cid")
    page.clock.run_for(10_000)
    expect(left).to_have_text("0:50")
    expect(said).to_have_text("")
    page.clock.run_for(50_000)
    expect(left).to_have_text("0:00")
    expect(said).to_have_text("Time's up — draw 3")
    expect(page.locator("#timer-face")).to_have_class("timer-face over")
    assert page.evaluate("window.buzzed") == 1
    page.clock.run_for(5_000)
    assert page.evaluate("window.buzzed") == 1  # said once

    # Bob draws his three; the tap passes to Cid, whose minute starts whole. A second tap at
    # once (a fumbled double tap) does not pass Cid's turn on.
    tap.click()
    tap.click()
    expect(who).to_have_text("Cid")
    expect(left).to_have_text("1:00")
    expect(said).to_have_text("")
    expect(tap).to_have_text("Pass to Ann")
    page.clock.run_for(15_000)
    expect(left).to_have_text("0:45")
    tap.click()
    expect(who).to_have_text("Ann")
    expect(left).to_have_text("1:00")  # a turn ended early gives nothing to the next

    # Paused, the time stands; a reload (or the score sheet and back) finds it as it was.
    page.clock.run_for(20_000)
    page.locator("#timer-pause").click()
    expect(said).to_have_text("Paused")
    expect(tap).to_have_text("Resume: Ann")
    page.clock.run_for(30_000)
    expect(left).to_have_text("0:40")
    page.reload()
    expect(who).to_have_text("Ann")
    expect(left).to_have_text("0:40")
    tap.click()
    page.clock.run_for(10_000)
    expect(left).to_have_text("0:30")

    # A hand recorded meanwhile: the timer starts afresh for the next, whose first player moved on.
    hand_record(
        game=game, outcome={"winner": "Ann", "left": {"Bob": 5, "Cid": 7}}, request_id=None, user=None
    )
    page.reload()
    expect(who).to_have_text("Cid")
    expect(left).to_have_text("1:00")
    expect(tap).to_have_text("Start: Cid")


def test_gin_chess_clock_runs_one_side_adds_the_increment_and_a_flag_falls(
    phone: Any, live_server: Any
) -> None:
    game = GameFactory.create(family="gin", players=["Ola", "Kari"])
    page = phone
    page.goto(f"{live_server.url}/g/{game.public_id}/timer/")
    tap, who = page.locator("#timer-tap"), page.locator("#timer-who")
    expect(who).to_have_text("Kari")  # Ola deals
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["5:00", "5:00"])
    tap.click()
    page.clock.run_for(20_000)
    expect(page.locator("#timer-left")).to_have_text("4:40")
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["5:00", "4:40"])
    expect(page.locator("#timer-clocks li[aria-current]")).to_contain_text("Kari")

    tap.click()  # Kari passes: her clock stops with five seconds more, Ola's runs
    expect(who).to_have_text("Ola")
    page.clock.run_for(30_000)
    expect(page.locator("#timer-left")).to_have_text("4:30")
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["4:30", "4:45"])
    tap.click()
    page.clock.run_for(5_000)
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["4:35", "4:40"])

    # The players want a quick game: one minute each, nothing added. Kept on this phone.
    page.locator(".timer-settings summary").click()
    page.locator("#timer-seconds").fill("1")
    page.locator("#timer-increment").fill("0")
    page.get_by_role("button", name="Apply").click()
    expect(tap).to_have_text("Start: Kari")
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["1:00", "1:00"])
    page.reload()
    expect(page.locator("#timer-seconds")).to_have_value("1")
    expect(page.locator("#timer-increment")).to_have_value("0")
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["1:00", "1:00"])

    tap.click()
    page.clock.run_for(25_000)
    tap.click()
    page.clock.run_for(40_000)
    tap.click()
    page.clock.run_for(36_000)  # Kari had 35 seconds left
    expect(page.locator("#timer-said")).to_have_text("Time's up")
    expect(page.locator("#timer-clocks li.over")).to_have_text("Kari 0:00")
    assert page.evaluate("window.buzzed") == 1
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["0:20", "0:00"])
    tap.click()  # play on: Ola's clock runs, Kari's flag stays down
    page.clock.run_for(5_000)
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["0:15", "0:00"])
    expect(page.locator("#timer-said")).to_have_text("")

    # "Usual times" brings back the family's.
    page.locator(".timer-settings summary").click()
    page.get_by_role("button", name="Usual times").click()
    expect(page.locator("#timer-clocks .timer-clock")).to_have_text(["5:00", "5:00"])
    expect(page.locator("#timer-seconds")).to_have_value("5")


def test_the_timer_runs_offline_on_the_phone_that_keeps_the_score(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid", "Dan"])
    page.goto(f"{live_server.url}/g/{game.public_id}/edit/{game.edit_token}/")
    page.wait_for_url(f"**/g/{game.public_id}/")
    worker_ready(page)
    # The score sheet has the service worker keep the timer's page, never opened on this phone.
    timer = f"{live_server.url}/g/{game.public_id}/timer/"
    wait_until(page, f"async () => !!(await caches.match('{timer}', {{ignoreVary: true}}))")
    context.set_offline(True)
    page.get_by_role("link", name="Turn timer").click()
    page.wait_for_url(timer)
    expect(page.locator("#timer-who")).to_have_text("Bob")
    page.locator("#timer-tap").click()
    expect(page.locator("#timer-tap")).to_have_text("Pass to Cid")
    page.wait_for_timeout(1_200)
    expect(page.locator("#timer-left")).to_have_text("0:59")
    page.locator("#timer-tap").click()
    expect(page.locator("#timer-who")).to_have_text("Cid")
    # Its style sheet came from the worker too; a reload offline finds the turn where it was.
    assert page.evaluate("getComputedStyle(document.getElementById('timer-tap')).minHeight") == "144px"
    page.reload()
    expect(page.locator("#timer-who")).to_have_text("Cid")
    expect(page.locator("#timer-tap")).to_have_text("Pass to Dan")
    context.close()
