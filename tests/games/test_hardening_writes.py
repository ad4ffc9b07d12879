"""Guarded writes: corrections and deletes must name the version they change, and a damaged
hidden field is said, not silently re-rendered."""

import uuid

import pytest
from django.test import Client

from games.models import Change, Game, Hand
from games.services.errors import ServiceError
from games.services.hands import hand_delete, hand_edit, hand_record
from tests.factories import GameFactory
from tests.games.test_views import editor, new_game_data

pytestmark = pytest.mark.django_db
FIRST = {"closer": "Ann", "from_hand": False, "left": {"Bob": 10, "Cid": 20}}
MESSAGE = "This form did not say which version of the hand it changes"


def game_with_a_hand() -> tuple[Game, Hand, Client]:
    game = GameFactory.create(players=["Ann", "Bob", "Cid"])
    hand, _, _, _ = hand_record(game=game, outcome=FIRST, request_id=uuid.uuid4(), user=None)
    return game, hand, editor(game)


def correction(version: str | None) -> dict[str, str]:
    data = {"closer": "Ann", "points_1": "11", "points_2": "20", "dealt_in": '["Ann", "Bob", "Cid"]'}
    return data if version is None else data | {"version": version}


def test_the_services_refuse_a_correction_or_delete_without_a_version() -> None:
    game, hand, _client = game_with_a_hand()
    for write in (
        lambda: hand_edit(
            hand=hand, outcome={**FIRST, "left": {"Bob": 11, "Cid": 20}}, version=None, user=None
        ),
        lambda: hand_delete(hand=hand, version=None, user=None),
    ):
        with pytest.raises(ServiceError) as refused:
            write()
        assert refused.value.code == "version_required"
    hand.refresh_from_db()
    assert (hand.outcome, hand.version) == (FIRST, 1)
    assert Change.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("version", [None, "", "١", "+1", "1.0", "0x1", "9" * 12])
def test_a_correction_without_a_plain_version_is_refused_with_a_message(version: str | None) -> None:
    game, hand, client = game_with_a_hand()
    response = client.post(f"/g/{game.public_id}/hands/{hand.number}/", correction(version))
    assert response.status_code == 200
    page = response.content.decode()
    assert MESSAGE in page or "Part of the form was damaged" in page
    hand.refresh_from_db()
    assert (hand.outcome, hand.version) == (FIRST, 1)


def test_a_correction_with_its_version_still_lands() -> None:
    game, hand, client = game_with_a_hand()
    response = client.post(f"/g/{game.public_id}/hands/{hand.number}/", correction("1"))
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.outcome["left"] == {"Bob": 11, "Cid": 20} and hand.version == 2


@pytest.mark.parametrize("version", [None, "", "٢", "+1", "abc"])
def test_a_delete_without_a_plain_version_is_refused(version: str | None) -> None:
    game, hand, client = game_with_a_hand()
    data = {} if version is None else {"version": version}
    response = client.post(f"/g/{game.public_id}/hands/{hand.number}/delete/", data, follow=True)
    assert "was not deleted" in response.content.decode()
    assert Hand.objects.filter(pk=hand.pk).exists()


@pytest.mark.parametrize(("field", "value"), [("request_id", "not-a-uuid"), ("version", "abc")])
def test_a_damaged_hidden_field_of_a_new_hand_is_said_above_the_form(field: str, value: str) -> None:
    game, _hand, client = game_with_a_hand()
    data = {"request_id": str(uuid.uuid4()), "closer": "Bob", "points_0": "5", "points_2": "7", field: value}
    response = client.post(f"/g/{game.public_id}/hands/", data)
    assert response.status_code == 200
    assert "Part of the form was damaged on its way" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 1


def test_a_first_dealer_out_of_range_is_said_at_the_field() -> None:
    client = Client()
    data = new_game_data(client, "zoliky", ["Ann", "Bob"]) | {"first_dealer": "17"}
    response = client.post("/games/new/zoliky/", data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()
