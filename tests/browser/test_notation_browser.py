"""A Czech page reads the cards in Czech letters and shows them as symbols before Save, on a
390 × 844 phone in Chromium."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import GameFactory
from tests.games.test_views import editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844, locale="cs-CZ")
    yield page
    page.context.close()


def test_czech_letters_show_as_symbols_before_saving(page: Any, live_server: Any) -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/cs/g/{game.public_id}/")
    expect(page.locator("#cards-letters")).to_contain_text("P ♠ S ♥ K ♦")
    page.locator("input[name=cards_2]").fill("KS 5P")
    count = page.locator("#count-2")
    expect(count.locator(".chip-card")).to_have_text(["K♥", "5♠"])
    expect(count).to_contain_text("15")
    assert not Hand.objects.filter(game=game).exists()  # nothing saved yet
    assert no_horizontal_scroll(page)
