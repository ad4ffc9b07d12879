"""A game's own date of play: given when the game is started (page and API), never in the
future, changed later as a recorded change that undo reverses; ratings and seasons follow it,
checked against openskill replaying the games in date order."""

from __future__ import annotations

import datetime
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from games.models import Change, Club, Game, Membership, Result
from games.services.errors import ServiceError
from games.services.games import game_date_set, game_start
from games.services.hands import change_undo
from tests.factories import ClubFactory, UserFactory, add_member
from tests.games.test_views import new_game_data
from tests.tournaments.pipeline import drain
from tests.tournaments.support import ago, finished_game, season_settings
from tournaments import derived
from tournaments.exchange.exporting import export_club
from tournaments.exchange.importing import import_club
from tournaments.models import RatingEvent, Season, SeasonStanding
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db

FAMILY = "rummikub"


def replay(club: Club) -> dict[tuple[int, int], tuple[float, float]]:
    """Every rated game of the club rated by openskill directly, in date order: each player's
    (mu, sigma) after each game."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    after: dict[tuple[int, int], tuple[float, float]] = {}
    for game in Game.objects.filter(club=club, family=FAMILY, deleted_at=None).order_by("played_at", "pk"):
        results = list(Result.objects.filter(game=game).order_by("seat__position"))
        if len(results) < 2 or not all(r.finished for r in results):
            continue
        teams = [[current.get(r.player_id) or model.rating()] for r in results]
        rated = model.rate(teams, ranks=[r.place for r in results])
        for r, team in zip(results, rated, strict=True):
            current[r.player_id] = team[0]
            after[(game.pk, r.player_id)] = (team[0].mu, team[0].sigma)
    return after


def assert_ratings_follow_the_dates(club: Club) -> None:
    expected = replay(club)
    stored = {
        (e.game_id, e.player_id): (e.mu, e.sigma, e.played_at) for e in RatingEvent.objects.filter(club=club)
    }
    assert set(stored) == set(expected)
    dates = dict(Game.objects.filter(club=club).values_list("pk", "played_at"))
    for key, (mu, sigma) in expected.items():
        assert stored[key][0] == pytest.approx(mu, abs=1e-9)
        assert stored[key][1] == pytest.approx(sigma, abs=1e-9)
        assert stored[key][2] == dates[key[0]]
    assert derived.differences(club) == []


def in_season(season: Season) -> set[str]:
    return set(
        SeasonStanding.objects.filter(season=season, games__gt=0).values_list("player__name", flat=True)
    )


def two_seasons(club: Club, user: User) -> tuple[Season, Season]:
    today = timezone.localdate()
    autumn = season_create(
        club=club,
        settings=season_settings(
            name="Autumn",
            starts=today - datetime.timedelta(days=40),
            ends=today - datetime.timedelta(days=21),
        ),
        user=user,
    )
    winter = season_create(
        club=club,
        settings=season_settings(
            name="Winter",
            starts=today - datetime.timedelta(days=20),
            ends=today + datetime.timedelta(days=20),
        ),
        user=user,
    )
    return autumn, winter


def test_dated_games_reorder_ratings_and_move_between_seasons_and_back_on_undo() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    autumn, winter = two_seasons(club, user)
    finished_game(club, user, ["Ann", "Bob", "Cid"], at=ago(30))
    finished_game(club, user, ["Bob", "Cid", "Ann"], at=ago(10))
    late = finished_game(club, user, ["Eva", "Ann", "Bob"], at=ago(2))  # typed in days after the evening
    finished_game(club, user, ["Cid", "Ann"], at=ago(1))
    drain()
    assert_ratings_follow_the_dates(club)
    assert "Eva" in in_season(winter) and "Eva" not in in_season(autumn)
    before = {
        (g, p): (m, s)
        for g, p, m, s in RatingEvent.objects.values_list("game_id", "player_id", "mu", "sigma")
    }

    shown = Game.objects.get(pk=late.pk).played_at
    change = game_date_set(game=late, played_at=ago(35), shown=shown, user=user, request_id=uuid.uuid4())
    assert change is not None and change.action == Change.Action.DATED
    drain()
    # Rated first now: every later game's numbers moved, as a replay in date order has them.
    assert_ratings_follow_the_dates(club)
    first = RatingEvent.objects.filter(club=club).order_by("played_at", "game_id").first()
    assert first is not None and first.game_id == late.pk
    assert "Eva" in in_season(autumn) and "Eva" not in in_season(winter)

    change_undo(change=change, user=user)
    drain()
    assert_ratings_follow_the_dates(club)
    assert Game.objects.get(pk=late.pk).played_at == shown
    assert "Eva" in in_season(winter) and "Eva" not in in_season(autumn)
    after = {
        (g, p): (m, s)
        for g, p, m, s in RatingEvent.objects.values_list("game_id", "player_id", "mu", "sigma")
    }
    assert after.keys() == before.keys()
    assert all(after[k] == pytest.approx(before[k], abs=1e-12) for k in before)


def test_a_changed_date_is_refused_in_the_future_when_stale_and_for_a_tournament_table() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    game = finished_game(club, user, ["Ann", "Bob"], at=ago(3))
    with pytest.raises(ServiceError) as future:
        game_start(
            family=FAMILY,
            options={},
            players=["Ann", "Bob"],
            owner=user,
            club=club,
            played_at=timezone.now() + datetime.timedelta(hours=1),
        )
    assert future.value.code == "played_in_future"
    with pytest.raises(ServiceError) as again:
        game_date_set(
            game=game, played_at=timezone.now() + datetime.timedelta(days=1), shown=game.played_at, user=user
        )
    assert again.value.code == "played_in_future"
    with pytest.raises(ServiceError) as stale:
        game_date_set(game=game, played_at=ago(5), shown=ago(4), user=user)
    assert stale.value.code == "date_changed_since"
    # A phone's clock a minute ahead: its "now" is now.
    soon = game_start(
        family=FAMILY,
        options={},
        players=["Ann", "Bob"],
        owner=user,
        played_at=timezone.now() + datetime.timedelta(minutes=1),
    )
    assert soon.played_at <= timezone.now()
    Game.objects.filter(pk=game.pk).update(event_name="Autumn cup", event_round=1, event_table=1)
    with pytest.raises(ServiceError) as table:
        game_date_set(game=Game.objects.get(pk=game.pk), played_at=ago(5), shown=game.played_at, user=user)
    assert table.value.code == "event_game_dated"
    assert Game.objects.get(pk=game.pk).played_at == ago(3)


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_api_starts_a_dated_game_changes_its_date_and_undoes_it() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    keeper = UserFactory.create()
    add_member(club, keeper, Membership.Role.SCOREKEEPER)
    member = UserFactory.create()
    add_member(club, member)
    client = api(keeper)
    body = {"family": FAMILY, "players": ["Ann", "Bob"], "club": club.slug, "played_at": ago(6).isoformat()}
    created = client.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.json()
    assert datetime.datetime.fromisoformat(created.json()["played_at"]) == ago(6)
    public_id = created.json()["public_id"]

    future = {**body, "played_at": (timezone.now() + datetime.timedelta(days=1)).isoformat()}
    refused = client.post("/api/v1/games/", future, format="json")
    assert refused.status_code == 400 and "played_at" in refused.json()["fields"]

    read = client.get(f"/api/v1/games/{public_id}/").json()
    date_url = f"/api/v1/games/{public_id}/date/"
    wanted = {"played_at": ago(8).isoformat(), "shown": read["played_at"]}
    assert api(member).post(date_url, wanted, format="json").status_code == 403
    key = str(uuid.uuid4())
    changed = client.post(date_url, wanted, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert changed.status_code == 201, changed.json()
    assert changed.json()["action"] == "dated"
    resent = client.post(date_url, wanted, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert resent.json()["id"] == changed.json()["id"]
    assert Change.objects.filter(game__public_id=public_id, action="dated").count() == 1
    stale = client.post(
        date_url, {"played_at": ago(9).isoformat(), "shown": read["played_at"]}, format="json"
    )
    assert stale.status_code == 400 and stale.json()["code"] == "date_changed_since"
    game = Game.objects.get(public_id=public_id)
    assert game.played_at == ago(8)
    listed = client.get("/api/v1/games/", {"since": ago(8).date().isoformat()}).json()
    items = listed["results"] if isinstance(listed, dict) else listed
    assert public_id in [g["public_id"] for g in items]

    undone = client.post(f"/api/v1/games/{public_id}/history/{changed.json()['id']}/undo/")
    assert undone.status_code == 201
    assert Game.objects.get(pk=game.pk).played_at == ago(6)


def test_the_pages_start_a_dated_game_and_change_its_date_from_the_history() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client()
    client.force_login(organiser)
    local = timezone.localtime(ago(4)).strftime("%Y-%m-%dT%H:%M")
    new = f"/games/new/{FAMILY}/?club={club.slug}"
    start = new_game_data(client, FAMILY, ["Ann", "Bob"]) | {"club": club.slug, "played_at": local}
    started = client.post(new, start)
    assert started.status_code == 302
    game = Game.objects.get(club=club)
    assert game.played_at == ago(4)

    tomorrow = timezone.localtime(timezone.now() + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    refused = client.post(new, start | {"player_1": "Cid", "player_2": "Dan", "played_at": tomorrow})
    assert refused.status_code == 200
    assert "cannot be played in the future" in refused.content.decode()
    assert Game.objects.filter(club=club).count() == 1

    history = client.get(f"/g/{game.public_id}/history/").content.decode()
    assert f"/g/{game.public_id}/date/" in history
    page = client.get(f"/g/{game.public_id}/date/")
    assert page.status_code == 200 and local in page.content.decode()
    form = page.context["form"]
    earlier = timezone.localtime(ago(12)).strftime("%Y-%m-%dT%H:%M")
    data = {"played_at": earlier, "shown": form["shown"].value(), "request_id": form["request_id"].value()}
    saved = client.post(f"/g/{game.public_id}/date/", data, follow=True)
    assert saved.status_code == 200
    assert Game.objects.get(pk=game.pk).played_at == ago(12)
    assert "Date of play changed" in saved.content.decode()
    future = client.post(f"/g/{game.public_id}/date/", {**data, "played_at": tomorrow})
    assert "cannot be played in the future" in future.content.decode()

    stranger = Client()
    stranger.force_login(UserFactory.create())
    assert stranger.get(f"/g/{game.public_id}/date/").status_code == 403
    assert f"/g/{game.public_id}/date/" not in stranger.get(f"/g/{game.public_id}/history/").content.decode()


def test_recent_games_and_player_pages_follow_the_date_and_export_import_keep_it() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    newer = finished_game(club, user, ["Ann", "Bob"], at=ago(1))
    older = finished_game(club, user, ["Bob", "Ann"], at=ago(9))  # typed in after the newer one
    client = Client()
    client.force_login(user)
    page = client.get(f"/c/{club.slug}/").content.decode()
    assert page.index(newer.public_id) < page.index(older.public_id)
    ann = Result.objects.get(game=newer, player__name="Ann").player
    player_page = client.get(f"/c/{club.slug}/players/{ann.pk}/").content.decode()
    assert player_page.index(newer.public_id) < player_page.index(older.public_id)

    doc = json.loads(json.dumps(export_club(club)))
    assert [datetime.datetime.fromisoformat(g["played_at"]) for g in doc["games"]] == [ago(9), ago(1)]
    copy = import_club(doc, user=UserFactory.create(), name="Copy").club
    assert sorted(Game.objects.filter(club=copy).values_list("played_at", flat=True)) == [ago(9), ago(1)]
    # A document from before games had their own date: played when started.
    for g in doc["games"]:
        g.pop("played_at")
    old = import_club(doc, user=UserFactory.create(), name="Old copy").club
    assert all(g.played_at == g.created_at for g in Game.objects.filter(club=old))


def test_the_schema_names_the_date_of_play() -> None:
    schema = yaml.safe_load((Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml").read_text())
    parts = schema["components"]["schemas"]
    assert "played_at" in parts["GameCreateRequest"]["properties"]
    assert "played_at" in parts["GameItem"]["properties"]
    assert set(parts["GameDateRequest"]["required"]) == {"played_at", "shown"}
    assert "/api/v1/games/{public_id}/date/" in schema["paths"]
