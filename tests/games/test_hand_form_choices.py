"""The hand form and the new-game form, server side: no silent default outcome, a hand that
ends the game says so before it is saved, gin needs no typed 0, and the new-game form names the
seats and sums up its house rules."""

from __future__ import annotations

import html as htmllib
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.forms import NewGameForm
from games.models import Game, Hand
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def page(response: Any) -> str:
    return htmllib.unescape(response.content.decode())


def checked(html: str, name: str) -> list[str]:
    """The values of the radios named ``name`` that are checked."""
    tags = re.findall(rf'<input type="radio" name="{name}"[^>]*>', html)
    return [re.search(r'value="([^"]*)"', tag).group(1) for tag in tags if " checked" in tag]  # type: ignore[union-attr]


def post(client: Client, game: Game, data: dict[str, str], **headers: Any) -> Any:
    return client.post(f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), **data}, **headers)


# --- item 2: the outcome is a choice to make --------------------------------------------------


@pytest.mark.parametrize(("family", "roles"), [("rummikub", ["winner"]), ("carousel", ["knocker", "out"])])
def test_no_outcome_is_preselected(family: str, roles: list[str]) -> None:
    game = GameFactory.create(family=family, players=["Ann", "Bob", "Cid"])
    html = page(editor(game).get(f"/g/{game.public_id}/"))
    for role in roles:
        assert re.search(rf'<input type="radio" name="{role}" value=""', html)  # "Nobody" is offered
        assert checked(html, role) == []


def test_a_forgotten_rummikub_winner_is_asked_for_at_the_field_not_scored() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    response = post(client, game, {"points_0": "12", "points_1": "30"})
    assert response.status_code == 200
    html = page(response)
    field = re.search(r"<legend>Who went out\?</legend>(.*?)</fieldset>", html, re.S)
    assert field is not None and "Choose who went out, or Nobody (the pool ran dry)." in field.group(1)
    assert not Hand.objects.exists()
    # Chosen on purpose, the pool running dry is recorded.
    assert post(client, game, {"winner": "", "points_0": "12", "points_1": "30"}).status_code == 302
    assert Hand.objects.get().outcome["winner"] is None


def test_carousel_a_named_player_answers_the_other_role_and_nobody_must_be_chosen() -> None:
    game = GameFactory.create(family="carousel", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    response = post(client, game, {"points_0": "3", "points_1": "12", "points_2": "20"})
    html = page(response)
    assert "Choose who knocked, or Nobody." in html and "Choose who went out, or Nobody." in html
    assert checked(html, "knocker") == [] and checked(html, "out") == []
    # Only one of the two answered as nobody: still open.
    response = post(client, game, {"knocker": "", "points_0": "3", "points_1": "12", "points_2": "20"})
    assert "Choose who went out, or Nobody." in page(response)
    assert checked(page(response), "knocker") == [""]  # the choice made is kept
    assert not Hand.objects.exists()
    # A knocker named: nobody went out, by the rules (no second tap).
    assert (
        post(
            client, game, {"knocker": "Ann", "points_0": "3", "points_1": "12", "points_2": "20"}
        ).status_code
        == 302
    )
    # Both nobody, on purpose: the stock ran out.
    data = {"knocker": "", "out": "", "points_0": "3", "points_1": "12", "points_2": "20"}
    assert post(client, game, data).status_code == 302
    assert [(h.outcome["knocker"], h.outcome["out"]) for h in Hand.objects.order_by("number")] == [
        ("Ann", None),
        (None, None),
    ]


def test_a_correction_shows_the_recorded_nobody_as_chosen() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    post(client, game, {"winner": "", "points_0": "12", "points_1": "30"})
    assert checked(page(client.get(f"/g/{game.public_id}/hands/1/")), "winner") == [""]


def test_the_api_refuses_an_unstated_ending_and_takes_null_for_nobody() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    api = APIClient()
    api.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    url = f"/api/v1/games/{game.public_id}/hands/"
    response = api.post(url, {"left": {"Ann": 12, "Bob": 30}}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "missing_field" and "winner" in response.json()["fields"]
    assert not Hand.objects.exists()
    assert api.post(url, {"winner": None, "left": {"Ann": 12, "Bob": 30}}, format="json").status_code == 201
    carousel = GameFactory.create(family="carousel", players=["Ann", "Bob"])
    api.get(f"/g/{carousel.public_id}/edit/{carousel.edit_token}/")
    body = {"knocker": "Ann", "left": {"Ann": 3, "Bob": 12}}  # "out" follows: nobody
    assert api.post(f"/api/v1/games/{carousel.public_id}/hands/", body, format="json").status_code == 201


# --- item 2: a hand that ends the game says so first -----------------------------------------


def test_a_game_ending_hand_is_not_saved_before_the_notice_was_seen() -> None:
    game = GameFactory.create(family="rummikub", options={"hands": 1}, players=["Ann", "Bob"])
    client = editor(game)
    data = {"winner": "Ann", "points_1": "30"}
    response = post(client, game, data)
    assert response.status_code == 200
    html = page(response)
    assert "This hand ends the game: Ann wins." in html
    assert re.search(
        r'<button type="submit" class="primary save"><span id="save-label"[^>]*>Save and end the game<', html
    )
    assert '<input type="hidden" name="confirm_end" value="1">' in html
    assert not Hand.objects.exists()
    # The same through htmx: the form part comes back with the notice.
    response = post(client, game, data, HTTP_HX_REQUEST="true")
    assert "This hand ends the game: Ann wins." in page(response) and not Hand.objects.exists()
    assert post(client, game, {**data, "confirm_end": "1"}).status_code == 302
    assert Hand.objects.count() == 1


def test_a_hand_that_does_not_end_the_game_is_saved_at_once() -> None:
    game = GameFactory.create(family="rummikub", options={"hands": 2}, players=["Ann", "Bob"])
    client = editor(game)
    assert post(client, game, {"winner": "Ann", "points_1": "30"}).status_code == 302


def test_the_preview_says_whether_the_hand_as_filled_ends_the_game() -> None:
    game = GameFactory.create(family="gin", options={"target": 100}, players=["Ann", "Bob"])
    client = editor(game)
    url = f"/g/{game.public_id}/hands/ending/"
    dealt = '["Ann", "Bob"]'
    ends = page(client.get(url, {"dealt_in": dealt, "knocker": "Bob", "points_0": "105", "points_1": "2"}))
    assert "This hand ends the game: Bob wins." in ends and 'name="confirm_end"' in ends
    goes_on = page(client.get(url, {"dealt_in": dealt, "knocker": "Bob", "points_0": "20", "points_1": "2"}))
    assert "ends the game" not in goes_on and "confirm_end" not in goes_on
    unfinished = page(
        client.get(url, {"dealt_in": dealt, "knocker": "Bob", "points_1": "2"})
    )  # a count missing
    assert "ends the game" not in unfinished
    assert Client().get(url, {"dealt_in": dealt, "knocker": "Bob", "points_0": "105"}).status_code == 404


# --- item 3: gin ---------------------------------------------------------------------------


def test_gin_needs_no_zero_typed_for_the_knocker_and_the_form_says_so() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    html = page(client.get(f"/g/{game.public_id}/"))
    assert "With gin the knocker's count may stay empty: it is 0." in html
    assert "Only with both whole hands (10 cards each) tapped in above" in html
    assert post(client, game, {"knocker": "Ann", "gin": "on", "points_1": "12"}).status_code == 302
    hand = Hand.objects.get()
    assert hand.outcome["gin"] is True and hand.outcome["deadwood"] == {"Ann": 0, "Bob": 12}
    # Without gin the knocker's count is still needed.
    response = post(client, game, {"knocker": "Bob", "points_0": "12"})
    assert "Enter the points, or tap the cards left." in page(response)


# --- item 8: the new-game form ---------------------------------------------------------------


def test_the_first_dealer_choice_names_the_seats_typed() -> None:
    form = NewGameForm(
        {"player_1": "Ann", "player_2": "  Bob   Marley ", "first_dealer": "0"}, family="zoliky"
    )
    labels = re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', str(form["first_dealer"]))
    assert labels[:3] == ["Ann", "Bob Marley", "Seat 3"]
    response = Client().post(
        "/games/new/zoliky/", {"player_1": "Ann", "player_2": "Bob", "first_dealer": "x"}
    )
    assert re.search(r'<option value="1">Bob</option>', page(response))


def test_the_house_rules_summary_lists_what_differs_from_the_defaults() -> None:
    html = page(Client().get("/games/new/rummikub/"))
    assert re.search(
        r'<details class="house-rules">\s*<summary>House rules: '
        r'<span class="rules-diff"[^>]*>the standard ones</span>',
        html,
    )
    defaults = {field.name: str(field.value()) for field in NewGameForm(family="rummikub").option_fields()}
    data = {**defaults, "player_1": "Ann", "first_dealer": "0", "opt_hands": "8"}
    assert NewGameForm(data, family="rummikub").house_rules_changed() == ["Number of hands (0 = open): 8"]
    response = Client().post("/games/new/rummikub/", data)  # one player: shown again
    assert re.search(r'<span class="rules-diff"[^>]*>Number of hands \(0 = open\): 8</span>', page(response))
    gin = {field.name: field.value() for field in NewGameForm(family="gin").option_fields()}
    data = {name: "on" if value is True else str(value) for name, value in gin.items() if value is not False}
    data["opt_tie_to_knocker"] = "on"
    assert NewGameForm(data, family="gin").house_rules_changed() == ["A tie goes to the knocker: yes"]
