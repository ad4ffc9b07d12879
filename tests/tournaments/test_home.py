"""A signed-in person's home: tonight's table and seat, the games in progress he may record, his
clubs' current seasons with his line, his ratings and their trend; nothing of a club he is not
a member of; a fixed number of queries whatever the number of his clubs; the page and the API."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Club, Game, Membership, Player
from games.services.games import game_start
from games.services.players import player_claim
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.pipeline import drain
from tests.tournaments.support import ago, finished_game, season_settings, tournament
from tournaments.models import Season, Table, TableSeat, Tournament
from tournaments.selectors.home import home_of
from tournaments.selectors.league import rating_list
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_start
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db

ME = "Anna"


@dataclass
class Evening:
    club: Club
    organiser: User
    cup: Tournament
    season: Season
    open_game: Game  # a club game in progress (not a tournament's table)


def _claim(club: Club, user: User, name: str = ME) -> Player:
    return player_claim(player=Player.objects.get(club=club, name=name), user=user, claim=True)


def evening_of(user: User, *, role: str = Membership.Role.MEMBER, name: str = "Tuesday club") -> Evening:
    """A club where ``user`` plays as Anna: two evenings of finished games in its season, a game
    in progress, and a tournament today whose first round is being played."""
    organiser = UserFactory.create()
    club = ClubFactory.create(name=name, organiser=organiser)
    add_member(club, user, role)
    season = season_create(club=club, settings=season_settings(), user=organiser)
    finished_game(club, organiser, [ME, "Bára", "Cyril", "David"], at=ago(3))
    finished_game(club, organiser, ["Bára", ME, "Cyril", "David"], at=ago(3, 21))
    finished_game(club, organiser, ["Cyril", "David", ME, "Bára"], at=ago(1))
    finished_game(club, organiser, ["Eva", "Filip", "Gita", "Hana"], at=ago(1, 21))
    open_game = game_start(
        family="rummikub", options={}, players=[ME, "Bára", "Cyril"], owner=organiser, club=club
    )
    cup = tournament(club, organiser, 8, date=timezone.localdate())
    played = round_seat(tournament=cup, number=1, user=organiser)
    round_start(played=played, round_version=played.version, user=organiser)
    drain()
    _claim(club, user)
    return Evening(club, organiser, cup, season, open_game)


def _my_seat(cup: Tournament) -> TableSeat:
    return TableSeat.objects.select_related("table__game").get(
        table__round__tournament=cup, table__round__number=1, entry__player__name=ME
    )


def test_a_player_seated_tonight_sees_his_table_seat_and_its_page() -> None:
    me = UserFactory.create()
    evening = evening_of(me)
    seat = _my_seat(evening.cup)
    home = home_of(user=me)
    [tonight] = home.tournaments
    assert tonight.tournament == evening.cup
    assert (tonight.round, tonight.round_status) == (1, "playing")
    assert (tonight.table, tonight.seat) == (seat.table.number, seat.position + 1)
    assert seat.table.game is not None and tonight.game == seat.table.game
    assert tonight.table_path == f"/g/{seat.table.game.public_id}/"
    assert tonight.name == ME and tonight.checked_in and tonight.door is None


def test_registered_but_not_checked_in_gets_the_door_while_it_is_open() -> None:
    me = UserFactory.create()
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    add_member(club, me)
    cup = tournament(club, organiser, 6, date=timezone.localdate())
    _claim(club, me)
    cup.entries.filter(player__name=ME).update(checked_in=False)
    [closed] = home_of(user=me).tournaments
    assert closed.entry_id is not None and closed.table is None and closed.door is None
    assert closed.seat_path == f"/t/{cup.public_id}/seat/"
    cup.check_in_open, cup.check_in_key = True, "door-key"
    cup.save()
    [door] = home_of(user=me).tournaments
    assert door.door == f"/t/{cup.public_id}/check-in/door-key/"


def test_a_scorekeeper_sees_the_games_he_may_record_and_a_member_does_not() -> None:
    keeper, member = UserFactory.create(), UserFactory.create()
    evening = evening_of(keeper, role=Membership.Role.SCOREKEEPER)
    add_member(evening.club, member)
    _claim(evening.club, member, "Bára")
    own = game_start(family="gin", options={}, players=["Me", "You"], owner=member)
    tables = {t.game_id for t in Table.objects.filter(round__tournament=evening.cup)}

    shown = {g.game.pk for g in home_of(user=keeper).games}
    assert evening.open_game.pk in shown
    assert tables <= shown  # the tournament's tables are the club's games in progress
    assert not any(g.game.deleted_at or g.game.ended for g in home_of(user=keeper).games)
    assert own.pk not in shown

    # A member plays the same game but may not record it: only his own private game is his.
    assert [g.game.pk for g in home_of(user=member).games] == [own.pk]


def test_finished_ended_and_locked_games_are_not_in_progress() -> None:
    keeper = UserFactory.create()
    evening = evening_of(keeper, role=Membership.Role.SCOREKEEPER)
    evening.open_game.ended = True
    evening.open_game.save()
    table_games = Game.objects.filter(tournament_table__round__tournament=evening.cup)
    table_games.update(results_locked=True)
    shown = {g.game.pk for g in home_of(user=keeper).games}
    assert shown == set()
    # The club's organiser still corrects a table its event confirmed.
    assert set(table_games.values_list("pk", flat=True)) <= {
        g.game.pk for g in home_of(user=evening.organiser).games
    }


def test_the_season_shows_its_top_lines_and_his_own() -> None:
    me = UserFactory.create()
    evening = evening_of(me)
    [season] = home_of(user=me).seasons
    assert season.season == evening.season
    assert [r.rank for r in season.top] == sorted(r.rank for r in season.top) and len(season.top) == 3
    assert season.mine is not None and season.mine.player.name == ME
    assert season.path == f"/s/{evening.season.public_id}/"
    assert season.card_path == f"/s/{evening.season.public_id}/players/{season.mine.player_id}/"
    # A season that ended is not current.
    Season.objects.filter(pk=evening.season.pk).update(ends=timezone.localdate() - datetime.timedelta(days=1))
    assert home_of(user=me).seasons == []


def test_his_rating_and_the_last_evenings_change_as_the_rating_list_shows_them() -> None:
    me = UserFactory.create()
    evening = evening_of(me)
    [rating] = home_of(user=me).ratings
    row = next(r for r in rating_list(club=evening.club, family="rummikub").rows if r.name == ME)
    assert (rating.family, rating.rating, rating.games) == ("rummikub", row.rating, 3)
    assert rating.trend == row.trend and rating.trend not in (None, 0)  # he played on the last evening
    assert rating.evening == ago(1).date()


def test_nothing_of_a_club_he_is_not_a_member_of() -> None:
    me = UserFactory.create()
    left = evening_of(me, name="Club he left")
    Membership.objects.filter(club=left.club, user=me).delete()  # his claim stays behind
    stranger = UserFactory.create()
    hidden = evening_of(stranger, name="Members only", role=Membership.Role.SCOREKEEPER)
    Club.objects.filter(pk=hidden.club.pk).update(visibility=Club.Visibility.MEMBERS)
    home = home_of(user=me)
    assert (home.clubs, home.tournaments, home.games, home.seasons, home.ratings) == ([], [], [], [], [])
    assert not home.has_clubs


def _clubs(count: int) -> User:
    me = UserFactory.create()
    for n in range(count):
        evening_of(me, role=Membership.Role.SCOREKEEPER, name=f"Club {n}")
        game_start(family="gin", options={}, players=["Me", f"Friend {n}"], owner=me)
    return me


def test_the_query_count_does_not_grow_with_clubs_games_and_seasons(django_assert_num_queries: Any) -> None:
    one, three = _clubs(1), _clubs(3)
    with django_assert_num_queries(10):
        small = home_of(user=one)
    with django_assert_num_queries(10):
        big = home_of(user=three)
    assert (len(small.clubs), len(small.tournaments), len(small.seasons), len(small.ratings)) == (1, 1, 1, 1)
    assert (len(big.clubs), len(big.tournaments), len(big.seasons), len(big.ratings)) == (3, 3, 3, 3)
    assert len(big.games) > len(small.games)


def test_the_page_signed_in_and_anonymous() -> None:
    me = UserFactory.create()
    evening = evening_of(me)
    seat = _my_seat(evening.cup)
    welcome = '<h1 id="home-title">Keep score at the card table</h1>'
    assert welcome in Client().get("/").content.decode()
    client = Client()
    client.force_login(me)
    answer = client.get("/")
    assert "private" in answer["Cache-Control"]
    page = answer.content.decode()
    assert welcome not in page and "Rule families" not in page
    assert f"Table {seat.table.number}, seat {seat.position + 1}" in page
    assert seat.table.game is not None and f'href="/g/{seat.table.game.public_id}/"' in page
    assert evening.season.name in page and f'href="/s/{evening.season.public_id}/"' in page
    assert 'href="/games/new/"' in page


def test_the_page_invites_someone_without_a_club() -> None:
    client = Client()
    client.force_login(UserFactory.create())
    page = client.get("/").content.decode()
    assert "You are not in a club yet" in page
    assert 'href="/clubs/"' in page and 'href="/clubs/join/"' in page and 'href="/games/new/"' in page


def test_the_api_needs_an_account_and_gives_the_same_home() -> None:
    refused = APIClient().get("/api/v1/me/home/")
    assert refused.status_code == 401 and refused["Content-Type"] == "application/problem+json"
    me = UserFactory.create()
    evening = evening_of(me)
    seat = _my_seat(evening.cup)
    api = APIClient()
    api.force_authenticate(me)
    data = api.get("/api/v1/me/home/").json()
    assert set(data) == {"clubs", "tournaments", "games", "seasons", "ratings"}
    [club] = data["clubs"]
    assert (club["slug"], club["role"], club["player_name"]) == (evening.club.slug, "member", ME)
    [tonight] = data["tournaments"]
    assert (tonight["id"], tonight["table"], tonight["seat"]) == (
        evening.cup.public_id,
        seat.table.number,
        seat.position + 1,
    )
    assert seat.table.game is not None and tonight["table_url"].endswith(f"/g/{seat.table.game.public_id}/")
    assert tonight["check_in_url"] is None and data["games"] == []
    [season] = data["seasons"]
    assert season["mine"]["name"] == ME and len(season["top"]) == 3
    [rating] = data["ratings"]
    assert rating["family"] == "rummikub" and isinstance(rating["trend"], int)


def test_a_read_only_token_reads_the_home() -> None:
    me = UserFactory.create()
    _token, secret = token_create(user=me, name="phone", scope="read")
    answer = APIClient().get("/api/v1/me/home/", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert answer.status_code == 200
    assert answer.json() == {"clubs": [], "tournaments": [], "games": [], "seasons": [], "ratings": []}
