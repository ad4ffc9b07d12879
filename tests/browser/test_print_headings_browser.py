"""On paper a page's heading says what the page is, without the links beside it that are
there to be tapped ("… 05/01/2027 · Settings", "Podzimní liga · Ratings"); and paper shows
what a phone hides behind a tap (the class ``phone-more``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.models import Player
from tests.browser.test_tournament_browser import log_in
from tests.conftest import new_page
from tests.tournaments.support import small_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The heading and the line under it, as they read.
HEADING_TEXT = """() => Array.from(document.querySelectorAll('main h1, main .club-line'))
  .map(element => element.innerText).join(' | ')"""
LINKS_BESIDE = """() => Array.from(document.querySelectorAll('main .club-line a'))
  .map(link => link.innerText.trim())"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def test_printed_headings_carry_no_link_text(phone: Any, live_server: Any) -> None:
    league = small_league()
    season, club = league["season"], league["club"]
    player = Player.objects.filter(club=club, name="Ann").get()
    base = live_server.url
    log_in(phone, base, league["organiser"].username)
    pages = {
        f"/s/{season.public_id}/": ["Settings"],
        f"/s/{season.public_id}/players/{player.pk}/": ["Ratings"],
        f"/c/{club.slug}/players/{player.pk}/ratings/": ["Player page", "Head to head"],
    }
    for path, links in pages.items():
        phone.goto(base + path)
        on_screen = phone.evaluate(HEADING_TEXT)
        assert all(link in phone.evaluate(LINKS_BESIDE) for link in links), path
        assert all(link in on_screen for link in links), (path, on_screen)  # tapped on a phone
        phone.emulate_media(media="print")
        on_paper = phone.evaluate(HEADING_TEXT)
        phone.emulate_media(media="screen")
        for link in links:
            assert link not in on_paper, (path, on_paper)
        assert not on_paper.rstrip().endswith("·"), on_paper  # no separator left dangling
        # What the heading says stays: the page's name and the club's or season's.
        assert on_paper.split(" | ")[0] == on_screen.split(" | ")[0]
        assert club.name in on_paper or season.name in on_paper, on_paper


def test_paper_shows_what_a_phone_hides_behind_a_tap(phone: Any, live_server: Any) -> None:
    league = small_league()
    phone.goto(f"{live_server.url}/s/{league['season'].public_id}/")
    # A column as a phone layout hides it (a rule or the page's script, either way).
    hidden = """() => {
      const cells = document.querySelectorAll('.standings tr > :last-child');
      cells.forEach(cell => { cell.classList.add('phone-more'); cell.style.display = 'none'; });
      return cells.length;
    }"""
    assert phone.evaluate(hidden) > 1
    shown = """() => Array.from(document.querySelectorAll('.phone-more'))
      .map(cell => getComputedStyle(cell).display)"""
    assert set(phone.evaluate(shown)) == {"none"}
    phone.emulate_media(media="print")
    assert set(phone.evaluate(shown)) == {"table-cell"}
