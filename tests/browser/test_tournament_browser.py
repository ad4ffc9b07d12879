"""A whole club tournament in real Chromium on 390 × 844 phones (one run in English, one in
Polish): the organiser creates a Rummikub tournament, registers 12 players (one checked in by
its button), and plays 3 rounds of 3 tables — each round seated, started, recorded from three
table phones that opened the tables' links (no account) and confirmed. A table's hand corrected
after its round was confirmed changes the standings, and the tournament's history says so.

Selectors are structural (form actions, classes, names), never translated text, so the same
steps run in every language."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "table-Secret-1"
PLAYERS = [
    "Ania", "Bartek", "Celina", "Darek", "Ewa", "Franek",
    "Grażyna", "Henryk", "Iga", "Jacek", "Kasia", "Łukasz",
]  # fmt: skip
LOCALES = {"en": "en-GB", "pl": "pl-PL", "cs": "cs-CZ"}


@pytest.fixture
def phones(browser: Any, request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """The organiser's phone and three table phones, each its own browser context (no shared
    session), all 390 × 844."""
    language = request.node.callspec.params["language"]
    pages = [new_page(browser, width=390, height=844, locale=LOCALES[language]) for _ in range(4)]
    yield pages
    for page in pages:
        page.context.close()


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit].primary").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def register(page: Any, names: list[str], *, here: bool) -> None:
    """Register new players from the players page's "New players" box, one a line."""
    before = page.locator("li.entry").count()
    form = page.locator("section[aria-labelledby=add-title] form")
    form.locator("textarea[name=names]").fill("\n".join(names))
    form.locator("input[name=checked_in]").set_checked(here)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text(str(len(names)))
    expect(page.locator("li.entry")).to_have_count(before + len(names))


def seat_start_and_link(organiser: Any, base: str, public_id: str, number: int) -> list[str]:
    """From the overview: seat round ``number``, check its 3 tables of 4, start it; the tables'
    links from the links page (each with its QR code)."""
    organiser.goto(f"{base}/t/{public_id}/")
    organiser.locator(f"form[action$='/r/{number}/seat/'] button[type=submit]").click()
    expect(organiser).to_have_url(re.compile(rf"/t/{public_id}/r/{number}/$"))
    tables = organiser.locator("ul.tables li.table-card")
    expect(tables).to_have_count(3)
    for i in range(3):
        expect(tables.nth(i).locator("ul.results > li")).to_have_count(4)
    assert no_horizontal_scroll(organiser)
    organiser.locator(f"form[action$='/r/{number}/start/'] button[type=submit]").click()
    expect(organiser).to_have_url(re.compile(rf"/r/{number}/links/$"))
    expect(organiser.locator(".table-links > li")).to_have_count(3)
    expect(organiser.locator(".table-links .qr svg")).to_have_count(3)
    links: list[str] = organiser.locator(".table-links input[readonly]").evaluate_all(
        "fields => fields.map(field => field.value)"
    )
    assert len(links) == 3 and all("/edit/#" in link for link in links)
    # Shared links carry no language: each phone reads them in its own reader's language.
    assert all(re.match(r"^https?://[^/]+/g/", link) for link in links), links
    assert no_horizontal_scroll(organiser)
    return links


def seated(page: Any) -> list[str]:
    """The table's players in seat order, from the hand form's winner choices."""
    values: list[str] = page.locator("input[name=winner]").evaluate_all("radios => radios.map(r => r.value)")
    return [value for value in values if value]


def play_table(phone: Any, link: str, table: int, number: int, language: str) -> str:
    """Open the table's link on its phone and record the round's one hand: seat 1 goes out, the
    others keep tiles worth 5, 10 and 15. Returns the score sheet's address."""
    phone.goto(link)
    expect(phone).to_have_url(re.compile(r"/g/[\w-]+/$"))
    expect(phone.locator("html")).to_have_attribute("lang", language)
    heading = phone.locator("h1")
    expect(heading).to_have_text(re.compile(r"\d\D+\d"))  # "Table 2, round 1", in any word order
    assert sorted(int(n) for n in re.findall(r"\d+", heading.inner_text())) == sorted([table, number])
    names = seated(phone)
    assert len(names) == 4
    phone.locator(f"input[name=winner][value='{names[0]}']").check()
    for i, left in ((1, "5"), (2, "10"), (3, "15")):
        phone.locator(f"input[name=points_{i}]").fill(left)
    # The round is one hand: the form says, before it is saved, that this hand ends the game.
    expect(phone.locator("#hand-ending .ends-game")).to_be_visible()
    phone.locator("button.save").click()
    expect(phone.locator(".totals .total")).to_have_text(["30", "−5", "−10", "−15"])
    expect(phone.locator("a[href$='/hands/1/']")).to_have_count(1)  # on the sheet
    expect(phone.locator("form.hand-form")).to_have_count(0)  # one hand per round: the table is done
    url: str = phone.url
    return url


def confirm(organiser: Any, base: str, public_id: str, number: int) -> None:
    organiser.goto(f"{base}/t/{public_id}/r/{number}/")
    expect(organiser.locator(".table-card h3 .badge:not(.missing)")).to_have_count(3)  # all finished
    assert no_horizontal_scroll(organiser)
    organiser.locator(f"form[action$='/r/{number}/confirm/'] button[type=submit]").click()
    expect(organiser).to_have_url(re.compile(rf"/t/{public_id}/standings/$"))
    expect(organiser.locator("table.standings tbody tr:not(.note)")).to_have_count(12)
    assert no_horizontal_scroll(organiser)


def standings(page: Any) -> dict[str, str]:
    rows = page.locator("table.standings tbody tr:not(.note)")  # a tie-break note is a row under its row
    expect(rows).to_have_count(12)
    names = rows.locator("th.name a").all_inner_texts()
    points = rows.locator("td.points").all_inner_texts()
    return {name.strip(): value.strip() for name, value in zip(names, points, strict=True)}


def today() -> str:
    """The server's today, as a date input holds it."""
    return timezone.localdate().isoformat()


def as_number(text: str) -> float:
    """A number as the page shows it, in any language (−5, 2,5 or 2.5)."""
    return float(text.replace("\u2212", "-").replace(",", ".").replace("\xa0", ""))


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_tournament_from_three_table_phones(
    phones: list[Any], live_server: Any, language: str
) -> None:
    organiser, *tables = phones
    problems: list[str] = []  # script errors and policy (CSP) reports, on every page of every phone
    for page in phones:
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
    base = live_server.url + ("" if language == "en" else f"/{language}")
    club = ClubFactory.create(name="Klub w środę", organiser=UserFactory.create(username="olga"))
    log_in(organiser, base, "olga")

    # The club's Tournaments page: a new Rummikub tournament of 3 rounds, one hand a round.
    organiser.goto(f"{base}/c/{club.slug}/")
    organiser.locator(f"nav a[href$='/c/{club.slug}/tournaments/']").click()
    organiser.locator("a[href*='/tournaments/new/?family=rummikub']").click()
    organiser.locator("input[name=name]").fill("Puchar jesieni")
    expect(organiser.locator("input[name=date]")).to_have_value(today())  # today, in every language
    organiser.locator("input[name=rounds]").fill("3")
    organiser.locator("input[name=round_hands]").fill("1")
    organiser.locator("form button[type=submit].primary").click()
    expect(organiser).to_have_url(re.compile(r"/t/[\w-]+/players/$"))
    expect(organiser.locator("html")).to_have_attribute("lang", language)
    tournament = Tournament.objects.get()
    public_id = tournament.public_id
    assert (tournament.family, tournament.rounds, tournament.round_hands) == ("rummikub", 3, 1)

    # Eleven players register at the door; the twelfth is checked in by his button.
    register(organiser, PLAYERS[:11], here=True)
    register(organiser, PLAYERS[11:], here=False)
    late = organiser.locator("li.entry", has_text=PLAYERS[11])
    late.locator("button[name=action][value=check_in]").click()
    expect(late.locator("button[name=action][value=check_out]")).to_have_count(1)
    expect(organiser.locator("li.entry button[name=action][value=check_in]")).to_have_count(0)
    assert tournament.entries.filter(checked_in=True).count() == 12
    assert no_horizontal_scroll(organiser)

    # Three rounds: seated, started, played at three tables' phones, confirmed.
    first_sheet = ""
    for number in (1, 2, 3):
        links = seat_start_and_link(organiser, base, public_id, number)
        for table, (phone, link) in enumerate(zip(tables, links, strict=True), start=1):
            sheet = play_table(phone, link, table, number, language)
            if (number, table) == (1, 1):
                first_sheet = sheet
        confirm(organiser, base, public_id, number)
    before = standings(organiser)
    assert sorted(before) == sorted(PLAYERS)
    organiser.goto(f"{base}/t/{public_id}/")
    expect(organiser.locator("form[action*='/r/'][action$='/seat/']")).to_have_count(0)  # none left

    # After round 1 is confirmed, table 1's phone can no longer change its hand: the results
    # are locked for the table's link. The organiser corrects it: seat 2 went out, not seat 1.
    tables[0].goto(first_sheet)
    expect(tables[0].locator("p.hint")).to_contain_text("results are locked" if language == "en" else "")
    expect(tables[0].locator("a[href$='/hands/1/']")).to_have_count(0)
    phone = organiser
    phone.goto(first_sheet)
    expect(phone.locator("div.errors[role=note]")).to_have_count(1)  # the standings change
    phone.locator("a[href$='/hands/1/']").click()
    expect(phone).to_have_url(re.compile(r"/hands/1/$"))
    names = seated(phone)
    phone.locator(f"input[name=winner][value='{names[1]}']").check()
    phone.locator("input[name=points_0]").fill("20")
    phone.locator("input[name=points_1]").fill("")
    phone.locator("button.save").click()
    expect(phone).to_have_url(re.compile(r"/g/[\w-]+/$"))
    expect(phone.locator(".totals .total")).to_have_text(["−20", "45", "−10", "−15"])

    # The standings follow, and the history shows the correction with a link to the table's.
    organiser.goto(f"{base}/t/{public_id}/standings/")
    after = standings(organiser)
    # Seat 1 fell from first place at that table to last, seat 2 rose to first.
    assert as_number(after[names[0]]) < as_number(before[names[0]])
    assert as_number(after[names[1]]) > as_number(before[names[1]])
    assert no_horizontal_scroll(organiser)
    organiser.goto(f"{base}/t/{public_id}/history/")
    correction = organiser.locator(".tournament-history li.correction")
    expect(correction).to_have_count(1)
    game = Table.objects.get(round__number=1, number=1).game
    assert game is not None
    expect(correction.locator(f"a[href$='/g/{game.public_id}/history/']")).to_have_count(1)
    expect(organiser.locator("html")).to_have_attribute("lang", language)
    assert no_horizontal_scroll(organiser)
    assert problems == []


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_new_tournament_form_offers_today_in_every_language(
    phones: list[Any], live_server: Any, language: str
) -> None:
    organiser = phones[0]
    base = live_server.url + ("" if language == "en" else f"/{language}")
    club = ClubFactory.create(name="Klub", organiser=UserFactory.create(username="olga"))
    log_in(organiser, base, "olga")
    organiser.goto(f"{base}/c/{club.slug}/tournaments/new/?family=rummikub")
    expect(organiser.locator("input[name=date]")).to_have_value(today())
