"""Two programs at once, for real (threads, each with its own database connection): the same
Idempotency-Key sent twice at the same moment records one hand; two corrections made against
the same ETag at the same moment: one lands, the other gets 412 with the current value."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Hand
from games.services.tokens import token_create
from tests.factories import GameFactory, UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="the in-memory SQLite test database shares one cache between threads and fails their "
        "writes with 'table is locked' instead of queueing them as the file database of a real site does",
    ),
]
HAND = {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": 9}}


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            start.wait()
            answers[index] = calls[index]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def client(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def test_one_key_sent_twice_at_once_records_one_hand() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], owner=owner)
    token = token_create(user=owner, name="t", scope="write")[1]
    key = str(uuid.uuid4())
    path = f"/api/v1/games/{game.public_id}/hands/"

    def send() -> Any:
        return client(token).post(path, HAND, format="json", HTTP_IDEMPOTENCY_KEY=key)

    first, second = at_once(send, send)
    assert sorted([first.status_code, second.status_code]) == [200, 201]
    assert first.json()["number"] == second.json()["number"]
    assert Hand.objects.filter(game=game).count() == 1


def test_two_corrections_against_one_etag_one_wins() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"], owner=owner)
    token = token_create(user=owner, name="t", scope="write")[1]
    api = client(token)
    api.post(f"/api/v1/games/{game.public_id}/hands/", HAND, format="json")
    path = f"/api/v1/games/{game.public_id}/hands/1/"
    tag = api.get(path)["ETag"]

    def correct(count: int) -> Callable[[], Any]:
        body = {"closer": "Ann", "from_hand": False, "left": {"Bob": count, "Cid": 9}}
        return lambda: client(token).put(path, body, format="json", HTTP_IF_MATCH=tag)

    answers = at_once(correct(10), correct(20))
    assert sorted(a.status_code for a in answers) == [200, 412]
    refused = next(a for a in answers if a.status_code == 412)
    stored = Hand.objects.get(game=game, number=1)
    assert stored.version == 2 and refused.json()["current"]["outcome"] == stored.outcome
