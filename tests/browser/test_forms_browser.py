"""The hand form and the new-game form in Chromium on a 390 × 844 phone: the outcome is a
choice to make and a game-ending hand says so before it is saved; gin needs no typed 0; the
new-game form names the seats and sums up its house rules; six long names fit the sheet's
header; every link, button and tick is at least 44 × 44 px."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser.test_table_browser import no_horizontal_scroll, start_game
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every visible control a finger taps: links, buttons, summaries, and the label around a radio
# or tick (the tick itself is small; its label is what is tapped). Inline links inside running
# text are exempt (WCAG 2.5.8); there are none on these pages.
SMALL_TARGETS = """() => {
  const small = [];
  const seen = new Set();
  const targets = document.querySelectorAll(
    "a[href], button, summary, select, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), " +
    "input[type=radio], input[type=checkbox]");
  for (let el of targets) {
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      // What is tapped: the label around it, else the row that holds it and its label.
      el = el.closest("label") || el.closest(".field.check") || el;
    }
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || r.right <= 0 || style.visibility === "hidden") continue;
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (el.textContent || el.value || el.name || "").trim().slice(0, 30);
      small.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " '" + name +
        "' " + Math.round(r.width) + "x" + Math.round(r.height));
    }
  }
  return small;
}"""

SIX = [
    "Anna Maria Svobodová",
    "Jean-Baptiste Lefèvre",
    "Bartholomew Cunningham",
    "Kristýna Nováková",
    "Maximilian von Hohenberg",
    "Ole Kristian Haugen",
]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def test_a_forgotten_outcome_is_asked_for_and_a_game_ending_hand_says_so(page: Any, live_server: Any) -> None:
    start_game(page, live_server.url, "rummikub", ["Ola", "Kari"], hands="2")
    form = page.locator("form.hand-form")
    expect(form.locator("input[name=winner]:checked")).to_have_count(0)
    page.locator("input[name=points_0]").fill("12")
    page.locator("input[name=points_1]").fill("30")
    page.locator("button.save").click()
    expect(page.locator("fieldset.invalid .error")).to_have_text(
        "Choose who went out, or Nobody (the pool ran dry)."
    )
    assert not Hand.objects.exists()
    page.locator("input[name=winner][value='']").check()
    expect(page.locator("#hand-ending")).not_to_contain_text("ends the game")
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["18", "−30"])  # the lowest rack wins
    # Hand 2 of 2 ends the game: said while it is filled in, before Save.
    page.locator("input[name=winner][value='Kari']").check()
    page.locator("input[name=points_0]").fill("60")
    ending = page.locator("#hand-ending .ends-game")
    expect(ending).to_contain_text("This hand ends the game: Kari wins.")
    expect(page.locator("button.save")).to_have_text("Save and end the game")
    assert Hand.objects.count() == 1
    # Changing it back to a hand that ... still ends (the last one): the winner follows.
    page.locator("input[name=winner][value='Ola']").check()
    page.locator("input[name=points_0]").fill("")
    page.locator("input[name=points_1]").fill("5")
    expect(ending).to_contain_text("This hand ends the game: Ola wins.")
    page.locator("button.save").click()
    expect(page.locator(".game-over")).to_be_visible()
    assert Hand.objects.count() == 2
    assert no_horizontal_scroll(page)


def test_without_javascript_the_game_ending_hand_asks_once(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        start_game(page, live_server.url, "rummikub", ["Ola", "Kari"], hands="1")
        page.locator("input[name=winner][value='Ola']").check()
        page.locator("input[name=points_1]").fill("30")
        page.locator("button.save").click()
        expect(page.locator(".ends-game")).to_contain_text("This hand ends the game: Ola wins.")
        assert not Hand.objects.exists()
        page.get_by_role("button", name="Save and end the game").click()
        expect(page.locator(".game-over")).to_be_visible()
        assert Hand.objects.count() == 1
    finally:
        context.close()


def test_gin_needs_no_zero_for_the_knocker(page: Any, live_server: Any) -> None:
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    expect(page.locator(".flag-hint")).to_have_text("With gin the knocker's count may stay empty: it is 0.")
    expect(page.locator("form.hand-form small")).to_contain_text("Only with both whole hands (10 cards each)")
    page.locator("input[name=knocker][value='Ola']").check()
    page.locator("input[name=gin]").check()
    expect(page.locator("input[name=points_0]")).to_have_attribute("placeholder", "0")
    page.locator("input[name=points_1]").fill("12")
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["37", "0"])  # gin bonus 25 + 12


def test_new_game_names_the_dealers_sums_up_house_rules_and_has_big_targets(
    page: Any, live_server: Any
) -> None:
    page.goto(live_server.url + "/games/new/zoliky/")
    dealer = page.locator("select[name=first_dealer]")
    expect(dealer.locator("option").first).to_have_text("Seat 1")
    for i, name in enumerate(SIX, start=1):
        page.locator(f"input[name=player_{i}]").fill(name)
    expect(dealer.locator("option")).to_have_text(SIX)
    summary = page.locator("details.house-rules summary")
    expect(summary).to_have_text("House rules: the standard ones")
    expect(page.locator("details.house-rules")).not_to_have_attribute("open", "")
    summary.click()
    elimination = page.locator("input[name=opt_elimination]")
    standard = elimination.input_value()
    elimination.fill("200")
    expect(summary).to_have_text("House rules: Out at (points; 0 = open evening): 200")
    page.locator("input[name=opt_keep_joker]").check()
    expect(summary).to_have_text(
        "House rules: The closer may keep an unused joker: yes; Out at (points; 0 = open evening): 200"
    )
    elimination.fill(standard)
    page.locator("input[name=opt_keep_joker]").uncheck()
    expect(summary).to_have_text("House rules: the standard ones")
    assert page.evaluate(SMALL_TARGETS) == []
    assert no_horizontal_scroll(page)
    dealer.select_option(label=SIX[2])
    page.locator("form button[type=submit].primary").click()
    expect(page.locator("#game-body")).to_be_visible()
    expect(page.locator(".dealer")).to_have_text(f"{SIX[2]} deals")


def test_six_long_names_wrap_between_words_and_every_target_is_big_enough(
    page: Any, live_server: Any
) -> None:
    start_game(page, live_server.url, "zoliky", SIX)
    page.locator("input[name=closer][value='Ole Kristian Haugen']").check()
    for i in range(5):
        page.locator(f"input[name=points_{i}]").fill(str(3 + 7 * i))
    page.locator("button.save").click()
    expect(page.locator(".sheet tbody tr")).to_have_count(1)
    assert no_horizontal_scroll(page)  # the page: a sheet wider than the phone scrolls in its frame
    wrap = page.locator(".sheet-wrap")
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    hand = page.locator(".sheet tbody th").first.bounding_box()
    frame = wrap.bounding_box()
    assert (
        hand is not None and frame is not None and hand["x"] >= frame["x"] - 1
    )  # the hand number stays in view
    wrap.evaluate("w => { w.scrollLeft = 0; }")
    # Each header breaks only between words: every line of it is a whole word (or words).
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.sheet thead th')].slice(1).map(th => {
             const range = document.createRange(); const text = th.firstChild; const words = [];
             let top = null, line = '';
             for (let i = 0; i < text.length; i++) {
               range.setStart(text, i); range.setEnd(text, i + 1);
               const y = Math.round(range.getBoundingClientRect().top);
               if (top !== null && y !== top) { words.push(line); line = ''; }
               top = y; line += text.data[i];
             }
             words.push(line); return words.map(w => w.trim());
           })"""
    )
    for name, shown in zip(SIX, lines, strict=True):
        # Broken at spaces or after a hyphen only.
        assert "".join(part if part.endswith("-") else part + " " for part in shown).strip() == name, (
            name,
            shown,
        )
    assert page.evaluate(SMALL_TARGETS) == []
