"""My games with its rematch, the rules page, and dark mode, in Chromium at 390 × 844."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.hands import hand_record
from tests.conftest import new_page
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The contrast of each visible element's own text against the background it is drawn on (the
# nearest ancestor with an opaque background), as WCAG computes it.
CONTRASTS = """(selector) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor).slice(0, 3);
  };
  const own = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  return [...document.querySelectorAll(selector)]
    .filter((el) => own(el) && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .map((el) => {
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const name = el.tagName + '.' + el.className + ': ' + el.textContent.trim().slice(0, 30);
      return [name, Math.round(ratio * 100) / 100];
    });
}"""
TEXT = "body *:not(script):not(style):not(svg *):not(option)"


def scheme_page(browser: Any, scheme: str) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        color_scheme=scheme,
    )
    context.set_default_timeout(10_000)
    return context.new_page()


@pytest.fixture
def phone390(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def start_gin(page: Any, base: str) -> Game:
    page.goto(base + "/games/new/gin/")
    page.get_by_label("Seat 1").fill("Ann")
    page.get_by_label("Seat 2").fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/g/*/")
    return Game.objects.get(public_id=page.url.rstrip("/").rsplit("/", 1)[-1])


def test_my_games_shows_status_and_a_rematch_starts_the_next_game(phone390: Any, live_server: Any) -> None:
    page = phone390
    game = start_gin(page, live_server.url)
    for _ in range(2):  # no single hand reaches the target
        hand_record(
            game=game,
            outcome={"knocker": "Ann", "gin": True, "deadwood": {"Ann": 0, "Bob": 100}},
            request_id=uuid.uuid4(),
            user=None,
        )
    page.goto(live_server.url + "/games/")
    item = page.locator(".my-game").first
    assert "Gin" in item.inner_text() and "Ann, Bob" in item.inner_text()
    assert "Winner: Ann" in item.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    button = item.get_by_role("button", name="Rematch")
    assert button.bounding_box()["height"] >= 44
    button.click()
    page.wait_for_url(lambda url: game.public_id not in url)
    assert "A rematch was started" in page.locator(".messages").inner_text()
    assert "Bob deals" in page.locator("#new-hand-title").inner_text()  # the deal moved on
    new = Game.objects.get(rematch_of=game)
    page.goto(live_server.url + "/games/")
    statuses = page.locator(".my-game-status").all_inner_texts()
    assert statuses[0].strip() == "In play"
    assert new.public_id in page.locator(".my-game a").first.get_attribute("href")


def test_the_rules_page_from_the_game_page(phone390: Any, live_server: Any) -> None:
    game = GameFactory.create(players=["Eva", "Jan", "Petr"], options={"joker_penalty": 50})
    page = phone390
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    page.get_by_role("link", name="Rules").click()
    page.wait_for_url("**/rules/")
    assert page.get_by_role("heading", level=1).inner_text() == "Rules of Žolíky"
    bob = page.locator(".rules-example tbody tr").nth(1).inner_text()
    assert "K♥ 5♠ JK" in bob and "65" in bob  # 10 + 5 + a joker of 50 at this table
    assert "(house rule)" in page.locator(".rules-item.changed").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_text_keeps_its_contrast_in_both_schemes(browser: Any, live_server: Any, scheme: str) -> None:
    game = GameFactory.create(players=["Ann", "Bob", "Cid"])
    hand_record(
        game=game,
        outcome={"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
        request_id=uuid.uuid4(),
        user=None,
    )
    page = scheme_page(browser, scheme)
    try:
        page.goto(f"{live_server.url}/g/{game.public_id}/edit/{game.edit_token}/")  # the hand-entry page
        page.wait_for_url(f"**/g/{game.public_id}/")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(18, 20, 18)") == (scheme == "dark")
        page.locator("[data-picker-for]").first.click()  # the card picker, drawn by script
        picker = page.evaluate(CONTRASTS, "#picker *")
        assert len(picker) > 50 and [(t, r) for t, r in picker if r < 4.5] == []
        pages = ["/", f"/g/{game.public_id}/", f"/g/{game.public_id}/rules/", f"/g/{game.public_id}/history/"]
        for path in [*pages, f"/g/{game.public_id}/settlement/", "/games/", "/accounts/login/"]:
            page.goto(live_server.url + path)
            low = [(text, ratio) for text, ratio in page.evaluate(CONTRASTS, TEXT) if ratio < 4.5]
            assert low == [], (path, low)
        # The turn timer, and its face once the time is up (drawn so by its script at zero).
        page.goto(f"{live_server.url}/g/{game.public_id}/timer/")
        page.evaluate(
            "document.getElementById('timer-face').classList.add('over');"
            "document.getElementById('timer-said').textContent = 'Time is up';"
        )
        low = [(text, ratio) for text, ratio in page.evaluate(CONTRASTS, TEXT) if ratio < 4.5]
        assert low == [], ("timer", low)
        assert page.locator("#timer-said").is_visible()
    finally:
        page.context.close()


def test_what_lighthouse_checks_on_the_three_pages(browser: Any, live_server: Any) -> None:
    """Home, a score sheet and the hand-entry page at 390 × 844: nothing missing (no 404, no
    console error), a description for search engines, the page itself not compressed (BREACH:
    docs/design/frontend.md)."""
    game = GameFactory.create(players=["Ann", "Bob", "Cid"])
    page = scheme_page(browser, "light")
    failed: list[str] = []
    errors: list[str] = []
    encodings: dict[str, str | None] = {}
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("response", lambda r: encodings.__setitem__(r.url, r.headers.get("content-encoding")))
    try:
        page.goto(f"{live_server.url}/g/{game.public_id}/edit/{game.edit_token}/")
        page.wait_for_url(f"**/g/{game.public_id}/")
        assert page.locator("#new-hand-title").count() == 1
        viewer = scheme_page(browser, "light")
        for tab, path in [(page, "/"), (viewer, f"/g/{game.public_id}/"), (page, f"/g/{game.public_id}/")]:
            encodings.clear()
            tab.goto(live_server.url + path, wait_until="load")
            description = tab.locator('meta[name="description"]').get_attribute("content")
            assert description and len(description) > 50
            assert tab.locator('link[rel="icon"]').count() == 1
            assert tab.locator('meta[name="color-scheme"]').get_attribute("content") == "light dark"
            if tab is page:
                # The page: never compressed. (The test server serves static files before any
                # middleware: their gzip is checked in tests/test_compression.py.)
                assert encodings[live_server.url + path] is None
        viewer.context.close()
        assert failed == [] and errors == []
    finally:
        page.context.close()


def test_the_hand_that_ends_the_game_brings_the_rematch_button(phone390: Any, live_server: Any) -> None:
    from tests.browser.test_table_browser import start_game

    page = phone390
    start_game(page, live_server.url, "gin", ["Ola", "Kari"], target="20")
    assert page.get_by_role("button", name="Rematch").count() == 0
    page.locator("input[name=knocker][value='Kari']").check()
    page.locator("input[name=gin]").set_checked(True)
    page.locator("input[name=points_0]").fill("30")
    page.locator("input[name=points_1]").fill("0")
    # Past 20: the hand ends the game, which the form says before saving (and Save confirms).
    expect(page.locator("#hand-ending .ends-game")).to_be_visible()
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["0", "55"])
    button = page.get_by_role("button", name="Rematch")
    assert button.bounding_box()["height"] >= 44
    old = page.url
    button.click()
    page.wait_for_url(lambda url: url != old and "/g/" in url)
    assert "Kari deals" in page.locator("#new-hand-title").inner_text()  # Ola dealt first before
    new = Game.objects.get(public_id=page.url.rstrip("/").rsplit("/", 1)[-1])
    assert new.options["target"] == 20 and [s.name for s in new.seats.all()] == ["Ola", "Kari"]
