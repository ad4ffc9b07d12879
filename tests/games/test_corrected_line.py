"""After a correction the saving phone's line says what changed ("Hand 3 corrected: Karel
22 → 32") with the correction's Undo, as a new hand's line does, not the last new hand."""

from __future__ import annotations

import uuid

import pytest

from games.models import Change, Hand
from games.services.games import game_end
from games.services.hands import hand_record
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_a_correction_says_what_changed_with_its_undo() -> None:
    game = GameFactory.create(players=["Ann", "Karel", "Cid"])
    for closer, left in (("Ann", {"Karel": 4, "Cid": 5}), ("Cid", {"Ann": 7, "Karel": 9})):
        hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=uuid.uuid4(), user=None)
    client = editor(game)
    client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "22", "points_2": "5"},
        follow=True,
    )
    third = Hand.objects.get(game=game, number=3)
    page = client.post(
        f"/g/{game.public_id}/hands/3/",
        {"version": str(third.version), "closer": "Ann", "points_1": "32", "points_2": "5"},
        follow=True,
    ).content.decode()
    edited = Change.objects.get(game=game, action="edited")
    assert "Hand 3 corrected: Karel +22 → +32." in page
    assert "Hand 3 saved" not in page  # not the last new hand's line any more
    assert page.count('id="saved-line"') == 1
    assert f'action="/g/{game.public_id}/history/{edited.pk}/undo/"' in page
    assert "saved-line" not in client.get(f"/g/{game.public_id}/").content.decode()  # once
    # Its Undo takes the correction back.
    client.post(f"/g/{game.public_id}/history/{edited.pk}/undo/", {"back": "game"})
    assert Hand.objects.get(game=game, number=3).outcome["left"]["Karel"] == 22


def test_a_correction_names_each_player_whose_points_moved_or_says_none_did() -> None:
    game = GameFactory.create(players=["Ann", "Bob"])
    hand_record(game=game, outcome={"closer": "Ann", "left": {"Bob": 20}}, request_id=uuid.uuid4(), user=None)
    client = editor(game)
    page = client.post(
        f"/g/{game.public_id}/hands/1/",
        {"version": "1", "closer": "Ann", "from_hand": "on", "points_1": "10"},
        follow=True,
    ).content.decode()
    assert "Hand 1 corrected: Ann −10 → −20, Bob +20 → +10." in page
    # The same points typed as the cards: the hand changed, nobody's points in it did.
    page = client.post(
        f"/g/{game.public_id}/hands/1/",
        {"version": "2", "closer": "Ann", "from_hand": "on", "cards_1": "KH", "points_1": ""},
        follow=True,
    ).content.decode()
    assert Hand.objects.get(game=game).version == 3
    assert "Hand 1 corrected; nobody&#x27;s points in it changed." in page


def test_correcting_an_ended_game_warns_first_with_each_players_crowns_before_and_after() -> None:
    game = GameFactory.create(players=["Ann", "Bob", "Cid"])
    hand_record(
        game=game,
        outcome={"closer": "Ann", "left": {"Bob": 45, "Cid": 5}},
        request_id=uuid.uuid4(),
        user=None,
    )
    game_end(game=game, ended=True, user=None)
    client = editor(game)
    data = {"version": "1", "closer": "Ann", "points_1": "65", "points_2": "5"}
    page = client.post(f"/g/{game.public_id}/hands/1/", data).content.decode()
    # Ann −10, Bob 45, Cid 5: −1, 5 (4.5 up), 1 crowns; with Bob 65: −1, 7, 1.
    assert "Correct hand 1 of an ended game?" in page
    assert '<th scope="row">Bob</th><td>5 → 7</td>' in page
    assert '<th scope="row">Ann</th><td>−1 → −1</td>' in page
    assert Hand.objects.get(game=game).version == 1  # nothing saved yet
    assert 'name="confirm" value="1"' in page and 'name="points_1" value="65"' in page
    page = client.post(
        f"/g/{game.public_id}/hands/1/", {**data, "confirm": "1"}, follow=True
    ).content.decode()
    assert "Hand 1 corrected: Bob +45 → +65." in page
    assert Hand.objects.get(game=game).outcome["left"]["Bob"] == 65


def test_a_correction_that_leaves_the_crowns_or_an_open_game_is_not_asked() -> None:
    game = GameFactory.create(players=["Ann", "Bob"])
    hand_record(game=game, outcome={"closer": "Ann", "left": {"Bob": 45}}, request_id=uuid.uuid4(), user=None)
    client = editor(game)
    response = client.post(
        f"/g/{game.public_id}/hands/1/", {"version": "1", "closer": "Ann", "points_1": "65"}
    )
    assert response.status_code == 302  # open: saved at once
    game_end(game=game, ended=True, user=None)
    response = client.post(
        f"/g/{game.public_id}/hands/1/", {"version": "2", "closer": "Ann", "points_1": "66"}
    )
    assert response.status_code == 302  # 65 and 66 are both 7 crowns: nothing to warn of
