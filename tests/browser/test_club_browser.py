"""A club in real Chromium on a 390 × 844 phone: the organiser creates a club and an invite
link, a new member joins by it on his own phone, the organiser records a club game picking
players from the roster, merges a duplicate player and opens a player page."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Club, Player, Seat
from tests.browser.test_table_browser import no_horizontal_scroll, save_hand
from tests.conftest import new_page
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "table-Secret-1"


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    organiser, member = new_page(browser, width=390, height=844), new_page(browser, width=390, height=844)
    yield organiser, member
    organiser.context.close()
    member.context.close()


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit].primary").click()


def start_club_game(page: Any, base: str, slug: str, seats: list[str]) -> None:
    """From the club page: Žolíky, tapping the roster's names (typing only a new name)."""
    page.goto(f"{base}/c/{slug}/")
    page.get_by_role("link", name="Start a club game").click()
    page.locator("a[href*='/games/new/zoliky/']").click()
    expect(page.locator("#club-choice")).to_have_value(slug)
    for i, name in enumerate(seats, start=1):
        chip = page.locator(f"[data-seat-name='{name}']")
        if chip.count():
            chip.click()
        else:
            page.locator(f"input[name=player_{i}]").fill(name)
    page.locator("details.house-rules summary").click()
    page.locator("[name=opt_elimination]").fill("0")
    page.locator("form[method=post] button[type=submit].primary").click()


def test_organiser_runs_a_club_from_a_phone(phones: tuple[Any, Any], live_server: Any) -> None:
    base = live_server.url
    organiser, member = phones
    UserFactory.create(username="olga")
    log_in(organiser, base, "olga")

    # A club, and an invite link for the members.
    organiser.goto(base + "/clubs/")
    organiser.locator("input[name=name]").fill("Úterní klub")
    organiser.locator("form button[type=submit].primary").click()
    expect(organiser.locator("h1")).to_have_text("Úterní klub")
    assert no_horizontal_scroll(organiser)
    organiser.get_by_role("link", name="Members").click()
    organiser.get_by_role("button", name="Create an invite link").click()
    link = organiser.locator(".invite input[readonly]").input_value()
    assert "/clubs/join/" in link

    # A new member opens the link on his phone, creates an account and joins.
    member.goto(link)
    member.get_by_role("link", name="Create an account").click()
    member.locator("input[name=username]").fill("tomas")
    member.locator("input[name=password1]").fill("a-Long-pass-123")
    member.locator("input[name=password2]").fill("a-Long-pass-123")
    member.locator("form button[type=submit].primary").click()
    member.get_by_role("button", name="Join Úterní klub").click()
    expect(member.locator("h1")).to_have_text("Úterní klub")
    club = Club.objects.get()
    assert club.memberships.filter(user__username="tomas", role="member").exists()

    # The first club evening: every name is new.
    start_club_game(organiser, base, club.slug, ["Tomáš", "Ann", "Bob"])
    save_hand(organiser, "closer=Ann", {0: "20", 2: "5"}, ["20", "−10", "5"])
    # The second: players picked from the roster by tapping, and one typo'd duplicate.
    start_club_game(organiser, base, club.slug, ["Ann", "Bob", "Tomas"])
    expect(organiser.locator(".field.invalid").first).to_contain_text("Did you mean Tomáš?")
    organiser.locator("form[method=post] button[type=submit].primary").click()  # yes, a new player
    save_hand(organiser, "closer=Bob", {0: "12", 2: "30"}, ["12", "−10", "30"])
    assert Player.objects.filter(club=club).count() == 4

    # The organiser merges the duplicate into Tomáš, from the club's players page.
    organiser.goto(f"{base}/c/{club.slug}/players/")
    expect(organiser.locator(".card[role=note]")).to_contain_text("Tomas")
    organiser.locator(".card[role=note]").get_by_role("link", name="Tomas", exact=True).click()
    expect(organiser.locator("h1")).to_have_text("Tomas")
    organiser.locator("summary", has_text="Merge into another player").click()
    organiser.locator("select[name=keep]").select_option(label="Tomáš")
    organiser.get_by_role("button", name="Merge").click()
    expect(organiser.locator("h1")).to_have_text("Tomáš")
    tomas = Player.objects.get(club=club, name="Tomáš", merged_into=None)
    assert Seat.objects.filter(player=tomas).count() == 2

    # The player page: two games, one as "Tomas", opponents with their record.
    expect(organiser.locator("#recent-title + ul li")).to_have_count(2)
    expect(organiser.locator("#recent-title + ul")).to_contain_text("as Tomas")
    expect(organiser.locator("#opp-title")).to_have_count(0)  # no finished game yet
    assert no_horizontal_scroll(organiser)

    # The member claims his player.
    member.goto(f"{base}/c/{club.slug}/players/{tomas.pk}/")
    member.get_by_role("button", name="This is me").click()
    expect(member.locator(".messages")).to_contain_text("This is you now.")
    tomas.refresh_from_db()
    assert tomas.user is not None and tomas.user.username == "tomas"
