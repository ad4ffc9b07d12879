"""The home page in real Chromium on a phone-sized screen."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_on_a_phone_switches_language_without_horizontal_scroll(phone: Any, live_server: Any) -> None:
    phone.goto(live_server.url + "/")
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.get_by_role("heading", level=1).inner_text() == "Keep score at the card table"
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    with phone.expect_navigation():
        phone.get_by_label("Language").select_option("cs")
    assert phone.locator("html").get_attribute("lang") == "cs"
    assert phone.url.endswith("/cs/")
    assert phone.get_by_role("heading", level=1).inner_text() == "Počítejte body přímo u karetního stolu"
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate("typeof window.htmx") == "object"

    # Tap targets: every button, link in the header and form control is at least 44 px high.
    small = phone.evaluate(
        """[...document.querySelectorAll('button, select, .site-header a')]
            .filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML)"""
    )
    assert small == []


LONG = "Maximilián Šťastný-Křižovnický"
# Every word on the home on one line box: names and numbers break between words only.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('.home')) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def test_signed_in_home_on_a_phone_leads_to_tonights_table(phone: Any, live_server: Any) -> None:
    from games.models import Membership
    from tests.browser.test_pages_browser import CONTRASTS
    from tests.factories import UserFactory
    from tests.tournaments.pipeline import drain
    from tests.tournaments.support import ago, finished_game
    from tests.tournaments.test_home import ME, evening_of
    from tournaments.models import TableSeat

    me = UserFactory.create(username="anna")
    evening = evening_of(me, role=Membership.Role.SCOREKEEPER, name="Žolíkový klub Nové Město nad Metují")
    # A long name at the top of the season, as clubs have them.
    finished_game(evening.club, evening.organiser, [LONG, "Bára", "Cyril", "David"], at=ago(2))
    finished_game(evening.club, evening.organiser, [LONG, "Eva", "Filip", "Gita"], at=ago(2, 21))
    finished_game(evening.club, evening.organiser, [LONG, "Hana", "Filip", "Gita"], at=ago(2, 22))
    drain()
    seat = TableSeat.objects.select_related("table__game").get(
        table__round__tournament=evening.cup, table__round__number=1, entry__player__name=ME
    )
    assert seat.table.game is not None

    phone.goto(live_server.url + "/accounts/login/")
    phone.locator("input[name=username]").fill("anna")
    phone.locator("input[name=password]").fill("table-Secret-1")
    phone.locator("form button[type=submit].primary").click()
    phone.goto(live_server.url + "/")

    where = f"Table {seat.table.number}, seat {seat.position + 1}"
    expect(phone.locator(".home-tonight .home-seat")).to_have_text(where)
    # Tonight comes first: the seat is on the first screen, above the games and the season.
    box = phone.locator(".home-tonight .home-action").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740
    assert phone.locator(".home-lines").first.inner_text().count(LONG) == 1
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate(BROKEN_WORDS) == []
    small = phone.evaluate(
        """[...document.querySelectorAll('.home .home-action, .home .home-row')]
            .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
            .map(e => e.outerHTML)"""
    )
    assert small == []
    # Both schemes: the cards take the scheme's surface and every text keeps its contrast.
    for scheme, surface in (("light", "rgb(255, 255, 255)"), ("dark", "rgb(28, 31, 29)")):
        phone.emulate_media(color_scheme=scheme)
        assert (
            phone.evaluate("getComputedStyle(document.querySelector('.home-card')).backgroundColor")
            == surface
        )
        texts = phone.evaluate(CONTRASTS, ".home *")
        low = [(text, ratio) for text, ratio in texts if ratio < 4.5]
        assert len(texts) > 20 and low == [], (scheme, low)
    phone.emulate_media(color_scheme="light")

    phone.set_viewport_size({"width": 390, "height": 844})
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate(BROKEN_WORDS) == []

    phone.locator(".home-tonight .home-action").click()
    expect(phone).to_have_url(live_server.url + f"/g/{seat.table.game.public_id}/")
