"""My games (family, date, players, status) and the rematch: the same players and house rules,
the deal moved on, idempotent, allowed to whoever could start the game anew; by page and API."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from games.models import Game, Membership
from games.services.games import game_end, game_rematch
from games.services.hands import hand_record
from games.services.players import player_rename
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member
from tests.games.test_views import start

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def won_gin(owner: User | None = None) -> Game:
    """A gin game to 10 that Ann has won in one hand."""
    game = GameFactory.create(family="gin", players=["Ann", "Bob"], options={"target": 10}, owner=owner)
    outcome = {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 2, "Bob": 20}}
    hand_record(game=game, outcome=outcome, request_id=uuid.uuid4(), user=owner)
    return game


def post_rematch(client: Client, game: Game, request_id: str | None = None) -> Game:
    response = client.post(f"/g/{game.public_id}/rematch/", {"request_id": request_id or str(uuid.uuid4())})
    assert response.status_code == 302, response.status_code
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


# --- the service ----------------------------------------------------------------------------


def test_a_rematch_keeps_players_rules_and_club_and_moves_the_deal_on() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    old = GameFactory.create(
        players=["Ann", "Bob", "Cid"],
        options={"joker_penalty": 30},
        club=club,
        owner=organiser,
        first_dealer=2,
    )
    game_end(game=old, ended=True, user=organiser)
    scorekeeper = UserFactory.create()
    new = game_rematch(game=old, user=scorekeeper, request_id=uuid.uuid4())
    assert new.pk != old.pk and new.rematch_of == old
    assert (new.family, new.options, new.club, new.owner) == (old.family, old.options, club, scorekeeper)
    assert new.first_dealer == 0  # the seat after Cid's
    assert [(s.name, s.player_id) for s in new.seats.all()] == [
        (s.name, s.player_id) for s in old.seats.all()
    ]
    assert not new.ended and new.hands.count() == 0
    assert sorted(r.total for r in new.results.all()) == [0, 0, 0]


def test_a_resend_finds_the_rematch_it_started() -> None:
    old = won_gin()
    key = uuid.uuid4()
    first = game_rematch(game=old, user=None, request_id=key)
    assert game_rematch(game=old, user=None, request_id=key) == first
    assert game_rematch(game=old, user=None, request_id=uuid.uuid4()) != first
    assert Game.objects.filter(rematch_of=old).count() == 2


def test_a_renamed_player_sits_under_his_current_name() -> None:
    owner = UserFactory.create()
    old = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    bob = old.seats.get(name="Bob").player
    player_rename(player=bob, name="Bobby", version=bob.version, request_id=uuid.uuid4(), user=owner)
    new = game_rematch(game=old, user=owner)
    assert [s.name for s in new.seats.all()] == ["Ann", "Bobby", "Cid"]
    assert new.seats.get(name="Bobby").player_id == bob.pk


# --- who may ----------------------------------------------------------------------------------


def test_the_browser_that_started_a_game_without_an_account_rematches_and_may_record() -> None:
    client = Client()
    old = start(client, "gin", ["Ann", "Bob"])
    new = post_rematch(client, old)
    assert new.owner is None and new.first_dealer == 1
    page = client.get(f"/g/{new.public_id}/").content.decode()
    assert "A rematch was started" in page and 'id="new-hand-title"' in page


@pytest.mark.parametrize("who", ["stranger", "member", "link"])
def test_others_may_not_rematch(who: str) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    game = GameFactory.create(club=club, owner=organiser)
    client = Client()
    if who == "member":
        user = UserFactory.create()
        add_member(club, user, Membership.Role.MEMBER)
        client.force_login(user)
    elif who == "link":  # an edit link lets one record hands, not start games in the club's name
        client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    response = client.post(f"/g/{game.public_id}/rematch/", {"request_id": str(uuid.uuid4())})
    assert response.status_code == 403
    assert Game.objects.count() == 1


def test_a_private_game_is_rematched_by_its_owner_only() -> None:
    owner = UserFactory.create()
    game = won_gin(owner)
    other = logged_in(UserFactory.create())
    assert other.post(f"/g/{game.public_id}/rematch/").status_code == 403
    new = post_rematch(logged_in(owner), game)
    assert new.owner == owner


def test_a_damaged_request_id_changes_nothing() -> None:
    owner = UserFactory.create()
    game = won_gin(owner)
    response = logged_in(owner).post(f"/g/{game.public_id}/rematch/", {"request_id": "nope"})
    assert response.status_code == 400
    assert Game.objects.count() == 1


def test_a_double_tap_starts_one_rematch() -> None:
    owner = UserFactory.create()
    game = won_gin(owner)
    client = logged_in(owner)
    key = str(uuid.uuid4())
    assert post_rematch(client, game, key) == post_rematch(client, game, key)
    assert Game.objects.filter(rematch_of=game).count() == 1


# --- the pages --------------------------------------------------------------------------------


def test_the_game_page_offers_a_rematch_once_the_game_is_over() -> None:
    owner = UserFactory.create()
    client = logged_in(owner)
    open_game = GameFactory.create(owner=owner)
    assert (
        f"/g/{open_game.public_id}/rematch/" not in client.get(f"/g/{open_game.public_id}/").content.decode()
    )
    game = won_gin(owner)
    assert f"/g/{game.public_id}/rematch/" in client.get(f"/g/{game.public_id}/").content.decode()
    # A viewer sees the result but is offered nothing.
    assert f"/g/{game.public_id}/rematch/" not in Client().get(f"/g/{game.public_id}/").content.decode()


def test_my_games_shows_family_players_date_and_status() -> None:
    owner = UserFactory.create()
    playing = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    ended = GameFactory.create(family="rummikub", players=["Dan", "Eve"], owner=owner)
    game_end(game=ended, ended=True, user=owner)
    won = won_gin(owner)
    html = logged_in(owner).get("/games/").content.decode()
    items = {
        public_id: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
        for public_id, body in re.findall(r'<li class="my-game">.*?href="/g/([^/]+)/"(.*?)</li>', html, re.S)
    }
    assert "Žolíky" in html and "Ann, Bob, Cid" in items[playing.public_id]
    assert "In play" in items[playing.public_id]
    assert "Ended" in items[ended.public_id] and "Dan, Eve" in items[ended.public_id]
    assert "Ended · Winner: Ann" in items[won.public_id]
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', html)
    # Rematch is offered for each (the owner may start each anew).
    assert html.count('action="/g/') == 3


def test_my_games_takes_a_fixed_number_of_queries(django_assert_num_queries: DjangoAssertNumQueries) -> None:
    owner = UserFactory.create()
    club = ClubFactory.create(organiser=owner)
    for i in range(3):
        GameFactory.create(owner=owner, club=club if i % 2 else None)
    won_gin(owner)
    client = logged_in(owner)
    client.get("/games/")  # warm the session and the caches
    # session, user, games, seats with results, the user's club roles
    with django_assert_num_queries(5):
        small = client.get("/games/")
    for i in range(6):
        GameFactory.create(owner=owner, club=club if i % 2 else None)
    with django_assert_num_queries(5):
        big = client.get("/games/")
    assert (
        big.content.decode().count('class="my-game"') == small.content.decode().count('class="my-game"') + 6
    )


# --- the API ----------------------------------------------------------------------------------


def test_the_api_starts_a_rematch_idempotently() -> None:
    owner = UserFactory.create()
    game = won_gin(owner)
    client = APIClient()
    client.force_login(owner)
    key = str(uuid.uuid4())
    first = client.post(f"/api/v1/games/{game.public_id}/rematch/", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["family"] == "gin" and body["options"]["target"] == 10 and body["first_dealer"] == 1
    assert [s["name"] for s in body["seats"]] == ["Ann", "Bob"] and body["rows"] == []
    assert first["Location"] == f"/api/v1/games/{body['public_id']}/"
    again = client.post(f"/api/v1/games/{game.public_id}/rematch/", HTTP_IDEMPOTENCY_KEY=key)
    assert again.json()["public_id"] == body["public_id"]
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_the_api_refuses_a_rematch_to_others_and_to_the_edit_link() -> None:
    owner = UserFactory.create()
    game = won_gin(owner)
    stranger = APIClient()
    stranger.force_login(UserFactory.create())
    assert stranger.post(f"/api/v1/games/{game.public_id}/rematch/").status_code == 403
    assert APIClient().post(f"/api/v1/games/{game.public_id}/rematch/").status_code in (401, 403)
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    assert link.post(f"/api/v1/games/{game.public_id}/rematch/").status_code == 403
    assert APIClient().post("/api/v1/games/nosuchgame/rematch/").status_code == 404
    assert Game.objects.count() == 1
