"""The arrange page's API: a hand arranged under a game's house rules."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def post(game: Any, hand: str) -> Any:
    return APIClient().post(f"/api/v1/games/{game.public_id}/arrange/", {"hand": hand}, format="json")


def test_gin_knock_follows_the_games_limit() -> None:
    game = GameFactory.create(family="gin", options={"knock_limit": 9})
    response = post(game, "AS 2S 3S 5H 5D 5C 7H 8H 9H TD")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["melds"] == [["AS", "2S", "3S"], ["5H", "5D", "5C"], ["7H", "8H", "9H"]]
    assert body["deadwood"] == ["TD"] and body["deadwood_points"] == 10
    assert body["knock"]["possible"] is False and body["knock"]["limit"] == 9
    assert body["opening"] is None


def test_zoliky_opening_and_reason() -> None:
    game = GameFactory.create(family="zoliky")
    body = post(game, "AS 2S 3S QH QD QC KH KD KC 4C").json()
    assert body["knock"] is None
    assert body["opening"]["possible"] is True and body["opening"]["points"] == 66
    assert body["opening"]["melds"][0] == {"cards": ["AS", "2S", "3S"], "points": 6}
    body = post(game, "QH QD QC KH KD KC 9S 9D 9C").json()
    assert body["opening"]["possible"] is False and body["opening"]["reason"] == "no_pure_run"
    assert body["opening"]["code"] == "no_opening" and body["opening"]["message"]


def test_bad_cards_and_unknown_game() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    response = post(game, "R7 XX")
    assert response.status_code == 400 and response.json()["code"] == "bad_token"
    response = APIClient().post("/api/v1/games/nope/arrange/", {"hand": "R7"}, format="json")
    assert response.status_code == 404
