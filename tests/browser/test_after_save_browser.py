"""After a save, what happened, confirmations, in Chromium at 390 × 844:
the saved line with its Undo and the next hand's first choice in view, a sticky Save, the kind
of each hand on the sheet, an elimination read out, the end and an old undo asked first; and
an ordinary four-player Žolíky hand in five taps, none of them needing a scroll."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_table_browser import start_game
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEIGHT = 844


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=HEIGHT)
    yield page
    page.context.close()


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT


def scroll_y(page: Any) -> float:
    return float(page.evaluate("window.scrollY"))


def totals(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".totals .total").all_inner_texts()]


def choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name={name}][value='{value}']").check()


def save(page: Any, counts: dict[int, str], expected: list[str]) -> None:
    for i, value in counts.items():
        page.locator(f"input[name=points_{i}]").fill(value)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(expected)


# ---------------------------------------------------------------- 1. after a save


def test_after_a_save_the_line_the_totals_and_the_next_choice_are_in_view(
    phone: Any, live_server: Any
) -> None:
    page = phone
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid", "Dan"])
    choose(page, "closer", "Ann")
    page.locator("input[name=from_hand]").check()
    save(page, {1: "5", 2: "25", 3: "3"}, ["−20", "5", "25", "3"])
    line = page.locator("#saved-line")
    expect(line).to_contain_text("Hand 1 saved")
    expect(line).to_contain_text("Ann closed from hand")
    expect(line).to_contain_text("Ann −20, Bob +5, Cid +25, Dan +3")
    # The page shows the game's body from its top: the line, the totals, the first choice.
    top = page.evaluate("document.getElementById('game-body').getBoundingClientRect().top")
    assert 0 <= top <= 16 and scroll_y(page) > 0
    for selector in ("#saved-line", ".totals", "#new-hand-title", "input[name=closer]"):
        assert in_view(page, selector), selector
    assert page.evaluate("document.activeElement.id") == "saved-line"
    # Undo takes the hand back (a plain form: the page comes back at the sheet).
    line.get_by_role("button", name="Undo").click()
    expect(page.locator(".messages")).to_contain_text("Change undone.")
    expect(page.locator(".totals .total")).to_have_text(["0", "0", "0", "0"])
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 1")
    expect(page.locator("#saved-line")).to_have_count(0)


def test_without_javascript_the_line_and_its_undo_come_after_the_redirect(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": HEIGHT}, java_script_enabled=False)
    page = context.new_page()
    try:
        start_game(page, live_server.url, "rummikub", ["Ola", "Kari", "Per"])
        choose(page, "winner", "")  # nobody: the pool ran dry
        save(page, {0: "3", 1: "9", 2: "12"}, ["15", "−9", "−12"])
        line = page.locator("#saved-line")
        expect(line).to_contain_text("Hand 1 saved — the pool ran dry: Ola +15, Kari −9, Per −12.")
        expect(page.locator(".messages li")).to_have_count(0)  # said once, in the line
        line.get_by_role("button", name="Undo").click()
        expect(page.locator(".totals .total")).to_have_text(["0", "0", "0"])
        expect(page.locator(".messages")).to_contain_text("Change undone.")
    finally:
        context.close()


def test_save_is_reachable_without_scrolling_with_six_players(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"])
    assert scroll_y(page) == 0
    # Untouched, the form lies flat (no row half under a bar); the first choice makes Save stick.
    assert page.evaluate("getComputedStyle(document.querySelector('button.save')).position") == "static"
    choose(page, "closer", "Ann")
    assert scroll_y(page) == 0
    assert in_view(page, "button.save")
    assert page.evaluate("getComputedStyle(document.querySelector('button.save')).position") == "sticky"
    # A field focused behind the bar is brought above it (scroll-padding).
    page.locator("input[name=points_5]").focus()
    field = page.locator("input[name=points_5]").bounding_box()
    bar = page.locator("button.save").bounding_box()
    assert field is not None and bar is not None
    assert field["y"] + field["height"] <= bar["y"] or field["y"] >= bar["y"] + bar["height"]


# ---------------------------------------------------------------- 4. what happened


def test_the_sheet_and_the_line_name_each_hands_kind(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    choose(page, "knocker", "Ola")
    save(page, {0: "4", 1: "25"}, ["21", "0"])
    expect(page.locator("#saved-line")).to_contain_text("Ola knocked")
    choose(page, "knocker", "Kari")
    save(page, {0: "3", 1: "8"}, ["51", "0"])
    expect(page.locator("#saved-line")).to_contain_text("Kari knocked and was undercut")
    choose(page, "knocker", "Kari")
    page.locator("input[name=gin]").check()
    save(page, {0: "10", 1: "0"}, ["51", "35"])
    expect(page.locator("#saved-line")).to_contain_text("Kari went gin")
    expect(page.locator(".sheet tbody th .kind")).to_have_text(["knock", "undercut", "gin"])


def test_an_elimination_is_announced_with_a_readable_badge(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"], elimination="40")
    choose(page, "closer", "Ann")
    save(page, {1: "10", 2: "45"}, ["−10", "10", "45"])
    expect(page.locator("#saved-line")).to_contain_text("Cid is out of the game.")
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    expect(announce).to_contain_text("Cid is out of the game.")
    badge = page.locator(".totals li.out .badge.out")
    expect(badge).to_contain_text("out after hand 1")
    ratio = badge.evaluate(CONTRAST)
    assert ratio >= 4.5, ratio


# The badge's text against its background, as drawn: no opacity on it or any ancestor.
CONTRAST = """(el) => {
  for (let n = el; n; n = n.parentElement) { if (parseFloat(getComputedStyle(n).opacity) < 1) return 0; }
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = rgb(c).map(lin); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const style = getComputedStyle(el);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


# ---------------------------------------------------------------- 5. confirmations


def test_ending_the_game_asks_first_and_is_gone_once_over(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "rummikub", ["Ola", "Kari"])
    choose(page, "winner", "Ola")
    save(page, {1: "12"}, ["12", "−12"])
    page.get_by_role("button", name="End the game now").click()
    expect(page.get_by_role("heading", name="End the game now?")).to_be_visible()
    page.get_by_role("link", name="No, keep playing").click()
    expect(page.locator("#new-hand-title")).to_contain_text("Hand 2")  # nothing ended
    page.get_by_role("button", name="End the game now").click()
    page.get_by_role("button", name="Yes, end the game").click()
    expect(page.locator(".game-over")).to_be_visible()
    expect(page.get_by_role("button", name="End the game now")).to_have_count(0)
    expect(page.get_by_role("button", name="Reopen the game")).to_be_visible()


def test_undoing_an_old_change_lists_the_hands_and_the_totals_it_moves(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "rummikub", ["Ola", "Kari"])
    for winner, counts, expected in (
        ("Ola", {1: "10"}, ["10", "−10"]),
        ("Kari", {0: "4"}, ["6", "−6"]),
        ("Ola", {1: "7"}, ["13", "−13"]),
    ):
        choose(page, "winner", winner)
        save(page, counts, expected)
    page.get_by_role("link", name="History").click()
    page.locator("li.card", has_text="Hand 1 recorded").get_by_role("button", name="Undo this change").click()
    expect(page.get_by_role("heading", name="Undo this change?")).to_be_visible()
    expect(page.locator(".undo-hands")).to_contain_text("hand 1 is deleted")
    expect(page.locator(".undo-hands")).to_contain_text("the running totals of hands 2, 3")
    expect(page.locator(".undo-totals tbody th")).to_have_text(["Ola", "Kari"])
    expect(page.locator(".undo-totals tbody td")).to_have_text(["13", "3", "−13", "−3"])
    page.get_by_role("button", name="Yes, undo it").click()
    expect(page.locator(".messages")).to_contain_text("Change undone.")
    page.get_by_role("link", name="Back to the score sheet").click()
    expect(page.locator(".totals .total")).to_have_text(["3", "−3"])


def test_undoing_the_last_change_needs_no_confirmation(phone: Any, live_server: Any) -> None:
    page = phone
    start_game(page, live_server.url, "rummikub", ["Ola", "Kari"])
    choose(page, "winner", "Ola")
    save(page, {1: "10"}, ["10", "−10"])
    page.get_by_role("link", name="History").click()
    page.get_by_role("button", name="Undo this change").click()
    expect(page.locator(".messages")).to_contain_text("Change undone.")


# ---------------------------------------------------------------- taps


def test_an_ordinary_four_player_zoliky_hand_is_five_taps_without_a_scroll(
    phone: Any, live_server: Any
) -> None:
    """Choose the closer, three counts, Save: every element acted on is on the screen when it is
    acted on, with nothing drawn over it, and the page never scrolls: for the first hand on the
    page as it opens, and for the next one as the page stands after that save."""
    page = phone
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid", "Dan"])
    taps: list[str] = []

    def act(selector: str, value: str | None = None) -> None:
        assert scroll_y(page) == before, (selector, scroll_y(page), before)  # no step scrolled the page
        target = page.locator(selector)
        box = target.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (selector, box)
        assert target.evaluate(ON_TOP, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]), selector
        if value is None:
            target.click(no_wait_after=True)
        else:
            target.fill(value)
        taps.append(selector)

    before = scroll_y(page)
    assert before == 0
    act("input[name=closer][value='Dan']")
    act("input[name=points_0]", "5")
    act("input[name=points_1]", "5")
    act("input[name=points_2]", "5")
    act("button.save")  # after it the page shows the saved line and the totals (a scroll of its own)
    expect(page.locator(".totals .total")).to_have_text(["5", "5", "5", "−10"])
    assert len(taps) == 5
    # The page now shows the saved line at the top (moved there once the answer settled, and
    # focused): the next hand, again without a scroll.
    expect(page.locator("#saved-line")).to_have_attribute("data-shown", "1")
    expect(page.locator("#saved-line")).to_be_focused()
    taps.clear()
    before = scroll_y(page)
    act("input[name=closer][value='Ann']")
    act("input[name=points_1]", "10")
    act("input[name=points_2]", "4")
    act("input[name=points_3]", "20")
    act("button.save")
    expect(page.locator(".totals .total")).to_have_text(["−5", "15", "9", "10"])
    assert len(taps) == 5


# The element (or its label) is what a tap at that point reaches.
ON_TOP = """(el, [x, y]) => {
  const hit = document.elementFromPoint(x, y);
  const labels = [...(el.labels || [])];
  return !!hit && (el.contains(hit) || hit.contains(el) || labels.some((l) => l.contains(hit)));
}"""
