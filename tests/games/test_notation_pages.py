"""The cards fields read the letters of the page's language; the API reads the notation it is
told; the record keeps the English codes."""

from __future__ import annotations

import html as htmllib
import uuid
from typing import Any

import pytest

from games.models import Game, Hand
from tests.api.test_games_api import assert_problem, client_for, record
from tests.factories import GameFactory, UserFactory
from tests.games.test_views import editor

pytestmark = pytest.mark.django_db


def _post(prefix: str, cards: str) -> tuple[Game, Any]:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    response = client.post(
        f"{prefix}/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Bob", "points_0": "12", "cards_2": cards},
    )
    return game, response


@pytest.mark.parametrize(
    ("prefix", "typed", "recorded"),
    [
        ("", "KS 5S", "KS 5S"),
        ("/cs", "KS 5P", "KH 5S"),  # srdce, piky
        ("/sk", "KS 5P", "KH 5S"),
        ("/pl", "DK 5P", "QH 5S"),  # dama kier, pik
        ("/nb", "KK 5S", "KC 5S"),  # konge kløver, spar
    ],
)
def test_a_page_reads_the_cards_in_its_language_and_records_the_codes(
    prefix: str, typed: str, recorded: str
) -> None:
    game, response = _post(prefix, typed)
    assert response.status_code in (200, 302), response.content[:500]
    hand = Hand.objects.get(game=game)
    assert hand.outcome["left"]["Cid"] == recorded


def test_english_letters_czech_does_not_use_are_refused_at_the_field() -> None:
    game, response = _post("/cs", "QH")
    assert response.status_code == 200
    page = htmllib.unescape(response.content.decode())
    field = page[page.index('name="cards_2"') :]
    assert "QH" in field[: field.index("</fieldset>")]
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("prefix", "typed", "shown"),
    [("", "KS 5P", None), ("/cs", "KS 5P", "K♥ 5♠"), ("/pl", "DK WKa", "Q♥ J♦"), ("/nb", "KnK ES", "J♣ A♠")],
)
def test_the_count_preview_shows_what_the_page_read(prefix: str, typed: str, shown: str | None) -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    response = editor(game).get(f"{prefix}/g/{game.public_id}/count/", {"cards_2": typed})
    page = htmllib.unescape(response.content.decode())
    if shown is None:  # P is no English suit
        assert 'role="alert"' in page
    else:
        faces = [part.split(">")[-1] for part in page.split("</span>") if "chip-card" in part]
        assert " ".join(faces) == shown


def test_the_form_says_which_letters_it_reads_and_the_picker_types_them() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    page = htmllib.unescape(editor(game).get(f"/cs/g/{game.public_id}/").content.decode())
    assert 'id="cards-letters">Písmena karet (Čeština): P ♠ S ♥ K ♦ Kř T ♣ · A K D J · žolík Ž</p>' in page
    assert 'aria-describedby="cards-letters"' in page
    assert '<button type="button" data-card="KS" aria-label="král srdce">' in page
    assert 'data-card="Ž" class="joker"' in page
    assert 'placeholder="např. KS 5P Ž"' in page


def test_a_correction_shows_the_recorded_cards_in_the_page_letters() -> None:
    game, _ = _post("", "KH 5S")
    hand = Hand.objects.get(game=game)
    page = htmllib.unescape(editor(game).get(f"/cs/g/{game.public_id}/hands/{hand.number}/").content.decode())
    assert 'value="KS 5P"' in page


def test_the_api_reads_the_notation_it_is_told() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    outcome = {"closer": "Bob", "left": {"Ann": 12, "Cid": "KS 5P Ž"}}
    response = record(client, game, {**outcome, "notation": "cs"})
    assert response.status_code == 201, response.content
    assert response.json()["outcome"]["left"]["Cid"] == "KH 5S JK"
    assert response.json()["points"]["Cid"] == 10 + 5 + 15  # king, five, joker (Žolíky values)
    # Without a notation the letters are English: P is no suit.
    body = assert_problem(record(client, game, outcome), 400, "bad_token")
    assert "5P" in body["message"]
    body = assert_problem(record(client, game, {**outcome, "notation": "xx"}), 400)
    assert "notation" in str(body)
