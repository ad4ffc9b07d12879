"""On a 390 × 844 phone in Chromium: the organiser makes a password reset link for a member
and reads it in the club's audit log; the member opens the link on his phone (its token
after "#" leaves the address bar at once), sets a new password and logs in; the organiser's
sessions page lists both of his browsers and ends the other one. No page scrolls sideways."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import AuditEntry
from tests.browser.test_club_browser import log_in
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NEW = "brand-New-Secret-7"


@pytest.fixture
def phones(browser: Any) -> Iterator[tuple[Any, Any, Any]]:
    pages = tuple(new_page(browser, width=390, height=844) for _ in range(3))
    yield pages
    for page in pages:
        page.context.close()


def test_a_reset_link_from_the_members_page_to_a_new_password(
    phones: tuple[Any, Any, Any], live_server: Any
) -> None:
    base = live_server.url
    organiser, member, laptop = phones
    olga = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Tuesday club", organiser=olga)
    add_member(club, UserFactory.create(username="mike"))
    log_in(organiser, base, "olga")
    log_in(laptop, base, "olga")

    organiser.goto(f"{base}/c/{club.slug}/members/")
    organiser.get_by_role("button", name="Password reset link").click()
    link = organiser.locator("#reset-link").input_value()
    assert "/accounts/reset/link/#" in link
    assert no_horizontal_scroll(organiser)

    member.goto(link)
    expect(member.locator("#reset-link-paste")).to_be_hidden()
    assert "#" not in member.url
    member.locator("input[name=new_password1]").fill(NEW)
    member.locator("input[name=new_password2]").fill(NEW)
    member.get_by_role("button", name="Set the password").click()
    expect(member.locator("h1")).to_have_text("Log in")
    member.locator("input[name=username]").fill("mike")
    member.locator("input[name=password]").fill(NEW)
    member.locator("form button[type=submit].primary").click()
    expect(member.get_by_role("link", name="Account")).to_be_visible()

    organiser.goto(f"{base}/c/{club.slug}/audit/")
    expect(organiser.locator(".audit li").first).to_contain_text("mike")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.RESET_LINK, target="mike").exists()
    assert no_horizontal_scroll(organiser)

    organiser.goto(f"{base}/accounts/sessions/")
    expect(organiser.locator(".sessions li")).to_have_count(2)
    assert no_horizontal_scroll(organiser)
    organiser.get_by_role("button", name="End this session").click()
    expect(organiser.locator(".sessions li")).to_have_count(1)
    laptop.goto(f"{base}/accounts/profile/")
    expect(laptop.locator("h1")).to_have_text("Log in")
