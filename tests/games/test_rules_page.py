"""The rules page: a game's house rules, how a hand scores under them, and a worked example
computed by the scoring from each family's example hand, so it follows the house rules."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def text(game: Game | None = None, path: str = "") -> str:
    response = Client().get(path or f"/g/{game.public_id}/rules/")  # type: ignore[union-attr]
    assert response.status_code == 200
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(body))


def example(game: Game) -> dict[str, tuple[str, str, str]]:
    html = Client().get(f"/g/{game.public_id}/rules/").content.decode()
    table = html.split('class="rules-example"')[1].split("</table>")[0]
    rows = re.findall(
        r'<th scope="row">([^<]+)</th><td>([^<]*)</td>'
        r'<td class="num">([^<]+)</td><td class="num">([^<]+)</td>',
        table,
    )
    return {name: (htmllib.unescape(held), count, points) for name, held, count, points in rows}


def test_the_zoliky_example_follows_the_house_joker_penalty() -> None:
    usual = GameFactory.create(players=["Eva", "Jan", "Petr"])
    assert example(usual) == {
        "Ann": ("—", "0", "−10"),
        "Bob": ("K♥ 5♠ JK", "30", "30"),
        "Cid": ("A♠ 2♦", "13", "13"),
    }
    house = GameFactory.create(players=["Eva", "Jan", "Petr"], options={"joker_penalty": 30})
    assert example(house)["Bob"] == ("K♥ 5♠ JK", "45", "45")
    page = text(house)
    assert "a joker 30" in page and "Penalty for a joker left in hand 30 (house rule)" in page
    assert "Penalty for a joker left in hand 15" in text(usual) and "(house rule)" not in text(usual)


@pytest.mark.parametrize(
    ("family", "options", "points"),
    [
        ("gin", {}, {"Ann": "8", "Bob": "0"}),
        # Cid holds 7♥ and a joker worth 50 here: Ann scores (12 - 4) + (57 - 4).
        ("carousel", {"joker_value": 50}, {"Ann": "61", "Bob": "0", "Cid": "0"}),
        ("rummikub", {}, {"Ann": "62", "Bob": "−50", "Cid": "−12"}),
    ],
)
def test_every_family_has_its_page_and_example(
    family: str, options: dict[str, object], points: dict[str, str]
) -> None:
    players = ["Eva", "Jan"] if family == "gin" else ["Eva", "Jan", "Petr"]
    game = GameFactory.create(family=family, players=players, options=options)
    assert {name: row[2] for name, row in example(game).items()} == points
    assert "How a hand is scored" in text(game) and "A worked example" in text(game)


def test_the_family_page_shows_the_usual_rules_and_unknown_ones_are_404() -> None:
    page = text(path="/rules/gin/")
    assert "The usual rules" in page and "Gin bonus 25" in page
    assert Client().get("/rules/poker/").status_code == 404
    assert Client().get("/g/nosuchgame/rules/").status_code == 404


def test_the_game_page_links_to_its_rules() -> None:
    game = GameFactory.create()
    assert f'href="/g/{game.public_id}/rules/"' in Client().get(f"/g/{game.public_id}/").content.decode()


def test_the_page_is_translated_with_the_language() -> None:
    game = GameFactory.create()
    response = Client().get(f"/cs/g/{game.public_id}/rules/")
    assert response.status_code == 200 and 'lang="cs"' in response.content.decode()


def test_the_api_gives_the_same_rules_and_example() -> None:
    players = ["Eva", "Jan", "Petr"]
    game = GameFactory.create(family="rummikub", players=players, options={"joker_penalty": 50})
    response = APIClient().get(f"/api/v1/games/{game.public_id}/rules/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    body = response.json()
    joker = next(r for r in body["rules"] if r["name"] == "joker_penalty")
    assert joker == {
        "name": "joker_penalty",
        "label": "Penalty for a joker left in hand",
        "value": 50,
        "usual": 30,
        "changed": True,
    }
    # Bob holds R7 B13 and a joker worth 50 here: 70; Ann scores 70 + 12.
    assert [(r["name"], r["held"], r["count"], r["points"]) for r in body["example"]["rows"]] == [
        ("Ann", "", 0, 82),
        ("Bob", "R7 B13 JK", 70, -70),
        ("Cid", "", 12, -12),
    ]
    assert any("a joker 50" in line for line in body["how"])
    assert APIClient().get("/api/v1/games/nosuchgame/rules/").status_code == 404


def test_the_new_game_page_links_to_the_family_rules() -> None:
    page = Client().get("/games/new/carousel/").content.decode()
    assert 'href="/rules/carousel/"' in page
