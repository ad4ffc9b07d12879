"""Release gates in Chromium: a round seated while the organiser publishes each seating himself
shows a player's phone (his home's "Tonight", the round page, "where do I sit", his own page)
and the projector nothing of its tables; the organiser's phone shows them, marked not public,
and one tap publishes them: the player's pages show his seat, the projector its tables.

Selectors are structural (form actions, names, classes), never translated text."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Club, Membership, Player
from games.services.players import player_claim
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.browser.test_tournament_browser import PASSWORD, log_in
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import tournament
from tournaments.models import Round, TableSeat
from tournaments.services.round_seating import round_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_players_see_no_seating_until_the_organiser_publishes_it(browser: Any, live_server: Any) -> None:
    organiser = UserFactory.create(username="gate-boss", password=PASSWORD)
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 9, hide_seating=True, date=timezone.localdate())
    anna = UserFactory.create(username="anna-phone", password=PASSWORD)
    add_member(club, anna, Membership.Role.MEMBER)
    player_claim(player=Player.objects.get(club=club, name="Anna"), user=anna, claim=True)
    round_seat(tournament=cup, number=1, user=organiser)
    entry = cup.entries.get(player__name="Anna").pk
    boss = new_page(browser, width=390, height=844)
    phone = new_page(browser, width=390, height=844)
    screen = new_page(browser, width=1280, height=720)
    base = live_server.url
    t = f"{base}/t/{cup.public_id}"
    try:
        log_in(phone, base, "anna-phone")
        log_in(boss, base, "gate-boss")
        screen.goto(f"{t}/screen/")

        # Before publishing: nothing of the tables anywhere a player or the projector looks.
        phone.goto(f"{base}/")
        tonight = phone.locator(".home-tonight")
        expect(tonight.locator(".home-unpublished")).to_be_visible()
        expect(tonight.locator(".home-seat")).to_have_count(0)
        phone.goto(f"{t}/r/1/")
        expect(phone.locator(".unpublished-note")).to_be_visible()
        expect(phone.locator(".table-card")).to_have_count(0)
        assert no_horizontal_scroll(phone)
        phone.goto(f"{t}/seat/?q=Anna")
        where = phone.locator("ul.seat-results li .seat-where")
        expect(where).to_have_count(1)
        expect(where).not_to_contain_text("Table")
        phone.goto(f"{t}/p/{entry}/")
        expect(phone.locator("table.player-rounds .unpublished-note")).to_have_count(1)
        phone.goto(f"{t}/r/1/print/")
        expect(phone.locator(".pairing-table")).to_have_count(0)
        expect(screen.locator(".screen-unpublished")).to_be_visible()
        expect(screen.locator(".screen-seats")).to_have_count(0)

        # The organiser sees the tables, marked as not public, and publishes them with one tap.
        boss.goto(f"{t}/r/1/")
        expect(boss.locator(".table-card")).to_have_count(3)
        expect(boss.locator(".unpublished-note")).to_be_visible()
        assert no_horizontal_scroll(boss)
        boss.locator(f"form[action$='/t/{cup.public_id}/r/1/publish/'] button[type=submit]").click()
        expect(boss.locator(".unpublished-note")).to_have_count(0)
        assert Round.objects.get(tournament=cup, number=1).published

        # After: the player's phone and the projector (which updates itself) show the seating.
        seat = TableSeat.objects.get(table__round__tournament=cup, entry_id=entry)
        expect(screen.locator(".screen-seats")).to_have_count(3, timeout=15_000)
        phone.goto(f"{base}/")
        expect(phone.locator(".home-tonight .home-seat")).to_contain_text(f"Table {seat.table.number}")
        phone.goto(f"{t}/r/1/")
        expect(phone.locator(".table-card")).to_have_count(3)
        expect(phone.locator(".unpublished-note")).to_have_count(0)
        phone.goto(f"{t}/seat/?q=Anna")
        expect(phone.locator("ul.seat-results li .seat-where")).to_contain_text(f"Table {seat.table.number}")
        phone.goto(f"{t}/p/{entry}/")
        expect(phone.locator("table.player-rounds .unpublished-note")).to_have_count(0)
        expect(phone.locator("table.player-rounds")).to_contain_text(f"Table {seat.table.number}")
        phone.goto(f"{t}/r/1/print/")
        expect(phone.locator(".pairing-table")).to_have_count(3)
    finally:
        boss.context.close()
        phone.context.close()
        screen.context.close()
