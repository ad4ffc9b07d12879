"""A season's league pages in real Chromium on a 390 × 844 phone (one run in English, one in
Norwegian): a member of a members-only club logs in, opens the club, follows Seasons, opens
the season and reads its standings (one row a player, in rank order, with the ▲/▼ trend
markers the standings call for), taps a player's name for his ratings (an SVG chart and the
table), then picks another player head to head and reads how many games they played together.
A stranger opening the season's address gets 404.

Selectors are structural (classes, URLs, names), never translated text, so the same steps run
in every language."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Club, Game, Membership
from games.services.games import game_start
from games.services.hands import hand_record
from tests.browser.test_table_browser import no_horizontal_scroll
from tests.conftest import new_page
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import season_settings
from tournaments.derived import apply
from tournaments.models import RatingDirty, RatingEvent, Season, SeasonStanding
from tournaments.rating_history import mark_dirty
from tournaments.services.seasons import season_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "table-Secret-1"
LOCALES = {"en": "en-GB", "nb": "nb-NO"}
# Four finished one-hand Rummikub games of the club: the players and who went out.
GAMES = [
    (["Åse", "Bjørn", "Cecilie", "Dag"], "Åse"),
    (["Åse", "Bjørn", "Cecilie"], "Bjørn"),
    (["Bjørn", "Cecilie", "Dag", "Eirik"], "Bjørn"),
    (["Åse", "Cecilie", "Eirik"], "Cecilie"),
]
PLAYERS = sorted({name for names, _winner in GAMES for name in names})


class Watcher:
    """Script errors, console errors and CSP violations on a page, across navigations."""

    def __init__(self, page: Any) -> None:
        self.problems: list[str] = []
        page.on(
            "console", lambda m: self.problems.append(f"{page.url}: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: script error: {error}"))
        page.expose_function("__reportViolation", lambda text: self.problems.append(f"{page.url}: {text}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', function (e) {"
            "  window.__reportViolation('CSP: ' + e.violatedDirective"
            "    + ' blocked ' + (e.blockedURI || 'inline'));"
            "});"
        )


@pytest.fixture
def phones(browser: Any, request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """The member's phone and a stranger's, each its own browser context, both 390 × 844."""
    language = request.node.callspec.params["language"]
    pages = [new_page(browser, width=390, height=844, locale=LOCALES[language]) for _ in range(2)]
    yield pages
    for page in pages:
        page.context.close()


def league(organiser: Any) -> tuple[Club, Season, list[Game]]:
    """A members-only club with a season and four finished club games. The tests run outside a
    transaction, so each game's after-commit work (ratings, standings) runs as it finishes."""
    club = ClubFactory.create(name="Tirsdagsklubben", organiser=organiser)
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    season = season_create(club=club, settings=season_settings(name="Høst 2026"), user=organiser)
    games = []
    for names, winner in GAMES:
        game = game_start(
            family="rummikub", options={}, players=names, owner=organiser, club=club, hand_limit=1
        )
        left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
        hand_record(game=game, outcome={"winner": winner, "left": left}, request_id=None, user=organiser)
        games.append(game)
    return club, season, games


def checked(page: Any, watcher: Watcher, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert no_horizontal_scroll(page), page.url
    assert watcher.problems == []


@pytest.mark.parametrize("language", ["en", "nb"])
def test_a_member_reads_the_standings_a_rating_chart_and_head_to_head(
    phones: list[Any], live_server: Any, language: str
) -> None:
    member, stranger = phones
    watcher = Watcher(member)
    stranger_watcher = Watcher(stranger)
    prefix = "" if language == "en" else f"/{language}"
    base = live_server.url + prefix
    organiser = UserFactory.create(username="olga")
    club, season, games = league(organiser)
    add_member(club, UserFactory.create(username="mona"), Membership.Role.MEMBER)

    # The ratings and the standings were rebuilt after each game's commit.
    assert RatingEvent.objects.filter(club=club).count() == sum(len(names) for names, _ in GAMES)
    assert not RatingDirty.objects.exists()
    rows = list(SeasonStanding.objects.filter(season=season, family="").select_related("player"))
    assert sorted(row.player.name for row in rows) == PLAYERS
    ranked = [row.player.name for row in rows]  # in the model's order: ranked first, by rank
    ups = sum(1 for r in rows if r.ranked and r.previous_rank and r.previous_rank > r.rank)
    downs = sum(1 for r in rows if r.ranked and r.previous_rank and r.previous_rank < r.rank)
    assert ups + downs > 0  # the last game moved somebody

    # A stranger: the members-only club's season is not there.
    response = stranger.goto(f"{base}/s/{season.public_id}/")
    assert response is not None and response.status == 404
    expect(stranger.locator("html")).to_have_attribute("lang", language)
    assert season.name not in stranger.content() and "Åse" not in stranger.content()

    # The member logs in, opens the club and follows Seasons in the club's navigation.
    member.goto(f"{base}/accounts/login/")
    member.locator("input[name=username]").fill("mona")
    member.locator("input[name=password]").fill(PASSWORD)
    member.locator("form button[type=submit].primary").click()
    expect(member).not_to_have_url(re.compile(r"/accounts/login/"))
    member.goto(f"{base}/c/{club.slug}/")
    checked(member, watcher, language)
    member.locator(f"nav.game-nav a[href='{prefix}/c/{club.slug}/seasons/']").click()
    expect(member).to_have_url(re.compile(rf"{prefix}/c/{club.slug}/seasons/$"))
    checked(member, watcher, language)
    member.locator(f"a[href='{prefix}/s/{season.public_id}/']").click()
    expect(member).to_have_url(re.compile(rf"{prefix}/s/{season.public_id}/$"))

    # The standings: one row a player in rank order, the trend markers where the ranks moved.
    table = member.locator("table.standings.league")
    body_rows = table.locator("tbody tr:not(.below-line)")
    expect(body_rows).to_have_count(len(PLAYERS))
    expect(table.locator("tbody th.name a")).to_have_text(ranked)
    expect(table.locator("td.rank .trend.up")).to_have_count(ups)
    expect(table.locator("td.rank .trend.down")).to_have_count(downs)
    checked(member, watcher, language)

    # Tap the leader's name: his ratings, with the chart and the table of rated games.
    leader = rows[0].player
    table.locator("tbody th.name a", has_text=leader.name).click()
    expect(member).to_have_url(re.compile(rf"{prefix}/c/{club.slug}/players/{leader.pk}/ratings/$"))
    expect(member.locator("h1")).to_have_text(leader.name)
    chart = member.locator("svg.chart")
    expect(chart).to_have_count(1)
    expect(chart.locator("polyline")).to_have_count(1)
    played = sum(1 for names, _ in GAMES if leader.name in names)
    expect(chart.locator("circle")).to_have_count(played)  # a point per rated game
    expect(member.locator("table.standings")).to_have_count(2)  # the families, each rated game
    expect(member.locator("table.standings").nth(1).locator("tbody tr")).to_have_count(played)
    checked(member, watcher, language)

    # Head to head with the last of the standings: the games both played.
    member.locator(f"a[href='{prefix}/c/{club.slug}/players/{leader.pk}/versus/']").click()
    expect(member).to_have_url(re.compile(rf"{prefix}/c/{club.slug}/players/{leader.pk}/versus/$"))
    checked(member, watcher, language)
    last = rows[-1].player
    member.locator("select[name=other]").select_option(str(last.pk))
    member.locator("form.role-form button[type=submit]").click()
    expect(member).to_have_url(re.compile(rf"/players/{leader.pk}/versus/\?other={last.pk}$"))
    expect(member.locator("h2").first).to_have_text(f"{leader.name} – {last.name}")
    together = sum(1 for names, _ in GAMES if leader.name in names and last.name in names)
    assert together > 0
    expect(member.locator("ul.totals.stats li").first.locator(".total")).to_have_text(str(together))
    meetings = member.locator("table.standings").last.locator("tbody tr")
    expect(meetings).to_have_count(together)
    for game in games:
        if {leader.name, last.name} <= {seat.name for seat in game.seats.all()}:
            expect(meetings.locator(f"a[href$='/g/{game.public_id}/']")).to_have_count(1)
    checked(member, watcher, language)
    # The stranger's phone reported nothing but the 404 itself.
    assert [p for p in stranger_watcher.problems if "status of 404" not in p] == []
    assert len(stranger_watcher.problems) == 1


def test_the_standings_say_updating_and_refresh_themselves_when_the_worker_is_done(
    phone: Any, live_server: Any
) -> None:
    """A correction the worker has not yet applied: the season page says its numbers are
    updating, as of when, and reloads by itself once the worker is done."""
    organiser = UserFactory.create(username="olga")
    club, season, games = league(organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    watcher = Watcher(phone)
    mark_dirty(games[0])  # as a write does; no worker has run yet
    phone.goto(f"{live_server.url}/s/{season.public_id}/")
    status = phone.locator("#derived-status")
    expect(status).to_be_visible()
    assert "as of" in status.inner_text()
    assert no_horizontal_scroll(phone)
    apply(club.pk)  # the worker
    expect(phone.locator("#derived-status")).to_have_count(0, timeout=15_000)  # reloaded
    expect(phone.locator("table.standings tbody tr")).to_have_count(len(PLAYERS))
    assert watcher.problems == []
