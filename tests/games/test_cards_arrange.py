"""Cards and tiles as people read and hear them, the arrange page and the history's cards
(docs/design/cards.md)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.cards import JOKER, Card
from engine.rules import rule_set
from games.services.hands import hand_record
from games.templatetags.games_tags import outcome_summary, picker_rows
from games.text.cards import render_text, spoken_name
from tests.factories import GameFactory

GIN = rule_set("gin")
ZOLIKY = rule_set("zoliky")
RUMMIKUB = rule_set("rummikub")


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


# ---------------------------------------------------------------- names


def test_spoken_names_of_cards_and_tiles() -> None:
    with translation.override("en"):
        assert spoken_name(Card(13, 1), ZOLIKY) == "king of hearts"
        assert spoken_name(Card(1, 0), ZOLIKY) == "ace of spades"
        assert spoken_name(Card(7, 3), ZOLIKY) == "7 of clubs"
        assert spoken_name(Card(7, 2), RUMMIKUB) == "red 7"
        assert spoken_name(Card(12, 0), RUMMIKUB) == "black 12"
        assert spoken_name(JOKER, RUMMIKUB) == "joker"
        assert spoken_name(Card(0, 0, stands_for=Card(7, 2)), RUMMIKUB) == "joker as red 7"


def test_a_card_s_name_in_polish_uses_the_suit_as_players_say_it() -> None:
    with translation.override("pl"):
        assert spoken_name(Card(12, 1), ZOLIKY) == "dama kier"
        assert spoken_name(Card(1, 0), ZOLIKY) == "as pik"
        assert spoken_name(Card(13, 3), ZOLIKY) == "król trefl"
        assert spoken_name(Card(7, 2), ZOLIKY) == "7 karo"


def test_picker_keys_are_named_and_tiles_carry_a_letter() -> None:
    with translation.override("en"):
        tiles = picker_rows(RUMMIKUB)
        red = next(row for row in tiles if row["css"] == "tile-red")
        seven = red["keys"][6]  # type: ignore[index]
        assert (seven["code"], seven["letter"], seven["label"], seven["aria"]) == ("R7", "R", "7", "red 7")
        cards = picker_rows(GIN)
        king = cards[1]["keys"][12]  # type: ignore[index]
        assert (king["code"], king["label"], king["aria"]) == ("KH", "K♥", "king of hearts")


@pytest.mark.django_db
def test_picker_html_names_tiles_and_the_joker(client: Client) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    html = client.get(reverse("games:arrange", args=[game.public_id])).content.decode()
    assert 'data-card="R7" aria-label="red 7"' in html
    assert 'data-card="K12" aria-label="black 12"' in html
    assert 'data-card="JK" class="joker" aria-label="joker"' in html
    assert '<span class="tile-letter" aria-hidden="true">B</span>13' in html


def test_render_text_draws_cards_with_colour_and_names() -> None:
    with translation.override("en"):
        html = str(render_text("KH 5s | jk", ZOLIKY))
        assert 'class="cc suit-red" role="img" aria-label="king of hearts">K♥<' in html
        assert 'class="cc suit-black" role="img" aria-label="5 of spades">5♠<' in html
        assert 'aria-label="joker">JK<' in html
        assert text(html) == "K♥ 5♠ | JK"
        assert 'class="cc tile-blue" role="img" aria-label="blue 13">B13<' in str(
            render_text("b13", RUMMIKUB)
        )
        # not cards: as they are (escaped later by the template)
        assert render_text("12", ZOLIKY) == "12"
        assert render_text(15, ZOLIKY) == "15"
        assert render_text("<b>KH", ZOLIKY) == "<b>KH"


def test_outcome_summary_shows_cards_and_escapes() -> None:
    with translation.override("en"):
        outcome = {"out": "<Ann>", "left": {"Bob": "KH 5S", "<Cid>": 12}}
        html = str(outcome_summary(outcome, ZOLIKY))
        assert "&lt;Ann&gt; went out" in html
        assert "K♥" in html and 'aria-label="king of hearts"' in html
        assert "&lt;Cid&gt; 12" in html
        assert "KH" not in text(html)


# ---------------------------------------------------------------- arrange page


def arrange(client: Client, game: object, hand: str) -> str:
    response = client.get(reverse("games:arrange", args=[game.public_id]), {"hand": hand})  # type: ignore[attr-defined]
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_arrange_known_gin_hand(client: Client) -> None:
    game = GameFactory.create(family="gin")
    html = arrange(client, game, "AS 2S 3S 5H 5D 5C 9H 9C KD QD")
    page = text(html)
    assert "A♠ 2♠ 3♠" in page and "5♥ 5♦ 5♣" in page
    assert "Deadwood: 9♥ Q♦ K♦ 9♣ — 38 points" in page
    assert "May not knock: deadwood 38 is over the limit of 10." in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("limit", "verdict"),
    [
        (10, "May knock: deadwood 10, the limit is 10."),
        (9, "May not knock: deadwood 10 is over the limit of 9."),
    ],
)
def test_gin_knock_at_the_limit(client: Client, limit: int, verdict: str) -> None:
    game = GameFactory.create(family="gin", options={"knock_limit": limit})
    page = text(arrange(client, game, "AS 2S 3S 5H 5D 5C 7H 8H 9H TD"))
    assert "Deadwood: 10♦ — 10 points" in page
    assert verdict in page


@pytest.mark.django_db
def test_gin_eleven_cards_discard_first(client: Client) -> None:
    game = GameFactory.create(family="gin")
    page = text(arrange(client, game, "AS 2S 3S 5H 5D 5C 7H 8H 9H 4D KC"))
    assert "Discard: K♣" in page
    assert "May knock: deadwood 4, the limit is 10." in page


@pytest.mark.django_db
def test_gin_hand_goes_gin(client: Client) -> None:
    game = GameFactory.create(family="gin")
    page = text(arrange(client, game, "AS 2S 3S 4S 5H 5D 5C 7H 8H 9H"))
    assert "No deadwood" in page and "Gin: no deadwood." in page


@pytest.mark.django_db
def test_zoliky_opening_yes_and_no(client: Client) -> None:
    game = GameFactory.create(family="zoliky")
    page = text(arrange(client, game, "AS 2S 3S QH QD QC KH KD KC 4C"))
    assert "May open with 66 points (needed: 42):" in page
    assert "A♠ 2♠ 3♠ — 6" in page
    page = text(arrange(client, game, "AS 2S 3S 5H 5D 5C 9C"))
    assert "May not open: the best laydown is worth 21 points, 42 are needed." in page
    # enough points, but no run without a joker
    page = text(arrange(client, game, "QH QD QC KH KD KC 9S 9D 9C"))
    assert "May not open: the first laydown needs a run without a joker." in page
    higher = GameFactory.create(family="zoliky", options={"opening_points": 70})
    page = text(arrange(client, higher, "AS 2S 3S QH QD QC KH KD KC 4C"))
    assert "May not open: the best laydown is worth 66 points, 70 are needed." in page


@pytest.mark.django_db
def test_rummikub_initial_meld_30(client: Client) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    page = text(arrange(client, game, "R10 R11 R12 B1 B2"))
    assert "May open with 33 points (needed: 30):" in page
    assert "R10 R11 R12 — 33" in page
    html = arrange(client, game, "R9 R10 R11 B1 B2")
    assert "May not open: the best laydown is worth 30 points" not in text(html)
    assert "May open with 30 points" in text(html)
    page = text(arrange(client, game, "R8 R9 R10 B1 B2"))
    assert "May not open: the best laydown is worth 27 points, 30 are needed." in page
    assert "Knock" not in page


@pytest.mark.django_db
def test_arrange_bad_input_is_a_message(client: Client) -> None:
    game = GameFactory.create(family="gin")
    html = arrange(client, game, "AS XX")
    assert 'role="alert"' in html and "XX" in html
    html = arrange(
        client,
        game,
        " ".join(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AH", "2H"]),
    )
    assert "At most 14 cards or tiles." in html


@pytest.mark.django_db
def test_arrange_is_linked_from_the_game_and_the_check_page(client: Client) -> None:
    game = GameFactory.create(family="gin")
    url = reverse("games:arrange", args=[game.public_id])
    assert url in client.get(reverse("games:detail", args=[game.public_id])).content.decode()
    check = client.get(reverse("games:check", args=[game.public_id])).content.decode()
    assert url in check
    assert 'data-picker-for="melds"' in check and "data-picker-meld" in check


@pytest.mark.django_db
def test_history_shows_cards(client: Client) -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob"])
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": "KH 5S JK"}}, request_id=uuid.uuid4(), user=None
    )
    html = client.get(reverse("games:history", args=[game.public_id])).content.decode()
    assert 'aria-label="king of hearts">K♥</span>' in html
    assert 'aria-label="5 of spades">5♠</span>' in html
    assert "KH 5S" not in html
