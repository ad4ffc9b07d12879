"""The tournament's print pages through Chromium's PDF output (A4): the pairings, a score slip
per table and the standings, with their page counts and text, and nothing of the site's
navigation on paper."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pypdf import PdfReader

from tests.browser.test_tournament_browser import log_in
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import NAMES, play_round, tournament
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def print_pdf(page: Any, url: str) -> list[str]:
    """Open ``url`` and print it as Chromium does to A4: each page's text."""
    page.goto(url)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    page.emulate_media(media="screen")
    reader = PdfReader(io.BytesIO(pdf))
    for sheet in reader.pages:
        width, height = float(sheet.mediabox.width), float(sheet.mediabox.height)
        assert abs(width - 595.3) < 1.5 and abs(height - 841.9) < 1.5  # A4 in points
    return [sheet.extract_text() for sheet in reader.pages]


@pytest.fixture
def organiser_page(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    yield page
    page.context.close()


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_pairings_slips_and_standings_print_on_a4(organiser_page: Any, live_server: Any) -> None:
    organiser = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Klub", organiser=organiser)
    cup = tournament(club, organiser, players=12, rounds=2)  # Rummikub: 3 tables of 4
    play_round(cup, 1, organiser)
    play_round(cup, 2, organiser, confirm=False)
    base = live_server.url
    page = organiser_page
    log_in(page, base, "olga")

    # One tap from the round page.
    page.goto(f"{base}/t/{cup.public_id}/r/2/")
    page.locator(f"a[href$='/t/{cup.public_id}/r/2/print/']").click()
    pages = print_pdf(page, page.url)
    # The tables on the first sheet, everyone by name on the second.
    assert len(pages) == 2
    first = _flat(pages[0])
    assert "Pairings: Round 2" in first
    for number in (1, 2, 3):
        assert f"Table {number}" in first
    assert all(name in first for name in NAMES[:12])
    assert "Seat 4" in first
    assert "Where do I sit? Round 2" in _flat(pages[1])
    assert all(name in pages[1] for name in NAMES[:12])
    # No navigation, no buttons on paper.
    assert "Back" not in first and "Print" not in first.replace("Pairings", "")

    # A slip per table, each with its players and a row per hand.
    page.goto(f"{base}/t/{cup.public_id}/r/2/")
    page.locator(f"a[href$='/t/{cup.public_id}/r/2/slips/']").click()
    slips = print_pdf(page, page.url)
    assert len(slips) == 3
    seated = Round.objects.get(tournament=cup, number=2).tables.order_by("number")
    for text, table in zip(slips, seated, strict=True):
        flat = _flat(text)
        assert f"Round 2, table {table.number}" in flat
        assert all(seat.entry.player.name in flat for seat in table.seats.select_related("entry__player"))
        assert "Total" in flat
    assert page.locator(".slip .qr svg").count() == 3

    # The standings.
    page.goto(f"{base}/t/{cup.public_id}/standings/")
    page.locator(f"a[href$='/t/{cup.public_id}/standings/print/']").click()
    standings = print_pdf(page, page.url)
    assert len(standings) == 1
    flat = _flat(standings[0])
    assert "Standings" in flat and "Average place" in flat
    assert all(name in flat for name in NAMES[:12])


def test_slips_are_for_the_organisers_only(client: Any) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, players=8)
    play_round(cup, 1, organiser, confirm=False)
    assert client.get(f"/t/{cup.public_id}/r/1/print/").status_code == 200
    assert client.get(f"/t/{cup.public_id}/r/1/slips/").status_code in (302, 403)
    client.force_login(organiser)
    response = client.get(f"/t/{cup.public_id}/r/1/slips/")
    assert response.status_code == 200
    assert response.content.count(b"<svg") >= 2
    assert client.get(f"/t/{cup.public_id}/r/9/print/").status_code == 404
