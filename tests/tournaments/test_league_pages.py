"""What a league organiser reads off a season: the qualification line, the standings as they
stood after any evening, and the ratings page's numbers (σ on the display scale, dates in the
page's language, games by name); the win chances before a game in the API."""

from __future__ import annotations

import datetime
import itertools
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.models import Game
from games.services.games import game_start
from scoring.ratings import Rating, win_chances
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.pipeline import drain
from tests.tournaments.support import ago, finished_game, season_settings, small_league
from tournaments.models import RatingEvent, Season, SeasonStanding
from tournaments.rating_history import ratings_of
from tournaments.selectors import seasons as selectors
from tournaments.services.seasons import season_create, season_update

pytestmark = pytest.mark.django_db

FAMILY = "rummikub"


@pytest.fixture
def league() -> dict[str, Any]:
    return small_league()


def names_in_order(html: str) -> list[str]:
    return re.findall(r'<th scope="row" class="name"><a [^>]*>([^<]+)</a>', html)


def test_the_top_n_qualify_the_standings_draw_the_line_and_the_api_says_who(league: dict[str, Any]) -> None:
    season: Season = league["season"]
    ranked = list(SeasonStanding.objects.filter(season=season, family="").order_by("rank"))
    assert len(ranked) == 4
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    line = page.index("Above the line: the top 2 qualify")
    order = names_in_order(page)
    assert order == [r.player.name for r in ranked]
    assert page.index(f">{order[1]}</a>") < line < page.index(f">{order[2]}</a>")
    body = Client().get(f"/api/v1/seasons/{season.public_id}/").json()
    assert body["qualify"] == 2
    assert [r["qualifies"] for r in body["standings"]["rows"]] == [True, True, False, False]

    settings = season_settings(qualify=0)
    season_update(season=season, settings=settings, version=season.version, user=league["organiser"])
    drain()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "qualif" not in page
    body = Client().get(f"/api/v1/seasons/{season.public_id}/").json()
    assert not any(r["qualifies"] for r in body["standings"]["rows"])


def test_the_win_chances_before_a_game_are_numbers_in_the_api(league: dict[str, Any]) -> None:
    club, organiser = league["club"], league["organiser"]
    upcoming = game_start(family=FAMILY, options={}, players=["Ann", "Dan"], owner=organiser, club=club)
    body = Client().get(f"/api/v1/games/{upcoming.public_id}/chances/").json()
    assert body["rated"] and not body["before_game"]
    chances = [p["chance"] for p in body["players"]]
    assert sum(chances) == pytest.approx(1, abs=1e-12)
    assert all(isinstance(c, float) and 0 < c < 1 for c in chances)
    current = ratings_of(club=club, family=FAMILY, player_ids=[p["player_id"] for p in body["players"]])
    expected = win_chances([current[p["player_id"]] for p in body["players"]])
    assert chances == pytest.approx(expected, abs=1e-12)
    page = Client().get(f"/g/{upcoming.public_id}/").content.decode()
    assert f"<strong>{round(100 * chances[0])} %</strong>" in page

    # Once rated, the chances are from the ratings the game was rated with, not today's.
    played = Game.objects.filter(club=club).exclude(pk=upcoming.pk).order_by("played_at").last()
    assert played is not None
    body = Client().get(f"/api/v1/games/{played.public_id}/chances/").json()
    assert body["before_game"]
    events = {e.player_id: e for e in RatingEvent.objects.filter(game=played)}
    before = [
        Rating(events[p["player_id"]].mu_before, events[p["player_id"]].sigma_before) for p in body["players"]
    ]
    assert [p["chance"] for p in body["players"]] == pytest.approx(win_chances(before), abs=1e-12)
    private = game_start(family=FAMILY, options={}, players=["Ann", "Bob"], owner=organiser)
    assert Client().get(f"/api/v1/games/{private.public_id}/chances/").status_code == 404


def test_the_ratings_page_shows_sigma_on_the_rating_scale_dates_in_its_language_and_games_by_name(
    league: dict[str, Any],
) -> None:
    club = league["club"]
    ann = SeasonStanding.objects.get(season=league["season"], family="", player__name="Ann").player
    latest = RatingEvent.objects.filter(player=ann).order_by("played_at", "game_id").last()
    assert latest is not None
    page = Client().get(f"/cs/c/{club.slug}/players/{ann.pk}/ratings/").content.decode()
    assert f"±{round(40 * latest.sigma)}<" in page
    assert f"±{latest.sigma:.1f}" not in page.replace(",", ".")
    first_day = timezone.localdate() - datetime.timedelta(days=3)
    with translation.override("cs"):
        shown = date_format(first_day, "SHORT_DATE_FORMAT")
    assert f'class="chart-label">{shown}<' in page
    assert first_day.isoformat() not in page
    english = Client().get(f"/c/{club.slug}/players/{ann.pk}/ratings/").content.decode()
    assert "with Bob, Cid, Dan" in english
    body = Client().get(f"/api/v1/clubs/{club.slug}/players/{ann.pk}/ratings/").json()
    assert body["families"][0]["uncertainty"] == round(40 * latest.sigma)
    assert body["history"][-1]["game_name"] == "with Bob, Cid, Dan"


def reference(league: dict[str, Any], day: datetime.date) -> dict[str, tuple[int, str]]:
    """The standings of a season like the league's that ends on ``day``, built by the pipeline."""
    season = league["season"]
    settings = season_settings(name=f"Until {day}", ends=day, qualify=2)
    twin = season_create(club=league["club"], settings=settings, user=league["organiser"])
    assert twin.starts == season.starts
    drain()
    return {
        r.player.name: (r.rank, f"{r.points.normalize():f}")
        for r in SeasonStanding.objects.filter(season=twin, family="").select_related("player")
    }


def test_the_standings_as_they_stood_after_each_evening(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    season: Season = league["season"]
    first, second = ago(3).date(), ago(1).date()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert (
        f'<option value="{first.isoformat()}">' in page and f'<option value="{second.isoformat()}">' in page
    )

    after_first = reference(league, first)
    after_second = reference(league, second)
    for day, expected, trend in ((first, after_first, {}), (second, after_second, after_first)):
        with django_assert_num_queries(10):  # whatever the number of players and games
            view = selectors.season_view(season=season, evening=day)
        assert view.evening == day and list(view.evenings) == [first, second]
        got = {r.player.name: (r.rank, f"{r.points.normalize():f}") for r in view.rows}
        assert got == expected
        # ▲▼ against the evening before the one shown (none on the first evening).
        assert {r.player.name: r.previous_rank for r in view.rows} == {
            name: trend[name][0] if name in trend else None for name in expected
        }
        html = Client().get(f"/s/{season.public_id}/?evening={day.isoformat()}").content.decode()
        assert names_in_order(html) == sorted(expected, key=lambda n: expected[n][0])
        assert f'<option value="{day.isoformat()}" selected>' in html
        body = Client().get(f"/api/v1/seasons/{season.public_id}/", {"evening": day.isoformat()}).json()
        assert body["standings"]["evening"] == day.isoformat()
        assert body["evenings"] == [first.isoformat(), second.isoformat()]
        assert {r["name"]: r["rank"] for r in body["standings"]["rows"]} == {
            n: v[0] for n, v in expected.items()
        }
        assert [r["qualifies"] for r in body["standings"]["rows"]] == [True, True, False, False]
    now = Client().get(f"/api/v1/seasons/{season.public_id}/").json()
    assert now["standings"]["evening"] is None
    bad = Client().get(f"/api/v1/seasons/{season.public_id}/", {"evening": "yesterday"})
    assert bad.status_code == 400 and "evening" in bad.json()["fields"]


def test_the_trend_of_the_standings_as_they_stood_counts_the_games_up_to_the_evening_before() -> None:
    """Near the minimum of games, the evening before ranks only who had played enough by then:
    its ranks are those of a season ending that evening, built by the pipeline."""
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(club=club, settings=season_settings(min_games=2), user=organiser)
    finished_game(club, organiser, ["Eve", "Bob", "Cid", "Dan"], at=ago(3))
    finished_game(club, organiser, ["Bob", "Cid", "Eve", "Dan"], at=ago(3, 21))
    finished_game(club, organiser, ["Ann", "Bob", "Cid", "Dan"], at=ago(2))  # Ann's first: below the minimum
    finished_game(club, organiser, ["Ann", "Dan", "Cid", "Bob"], at=ago(1))  # her second: ranked from now
    drain()
    evenings = [ago(3).date(), ago(2).date(), ago(1).date()]
    stood: dict[datetime.date, dict[str, int | None]] = {}
    ranked: dict[datetime.date, set[str]] = {}
    for day in evenings:
        twin = season_create(
            club=club, settings=season_settings(name=f"Until {day}", ends=day, min_games=2), user=organiser
        )
        drain()
        stood[day] = {
            r.player.name: r.rank
            for r in SeasonStanding.objects.filter(season=twin, family="").select_related("player")
        }
        lines = SeasonStanding.objects.filter(season=twin, family="", ranked=True)
        ranked[day] = set(lines.values_list("player__name", flat=True))
    assert "Ann" not in ranked[evenings[1]] and "Ann" in ranked[evenings[2]]
    for before, day in itertools.pairwise(evenings):
        view = selectors.season_view(season=season, evening=day)
        assert {r.player.name: r.rank for r in view.rows} == stood[day]
        assert {r.player.name: r.previous_rank for r in view.rows} == {
            name: stood[before][name] if name in ranked[before] else None for name in stood[day]
        }
