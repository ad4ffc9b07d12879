"""Two phones, one hand: a new hand posted for a place another phone filled meanwhile is not
recorded as the hand after it; the scorer sees both versions and chooses."""

import html as htmllib
import re
import uuid

import pytest
from django.test import Client

from games.models import Game, Hand
from games.selectors.sheets import game_sheet
from games.services.errors import ServiceError, StaleEdit
from games.services.hands import hand_delete, hand_edit, hand_record
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

THEIRS = {"winner": "Ann", "left": {"Bob": 9}}
MINE = {"winner": "Bob", "left": {"Ann": 5}}


def points(game: Game) -> list[dict[str, int]]:
    sheet = game_sheet(game=game)
    return [dict(zip(sheet.players, row.points, strict=True)) for row in sheet.rows]


# --- service ----------------------------------------------------------------------------------


def test_a_hand_recorded_meanwhile_is_not_followed_by_a_silent_duplicate() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None, for_hand=1)
    with pytest.raises(ServiceError) as raised:
        hand_record(game=game, outcome=MINE, request_id=uuid.uuid4(), user=None, for_hand=1)
    assert raised.value.code == "hand_taken"
    assert raised.value.params["hand"] == 1 and raised.value.params["number"] == 1
    assert raised.value.params["version"] == 1
    assert points(game) == [{"Ann": 9, "Bob": -9}]


def test_the_taken_place_is_named_as_the_sheet_shows_it() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    first = hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None).hand
    hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None)  # number 2
    hand_delete(hand=first, version=1, user=None)
    with pytest.raises(ServiceError) as raised:  # drawn when hand 2 was next
        hand_record(game=game, outcome=MINE, request_id=uuid.uuid4(), user=None, for_hand=2)
    assert raised.value.params["number"] == 2 and raised.value.params["hand"] == 1


def test_a_resend_stays_idempotent_even_with_a_stale_for_hand() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    request_id = uuid.uuid4()
    first = hand_record(game=game, outcome=MINE, request_id=request_id, user=None, for_hand=1)
    hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None, for_hand=2)
    again = hand_record(game=game, outcome=MINE, request_id=request_id, user=None, for_hand=1)
    assert again.hand.pk == first.hand.pk and not again.created
    assert Hand.objects.filter(game=game).count() == 2


def test_record_mine_as_the_next_hand_with_the_same_request_id() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None, for_hand=1)
    mine = uuid.uuid4()
    with pytest.raises(ServiceError):
        hand_record(game=game, outcome=MINE, request_id=mine, user=None, for_hand=1)
    game.refresh_from_db()
    saved = hand_record(game=game, outcome=MINE, request_id=mine, user=None, for_hand=game.next_hand_number)
    assert saved.created and saved.hand.number == 2
    assert points(game) == [{"Ann": 9, "Bob": -9}, {"Ann": -5, "Bob": 5}]


def test_replacing_theirs_at_a_stale_version_is_refused() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    theirs = hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None, for_hand=1).hand
    hand_edit(hand=theirs, outcome={"winner": "Ann", "left": {"Bob": 12}}, version=1, user=None)
    with pytest.raises(StaleEdit):
        hand_edit(hand=theirs, outcome=MINE, version=1, user=None)
    assert points(game) == [{"Ann": 12, "Bob": -12}]


def test_a_place_freed_again_by_a_deletion_takes_the_hand() -> None:
    """Decision: if every hand recorded since the form was drawn was deleted again, the place
    is free; the hand is recorded (under the next number, at the place the form showed)."""
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    theirs = hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None, for_hand=1).hand
    hand_delete(hand=theirs, version=1, user=None)
    saved = hand_record(game=game, outcome=MINE, request_id=uuid.uuid4(), user=None, for_hand=1)
    assert saved.created and saved.hand.number == 2
    assert points(game) == [{"Ann": -5, "Bob": 5}]


def test_without_for_hand_or_with_the_current_number_a_hand_is_recorded_as_before() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=THEIRS, request_id=uuid.uuid4(), user=None)
    hand_record(game=game, outcome=MINE, request_id=uuid.uuid4(), user=None)
    hand_record(game=game, outcome=MINE, request_id=uuid.uuid4(), user=None, for_hand=3)
    assert len(points(game)) == 3


# --- pages ------------------------------------------------------------------------------------


def form_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action``."""
    form = re.search(rf'<form[^>]*action="{re.escape(action)}"(.*?)</form>', html, re.S)
    assert form is not None, f"no form to {action}"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1))
    return {name: htmllib.unescape(value) for name, value in fields if name != "csrfmiddlewaretoken"}


def new_hand(client: Client, game: Game) -> dict[str, str]:
    """The hidden fields of the new-hand form as the page draws it now."""
    return form_fields(client.get(f"/g/{game.public_id}/").content.decode(), f"/g/{game.public_id}/hands/")


def two_phones() -> tuple[Game, Client, Client, dict[str, str], dict[str, str]]:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    a, b = editor(game), editor(game)
    form_a, form_b = new_hand(a, game), new_hand(b, game)
    assert form_a["for_hand"] == form_b["for_hand"] == "1"
    assert (
        a.post(f"/g/{game.public_id}/hands/", {**form_a, "winner": "Ann", "points_1": "9"}).status_code == 302
    )
    return game, a, b, form_a, form_b


def conflict_fields(html: str, game: Game) -> dict[str, str]:
    return form_fields(html, f"/g/{game.public_id}/hands/conflict/")


def test_the_second_phone_sees_both_versions_without_js() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    response = b.post(f"/g/{game.public_id}/hands/", {**form_b, "winner": "Bob", "points_0": "5"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was just recorded on another phone" in html
    table = re.search(r'<table class="conflict-table">(.*?)</table>', html, re.S)
    assert table is not None
    cells = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip()
        for c in re.findall(r"<td[^>]*>(.*?)</td>", table.group(1))
    ]
    # Who went out? Ann | Bob; Ann: +9 | −5 (5 points); Bob: −9 (9 points) | +5
    assert cells == ["", "Ann", "Bob", "+9", "−5 5 points", "−9 9 points", "+5"]
    carried = conflict_fields(html, game)
    assert carried["winner"] == "Bob" and carried["points_0"] == "5"
    assert carried["request_id"] == form_b["request_id"]
    assert carried["taken"] == "1" and carried["version"] == "1" and carried["for_hand"] == "2"
    assert Hand.objects.filter(game=game).count() == 1


def test_the_second_phone_sees_both_versions_with_htmx() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    response = b.post(
        f"/g/{game.public_id}/hands/", {**form_b, "winner": "Bob", "points_0": "5"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200  # htmx swaps only a 2xx answer
    assert html.lstrip().startswith('<div id="game-body"') and "<html" not in html
    assert "Hand 1 was just recorded on another phone" in html
    assert conflict_fields(html, game)["points_0"] == "5"


def conflict(b: Client, game: Game, form_b: dict[str, str]) -> dict[str, str]:
    response = b.post(f"/g/{game.public_id}/hands/", {**form_b, "winner": "Bob", "points_0": "5"})
    assert response.status_code == 409
    return conflict_fields(response.content.decode(), game)


def test_replace_theirs_with_mine() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "replace"})
    assert response.status_code == 302
    assert points(game) == [{"Ann": -5, "Bob": 5}]
    page = b.get(response["Location"]).content.decode()
    assert "Hand 1 now holds your values" in page


def test_replace_refused_when_theirs_changed_again() -> None:
    game, a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    a.post(f"/g/{game.public_id}/hands/1/", {"version": "1", "winner": "Ann", "points_1": "12"})
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "replace"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was changed again on another phone meanwhile, so nothing was saved" in html
    assert "12 points" in html
    again = conflict_fields(html, game)
    assert again["version"] == "2" and again["points_0"] == "5"
    assert points(game) == [{"Ann": 12, "Bob": -12}]
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**again, "choice": "replace"})
    assert response.status_code == 302
    assert points(game) == [{"Ann": -5, "Bob": 5}]


def test_record_mine_as_the_next_hand() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "next"})
    assert response.status_code == 302
    assert points(game) == [{"Ann": 9, "Bob": -9}, {"Ann": -5, "Bob": 5}]
    # A second tap records nothing again (same request id).
    assert b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "next"}).status_code == 302
    assert len(points(game)) == 2


def test_record_as_next_when_yet_another_hand_arrived_shows_that_one() -> None:
    game, a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    a.post(f"/g/{game.public_id}/hands/", {**new_hand(a, game), "winner": "Ann", "points_1": "7"})
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "next"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "Hand 2 was just recorded on another phone" in html and "Another hand was recorded" in html
    assert len(points(game)) == 2


def test_keep_theirs_saves_nothing() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    response = b.post(f"/g/{game.public_id}/hands/", {**form_b, "winner": "Bob", "points_0": "5"})
    html = response.content.decode()
    keep = rf'<form method="get" action="/g/{game.public_id}/"[^>]*>\s*<button type="submit">Keep hand 1 as'
    assert re.search(keep, html)
    assert points(game) == [{"Ann": 9, "Bob": -9}]


def test_a_damaged_choice_changes_nothing() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "both"})
    assert response.status_code == 400
    damaged = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "for_hand": "x", "choice": "next"})
    assert damaged.status_code == 409 and "Part of the form was damaged" in damaged.content.decode()
    assert "5 points" in damaged.content.decode()  # what was typed is still shown and carried
    assert conflict_fields(damaged.content.decode(), game)["points_0"] == "5"
    assert points(game) == [{"Ann": 9, "Bob": -9}]


def test_only_writers_can_resolve() -> None:
    game, _a, b, _form_a, form_b = two_phones()
    carried = conflict(b, game, form_b)
    response = Client().post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "next"})
    assert response.status_code == 403
    assert len(points(game)) == 1


def test_their_hand_put_a_player_out_mine_can_still_replace_it() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    a, b = editor(game), editor(game)
    form_a, form_b = new_hand(a, game), new_hand(b, game)
    a.post(f"/g/{game.public_id}/hands/", {**form_a, "closer": "Ann", "points_1": "104", "points_2": "6"})
    assert [p["Bob"] for p in points(game)] == [104]  # Bob is out
    mine = {"closer": "Cid", "points_0": "10", "points_1": "20"}
    response = b.post(f"/g/{game.public_id}/hands/", {**form_b, **mine})
    html = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was just recorded on another phone" in html
    assert "Yours cannot be hand 2 as typed: the players dealt in changed" in html
    assert 'value="next"' not in html
    carried = conflict_fields(html, game)
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "replace"})
    assert response.status_code == 302
    assert Hand.objects.get(game=game).outcome == {
        "closer": "Cid",
        "from_hand": False,
        "left": {"Ann": 10, "Bob": 20},
    }


def test_a_damaged_player_list_is_the_usual_message_not_a_500() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    a, b = editor(game), editor(game)
    form_a, form_b = new_hand(a, game), new_hand(b, game)
    a.post(f"/g/{game.public_id}/hands/", {**form_a, "closer": "Ann", "points_1": "104", "points_2": "6"})
    damaged = {**form_b, "dealt_in": '["Ann", "Zed"]', "closer": "Cid", "points_0": "10"}
    response = b.post(f"/g/{game.public_id}/hands/", damaged)
    assert response.status_code == 200 and "The players of this hand changed" in response.content.decode()
    carried = {**form_b, "dealt_in": '["Zed"]', "taken": "1", "version": "1", "for_hand": "2"}
    response = b.post(f"/g/{game.public_id}/hands/conflict/", {**carried, "choice": "replace"})
    assert response.status_code == 409 and "The players of this hand changed" in response.content.decode()
    assert len(points(game)) == 1
