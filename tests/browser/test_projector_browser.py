"""The projector page fits its screen: at 1920 × 1080 and 1280 × 720 every standings row shown,
with its tie-break note, lies inside the viewport (nothing below the fold: nobody scrolls a
projector), and the page turns bring every player on screen. Twelve players with long names
and the longest default note ("Below … on game score per table"; longest in Slovak) on most
rows, while a round is being played (its tables shown above the standings)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from games.services.hands import hand_record
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import rummikub_hand, tournament
from tournaments.models import Table
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start

SHOTS = os.environ.get("PROJECTOR_SHOTS", "")  # a folder for screenshots, to look at them
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The note of the default tie-break after points, in English and in its longest translation.
LONGEST_NOTE = {"en": "on game score per table", "sk": "rozhodli body z partií na stôl"}
LONG_NAMES = [
    "Maximilián Šťastný-Křižovnický",
    "Łucja Żółć-Wiśniewska",
    "Bartholomew Fitzgerald-Smythe",
    "Zuzana Novotná-Dvořáková",
    "Katarína Hrušovská-Mináriková",
    "Przemysław Grzegorzewski",
    "Ingrid Solveig Bjørnstad",
    "Jaroslav Vondráček-Procházka",
    "Agnieszka Brzęczyszczykiewicz",
    "Tomáš Kováč-Hornáček",
    "Ragnhild Østensjø-Haugland",
    "Wiesława Szczepańska-Kołodziej",
]


def seed() -> Any:
    """Round 1 confirmed, the three tables' places alike but their game scores apart (every
    place shared on points, split by the game score per table: a note under most rows), and
    round 2 being played."""
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, players=LONG_NAMES, rounds=3)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for i, table in enumerate(Table.objects.filter(round=played).select_related("game").order_by("number")):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        scores = {name: (k + 1) * 5 + i for k, name in enumerate(names[1:])}
        hand_record(game=table.game, outcome=rummikub_hand(names, scores), request_id=None, user=organiser)
    played = round_confirm(played=played, round_version=played.version, user=organiser)
    second = round_seat(tournament=cup, number=2, user=organiser)
    round_start(played=second, round_version=second.version, user=organiser)
    return cup


@pytest.fixture
def projector(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def shown_rows(page: Any) -> list[dict[str, Any]]:
    """Each standings row on screen: its name, its note's text, and the bottom of the row and
    of its note, in CSS pixels from the top of the viewport."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.screen-standings tbody tr:not(.note)')).map(row => {
          const under = row.nextElementSibling;
          const note = under && under.classList.contains('note')
            ? under.querySelector('.tiebreak:not(.shared)') : null;
          const box = row.getBoundingClientRect();
          const noteBox = note ? note.getBoundingClientRect() : null;
          return {
            name: (row.querySelector('.name a') || row.querySelector('.name')).textContent.trim(),
            note: note ? note.textContent.trim() : '',
            top: box.top, bottom: box.bottom, right: box.right,
            noteBottom: noteBox ? noteBox.bottom : 0, noteRight: noteBox ? noteBox.right : 0,
            noteVisible: noteBox ? noteBox.height > 0 : false,
            noteCut: note ? note.scrollWidth > note.clientWidth + 1 : false,
          };
        })"""
    )


@pytest.mark.parametrize("language", ["en", "sk"])
@pytest.mark.parametrize("projector", [(1920, 1080), (1280, 720)], indirect=True, ids=["1080p", "720p"])
def test_the_projector_shows_whole_rows_with_notes_and_everyone_across_its_pages(
    projector: Any, live_server: Any, language: str
) -> None:
    cup = seed()
    page = projector
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    seen: dict[str, str] = {}
    prefix = "" if language == "en" else f"/{language}"
    page.goto(f"{live_server.url}{prefix}/t/{cup.public_id}/screen/")
    page.wait_for_selector("#screen[data-fitted]")  # screen.js has asked for as many rows as fit
    pages = int(page.locator("#screen").get_attribute("data-pages"))
    fitted = urlsplit(page.url)
    for number in range(1, pages + 1):
        if number > 1:
            asked = dict(parse_qsl(fitted.query), page=str(number))  # the rows screen.js asked for
            page.goto(fitted._replace(query=urlencode(asked)).geturl())
            page.wait_for_selector("#screen[data-fitted]")
            assert dict(parse_qsl(urlsplit(page.url).query)) == asked  # no fewer rows needed
        assert page.evaluate("window.scrollY") == 0
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/projector-{language}-{width}-{number}.png")
        rows = shown_rows(page)
        assert rows, f"screen {number} shows no standings"
        for row in rows:
            where = f"{row['name']} on screen {number} of {pages} at {width}×{height}"
            assert 0 <= row["top"] and row["bottom"] <= height, f"{where}: row ends at {row['bottom']}"
            assert row["right"] <= width, f"{where}: row reaches {row['right']}"
            if row["note"]:
                assert row["noteVisible"], f"{where}: its note is hidden"
                assert not row["noteCut"], f"{where}: its note is cut short"
                assert row["noteBottom"] <= height and row["noteRight"] <= width, f"{where}: note outside"
            seen[row["name"]] = row["note"]
    assert sorted(seen) == sorted(LONG_NAMES)
    notes = [note for note in seen.values() if note]
    # The longest default note is there to be measured.
    assert any(LONGEST_NOTE[language] in note for note in notes), seen
    assert len(notes) >= 6, seen
