"""At the table, in real Chromium on a 390 × 844 phone: start a game, record three hands (one
by tapping cards), correct the first hand and see the totals change; a Žolíky evening ends on
the settlement page; one run in Czech."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def start_game(page: Any, base: str, family: str, players: list[str], **options: str) -> None:
    page.goto(base + "/games/new/")
    page.locator(f"a[href$='/games/new/{family}/']").click()
    for i, name in enumerate(players, start=1):
        page.locator(f"input[name=player_{i}]").fill(name)
    if options:
        page.locator("details.house-rules summary").click()
        for name, value in options.items():
            page.locator(f"[name=opt_{name}]").fill(value)
    page.locator("form button[type=submit].primary").click()
    expect(page.locator("#game-body")).to_be_visible()


def totals(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".totals .total").all_inner_texts()]


def save_hand(
    page: Any, role: str | None, counts: dict[int, str], expected: list[str], **flags: bool
) -> None:
    if role is not None:
        page.locator(f"input[name={role.split('=')[0]}][value='{role.split('=')[1]}']").check()
    for flag, on in flags.items():
        page.locator(f"input[name={flag}]").set_checked(on)
    for i, value in counts.items():
        page.locator(f"input[name=points_{i}]").fill(value)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(expected)


def tap_cards(page: Any, player: int, cards: list[str], points: int) -> None:
    page.locator(f"[data-picker-for=id_cards_{player}]").click()
    for card in cards:
        page.locator(f"#picker [data-card='{card}']").click()
    expect(page.locator(f"#count-{player}")).to_contain_text(str(points))
    page.locator("#picker [data-picker-close]").click()


def correct_first_hand(page: Any, field: str, value: str, expected: list[str]) -> None:
    page.locator("a[href$='/hands/1/']").click()
    page.locator(f"input[name={field}]").fill(value)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(expected)


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_zoliky_evening_from_start_to_settlement(table_phone: Any, live_server: Any) -> None:
    page = table_phone
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"], elimination="0")
    assert no_horizontal_scroll(page)
    # Hand 1 by tapping Cid's cards: K♥ 5♠ joker = 10 + 5 + 15.
    page.locator("input[name=closer][value='Ann']").check()
    page.locator("input[name=points_1]").fill("23")
    tap_cards(page, 2, ["KH", "5S", "JK"], 30)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["−10", "23", "30"])
    assert page.locator("input[name=cards_2]").input_value() == ""  # a fresh form for the next hand
    save_hand(page, "closer=Bob", {0: "12", 2: "40"}, ["2", "13", "70"])
    save_hand(page, "closer=Cid", {0: "5", 1: "9"}, ["7", "22", "50"], from_hand=True)
    assert no_horizontal_scroll(page)
    correct_first_hand(page, "points_1", "33", ["7", "32", "50"])
    page.get_by_role("button", name="End the game now").click()
    page.get_by_role("button", name="Yes, end the game").click()  # asked first
    expect(page).to_have_url(re.compile(r"/settlement/$"))
    expect(page.locator("table.settlement tbody tr")).to_have_count(3)
    expect(page.locator(".payments li").first).to_contain_text("pays")
    assert no_horizontal_scroll(page)


def test_gin_game(table_phone: Any, live_server: Any) -> None:
    page = table_phone
    start_game(page, live_server.url, "gin", ["Ola", "Kari"])
    page.locator("input[name=knocker][value='Ola']").check()
    page.locator("input[name=points_0]").fill("4")
    tap_cards(page, 1, ["KH", "QH", "5S"], 25)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["21", "0"])
    save_hand(page, "knocker=Kari", {0: "30", 1: "0"}, ["21", "55"], gin=True)
    save_hand(page, "knocker=Ola", {0: "8", 1: "6"}, ["21", "82"], gin=False)
    page.locator("a[href$='/hands/1/']").click()
    page.locator("input[name=cards_1]").fill("")
    page.locator("input[name=points_1]").fill("14")
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["10", "82"])


def test_carousel_game_in_czech(table_phone: Any, live_server: Any) -> None:
    page = table_phone
    page.goto(live_server.url + "/")
    with page.expect_navigation():
        page.locator("#language-select").select_option("cs")
    start_game(page, live_server.url + "/cs", "carousel", ["Zuzana", "Milan", "Katka"])
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#new-hand-title")).to_contain_text("Hra 1")
    page.locator("input[name=knocker][value='Zuzana']").check()
    page.locator("input[name=points_0]").fill("3")
    page.locator("input[name=points_1]").fill("12")
    tap_cards(page, 2, ["7S", "Ž"], 32)  # Czech letters: S is srdce (hearts), Ž the joker
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["38", "0", "0"])
    save_hand(page, "out=Milan", {0: "10", 2: "5"}, ["38", "40", "0"])
    save_hand(page, "knocker=Katka", {0: "20", 1: "9", 2: "4"}, ["38", "40", "21"])
    correct_first_hand(page, "points_1", "22", ["48", "40", "21"])
    assert "Opravit" in page.content() or "oprav" in page.content()
    assert no_horizontal_scroll(page)


def test_rummikub_game(table_phone: Any, live_server: Any) -> None:
    page = table_phone
    start_game(page, live_server.url, "rummikub", ["Anna", "Piotr"])
    page.locator("input[name=winner][value='Anna']").check()
    tap_cards(page, 1, ["R7", "B13", "JK"], 50)
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["50", "−50"])
    save_hand(page, "winner=Piotr", {0: "12"}, ["38", "−38"])
    save_hand(page, "winner=", {0: "8", 1: "15"}, ["45", "−53"])
    page.locator("a[href$='/hands/1/']").click()
    page.locator("input[name=cards_1]").fill("R7")
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["2", "−10"])


def test_recording_works_without_javascript(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    start_game(page, live_server.url, "rummikub", ["Anna", "Piotr"])
    assert page.locator("[data-picker-for]").first.is_hidden()
    page.locator("input[name=winner][value='Anna']").check()
    page.locator("input[name=cards_1]").fill("R7 B13 JK")
    page.locator("button.save").click()
    expect(page.locator(".totals .total")).to_have_text(["50", "−50"])
    context.close()


def test_a_save_on_lost_wifi_waits_on_the_phone_and_is_recorded_once(
    table_phone: Any, live_server: Any
) -> None:
    # More in tests/browser/test_offline_browser.py (static/js/offline.js).
    page = table_phone
    start_game(page, live_server.url, "rummikub", ["Anna", "Piotr"])
    page.locator("input[name=winner][value='Anna']").check()
    page.locator("input[name=points_1]").fill("9")
    page.context.set_offline(True)
    page.locator("button.save").click()
    expect(page.locator("#offline-queue")).to_have_text("1 hand waiting to be sent")
    expect(page.locator(".offline")).to_be_hidden()
    page.context.set_offline(False)
    expect(page.locator(".totals .total")).to_have_text(["9", "−9"])
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert Hand.objects.count() == 1
