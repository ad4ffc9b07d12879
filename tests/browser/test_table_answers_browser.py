"""A table confirms its own result, in Chromium on 390 × 844 phones: three players of one
table (three browser contexts, no account) open their own links from the organiser's table
links page; two confirm the totals, one disputes them with a word; the organiser's round page
shows the table disputed with the word and the other table waiting; confirming the round asks
first about both, and confirms once asked. Every page passes the phone layout audit.

Selectors are structural (ids, names, classes), never translated text, but for what a player
is shown of his own answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.services.hands import hand_record
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.browser.test_tournament_browser import PASSWORD, log_in
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import rummikub_hand, settings
from tournaments.models import Round, Table, TableAnswer, TournamentChange
from tournaments.services.entries import entries_add
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_start
from tournaments.services.tournament_settings import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AUDIT = (Path(__file__).parent / "layout_audit.js").read_text(encoding="utf-8")
NAMES = ["Maximilián Šťastný-Křižovnický", "Łucja Żółć-Wiśniewska", "Ola Nordmann", "Eva", "Filip", "Gita"]


def _audit(page: Any, label: str) -> list[str]:
    return [f"{label}: {check}: {element}: {detail}" for check, element, detail in page.evaluate(AUDIT)]


def test_three_phones_of_a_table_two_confirm_one_disputes(browser: Any, live_server: Any) -> None:
    organiser = UserFactory.create(username="table-boss", password=PASSWORD)
    club = ClubFactory.create(organiser=organiser)
    made = settings("rummikub", table_min=3, table_max=3, table_preferred=3, table_confirm=True)
    cup = tournament_create(club=club, settings=made, user=organiser)
    entries_add(tournament=cup, names=NAMES, checked_in=True, user=organiser)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        hand_record(game=table.game, outcome=rummikub_hand(names), request_id=None, user=organiser)
    first = Table.objects.get(round=played, number=1)
    entries = [s.entry_id for s in first.seats.order_by("position")]

    base = live_server.url
    boss = new_page(browser, width=390, height=844)
    phones = [new_page(browser, width=390, height=844) for _ in entries]
    failures: list[str] = []
    try:
        log_in(boss, base, "table-boss")
        boss.goto(f"{base}/t/{cup.public_id}/r/1/links/")
        failures += _audit(boss, "table links")
        links = [boss.locator(f"#own-{entry}").input_value() for entry in entries]
        assert all(f"/t/{cup.public_id}/p/" in link for link in links)

        # Each player opens his own link on his own phone: no account.
        for phone, link in zip(phones, links, strict=True):
            phone.goto(link)
            expect(phone.locator("#my-table .results li")).to_have_count(3)
            failures += _audit(phone, "own page")
            assert no_horizontal_scroll(phone)
        for phone in phones[:2]:
            phone.locator("#my-table form:has(input[name=answer][value=confirm]) button").click()
            expect(phone.locator("#my-table .answer-state")).to_have_text("You confirmed these totals.")
        expect(phones[1].locator("#my-table .agreement.waiting")).to_be_visible()
        disputing = phones[2]
        disputing.locator("form.dispute-form input[name=word]").fill("Hand 1: Ola had 15, not 10")
        disputing.locator("form.dispute-form button[type=submit]").click()
        expect(disputing.locator("#my-table .answer-state")).to_contain_text("Hand 1: Ola had 15, not 10")
        expect(disputing.locator("#my-table .agreement.disputed")).to_be_visible()
        failures += _audit(disputing, "own page, disputed")
        assert no_horizontal_scroll(disputing)
        assert TableAnswer.objects.filter(table=first).count() == 3

        # The organiser's round page: table 1 disputed with the word, table 2 waiting.
        boss.goto(f"{base}/t/{cup.public_id}/r/1/")
        table_1 = boss.locator("#table-1 .table-agreement")
        expect(table_1.locator(".agreement.disputed")).to_be_visible()
        expect(table_1.locator(".dispute-word")).to_have_text("Hand 1: Ola had 15, not 10")
        expect(boss.locator("#table-2 .table-agreement .agreement.waiting")).to_be_visible()
        failures += _audit(boss, "round page")
        assert no_horizontal_scroll(boss)

        # Confirming asks first about the tables not all confirmed, then confirms.
        boss.locator("form[action$='/r/1/confirm/'] button[type=submit]").click()
        expect(boss.locator("ul.unsettled-tables li")).to_have_count(2)
        failures += _audit(boss, "confirm step")
        assert Round.objects.get(pk=played.pk).status == Round.Status.PLAYING
        boss.locator("form:has(input[name=confirm][value='1']) button[type=submit]").click()
        expect(boss).to_have_url(f"{base}/t/{cup.public_id}/standings/")
        assert Round.objects.get(pk=played.pk).status == Round.Status.CONFIRMED

        # Each answer is in the tournament's history.
        boss.goto(f"{base}/t/{cup.public_id}/history/")
        expect(boss.locator(".dispute-word")).to_have_text("Hand 1: Ola had 15, not 10")
        actions = TournamentChange.objects.filter(tournament=cup).values_list("action", flat=True)
        assert sorted(a for a in actions if a in ("result_ok", "disputed")) == [
            "disputed",
            "result_ok",
            "result_ok",
        ]
        failures += _audit(boss, "history")
    finally:
        boss.context.close()
        for phone in phones:
            phone.context.close()
    assert not failures, "\n".join(failures)
