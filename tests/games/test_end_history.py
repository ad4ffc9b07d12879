"""Ending and reopening the evening are in the game's history and can be undone; the end form
accepts only its documented values."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from games.models import Change, Game, Result
from games.services.errors import ServiceError
from games.services.games import game_end
from games.services.hands import change_undo, hand_delete, hand_record
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

HAND = {"winner": "Ann", "left": {"Bob": 12}}


def rummikub() -> Game:
    """Ann went out in hand 1: she wins once the evening is ended, not before."""
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=HAND, request_id=uuid.uuid4(), user=None)
    return game


def finished(game: Game) -> bool:
    results = list(Result.objects.filter(game=game))
    assert len({r.finished for r in results}) == 1
    return results[0].finished


def owner_of(game: Game) -> Client:
    """A browser logged in as the game's owner (given one)."""
    owner = UserFactory.create()
    Game.objects.filter(pk=game.pk).update(owner=owner)
    client = Client()
    client.force_login(owner)
    return client


def ended(game: Game) -> bool:
    game.refresh_from_db()
    return game.ended


def test_ending_shows_in_the_history_and_undo_reopens_then_ends_again() -> None:
    owner = UserFactory.create(username="owner")
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner)
    client = Client()
    client.force_login(owner)
    data = {"request_id": str(uuid.uuid4()), "winner": "Ann", "points_1": "12"}
    assert client.post(f"/g/{game.public_id}/hands/", data).status_code == 302
    data = {"ended": "1", "confirm": "1", "request_id": str(uuid.uuid4())}
    response = client.post(f"/g/{game.public_id}/end/", data)
    assert response.status_code == 302
    assert ended(game) and finished(game)
    [end] = Change.objects.filter(game=game, action=Change.Action.ENDED)
    assert end.hand_number is None and end.user == owner

    history = client.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Game ended" in history and "Hand 1 recorded" in history
    assert f"/history/{end.pk}/undo/" in history

    assert client.post(f"/g/{game.public_id}/history/{end.pk}/undo/").status_code == 302
    assert not ended(game) and not finished(game)
    assert not Result.objects.filter(game=game, winner=True).exists()
    reopen = Change.objects.get(undoes=end)
    assert reopen.action == Change.Action.REOPENED
    assert "Game reopened" in client.get(f"/g/{game.public_id}/history/").content.decode()

    # Undo the undo: ended again.
    assert client.post(f"/g/{game.public_id}/history/{reopen.pk}/undo/").status_code == 302
    assert ended(game) and finished(game)
    assert Change.objects.get(undoes=reopen).action == Change.Action.ENDED
    # Each change is undone once.
    client.post(f"/g/{game.public_id}/history/{end.pk}/undo/")
    assert ended(game) and Change.objects.filter(game=game).count() == 4


def test_a_resent_end_is_recorded_once_even_after_a_reopening() -> None:
    game = rummikub()
    request_id = uuid.uuid4()
    first = game_end(game=game, ended=True, request_id=request_id, user=None)
    assert first is not None and first.action == Change.Action.ENDED
    assert game_end(game=game, ended=True, request_id=request_id, user=None) == first
    game_end(game=game, ended=False, request_id=uuid.uuid4(), user=None)
    # The first end's request arrives once more (flaky Wi-Fi): it changes nothing.
    assert game_end(game=game, ended=True, request_id=request_id, user=None) == first
    assert not ended(game) and not finished(game)
    assert Change.objects.filter(game=game, hand_number__isnull=True).count() == 2


def test_a_resent_end_form_changes_nothing() -> None:
    game = rummikub()
    client = owner_of(game)
    form = {"ended": "1", "confirm": "1", "request_id": str(uuid.uuid4())}
    assert client.post(f"/g/{game.public_id}/end/", form).status_code == 302
    assert client.post(f"/g/{game.public_id}/end/", {"ended": "0"}).status_code == 302
    assert client.post(f"/g/{game.public_id}/end/", form).status_code == 302
    assert not ended(game)
    assert Change.objects.filter(game=game, hand_number__isnull=True).count() == 2


def test_ending_an_ended_game_records_nothing() -> None:
    game = rummikub()
    assert game_end(game=game, ended=True) is not None
    assert game_end(game=game, ended=True) is None
    assert game_end(game=GameFactory.create(), ended=False) is None
    assert Change.objects.filter(hand_number__isnull=True).count() == 1


def test_undo_is_refused_once_the_end_changed_since() -> None:
    game = rummikub()
    end = game_end(game=game, ended=True)
    reopen = game_end(game=game, ended=False)
    again = game_end(game=game, ended=True)
    assert end is not None and reopen is not None and again is not None
    for stale in (end, reopen):
        with pytest.raises(ServiceError) as caught:
            change_undo(change=stale, user=None)
        assert caught.value.code == "changed_since"
    assert ended(game)
    change_undo(change=again, user=None)
    assert not ended(game) and not finished(game)


def test_hand_changes_and_end_changes_share_the_history_and_its_numbering() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    first, _, _, _ = hand_record(game=game, outcome=HAND, request_id=uuid.uuid4(), user=None)
    hand_record(game=game, outcome={"winner": "Bob", "left": {"Ann": 4}}, request_id=uuid.uuid4(), user=None)
    game_end(game=game, ended=True)
    hand_delete(hand=first, version=first.version, user=None)
    page = Client().get(f"/g/{game.public_id}/history/").content.decode()
    assert "Hand 1 deleted" in page and page.count("Hand 1 recorded") == 2 and "Game ended" in page
    deleted = Change.objects.get(game=game, action=Change.Action.DELETED)
    change_undo(change=deleted, user=None)
    assert game.hands.count() == 2 and ended(game)


@pytest.mark.parametrize("value", ["yes", "", "2", "true", "1 ", "０"])
def test_the_end_form_takes_only_1_or_0(value: str) -> None:
    game = rummikub()
    client = owner_of(game)
    response = client.post(f"/g/{game.public_id}/end/", {"ended": value} if value else {})
    assert response.status_code == 400
    assert "nothing was changed" in response.content.decode()
    assert not ended(game) and not Change.objects.filter(game=game, hand_number__isnull=True).exists()
    # Reopening is "0" only: "yes" on an ended game does not reopen it either.
    game_end(game=game, ended=True)
    assert client.post(f"/g/{game.public_id}/end/", {"ended": value}).status_code == 400
    assert ended(game)


def test_a_damaged_request_id_on_the_end_form_is_a_bad_request() -> None:
    game = rummikub()
    client = owner_of(game)
    response = client.post(f"/g/{game.public_id}/end/", {"ended": "1", "request_id": "not-a-uuid"})
    assert response.status_code == 400 and not ended(game)
    assert client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1"}).status_code == 302
    assert ended(game)


@pytest.mark.parametrize(
    ("family", "players", "page"),
    [("rummikub", ["Ann", "Bob"], "detail"), ("zoliky", ["Ann", "Bob"], "settlement")],
)
def test_the_end_address_opened_again_shows_the_game_not_an_empty_405(
    family: str, players: list[str], page: str
) -> None:
    game = GameFactory.create(family=family, players=players)
    client = owner_of(game)
    client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1", "request_id": str(uuid.uuid4())})
    # The back button or a restored tab asks for the form's address again, with GET.
    again = client.get(f"/g/{game.public_id}/end/", follow=True)
    assert again.status_code == 200
    suffix = "settlement/" if page == "settlement" else ""
    assert again.redirect_chain[-1][0] == f"/g/{game.public_id}/{suffix}"
    assert Game.objects.get(pk=game.pk).ended
    assert Client().get(f"/g/{game.public_id}/end/").status_code == 302  # anyone: the game as it stands
