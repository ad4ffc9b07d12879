"""A family of the tests' own — a plain rummy with one deck (tests/plain_family.py) — registered
by a fixture alone, then played through the services and the pages: nothing else in the house
names it. This is what "a rule family is one module" promises (docs/design/scoring.md, "Adding
a family"); tests/games/test_family_words.py plays its words."""

from __future__ import annotations

import html as htmllib
import re
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import Client

from engine.rules import FAMILIES, OPTIONS
from games.models import Game, Result
from games.services.games import game_start
from games.services.hands import hand_record
from scoring.errors import ScoringError
from scoring.families import register, unregister
from tests.plain_family import Plain, plain  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("plain")]


def text(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(body))


def totals(client: Client, game: Game) -> list[str]:
    html = client.get(f"/g/{game.public_id}/").content.decode()
    return re.findall(r'<span class="total">([^<]+)</span>', html)


def test_a_family_registered_by_a_test_is_played_through_the_pages() -> None:
    client = Client()
    assert "Plain rummy" in text(client.get("/games/new/"))
    form = client.get("/games/new/plain/").content.decode()
    assert 'name="opt_target"' in form and 'name="player_4"' in form and 'name="player_5"' not in form
    response = client.post(
        "/games/new/plain/",
        {
            "player_1": "Ann",
            "player_2": "Bob",
            "player_3": "Cid",
            "first_dealer": "0",
            "opt_target": "40",
            "opt_rummy_counts": "2",
        },
    )
    assert response.status_code == 302, text(client.get("/games/new/plain/"))
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert game.family == "plain" and game.options == {"target": 40, "rummy_counts": 2}

    sheet = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="declarer"' in sheet and "Nobody" not in sheet  # the role is required
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "declarer": "Ann", "cards_1": "KH 5S", "points_2": "7"},
    )
    assert response.status_code == 302
    assert totals(client, game) == ["22", "0", "0"]  # K 10 + 5 + 7, one deck's values

    # A card the one deck holds once, typed twice, is refused at the form; nothing is recorded.
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "declarer": "Bob", "cards_0": "KH", "cards_2": "KH"},
    )
    assert response.status_code == 200 and game.hands.count() == 1

    rules_page = text(client.get(f"/g/{game.public_id}/rules/"))
    assert (
        "the game goes to 40" in rules_page and "Ann goes out; Bob and Cid count their cards." in rules_page
    )
    assert "the game goes to 100" in text(client.get("/rules/plain/"))

    response = client.post(
        f"/g/{game.public_id}/hands/",
        {
            "request_id": str(uuid.uuid4()),
            "declarer": "Bob",
            "points_0": "30",
            "points_2": "12",
            "confirm_end": "1",
        },
    )
    assert response.status_code == 302
    assert totals(client, game) == ["22", "42", "0"]  # Bob past the target: the game is over
    winners = set(Result.objects.filter(game=game, winner=True).values_list("seat__name", flat=True))
    assert winners == {"Bob"}


def test_a_registered_family_is_played_through_the_services_and_goes_when_unregistered() -> None:
    game = game_start(family="plain", options={}, players=["Ann", "Bob"], owner=AnonymousUser())
    hand_record(game=game, outcome={"declarer": "Bob", "left": {"Ann": "AS 9D"}}, request_id=None, user=None)
    result = {
        r.seat.name: (r.total, r.winner) for r in Result.objects.filter(game=game).select_related("seat")
    }
    assert result == {"Ann": (0, False), "Bob": (10, False)}  # ace 1 + 9, not finished
    with pytest.raises(ScoringError) as refused:
        hand_record(game=game, outcome={"declarer": "Ann", "knocker": "Bob"}, request_id=None, user=None)
    assert refused.value.code == "unknown_field"
    Game(family="plain", options={}).clean_fields(exclude=["owner", "club"])

    unregister("plain")
    assert "plain" not in FAMILIES and "plain" not in OPTIONS
    with pytest.raises(ValidationError):
        Game(family="plain", options={}).clean_fields(exclude=["owner", "club"])
    assert Client().get("/games/new/plain/").status_code == 404
    register(Plain())  # for the fixture to remove again
