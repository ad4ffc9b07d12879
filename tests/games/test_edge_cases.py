"""What two phones and flaky Wi-Fi do to a game: resends after a delete, corrections of deleted
hands, undo of an undo, eliminations that come and go, hands after the end, forms whose players
changed meanwhile. Each gets a clear message, never a 500, and nothing recorded is lost."""

import html as htmllib
import re
import uuid

import pytest
from django.test import Client

from games.models import Change, Game, Hand
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
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_2": "7"})  # Cid, seat 2 (Bob is out)
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
    said = "at most 99999" if field == "laid_1" else "no hand can hold more than 168"
    assert any(said in message for message in alerts(response))
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


def test_a_resend_after_the_hand_was_deleted_does_not_record_it_again() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    save = {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "5", "points_2": "6"}
    client.post(f"/g/{game.public_id}/hands/", save)
    other_phone = editor(game)
    other_phone.post(f"/g/{game.public_id}/hands/1/delete/", {"version": "1"})
    response = client.post(f"/g/{game.public_id}/hands/", save)  # the flaky resend arrives late
    assert response.status_code == 200
    assert "was recorded already and has been deleted since" in " ".join(alerts(response))
    assert not Hand.objects.exists()
    # Restoring it from the history brings back its request id: a later resend is still one hand.
    deletion = Change.objects.get(action="deleted")
    client.post(f"/g/{game.public_id}/history/{deletion.pk}/undo/")
    assert client.post(f"/g/{game.public_id}/hands/", save).status_code == 302
    assert Hand.objects.count() == 1
    assert totals(client, game) == ["−10", "5", "6"]


def test_a_correction_or_delete_of_a_deleted_hand_says_so() -> None:
    game = GameFactory.create(family="carousel", players=["Ann", "Bob"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    client.post(f"/g/{game.public_id}/hands/", {"knocker": "Bob", "points_0": "9", "points_1": "2"})
    other_phone = editor(game)
    other_phone.post(f"/g/{game.public_id}/hands/1/delete/", {"version": "1"})
    correction = {"version": "1", "knocker": "Ann", "points_0": "3", "points_1": "30"}
    for response in (
        client.post(f"/g/{game.public_id}/hands/1/", correction, follow=True),
        client.get(f"/g/{game.public_id}/hands/1/", follow=True),
        client.post(f"/g/{game.public_id}/hands/1/delete/", {"version": "1"}, follow=True),  # double tap
    ):
        assert response.redirect_chain[-1][0] == f"/g/{game.public_id}/"
        assert "Hand 1 was deleted meanwhile." in alerts(response)
    assert outcomes(game) == [{"knocker": "Bob", "out": None, "left": {"Ann": 9, "Bob": 2}}]
    assert client.get(f"/g/{game.public_id}/hands/99/").status_code == 404  # never existed


def test_undo_of_an_undo_redoes_and_a_second_undo_is_refused() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"winner": "Ann", "points_1": "9"})
    client.post(f"/g/{game.public_id}/hands/1/", {"version": "1", "winner": "Ann", "points_1": "12"})
    edited = Change.objects.get(action="edited")
    client.post(f"/g/{game.public_id}/history/{edited.pk}/undo/")
    assert totals(client, game) == ["9", "−9"]
    undo = Change.objects.get(undoes=edited)
    response = client.post(f"/g/{game.public_id}/history/{undo.pk}/undo/", follow=True)
    assert "Change undone." in text(response)
    assert totals(client, game) == ["12", "−12"]
    again = client.post(f"/g/{game.public_id}/history/{undo.pk}/undo/", follow=True)
    assert "This change was already undone." in " ".join(alerts(again))
    assert totals(client, game) == ["12", "−12"]


def test_an_edit_that_eliminates_a_player_of_later_hands_names_that_hand() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "50", "points_2": "6"})
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Bob", "points_0": "5", "points_2": "6"})
    response = client.post(
        f"/g/{game.public_id}/hands/1/", {"version": "1", "closer": "Ann", "points_1": "100", "points_2": "6"}
    )
    assert response.status_code == 200
    assert "Hand 2: Bob was eliminated in hand 1 and cannot play in a later hand" in alerts(response)
    assert totals(client, game) == ["−5", "40", "12"]


def test_deleting_the_hand_that_eliminated_a_player_brings_him_back_with_his_count_missing() -> None:
    """Without hand 1, Bob is back in the game: hand 2 was recorded without him, so it is kept
    and marked as missing his count; undoing the deletion unmarks it."""
    client, game = zoliky_with_bob_out()
    recorded = outcomes(game)
    response = client.post(f"/g/{game.public_id}/hands/1/delete/", {"version": "1"}, follow=True)
    assert alerts(response) == []
    assert "Hand 1 deleted." in text(response)
    assert "Bob's count missing in hand 1" in text(response)  # hand 2 is the sheet's hand 1 now
    assert totals(client, game) == ["−10", "0", "7"]
    assert outcomes(game) == [{"closer": "Ann", "from_hand": False, "left": {"Cid": 7}, "missing": ["Bob"]}]
    deleted = Change.objects.get(action="deleted")
    client.post(f"/g/{game.public_id}/history/{deleted.pk}/undo/")
    assert outcomes(game) == recorded
    assert totals(client, game) == ["−20", "104", "13"]


def test_undoing_the_hand_that_eliminated_a_player_brings_him_back_with_his_count_missing() -> None:
    """Undoing the recording of hand 1 brings Bob back: hand 2 (as shown) misses his count."""
    client, game = zoliky_with_bob_out()
    added = Change.objects.filter(action="added").order_by("id").first()
    assert added is not None
    # Hand 2 came after it: the undo asks first, then undoes.
    asked = client.post(f"/g/{game.public_id}/history/{added.pk}/undo/")
    assert "Undo this change?" in text(asked) and len(outcomes(game)) == 2
    response = client.post(f"/g/{game.public_id}/history/{added.pk}/undo/", {"confirm": "1"}, follow=True)
    assert alerts(response) == []
    assert "Change undone." in text(response)
    assert totals(client, game) == ["−10", "0", "7"]
    assert [h.get("missing") for h in outcomes(game)] == [["Bob"]]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("family", "players", "finishing", "later", "message"),
    [
        (
            "zoliky",
            ["Ann", "Bob"],
            {"closer": "Ann", "points_1": "104"},
            {"closer": "Ann"},
            "Hand 2: the game ended after hand 1; no later hand can be scored",
        ),
        (
            "gin",
            ["Ann", "Bob"],
            {"knocker": "Ann", "points_0": "0", "points_1": "110"},  # the most, and gin: 135
            {"knocker": "Ann", "points_0": "0", "points_1": "10"},
            "Hand 2: the game ended after hand 1; no later hand can be scored",
        ),
    ],
)
def test_a_hand_after_the_game_is_over_is_refused(
    family: str, players: list[str], finishing: dict[str, str], later: dict[str, str], message: str
) -> None:
    # No single gin hand reaches the usual target of 150: play to 100.
    game = GameFactory.create(
        family=family, players=players, options={"target": 100} if family == "gin" else {}
    )
    client = editor(game)
    # The finishing hand says it ends the game before it is saved; confirmed, it is saved.
    assert client.post(f"/g/{game.public_id}/hands/", finishing).status_code == 200
    assert client.post(f"/g/{game.public_id}/hands/", {**finishing, "confirm_end": "1"}).status_code == 302
    response = client.post(f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), **later})
    assert response.status_code == 200
    assert message in alerts(response)
    assert Hand.objects.count() == 1


def test_a_hand_after_the_evening_was_ended_is_refused_until_reopened() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    stale_phone = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1"})
    hand = {"request_id": str(uuid.uuid4()), "knocker": "Bob", "points_0": "30", "points_1": "2"}
    response = stale_phone.post(f"/g/{game.public_id}/hands/", hand, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "The game was ended; reopen it to record more hands." in alerts(response)
    assert Hand.objects.count() == 1
    client.post(f"/g/{game.public_id}/end/", {"ended": "0"})
    assert stale_phone.post(f"/g/{game.public_id}/hands/", hand).status_code == 302
    assert totals(client, game) == ["17", "28"]


def test_a_form_shown_before_a_player_was_eliminated_is_not_saved_under_the_wrong_names() -> None:
    """Phone A shows the form for hand 2 with Ann, Bob and Cid; phone B records a hand that
    puts Bob out. A's counts must not slide onto the wrong players."""
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    phone_a, phone_b = editor(game), editor(game)
    page = phone_a.get(f"/g/{game.public_id}/").content.decode()
    players = htmllib.unescape(re.search(r'name="dealt_in" value="([^"]*)"', page).group(1))  # type: ignore[union-attr]
    phone_b.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "104", "points_2": "6"})
    stale = {
        "dealt_in": players,
        "request_id": str(uuid.uuid4()),
        "closer": "Ann",
        "points_1": "3",
        "points_2": "9",
    }
    response = phone_a.post(f"/g/{game.public_id}/hands/", stale)
    assert response.status_code == 200
    assert any("The players of this hand changed" in message for message in alerts(response))
    assert Hand.objects.count() == 1
    # The form is shown again for Ann and Cid, with Cid's count still under Cid (seat 2).
    page = text(response)
    assert re.findall(r"<legend>(\w+)</legend>", page) == ["Ann", "Cid"]
    assert 'name="points_2" value="9"' in page
    hidden = re.findall(
        r'<input type="hidden" name="(dealt_in|request_id)" value="([^"]*)"', response.content.decode()
    )
    resent = {name: htmllib.unescape(value) for name, value in hidden}
    response = phone_a.post(f"/g/{game.public_id}/hands/", {**resent, "closer": "Ann", "points_2": "9"})
    assert response.status_code == 302
    assert totals(phone_a, game) == ["−20", "104", "15"]
