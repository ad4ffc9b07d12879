"""A wrong elimination fixed in place, in real Chromium on a 390 × 844 phone:
Bob's 15 typed as 150 puts him out; three hands are recorded without him; correcting hand 1
shows his counts missing and the totals incomplete; one page fills the three counts (one by
tapping cards) with one save, and the totals are complete."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser.test_table_browser import no_horizontal_scroll, save_hand, start_game
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def test_a_wrong_elimination_is_fixed_without_retyping_the_evening(
    table_phone: Any, live_server: Any
) -> None:
    page = table_phone
    problems: list[str] = []  # script errors and policy (CSP) reports, on every page
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"])
    save_hand(page, "closer=Ann", {1: "150", 2: "20"}, ["−10", "150", "20"])
    expect(page.locator("input[name=points_1]")).to_have_count(0)  # Bob is out: not asked
    save_hand(page, "closer=Cid", {0: "30"}, ["20", "150", "10"])
    save_hand(page, "closer=Ann", {2: "25"}, ["10", "150", "35"])
    save_hand(page, "closer=Cid", {0: "12"}, ["22", "150", "25"])

    # Correct hand 1: Bob had 15.
    page.locator("a[href$='/hands/1/']").click()
    page.locator("input[name=points_1]").fill("15")
    page.locator("button.save").click()
    notice = page.locator(".incomplete")
    expect(notice).to_contain_text("The totals are incomplete.")
    expect(notice).to_contain_text("Bob's count missing in hands 2, 3, 4")
    expect(page.locator(".totals .total")).to_have_text(["22", "15", "25"])
    expect(page.locator(".totals .badge.missing")).to_have_text(["incomplete"])
    expect(page.locator("table.sheet td.missing")).to_have_count(3)
    assert no_horizontal_scroll(page)

    # One page, one field per hand, one save; hand 3's count by tapping the cards.
    notice.get_by_role("link", name="Fill in the missing counts").click()
    expect(page.locator("input[name$=points_1]")).to_have_count(3)
    page.locator("input[name=h2-points_1]").fill("20")
    page.locator("[data-picker-for='id_h3-cards_1']").click()
    for card in ("5S", "3H"):
        page.locator(f"#picker [data-card='{card}']").click()
    expect(page.locator("#count-h3-1")).to_contain_text("8")
    page.locator("#picker [data-picker-close]").click()
    page.locator("input[name=h4-points_1]").fill("31")
    assert no_horizontal_scroll(page)
    page.locator("button.save").click()

    expect(page.locator(".messages")).to_contain_text("Counts saved.")
    expect(page.locator(".totals .total")).to_have_text(["22", "74", "25"])
    expect(page.locator(".incomplete")).to_have_count(0)
    expect(page.locator("table.sheet td.missing")).to_have_count(0)
    assert [h.outcome["left"].get("Bob") for h in Hand.objects.order_by("number")] == [15, 20, "5S 3H", 31]
    # The next hand asks Bob again.
    expect(page.locator("input[name=points_1]")).to_have_count(1)
    assert problems == []
