"""A 9-player Žolíky evening in Chromium at 390 × 844, in English and Slovak: the organiser
creates it with a final table and a 30-minute round clock, registers the players, opens the
self check-in at the door, where each player finds his name on the door's phone (typed without
accents) and checks himself in; two rounds are played with the clock running, the final table
of the top 4 is seated, named "Final" and played, the pairings are printed (A4, through
Chromium's PDF output) and the places the final decided are read.

The steps are functions (``create_tournament``, ``register``, ``play_round``, ``start_final``,
``print_pdf``…) so that a longer journey can compose them with other steps. Selectors are
structural (form actions, names, classes), never translated text. The hands are recorded
through the games' services: entering them on a table's phone is its own browser test."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from playwright.sync_api import expect

from games.services.hands import hand_record
from tests.browser.test_print_pdf_browser import print_pdf
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.browser.test_tournament_browser import log_in, register
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Entry, Round, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PLAYERS = ["Adam", "Beáta", "Cyril", "Dáša", "Emil", "Filoména", "Gustáv", "Hedviga", "Ivan"]
LOCALES = {"en": "en-GB", "sk": "sk-SK"}
WORDS = {
    "en": {"pairings": "Pairings: Round", "table": "Table", "seat": "Seat", "final": "Final"},
    "sk": {"pairings": "Rozsadenie: Turnajové kolo", "table": "Stôl", "seat": "Miesto", "final": "Finále"},
}
# Each player as he types his name at the door: no accents, any case.
TYPED = {
    name: unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower() for name in PLAYERS
}


@pytest.fixture
def organiser_phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    language = request.node.callspec.params["language"]
    page = new_page(browser, width=390, height=844, locale=LOCALES[language])
    yield page
    page.context.close()


def create_tournament(
    page: Any,
    base: str,
    slug: str,
    *,
    name: str,
    family: str,
    rounds: int,
    final: str = "table",
    minutes: int = 0,
) -> str:
    """From the club's new-tournament form: ``rounds`` rounds of one hand (and a clock of
    ``minutes``) and a final that decides the top places. Returns the tournament's public id."""
    page.goto(f"{base}/c/{slug}/tournaments/new/?family={family}")
    page.locator("input[name=name]").fill(name)
    page.locator("input[name=rounds]").fill(str(rounds))
    page.locator("input[name=round_hands]").fill("1")
    page.locator("input[name=round_minutes]").fill(str(minutes))
    page.locator(f"input[name=final][value={final}]").check()
    page.locator("input[name=final_counts][value=decides]").check()
    assert no_horizontal_scroll(page)
    page.locator("form button[type=submit].primary").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/players/$"))
    match = re.search(r"/t/([\w-]+)/players/$", page.url)
    assert match is not None
    return match[1]


def door_link(page: Any, base: str, public_id: str) -> str:
    """On the players page: open the self check-in; its link (the door's QR code beside it)."""
    page.goto(f"{base}/t/{public_id}/players/")
    door = page.locator("details#door")
    door.locator("summary").click()
    door.locator("form[action$='/door/'] button[value=open]").click()
    expect(page.locator("details#door[open] .qr svg")).to_be_visible()
    assert no_horizontal_scroll(page)
    link: str = page.locator("#door-link").input_value()
    return re.sub(r"^https?://[^/]+", "", link)


def check_in_at_the_door(door: Any, url: str, names: Sequence[str]) -> None:
    """One phone at the door: each player types his name as he would and taps it."""
    answer = door.goto(url)
    assert answer is not None and answer.status == 200, (url, answer and answer.status)
    for name in names:
        door.locator("input[name=q]").fill(TYPED[name])
        door.locator("form[role=search] button[type=submit]").click()
        found = door.locator("ul.seat-results li", has_text=name)
        expect(found).to_have_count(1)
        found.locator("form button[type=submit]").click()
        expect(door.locator(".card.done")).to_contain_text(name)
        assert no_horizontal_scroll(door)


def record_tables(public_id: str, number: int, winners: Sequence[str] = ()) -> None:
    """One Žolíky hand at every table of round ``number``: a listed winner (else seat 1)
    closes, the others keep 10, 20, 30… (lower is better)."""
    played = Round.objects.get(tournament__public_id=public_id, number=number)
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        first = next((w for w in winners if w in names), names[0])
        others = [n for n in names if n != first]
        outcome = {"closer": first, "left": {n: 10 * (i + 1) for i, n in enumerate(others)}}
        hand_record(game=table.game, outcome=outcome, request_id=None, user=None)


def start_round(page: Any, base: str, public_id: str, number: int) -> None:
    """On the round's page (seated): start it; the links page shows a QR code per table, and
    with a clock the round's page counts its minutes down."""
    page.goto(f"{base}/t/{public_id}/r/{number}/")
    page.locator(f"form[action$='/r/{number}/start/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/r/{number}/links/$"))
    tables = Table.objects.filter(round__tournament__public_id=public_id, round__number=number).count()
    expect(page.locator(".table-links .qr svg")).to_have_count(tables)
    if Tournament.objects.get(public_id=public_id).round_minutes:
        page.goto(f"{base}/t/{public_id}/r/{number}/")
        expect(page.locator(".round-clock strong")).to_have_text(re.compile(r"^(29|30):\d\d$"))


def confirm_round(page: Any, base: str, public_id: str, number: int) -> None:
    page.goto(f"{base}/t/{public_id}/r/{number}/")
    page.locator(f"form[action$='/r/{number}/confirm/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/t/{public_id}/standings/$"))


def play_round(page: Any, base: str, public_id: str, number: int, winners: Sequence[str] = ()) -> None:
    """Seat round ``number`` from the overview, start it, record its hands, confirm it."""
    page.goto(f"{base}/t/{public_id}/")
    page.locator(f"form[action$='/r/{number}/seat/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/t/{public_id}/r/{number}/$"))
    assert no_horizontal_scroll(page)
    start_round(page, base, public_id, number)
    record_tables(public_id, number, winners)
    confirm_round(page, base, public_id, number)


def standings_names(page: Any, base: str, public_id: str) -> list[str]:
    page.goto(f"{base}/t/{public_id}/standings/")
    names: list[str] = page.locator("table.standings tbody tr th.name a").all_inner_texts()
    return [n.strip() for n in names]


def start_final(page: Any, base: str, public_id: str) -> int:
    """Seat the final from the overview and start it. Returns its round number."""
    page.goto(f"{base}/t/{public_id}/")
    page.locator(f"form[action$='/t/{public_id}/final/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/t/{public_id}/r/\d+/$"))
    match = re.search(r"/r/(\d+)/$", page.url)
    assert match is not None
    number = int(match[1])
    start_round(page, base, public_id, number)
    return number


def print_pairings(page: Any, base: str, public_id: str, number: int) -> list[str]:
    """One tap from the round's page to its pairings, printed to A4: each PDF page's text."""
    page.goto(f"{base}/t/{public_id}/r/{number}/")
    page.locator(f"a[href$='/t/{public_id}/r/{number}/print/']").click()
    expect(page).to_have_url(re.compile(rf"/r/{number}/print/$"))
    assert no_horizontal_scroll(page)
    return print_pdf(page, page.url)


@pytest.mark.parametrize("language", ["en", "sk"])
def test_a_zoliky_evening_with_check_in_a_clock_a_final_table_and_printed_pairings(
    organiser_phone: Any, browser: Any, live_server: Any, language: str
) -> None:
    page = organiser_phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    base = live_server.url + ("" if language == "en" else f"/{language}")
    club = ClubFactory.create(name="Klub v stredu", organiser=UserFactory.create(username="olga"))
    log_in(page, base, "olga")
    public_id = create_tournament(
        page, base, club.slug, name="Jesenný pohár", family="zoliky", rounds=2, minutes=30
    )
    cup = Tournament.objects.get(public_id=public_id)
    assert (cup.final, cup.final_counts, cup.round_minutes) == ("table", "decides", 30)
    register(page, PLAYERS, here=False)
    url = door_link(page, base, public_id)
    door = new_page(browser, width=390, height=844, locale=LOCALES[language])
    try:
        # The link as the organiser's page gives it: in his language (the address's prefix).
        check_in_at_the_door(door, live_server.url + url, PLAYERS)
    finally:
        door.context.close()
    assert Entry.objects.filter(tournament=cup, checked_in=True).count() == len(PLAYERS)

    play_round(page, base, public_id, 1)
    pages = print_pairings(page, base, public_id, 1)
    words = WORDS[language]
    flat = re.sub(r"\s+", " ", pages[0])
    assert f"{words['pairings']} 1" in flat
    assert all(name in flat for name in PLAYERS)
    assert f"{words['table']} 1" in flat and f"{words['seat']} 1" in flat
    assert len(pages) == 2  # the tables, then everyone by name

    play_round(page, base, public_id, 2)
    top = standings_names(page, base, public_id)[:4]
    final = start_final(page, base, public_id)
    assert final == 3
    words = WORDS[language]
    page.goto(f"{base}/t/{public_id}/r/{final}/")
    expect(page.locator("main h2").first).to_contain_text(words["final"])
    pages = print_pairings(page, base, public_id, final)
    flat = re.sub(r"\s+", " ", pages[0])
    assert all(name in flat for name in top)
    assert not any(name in flat for name in PLAYERS if name not in top)
    # The fourth seed wins the final table: the final decides the places.
    record_tables(public_id, final, winners=[top[3]])
    confirm_round(page, base, public_id, final)
    after = standings_names(page, base, public_id)
    assert after[:4] == [top[3], top[0], top[1], top[2]]
    expect(page.locator(".final-note")).to_have_count(1)  # the standings say the final decided
    assert no_horizontal_scroll(page)
    assert errors == []
