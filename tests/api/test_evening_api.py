"""An evening's games through the API: the games a scorekeeper may put in, putting one in and
taking it out again, each answered with the evening as it then stands."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from games.services.games import game_end
from games.services.hands import hand_record
from tests.factories import GameFactory, UserFactory

API = "/api/v1"
pytestmark = pytest.mark.django_db


def _hand(game: Game, closer: str, left: dict[str, int]) -> None:
    hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=uuid.uuid4(), user=None)


def _two_games(owner: User) -> tuple[Game, Game]:
    first = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    _hand(first, "Cid", {"Ann": 14, "Bob": 120})
    game_end(game=first, ended=True, user=owner)
    second = GameFactory.create(players=["Ann", "Bob", "Cid"], owner=owner)
    _hand(second, "Bob", {"Ann": 24, "Cid": 16})
    return first, second


def test_a_game_is_put_in_the_evening_and_taken_out_through_the_api() -> None:
    owner = UserFactory.create()
    first, second = _two_games(owner)
    client = APIClient()
    client.force_authenticate(owner)
    base = f"{API}/games/{second.public_id}/evening"

    offered = client.get(f"{base}/games/")
    assert offered.status_code == 200, offered.content
    assert [row["id"] for row in offered.json()] == [first.public_id]

    put_in = client.post(
        f"{base}/games/", {"game": first.public_id}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
    )
    assert put_in.status_code == 200, put_in.content
    assert len(put_in.json()["games"]) == 2
    assert client.get(f"{base}/games/").json() == []

    again = client.post(f"{base}/games/", {"game": first.public_id}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "evening_already"

    out = client.delete(f"{base}/games/{first.public_id}/")
    assert out.status_code == 200, out.content
    assert len(out.json()["games"]) == 1

    stranger = APIClient()
    stranger.force_authenticate(UserFactory.create())
    assert stranger.get(f"{base}/games/").status_code in {403, 404}
