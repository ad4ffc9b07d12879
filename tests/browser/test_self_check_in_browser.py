"""Self check-in at the door in Chromium on 390 × 844 phones: the organiser opens it on the
players page and shows its code; a player's phone (no account, read in Slovak) opens the link, finds
his name typed without accents and checks himself in; the organiser's list shows him here.

Selectors are structural (form actions, names, classes), never translated text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_finals_print_browser import door_link
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.browser.test_tournament_browser import PASSWORD, log_in
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import settings
from tournaments.models import Entry
from tournaments.services.entries import entries_add
from tournaments.services.tournament_settings import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_checks_himself_in_from_the_door_s_code(browser: Any, live_server: Any) -> None:
    organiser = UserFactory.create(username="door-boss", password=PASSWORD)
    club = ClubFactory.create(organiser=organiser)
    cup = tournament_create(club=club, settings=settings("rummikub"), user=organiser)
    entries_add(tournament=cup, names=["Katarína Nováková", "Milan Černý", "Ola Berg"], user=organiser)
    boss = new_page(browser, width=390, height=844)
    player = new_page(browser, width=390, height=844, locale="sk-SK")
    try:
        base = live_server.url
        log_in(boss, base, "door-boss")
        path = door_link(boss, base, cup.public_id)
        assert re.search(rf"^/t/{cup.public_id}/check-in/[\w-]+/$", path)

        # The player reads the page in Slovak (the language menu's choice is the address prefix).
        player.goto(f"{base}/sk{path}")
        expect(player.locator("html")).to_have_attribute("lang", "sk")
        player.locator("input[name=q]").fill("katarina")
        player.locator("form[role=search] button[type=submit]").click()
        results = player.locator("ul.seat-results li")
        expect(results).to_have_count(1)
        expect(results.locator(".seat-name")).to_have_text("Katarína Nováková")
        assert no_horizontal_scroll(player)
        results.locator("form button[type=submit]").click()
        expect(player.locator(".card.done")).to_contain_text("Katarína Nováková: prezentácia je potvrdená.")
        assert no_horizontal_scroll(player)
        assert Entry.objects.get(tournament=cup, player__name="Katarína Nováková").checked_in

        boss.reload()
        katarina = boss.locator("li.entry", has_text="Katarína Nováková")
        expect(katarina.locator("form.entry-main button[value=check_out]")).to_be_visible()
        expect(boss.locator("li.entry", has_text="Milan").locator("button[value=check_in]")).to_be_visible()
    finally:
        boss.context.close()
        player.context.close()
