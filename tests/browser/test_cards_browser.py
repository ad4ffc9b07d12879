"""Cards and tiles on a 390 × 844 phone in Chromium: the picker's
count and "Done" stay on screen while tapping, tiles and cards are named for screen readers,
melds are checked and hands arranged by tapping, and the history shows cards as cards."""

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.services.hands import hand_record
from tests.browser.test_table_browser import no_horizontal_scroll, start_game
from tests.conftest import new_page
from tests.factories import GameFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=WIDTH, height=HEIGHT)
    yield page
    page.context.close()


def in_view(locator: Any) -> bool:
    box = locator.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= HEIGHT
        and box["x"] >= 0
        and (box["x"] + box["width"] <= WIDTH)
    )


def test_picker_count_and_done_stay_in_view_while_tapping(page: Any, live_server: Any) -> None:
    start_game(page, live_server.url, "zoliky", ["Ann", "Bob", "Cid"])
    page.locator("[data-picker-for=id_cards_2]").click()
    picker = page.locator("#picker")
    expect(picker).to_be_visible()
    done = picker.get_by_role("button", name="Done")
    status = picker.locator(".picker-status")
    # 13 cards from every row of the picker, the last ones at the bottom of its keys.
    cards = ["AS", "5S", "KH", "QH", "2D", "9D", "TD", "3C", "8C", "KC", "QC", "JC", "JK"]
    for tapped, card in enumerate(cards, start=1):
        key = picker.locator(f"[data-card='{card}']")
        key.scroll_into_view_if_needed()
        key.tap()
        expect(status).to_contain_text(f"Cards: {tapped}")
        assert in_view(done), card
        assert in_view(status), card
        assert in_view(key), card
    # the count the server works out for the field is shown in the picker's head too
    expect(status.locator(".picker-count")).to_contain_text("points")
    expect(page.locator("#count-2")).to_contain_text("points")
    assert no_horizontal_scroll(page)
    done.tap()
    expect(picker).to_be_hidden()
    assert page.locator("input[name=cards_2]").input_value() == " ".join(cards)


def test_tiles_and_cards_are_named_for_screen_readers(page: Any, live_server: Any) -> None:
    start_game(page, live_server.url, "rummikub", ["Anna", "Piotr"])
    page.locator("[data-picker-for=id_cards_1]").click()
    picker = page.locator("#picker")
    red7 = picker.get_by_role("button", name="red 7", exact=True)
    expect(red7).to_be_visible()
    expect(red7).to_have_text("R7")  # the colour letter as well as the colour
    expect(picker.get_by_role("button", name="black 12", exact=True)).to_have_text("K12")
    expect(picker.get_by_role("button", name="joker", exact=True)).to_be_visible()
    # the tiles' rows differ by more than the text colour: a border pattern per colour
    styles = page.evaluate(
        """() => ['tile-black', 'tile-blue', 'tile-red', 'tile-yellow'].map(c => getComputedStyle(
            document.querySelector('.picker-row.' + c + ' button')).borderBottomStyle)"""
    )
    assert len(set(styles)) == 4, styles
    red7.tap()
    expect(page.locator("input[name=cards_1]")).to_have_value("R7")

    game = GameFactory.create(family="gin")
    page.goto(f"{live_server.url}/g/{game.public_id}/arrange/")
    page.get_by_role("button", name="Tap the cards").click()
    king = page.locator("#picker").get_by_role("button", name="king of hearts", exact=True)
    expect(king).to_have_text("K♥")


def test_meld_check_by_tapping_with_new_meld(page: Any, live_server: Any) -> None:
    game = GameFactory.create(family="zoliky")
    page.goto(f"{live_server.url}/g/{game.public_id}/check/")
    page.get_by_role("button", name="Tap the cards").click()
    picker = page.locator("#picker")
    for card in ["AS", "2S", "3S"]:
        picker.locator(f"[data-card='{card}']").tap()
    picker.get_by_role("button", name="New meld").tap()
    for card in ["7H", "7D", "7C"]:
        picker.locator(f"[data-card='{card}']").tap()
    expect(picker.locator(".picker-status")).to_contain_text("Cards: 6")
    assert in_view(picker.get_by_role("button", name="Done"))
    picker.get_by_role("button", name="Done").tap()
    expect(page.locator("#melds")).to_have_value("AS 2S 3S | 7H 7D 7C")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#check-result")).to_contain_text("Valid: 27 points")
    assert no_horizontal_scroll(page)


def test_arrange_a_hand_by_tapping(page: Any, live_server: Any) -> None:
    game = GameFactory.create(family="gin")
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    page.get_by_role("link", name="Arrange a hand").click()
    page.get_by_role("button", name="Tap the cards").click()
    picker = page.locator("#picker")
    expect(picker.get_by_role("button", name="New meld")).to_be_hidden()  # one hand, no melds to separate
    for card in ["AS", "2S", "3S", "5H", "5D", "5C", "7H", "8H", "9H", "TD"]:
        key = picker.locator(f"[data-card='{card}']")
        key.scroll_into_view_if_needed()
        key.tap()
    expect(picker.locator(".picker-status")).to_contain_text("Cards: 10")
    picker.get_by_role("button", name="Done").tap()
    page.get_by_role("button", name="Arrange", exact=True).click()
    expect(page.locator(".deadwood")).to_contain_text("Deadwood: 10♦ — 10 points")
    expect(page.locator("#knock-verdict")).to_contain_text("May knock: deadwood 10, the limit is 10.")
    expect(page.get_by_role("img", name="ace of spades").first).to_have_text("A♠")
    assert no_horizontal_scroll(page)


def test_history_shows_cards_as_cards(page: Any, live_server: Any) -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob"])
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": "KH 5S"}}, request_id=uuid.uuid4(), user=None
    )
    page.goto(f"{live_server.url}/g/{game.public_id}/history/")
    king = page.get_by_role("img", name="king of hearts")
    expect(king).to_have_text("K♥")
    expect(page.get_by_role("img", name="5 of spades")).to_have_text("5♠")
    colour = king.evaluate("e => getComputedStyle(e).color")
    black = page.get_by_role("img", name="5 of spades").evaluate("e => getComputedStyle(e).color")
    assert colour != black  # red and black suits differ
    expect(page.locator("ol.history")).not_to_contain_text("KH")
    assert no_horizontal_scroll(page)
