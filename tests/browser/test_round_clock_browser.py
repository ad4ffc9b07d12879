"""The round clock in real Chromium on a 390 × 844 phone whose own clock is twenty minutes fast:
the table's game page and the projector count down by the server's clock, and once the end comes
(moved near by the organiser's data, seen by the projector's next poll) both say "last hand"."""

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Club, Game
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Round, Table
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fast_phone(browser: Any) -> Iterator[Any]:
    page = new_page(browser, width=390, height=844)
    page.clock.install(time=timezone.now() + datetime.timedelta(minutes=20))
    yield page
    page.context.close()


def test_the_clock_counts_by_the_server_and_ends_with_the_last_hand(
    fast_phone: Any, live_server: Any
) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8, round_minutes=30)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    game = Table.objects.get(round=played, number=1).game
    assert game is not None
    page = fast_phone
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    assert page.evaluate("Date.now()") > (timezone.now() + datetime.timedelta(minutes=19)).timestamp() * 1000
    # 29:5x by the server; the phone's own clock would say 9:5x.
    expect(page.locator(".round-clock strong")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    assert no_horizontal_scroll(page)
    page.goto(f"{live_server.url}/t/{cup.public_id}/screen/")
    expect(page.locator(".round-clock strong")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    # The end comes near (as if the round had started 30 minutes ago): the projector's next
    # poll draws it anew and the clock runs out on the page.
    soon = timezone.now() + datetime.timedelta(seconds=3)
    Round.objects.filter(pk=played.pk).update(ends_at=soon)
    Game.objects.filter(pk=game.pk).update(event_ends=soon)
    expect(page.locator(".round-clock strong")).to_have_text("Last hand", timeout=15_000)
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    expect(page.locator(".round-clock strong")).to_have_text("Last hand")
