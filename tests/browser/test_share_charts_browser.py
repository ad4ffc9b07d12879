"""Share and join, and the charts, in real Chromium on a 390 × 844 phone: the share
card with its QR codes and copy buttons (the clipboard, or the phone's share sheet), the chart
of the evening under the sheet and the settlement's bars, all within the screen's width."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.hands import hand_record
from tests.browser.test_table_browser import no_horizontal_scroll, start_game
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organiser(browser: Any, live_server: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script("delete Navigator.prototype.share;")  # a computer without a share sheet
    yield page
    page.context.close()


def record_hands(page: Any, *outcomes: dict[str, Any]) -> None:
    """Record hands in the game the page shows (as another phone would), and reload it."""
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    for outcome in outcomes:
        hand_record(game=game, outcome=outcome, request_id=uuid.uuid4(), user=None)
        game.refresh_from_db()
    page.reload()


def fits(page: Any, selector: str) -> bool:
    """The element lies within the viewport's width."""
    box = page.locator(selector).bounding_box()
    return bool(box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"])


def test_share_card_copies_the_links_and_the_chart_fits_the_phone(organiser: Any, live_server: Any) -> None:
    page = organiser
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"], elimination="100")
    record_hands(
        page,
        {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": 40}},
        {"closer": "Bob", "from_hand": False, "left": {"Ann": 4, "Cid": 35}},
    )
    expect(page.locator(".totals .total")).to_have_text(["−6", "13", "75"])

    # The chart of the evening, under the sheet: a line per player and the elimination line.
    chart = page.locator("svg.chart-running")
    expect(chart).to_be_visible()
    expect(chart.locator("g.chart-series")).to_have_count(3)
    expect(chart.locator("text.chart-limit-label")).to_have_text("Out at 100")
    expect(page.locator(".chart-legend li")).to_have_count(3)
    assert fits(page, "svg.chart-running") and no_horizontal_scroll(page)

    # The share card: the link to watch with its code and a copy button.
    card = page.locator("#share")
    card.scroll_into_view_if_needed()
    expect(card).to_be_visible()
    expect(card.locator(".share-watch svg.qr-code")).to_be_visible()
    assert fits(page, "#share .share-watch svg.qr-code")
    watch = card.locator("#share-view-url").input_value()
    assert watch.endswith("/g/" + page.url.rstrip("/").split("/")[-1] + "/")
    card.get_by_role("button", name="Share the link to watch").click()
    expect(card.locator(".share-watch button")).to_have_text("Link to watch copied")
    assert page.evaluate("navigator.clipboard.readText()") == watch

    # The link to record hands, told apart, its code folded away until asked for.
    record = card.locator("#share-edit-url").input_value()
    assert "/edit/#" in record and record != watch
    expect(card.locator(".share-edit svg.qr-code")).to_be_hidden()
    card.locator(".share-edit-qr summary").click()
    expect(card.locator(".share-edit svg.qr-code")).to_be_visible()
    card.get_by_role("button", name="Share the link to record hands").click()
    assert page.evaluate("navigator.clipboard.readText()") == record
    assert no_horizontal_scroll(page)


def test_a_phone_with_a_share_sheet_shares_the_link_to_watch(browser: Any, live_server: Any) -> None:
    page = new_page(browser, width=390, height=844)
    page.add_init_script(
        "navigator.share = function (data) { window.__shared = data; return Promise.resolve(); };"
    )
    try:
        start_game(page, live_server.url, "rummikub", ["Ann", "Bob"])
        page.locator("#share").get_by_role("button", name="Share the link to watch").click()
        shared = page.evaluate("window.__shared")
        assert shared["url"] == page.locator("#share-view-url").input_value()
        assert shared["title"] == "Watch the score sheet"
    finally:
        page.context.close()


def test_a_viewer_sees_only_the_link_to_watch(browser: Any, live_server: Any) -> None:
    starter = new_page(browser, width=390, height=844)
    viewer = new_page(browser, width=390, height=844)
    try:
        start_game(starter, live_server.url, "gin", ["Ann", "Bob"])
        viewer.goto(starter.url)
        expect(viewer.locator("#share .share-watch svg.qr-code")).to_be_visible()
        expect(viewer.locator("#share-edit-url")).to_have_count(0)
        assert no_horizontal_scroll(viewer)
    finally:
        starter.context.close()
        viewer.context.close()


def test_the_settlement_bars_fit_the_phone(organiser: Any, live_server: Any) -> None:
    page = organiser
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"], elimination="0")
    record_hands(page, {"closer": "Ann", "from_hand": False, "left": {"Bob": 166, "Cid": 45}})
    page.goto(page.url.rstrip("/") + "/settlement/")
    bars = page.locator("svg.chart-bars")
    expect(bars).to_be_visible()
    expect(bars.locator("g.chart-bar")).to_have_count(3)
    expect(bars.locator("g.chart-bar.negative")).to_have_count(1)
    assert fits(page, "svg.chart-bars") and no_horizontal_scroll(page)
