"""When the Wi-Fi drops, in real Chromium on a 390 × 844 phone (docs/design/offline.md):
hands saved offline wait on the phone and are recorded once each, in order, when the connection
is back; the score sheet reloads offline from the service worker; a save whose answer was lost
is sent again and still recorded once."""

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Hand
from games.services.hands import hand_record
from tests.browser.test_table_browser import start_game
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone_context(browser: Any, **options: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-GB", **options
    )
    context.set_default_timeout(10_000)
    return context


@pytest.fixture
def table_phone(browser: Any) -> Iterator[Any]:
    context = phone_context(browser)
    yield context.new_page()
    context.close()


def gin_hand(page: Any, knocker: str, ola: str, kari: str) -> None:
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    page.locator("input[name=points_0]").fill(ola)
    page.locator("input[name=points_1]").fill(kari)
    page.locator("button.save").click()


def recorded(game: Game) -> list[tuple[int, dict[str, Any]]]:
    return [(hand.number, hand.outcome) for hand in Hand.objects.filter(game=game).order_by("number")]


def knock(knocker: str, ola: int, kari: int) -> dict[str, Any]:
    return {"knocker": knocker, "gin": False, "deadwood": {"Ola": ola, "Kari": kari}}


def wait_until(page: Any, predicate: str, timeout: float = 10.0) -> None:
    """Poll an async JavaScript predicate until it holds. (``page.wait_for_function`` does not
    await a promise: an async predicate's promise is truthy, so it returns at once.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {predicate}"
        page.wait_for_timeout(50)


# The copies of this page the service worker keeps (in the cache of the pages, any Vary).
KEPT_COPIES = (
    "async () => { const copies = [];"
    " for (const name of await caches.keys()) { if (!name.startsWith('rummy-pages-')) continue;"
    " for (const copy of await (await caches.open(name)).matchAll(location.href, {ignoreVary: true}))"
    " copies.push(await copy.text()); }"
    " return copies; }"
)


def worker_ready(page: Any) -> None:
    """Wait until the service worker controls the page and has kept its copy of it. The page
    that registered it may have loaded before it was active: then the next load is its own."""
    wait_until(page, "async () => !!(await navigator.serviceWorker.getRegistration())?.active")
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    if not page.evaluate(f"async () => (await ({KEPT_COPIES})()).length > 0"):
        # The worker claimed the page after it had loaded (its activation claims the open
        # pages), so that load did not pass through it: the next one does, and is kept.
        page.reload()
    wait_until(page, f"async () => (await ({KEPT_COPIES})()).length > 0")


def test_hands_saved_offline_are_recorded_once_in_order_when_the_connection_is_back(
    table_phone: Any, live_server: Any
) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    game = Game.objects.get()
    worker_ready(page)
    status = page.locator("#offline-queue")
    expect(status).to_be_hidden()

    page.context.set_offline(True)
    gin_hand(page, "Ola", "4", "25")
    expect(status).to_have_text("1 hand waiting to be sent")
    expect(page.locator("input[name=points_0]")).to_have_value("")  # ready for the next hand
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 2")
    gin_hand(page, "Kari", "30", "10")
    expect(status).to_have_text("2 hands waiting to be sent")
    assert recorded(game) == []

    # A reload while offline: the page comes from the service worker, the queue from IndexedDB.
    page.reload()
    expect(status).to_have_text("2 hands waiting to be sent")
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 3")
    assert recorded(game) == []

    # A page this phone never opened: the offline page (so the copy above was not the network's).
    page.goto(f"{live_server.url}/g/{game.public_id}/history/")
    expect(page.locator("h1")).to_have_text("No connection")
    page.go_back()
    expect(status).to_have_text("2 hands waiting to be sent")

    page.context.set_offline(False)
    expect(status).to_be_hidden()
    expect(page.locator(".totals .total")).to_have_text(["21", "20"])
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 3")
    assert recorded(game) == [(1, knock("Ola", 4, 25)), (2, knock("Kari", 30, 10))]
    assert Hand.objects.filter(game=game).values("request_id").distinct().count() == 2
    # The next hand is saved online as usual.
    gin_hand(page, "Ola", "2", "12")
    expect(page.locator(".totals .total")).to_have_text(["31", "20"])
    assert len(recorded(game)) == 3


def test_the_kept_copy_of_a_page_is_replaced_by_the_sheet_after_each_save(
    table_phone: Any, live_server: Any
) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    worker_ready(page)
    gin_hand(page, "Ola", "4", "25")
    expect(page.locator(".totals .total")).to_have_text(["21", "0"])
    # After a save the page asks the worker to keep the sheet as it now is: one copy, the new one.
    replaced = "(copies) => copies.length === 1 && copies[0].includes('Hand 2')"
    wait_until(page, f"async () => ({replaced})(await ({KEPT_COPIES})())")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".totals .total")).to_have_text(["21", "0"])
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 2")


def test_a_save_whose_answer_was_lost_is_sent_again_and_recorded_once(browser: Any, live_server: Any) -> None:
    context = phone_context(browser, service_workers="block")  # routes see the page's requests
    page = context.new_page()
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    game = Game.objects.get()

    def lose_answer(route: Any) -> None:
        route.fetch()  # the server records the hand...
        route.abort("connectionreset")  # ...and the phone never hears back

    page.route("**/hands/", lose_answer)
    gin_hand(page, "Ola", "4", "25")
    status = page.locator("#offline-queue")
    expect(status).to_have_text("1 hand waiting to be sent")
    assert recorded(game) == [(1, knock("Ola", 4, 25))]

    page.unroute("**/hands/")
    gin_hand(page, "Kari", "30", "10")  # queued behind the first, then both are sent
    expect(status).to_be_hidden()
    expect(page.locator(".totals .total")).to_have_text(["21", "20"])
    assert recorded(game) == [(1, knock("Ola", 4, 25)), (2, knock("Kari", 30, 10))]
    context.close()


def test_a_waiting_hand_another_phone_beat_shows_the_conflict_and_the_rest_follow(
    table_phone: Any, live_server: Any
) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    game = Game.objects.get()
    status = page.locator("#offline-queue")
    page.context.set_offline(True)
    gin_hand(page, "Ola", "4", "25")
    gin_hand(page, "Kari", "30", "10")
    expect(status).to_have_text("2 hands waiting to be sent")
    # Meanwhile another phone records hand 1.
    hand_record(game=game, outcome=knock("Kari", 7, 3), request_id=uuid.uuid4(), user=None, for_hand=1)

    page.context.set_offline(False)
    expect(page.locator("[data-conflict]")).to_contain_text("Hand 1 was just recorded on another phone")
    expect(status).to_have_text("1 hand waiting to be sent")  # the second waits for the choice
    page.wait_for_timeout(500)
    assert recorded(game) == [(1, knock("Kari", 7, 3))]

    page.get_by_role("button", name="Record mine as hand 2").click()
    # Back on the sheet, the waiting hand follows as hand 3: not a conflict with this phone's own.
    expect(page.locator(".totals .total")).to_have_text(["21", "24"])
    expect(status).to_be_hidden()
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 4")
    assert recorded(game) == [(1, knock("Kari", 7, 3)), (2, knock("Ola", 4, 25)), (3, knock("Kari", 30, 10))]


def test_a_waiting_hand_the_server_refuses_is_shown_to_correct_and_the_rest_follow(
    table_phone: Any, live_server: Any
) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    game = Game.objects.get()
    status = page.locator("#offline-queue")
    page.context.set_offline(True)
    page.locator("input[name=points_0]").fill("4")  # who knocked was forgotten
    page.locator("input[name=points_1]").fill("25")
    page.locator("button.save").click()
    gin_hand(page, "Kari", "30", "10")
    expect(status).to_have_text("2 hands waiting to be sent")

    page.context.set_offline(False)
    expect(page.locator("form.hand-form .error").first).to_contain_text("required")
    expect(status).to_have_text("1 hand waiting to be sent")
    expect(page.locator("input[name=points_1]")).to_have_value("25")  # as typed
    page.wait_for_timeout(500)
    assert recorded(game) == []

    page.locator("input[name=knocker][value='Ola']").check()
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["21", "20"])
    expect(status).to_be_hidden()
    assert recorded(game) == [(1, knock("Ola", 4, 25)), (2, knock("Kari", 30, 10))]


def test_a_refused_hand_corrected_offline_goes_before_the_rest(table_phone: Any, live_server: Any) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    game = Game.objects.get()
    status = page.locator("#offline-queue")
    page.context.set_offline(True)
    page.locator("input[name=points_0]").fill("4")  # who knocked was forgotten
    page.locator("input[name=points_1]").fill("25")
    page.locator("button.save").click()
    gin_hand(page, "Kari", "30", "10")
    page.context.set_offline(False)
    expect(page.locator("form.hand-form .error").first).to_contain_text("required")
    expect(status).to_have_text("1 hand waiting to be sent")

    page.context.set_offline(True)  # the Wi-Fi drops again while correcting it
    page.locator("input[name=knocker][value='Ola']").check()
    page.locator("button.save").click()
    expect(status).to_have_text("2 hands waiting to be sent")
    expect(page.locator("form.hand-form .error:visible")).to_have_count(0)  # a clean form
    expect(page.locator("input[name=points_1]")).to_have_value("")
    page.context.set_offline(False)
    expect(page.locator(".totals .total")).to_have_text(["21", "20"])
    expect(status).to_be_hidden()
    assert recorded(game) == [(1, knock("Ola", 4, 25)), (2, knock("Kari", 30, 10))]


def test_choosing_a_language_forgets_the_pages_kept_in_the_old_one(
    table_phone: Any, live_server: Any
) -> None:
    """An address without a language prefix answers in the reader's language, and the worker
    keeps its copy under the address alone: after the reader chose another language, no copy
    in the old one may be shown offline."""
    game = GameFactory.create()
    page = table_phone
    unprefixed = f"{live_server.url}/g/{game.public_id}/"
    page.goto(unprefixed)
    worker_ready(page)
    copies_of = (
        "async url => { let count = 0;"
        " for (const name of await caches.keys()) { if (!name.startsWith('rummy-pages-')) continue;"
        " count += (await (await caches.open(name)).matchAll(url, {ignoreVary: true})).length; }"
        " return count; }"
    )
    assert page.evaluate(copies_of, unprefixed) == 1
    page.locator("#language-select").select_option("pl")
    if "/pl/" not in page.url:
        page.locator("form.language button[type=submit]").click()
    expect(page).to_have_url(f"{live_server.url}/pl/g/{game.public_id}/")
    deadline = time.monotonic() + 10
    while page.evaluate(copies_of, unprefixed):
        assert time.monotonic() < deadline, "the English copy is still kept"
        page.wait_for_timeout(50)
