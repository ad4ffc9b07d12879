"""What two phones and flaky Wi-Fi do to a game: resends after a delete, corrections of deleted
hands, undo of an undo, eliminations that come and go, hands after the end, forms whose players
changed meanwhile. Each gets a clear message, never a 500, and nothing recorded is lost."""

import html as htmllib
import re
import uuid

import pytest
from django.test import Client

from games.models import Game, Hand
from tests.factories import GameFactory
from tests.games.test_views import editor, totals

pytestmark = pytest.mark.django_db


def text(response) -> str:  # type: ignore[no-untyped-def]
    return htmllib.unescape(response.content.decode())


def alerts(response) -> list[str]:  # type: ignore[no-untyped-def]
    """Error texts at fields, at the form and as flash messages."""
    page = text(response)
    found = re.findall(r'role="alert">\s*(?:<p>)?([^<]+)<', page)
    found += re.findall(r'<li class="error">\s*([^<]+?)\s*</li>', page)
    return [message.strip() for message in found if message.strip() and "No connection" not in message]


def outcomes(game: Game) -> list[object]:
    return [hand.outcome for hand in Hand.objects.filter(game=game)]


def zoliky_with_bob_out(client_game: tuple[Client, Game] | None = None) -> tuple[Client, Game]:
    """Ann, Bob, Cid; Bob is out after hand 1 (104 points); hand 2 was played without him."""
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "104", "points_2": "6"})
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "7"})  # Cid (Bob is out)
    assert totals(client, game) == ["−20", "104", "13"]
    return client, game


@pytest.mark.parametrize("field", ["points_1", "cards_1", "laid_1"])
@pytest.mark.parametrize("count", ["2147483648", "9" * 30])
def test_an_absurd_count_is_refused_at_the_field_not_a_500(field: str, count: str) -> None:
    game = GameFactory.create(family="zoliky", options={"credit_laid_down": True}, players=["Ann", "Bob"])
    client = editor(game)
    data = {"closer": "Ann", "points_1": "5", field: count}
    response = client.post(f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), **data})
    assert response.status_code == 200
    assert any("cannot score" in message and "at most 99999" in message for message in alerts(response))
    assert not Hand.objects.exists()
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "5"})
    response = client.post(f"/g/{game.public_id}/hands/1/", {"version": "1", **data})
    assert response.status_code == 200 and alerts(response)
    assert outcomes(game) == [{"closer": "Ann", "from_hand": False, "left": {"Bob": 5}}]


@pytest.mark.parametrize("version", ["²", "٣", "9" * 5000])
def test_a_malformed_version_on_delete_is_not_a_500(version: str) -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    response = client.post(f"/g/{game.public_id}/hands/1/delete/", {"version": version})
    assert response.status_code == 302
