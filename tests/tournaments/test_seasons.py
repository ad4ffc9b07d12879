"""Seasons end to end: club games finish, ratings and the season's standings are rebuilt after
the commit, the pages show them (for whoever may see the club), and organisers alone change a
season, whose standings are then rebuilt."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Membership
from games.services.games import game_start
from games.services.hands import hand_edit, hand_record
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.pipeline import drain
from tests.tournaments.support import season_settings
from tournaments.models import RatingDirty, RatingEvent, Season, SeasonStanding
from tournaments.services.seasons import season_create, season_update

pytestmark = pytest.mark.django_db


def play(club: Any, user: Any, names: list[str], winner: str, capture: Any) -> Game:
    """A finished one-hand Rummikub club game, the work after its commit run."""
    with capture(execute=True):
        game = game_start(family="rummikub", options={}, players=names, owner=user, club=club, hand_limit=1)
        left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
        hand_record(game=game, outcome={"winner": winner, "left": left}, request_id=None, user=user)
    return game


@pytest.fixture
def club_world(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(club=club, settings=season_settings(), user=organiser)
    games = [
        play(club, organiser, ["Ann", "Bob", "Cid", "Dan"], "Ann", django_capture_on_commit_callbacks),
        play(club, organiser, ["Ann", "Bob", "Cid"], "Bob", django_capture_on_commit_callbacks),
        play(club, organiser, ["Bob", "Cid", "Dan"], "Bob", django_capture_on_commit_callbacks),
    ]
    return {"organiser": organiser, "club": club, "season": season, "games": games}


def standings(season: Season) -> list[tuple[str, int, str]]:
    return [
        (row.player.name, row.rank, f"{row.points.normalize():f}")
        for row in SeasonStanding.objects.filter(season=season, family="").select_related("player")
    ]


def test_finished_games_rate_the_players_and_build_the_standings(club_world: dict[str, Any]) -> None:
    season = club_world["season"]
    # Table points: Ann 7 + 4 = 11 (first of 4, second of 3); Bob 5 + 7 + 7 = 19; Cid 3 + 1 + 4 = 8
    # (third of 4, third of 3, second of 3); Dan 1 + 1 = 2.
    assert standings(season) == [("Bob", 1, "19"), ("Ann", 2, "11"), ("Cid", 3, "8"), ("Dan", 4, "2")]
    assert RatingEvent.objects.filter(club=club_world["club"]).count() == 4 + 3 + 3
    assert not RatingDirty.objects.exists()
    bob = SeasonStanding.objects.get(season=season, family="", player__name="Bob")
    assert bob.games == 3 and bob.wins == 2 and bob.rating is not None and bob.rating > 1000
    # The trend: before the last game (Bob first of three) Bob led already; Cid was third.
    assert bob.previous_rank == 1


def test_a_correction_re_rates_and_rebuilds_after_the_commit(
    club_world: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    season, organiser = club_world["season"], club_world["organiser"]
    last = club_world["games"][-1]
    hand = last.hands.get()
    with django_capture_on_commit_callbacks(execute=True):
        hand_edit(
            hand=hand,
            outcome={"winner": "Dan", "left": {"Bob": 5, "Cid": 10}},
            version=hand.version,
            user=organiser,
        )
    # The last game now: Dan 7, Bob 4 (second), Cid 1. Bob 5 + 7 + 4 = 16.
    assert standings(season)[:2] == [("Bob", 1, "16"), ("Ann", 2, "11")]
    dan = SeasonStanding.objects.get(season=season, family="", player__name="Dan")
    assert (
        f"{dan.points.normalize():f}" == "8"
        and dan.previous_rank is not None
        and dan.previous_rank > dan.rank
    )
    assert not RatingDirty.objects.exists()


def test_while_the_rebuild_has_not_run_the_page_says_ratings_are_updating(club_world: dict[str, Any]) -> None:
    season, organiser = club_world["season"], club_world["organiser"]
    last = club_world["games"][-1]
    hand = last.hands.get()
    # No commit callbacks: as on a server whose rebuild has not finished (or failed).
    hand_edit(
        hand=hand,
        outcome={"winner": "Cid", "left": {"Bob": 5, "Dan": 10}},
        version=hand.version,
        user=organiser,
    )
    assert RatingDirty.objects.filter(club=club_world["club"]).exists()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "Updating… These numbers are as of" in page
    assert 'id="derived-status"' in page and "js/derived.js" in page  # and it reloads when done
    drain()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "Updating…" not in page and "derived.js" not in page


def test_editing_the_season_rebuilds_it(club_world: dict[str, Any]) -> None:
    season, organiser = club_world["season"], club_world["organiser"]
    season_update(
        season=season, settings=season_settings(min_games=3), version=season.version, user=organiser
    )
    drain()  # the worker, after the commit
    ranked = list(
        SeasonStanding.objects.filter(season=season, family="", ranked=True).values_list(
            "player__name", flat=True
        )
    )
    assert ranked == ["Bob", "Cid"]  # Ann and Dan played two games each: below the line
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "Below the line" in page
    season.refresh_from_db()
    with pytest.raises(Exception) as stale:
        season_update(season=season, settings=season_settings(), version=season.version - 1, user=organiser)
    assert getattr(stale.value, "code", "") == "stale_season"


def test_season_pages_follow_the_club(club_world: dict[str, Any]) -> None:
    season, club = club_world["season"], club_world["club"]
    anonymous = Client()
    assert anonymous.get(f"/s/{season.public_id}/").status_code == 200
    club.visibility = "members"
    club.save()
    assert anonymous.get(f"/s/{season.public_id}/").status_code == 404
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    client = Client()
    client.force_login(member)
    assert client.get(f"/s/{season.public_id}/").status_code == 200
    # Members read, organisers write.
    assert client.get(f"/s/{season.public_id}/settings/").status_code == 403
    assert client.post(f"/c/{club.slug}/seasons/new/", {"name": "X"}).status_code == 403
    assert anonymous.get(f"/c/{club.slug}/seasons/").status_code == 404


def test_an_organiser_creates_a_season_from_the_page(club_world: dict[str, Any]) -> None:
    club, organiser = club_world["club"], club_world["organiser"]
    client = Client()
    client.force_login(organiser)
    today = timezone.localdate()
    data = {
        "name": "Wins only",
        "starts": (today - datetime.timedelta(days=10)).isoformat(),
        "ends": (today + datetime.timedelta(days=10)).isoformat(),
        "families": ["rummikub"],
        "counts": "games",
        "game_points": "wdl",
        "tournament_points": "preset",
        "best_events": "0",
        "drop_worst": "0",
        "min_games": "0",
        "tiebreak_1": "wins",
        "version": "0",
    }
    response = client.post(f"/c/{club.slug}/seasons/new/", data)
    assert response.status_code == 302
    season = Season.objects.get(name="Wins only")
    drain()
    assert standings(season)[0] == ("Bob", 1, "6")  # two wins at 3
    # Dates the wrong way round: a message at the field, nothing created.
    bad = client.post(f"/c/{club.slug}/seasons/new/", {**data, "name": "Bad", "ends": "2000-01-01"})
    assert bad.status_code == 200 and "The last day must not be before the first." in bad.content.decode()
    assert not Season.objects.filter(name="Bad").exists()


def test_the_standings_page_takes_the_same_queries_for_any_size(
    club_world: dict[str, Any], django_capture_on_commit_callbacks: Any, django_assert_max_num_queries: Any
) -> None:
    season, club, organiser = club_world["season"], club_world["club"], club_world["organiser"]
    client = Client()
    with django_assert_max_num_queries(10) as small:  # 2 of them: the evenings' picker
        client.get(f"/s/{season.public_id}/")
    for i in range(6):
        names = [f"P{i}a", f"P{i}b", f"P{i}c", "Ann"]
        play(club, organiser, names, names[i % 4], django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = client.get(f"/s/{season.public_id}/").content.decode()
    assert len(re.findall(r'<tr(?: class="unranked")?>\s*<td class="rank">', page)) == 4 + 18


def test_player_pages_show_ratings_chart_and_head_to_head(club_world: dict[str, Any]) -> None:
    club = club_world["club"]
    bob = club.players.get(name="Bob")
    ann = club.players.get(name="Ann")
    client = Client()
    player_page = client.get(f"/c/{club.slug}/players/{bob.pk}/").content.decode()
    assert f"/c/{club.slug}/players/{bob.pk}/ratings/" in player_page
    ratings = client.get(f"/c/{club.slug}/players/{bob.pk}/ratings/").content.decode()
    assert '<svg class="chart"' in ratings and "<polyline" in ratings
    versus = client.get(f"/c/{club.slug}/players/{bob.pk}/versus/?other={ann.pk}").content.decode()
    # Bob and Ann met twice: Ann ahead in the first game, Bob in the second.
    assert re.search(r"Games together</span> <span class=\"total\">2<", versus)


def test_a_new_club_game_shows_each_players_chance_to_win(club_world: dict[str, Any]) -> None:
    club, organiser = club_world["club"], club_world["organiser"]
    game = game_start(family="rummikub", options={}, players=["Bob", "Dan"], owner=organiser, club=club)
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    chances = dict(re.findall(r"<span>(\w+) <small>\(\d+\)</small></span> <strong>(\d+) %</strong>", page))
    assert set(chances) == {"Bob", "Dan"} and int(chances["Bob"]) > int(chances["Dan"])
    assert int(chances["Bob"]) + int(chances["Dan"]) in (99, 100, 101)
