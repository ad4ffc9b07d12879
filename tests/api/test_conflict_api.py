"""Two clients, one hand: ``for_hand`` on POST /games/<id>/hands/ (409 ``hand_taken``)."""

from __future__ import annotations

import uuid

import pytest

from games.models import Hand
from tests.api.test_games_api import CORRECTED, ZOLIKY, assert_problem, client_for, url
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_hand_posted_for_a_place_taken_meanwhile_is_a_409_naming_the_other_hand() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    assert client.get(url(game)).json()["next_hand_number"] == 1
    first = client.post(url(game, "hands/"), {**ZOLIKY, "for_hand": 1}, format="json")
    assert first.status_code == 201 and first.json()["outcome"] == ZOLIKY  # for_hand is not stored
    key = str(uuid.uuid4())
    late = client.post(
        url(game, "hands/"), {**CORRECTED, "for_hand": 1}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    body = assert_problem(late, 409, "hand_taken")
    assert body["message"] == "Hand 1 was just recorded on another phone."
    assert body["hand"] == 1 and body["number"] == 1 and body["next_hand_number"] == 2
    assert body["current"]["outcome"] == ZOLIKY and body["etag"] == first["ETag"]
    assert Hand.objects.filter(game=game).count() == 1

    # Record it as the next hand (the same key: nothing was recorded with it) ...
    again = client.post(
        url(game, "hands/"),
        {**CORRECTED, "for_hand": body["next_hand_number"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert again.status_code == 201 and again.json()["ordinal"] == 2
    # ... and a resend with the stale for_hand is still answered with that hand.
    resend = client.post(
        url(game, "hands/"), {**CORRECTED, "for_hand": 1}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert resend.status_code == 200 and resend.json()["number"] == 2


def test_a_malformed_for_hand_is_a_400_at_the_field() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    for value in ("1", True, -1, 2**40):
        body = assert_problem(
            client.post(url(game, "hands/"), {**ZOLIKY, "for_hand": value}, format="json"), 400
        )
        assert "for_hand" in body["fields"]
    assert not Hand.objects.filter(game=game).exists()
