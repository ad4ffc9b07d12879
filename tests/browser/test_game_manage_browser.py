"""An organiser's card on a club game's page, in real Chromium on a 390 × 844 phone: he gives
the game to another scorekeeper, deletes it (asked first), sees the deleted game's page and
brings it back with Undo; nothing scrolls sideways."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, Membership
from games.services.games import game_start
from tests.browser.test_club_browser import log_in
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def test_an_organiser_gives_on_deletes_and_brings_back_a_club_game(phone: Any, live_server: Any) -> None:
    base = live_server.url
    olga = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Úterní klub", organiser=olga)
    starter = add_member(club, UserFactory.create(username="radek"), Membership.Role.SCOREKEEPER).user
    add_member(club, UserFactory.create(username="kaja", first_name="Kája"), Membership.Role.SCOREKEEPER)
    game = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=starter, club=club)
    log_in(phone, base, "olga")
    phone.goto(f"{base}/g/{game.public_id}/")
    card = phone.locator(".organiser-tools")
    expect(card).to_be_visible()
    card.scroll_into_view_if_needed()
    assert no_horizontal_scroll(phone)
    card.locator("select[name=to]").select_option(label="Kája")
    card.get_by_role("button", name="Give the game").click()
    expect(phone.locator(".messages, [role=status]").first).to_be_attached()
    assert Game.objects.filter(pk=game.pk, owner__username="kaja").exists()

    phone.locator(".organiser-tools").get_by_role("button", name="Delete the game").click()
    expect(phone.locator("h1")).to_have_text("Delete the game?")
    assert no_horizontal_scroll(phone)
    phone.get_by_role("button", name="Yes, delete the game").click()
    expect(phone.locator("h1")).to_have_text("This game was deleted")
    assert no_horizontal_scroll(phone)
    assert Game.objects.get(pk=game.pk).deleted_at is not None
    phone.get_by_role("button", name="Undo: bring the game back").click()
    expect(phone.locator(".organiser-tools")).to_be_visible()
    assert Game.objects.get(pk=game.pk).deleted_at is None
