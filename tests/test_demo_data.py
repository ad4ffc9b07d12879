from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from federations.models import Federation, FederationRatingEvent
from federations.ratings import differences
from games.models import Club, Game
from rummy_site.management.commands.load_demo import DEMO_ENTRANTS, DEMO_PLAYER
from tournaments.models import RatingEvent, Season, SeasonStanding, Tournament
from tournaments.selectors.home import home_of


@pytest.mark.django_db
def test_load_demo_twice_creates_nothing_twice(settings: Any) -> None:
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    assert get_user_model().objects.filter(username="demo").count() == 1
    games = Game.objects.filter(owner__username="demo", club=None)
    assert sorted(games.values_list("family", flat=True)) == ["carousel", "gin", "rummikub", "zoliky"]
    assert all(game.hands.count() == 3 for game in games)
    club = Club.objects.get()
    assert club.memberships.get().user.username == "demo"
    club_games = Game.objects.filter(club=club, event_name="")
    assert club_games.count() == 3
    assert all(r.finished for g in club_games for r in g.results.all())
    # The club's players are one per name across its games and its tournament.
    assert sorted(club.players.values_list("name", flat=True)) == sorted(DEMO_ENTRANTS)
    # The tournament: two rounds confirmed (three tables of four each), the third seated.
    tournament = Tournament.objects.get(club=club)
    assert list(tournament.round_set.values_list("status", flat=True)) == ["confirmed", "confirmed", "seated"]
    tables = Game.objects.filter(club=club).exclude(event_name="")
    assert tables.count() == 6 and all(r.finished for g in tables for r in g.results.all())
    # This year's season: every game rated (the evenings and the tournament's tables); the
    # standings place the four who played the club's evenings; the tournament counts once its
    # last round is confirmed.
    season = Season.objects.get(club=club)
    assert RatingEvent.objects.filter(club=club).count() == 11 + 24
    ranked = SeasonStanding.objects.filter(season=season, family="", ranked=True)
    assert sorted(ranked.values_list("player__name", flat=True)) == ["Eva", "Jana", "Petr", "Tomáš"]
    # The federation: the club a member, every player registered and linked, the list rated as
    # a fresh derivation gives it (the club's games and the tournament's tables alike).
    federation = Federation.objects.get()
    assert federation.clubs.get(state="member").club == club
    assert federation.register.count() == len(DEMO_ENTRANTS) == federation.links.count()
    assert FederationRatingEvent.objects.filter(federation=federation).count() == 11 + 24
    assert differences(federation) == []


@pytest.mark.django_db
def test_load_demo_refuses_in_production_mode(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError):
        call_command("load_demo")
    assert not get_user_model().objects.filter(username="demo").exists()


@pytest.mark.django_db
def test_demo_user_is_an_ordinary_user_who_cannot_open_the_admin(settings: Any, client: Any) -> None:
    settings.DEBUG = True
    call_command("load_demo")
    demo = get_user_model().objects.get(username="demo")
    assert not demo.is_staff
    assert not demo.is_superuser
    assert not demo.get_all_permissions()
    # Still the demo club's organiser, through its membership.
    assert Club.objects.get().memberships.get(user=demo).role == "organiser"
    client.force_login(demo)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert client.get("/admin/auth/user/").status_code == 302


@pytest.mark.django_db
def test_load_demo_demotes_a_demo_superuser_from_an_older_database(settings: Any) -> None:
    settings.DEBUG = True
    get_user_model().objects.create_user(
        username="demo", password="demo-rummy", is_staff=True, is_superuser=True
    )
    call_command("load_demo")
    demo = get_user_model().objects.get(username="demo")
    assert not demo.is_staff
    assert not demo.is_superuser


@pytest.mark.django_db
def test_the_demo_organisers_home_leads_him_to_tonight(settings: Any, client: Any) -> None:
    settings.DEBUG = True
    call_command("load_demo")
    demo = get_user_model().objects.get(username="demo")
    home = home_of(user=demo)
    [club] = home.clubs
    assert club.role == "organiser" and club.player is not None and club.player.name == DEMO_PLAYER
    # Tonight's cup: the third round is seated, so he sees his table and seat before it starts.
    [tonight] = home.tournaments
    assert tonight.round == 3 and tonight.table is not None and tonight.seat is not None
    assert tonight.game is None and tonight.table_path == tonight.player_path
    [season] = home.seasons
    assert season.mine is not None and season.mine.player.name == DEMO_PLAYER and season.top
    assert {r.family for r in home.ratings} == {"zoliky", "rummikub"}
    assert {g.game.family for g in home.games} == {"zoliky", "gin", "carousel", "rummikub"}
    client.force_login(demo)
    page = client.get("/").content.decode()
    assert f"Table {tonight.table}, seat {tonight.seat}" in page and season.season.name in page
