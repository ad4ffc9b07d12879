"""The club rating list and a player's league card in real Chromium on a 390 × 844 phone, in
Czech: a member of a members-only club opens the rating list from the club's navigation, taps
a player, opens his league card from his ratings page and adds up the counted events: they make
his points in the season's standings. A stranger gets 404 for the list.

Selectors are structural (classes, URLs), never translated text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Club, Membership
from games.services.games import game_start
from games.services.hands import hand_record
from tests.browser.test_league_browser import PASSWORD, Watcher, checked
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import season_settings
from tournaments.models import SeasonStanding
from tournaments.services.seasons import season_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GAMES = [
    (["Jiří", "Šárka", "Věra", "Čeněk"], "Jiří"),
    (["Jiří", "Šárka", "Věra"], "Šárka"),
    (["Šárka", "Věra", "Čeněk", "Žofie"], "Věra"),
    (["Jiří", "Věra", "Žofie"], "Jiří"),
    (["Jiří", "Šárka", "Čeněk"], "Čeněk"),
]


@pytest.fixture
def phones(browser: Any) -> Iterator[list[Any]]:
    pages = [new_page(browser, width=390, height=844, locale="cs-CZ") for _ in range(2)]
    yield pages
    for page in pages:
        page.context.close()


def number(text: str) -> Decimal:
    """A number as the Czech page shows it: a decimal comma, a real minus sign."""
    return Decimal(text.strip().replace("\u2212", "-").replace(",", ".").replace("\xa0", ""))


def test_a_member_adds_up_the_counted_events_of_a_players_league_card(
    phones: list[Any], live_server: Any
) -> None:
    member, stranger = phones
    watcher = Watcher(member)
    base = f"{live_server.url}/cs"
    organiser = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Úterní klub", organiser=organiser)
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    season = season_create(
        club=club, settings=season_settings(name="Podzim 2026", best_events=2, drop_worst=1), user=organiser
    )
    for names, winner in GAMES:
        game = game_start(
            family="rummikub", options={}, players=names, owner=organiser, club=club, hand_limit=1
        )
        left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
        hand_record(game=game, outcome={"winner": winner, "left": left}, request_id=None, user=organiser)
    add_member(club, UserFactory.create(username="mona"), Membership.Role.MEMBER)

    response = stranger.goto(f"{base}/c/{club.slug}/ratings/")
    assert response is not None and response.status == 404
    assert "Šárka" not in stranger.content()

    member.goto(f"{base}/accounts/login/")
    member.locator("input[name=username]").fill("mona")
    member.locator("input[name=password]").fill(PASSWORD)
    member.locator("form button[type=submit].primary").click()
    expect(member).not_to_have_url(re.compile(r"/accounts/login/"))
    member.goto(f"{base}/c/{club.slug}/")
    member.locator(f"nav.game-nav a[href='/cs/c/{club.slug}/ratings/']").click()
    expect(member).to_have_url(re.compile(rf"/cs/c/{club.slug}/ratings/$"))
    checked(member, watcher, "cs")

    # The rating list: one row a player, ratings from the highest, each with its ± uncertainty.
    table = member.locator("table.standings.rating-list")
    rows = table.locator("tbody tr")
    players = {n for names, _ in GAMES for n in names}
    expect(rows).to_have_count(len(players))
    ratings = [int(t.split("±")[0]) for t in table.locator("td.points").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    expect(table.locator("td.points .uncertainty")).to_have_count(len(players))

    # Tap the player who played most: his ratings page, then his league card in the season.
    name = "Jiří"
    table.locator("tbody th.name a", has_text=name).click()
    expect(member).to_have_url(re.compile(rf"/cs/c/{club.slug}/players/\d+/ratings/\?family=rummikub$"))
    expect(member.locator("h1")).to_have_text(name)
    checked(member, watcher, "cs")
    member.locator(f"a.card-link[href^='/cs/s/{season.public_id}/players/']").click()
    expect(member).to_have_url(re.compile(rf"/cs/s/{season.public_id}/players/\d+/$"))
    expect(member.locator("h1")).to_have_text(name)
    checked(member, watcher, "cs")

    # Add up the counted events by hand: his points in the standings.
    card = member.locator("table.league-card")
    played = sum(1 for names, _ in GAMES if name in names)
    expect(card.locator("tbody tr")).to_have_count(played)
    expect(card.locator("tbody tr.counted")).to_have_count(2)  # best 2 of what is left after the worst
    expect(card.locator("tbody tr.not-counted")).to_have_count(played - 2)
    counted = sum(number(t) for t in card.locator("tbody tr.counted td.event-points").all_inner_texts())
    standing = SeasonStanding.objects.get(season=season, family="", player__name=name)
    assert counted == standing.points
    assert number(card.locator("tfoot td.card-total").inner_text()) == standing.points
    # On paper: no navigation, no buttons, black on white, the card's table whole.
    member.emulate_media(media="print")
    expect(member.locator("header.site-header")).to_be_hidden()
    expect(member.locator(".button-row")).to_be_hidden()
    expect(card).to_be_visible()
    colours = member.evaluate(
        "() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    member.emulate_media(media="screen")
    # The standings row links to the same card.
    member.goto(f"{base}/s/{season.public_id}/")
    link = member.locator(
        f"table.standings.league a.card-link[href='/cs/s/{season.public_id}/players/{standing.player_id}/']"
    )
    expect(link).to_have_text(re.compile(r"\d"))
    assert number(link.inner_text()) == standing.points
    checked(member, watcher, "cs")
