"""The new-hand form's fields are drawn once per game, players dealt in, rules and language
(games.sheets.cache.FIELDS): what the page shows must be exactly what drawing it afresh shows."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from games.models import Game
from games.services.hands import hand_record
from games.sheets import cache as sheet_cache
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def hand_form(html: str) -> str:
    """The new-hand form, without what names this drawing (its token and request id)."""
    found = re.search(r'<form method="post" action="[^"]*/hands/".*?</form>', html, re.S)
    assert found is not None, "no hand form on the page"
    form = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", found.group(0))
    return re.sub(r'name="request_id" value="[^"]*"', "", form)


def page_form(client: Client, game: Game, language: str = "") -> str:
    response = client.get(f"{language}/g/{game.public_id}/")
    assert response.status_code == 200
    return hand_form(response.content.decode())


def test_the_kept_form_is_the_form_drawn_afresh() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    sheet_cache.FIELDS.clear()
    drawn = page_form(client, game)
    assert len(sheet_cache.FIELDS._items) == 1
    kept = page_form(client, game)
    assert kept == drawn
    assert 'name="knocker"' in kept and 'name="points_1"' in kept and "Save hand" in kept


def test_the_next_hand_s_form_after_a_save_is_drawn_from_the_kept_fields() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    sheet_cache.FIELDS.clear()
    before = page_form(client, game)
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Ann", "points_1": "7", "points_2": "9"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "Hand 2" in response.content.decode()
    after = hand_form(response.content.decode())
    # The same fields; only the hidden fields naming the hand differ.
    unnumbered = [re.sub(r'name="for_hand" value="\d+"', "", form) for form in (after, before)]
    assert unnumbered[0] == unnumbered[1]
    assert 'name="for_hand" value="2"' in after and 'name="for_hand" value="1"' in before
    sheet_cache.FIELDS.clear()
    assert page_form(client, game) == after  # drawn afresh: the same


def test_a_player_put_out_gets_no_count_field_in_the_next_form() -> None:
    game = GameFactory.create(family="zoliky", options={"elimination": 100}, players=["Ann", "Bob", "Cid"])
    client = editor(game)
    assert 'name="points_1"' in page_form(client, game)
    bob_out = {"closer": "Ann", "left": {"Bob": 120, "Cid": 5}}
    hand_record(game=game, outcome=bob_out, request_id=None, user=None)
    form = page_form(client, game)
    assert 'name="points_1"' not in form and 'name="points_2"' in form
    assert "Bob" not in re.sub(r'name="dealt_in" value="[^"]*"', "", form)


def test_each_language_gets_its_own_form() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    english = page_form(client, game)
    czech = page_form(client, game, "/cs")
    assert "Save hand" in english and "Save hand" not in czech and "Uložit" in czech
    assert page_form(client, game) == english


def test_a_refused_hand_shows_its_own_form_with_the_errors() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    page_form(client, game)  # the fresh form is kept
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Ann", "points_1": "-3"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="-3"' in html and 'class="error" role="alert"' in html
