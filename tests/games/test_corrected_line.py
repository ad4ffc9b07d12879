"""After a correction the saving phone's line says what changed ("Hand 3 corrected: Karel
22 → 32") with the correction's Undo, as a new hand's line does, not the last new hand."""

from __future__ import annotations

import uuid

import pytest

from games.models import Change, Hand
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
