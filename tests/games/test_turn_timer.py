"""The table's turn timer as the server starts it (docs/design/table.md, "The turn timer"): each
family's times and what it says at zero come from the family's module; the timer page and the
API give the next hand's players in seat order (not those out of the game) and who plays first;
the score sheet links to it while the game is played."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.selectors.games import game_by_public_id
from games.selectors.timer import first_player, timer_setup
from games.services.games import game_end
from games.services.hands import hand_record
from games.sheets.cache import SHEETS
from scoring.families import family_info
from tests.factories import GameFactory


def setup_of(html: bytes) -> dict[str, Any]:
    text = html.decode()
    start = text.index('<script id="timer-setup" type="application/json">') + len(
        '<script id="timer-setup" type="application/json">'
    )
    return dict(json.loads(text[start : text.index("</script>", start)]))


def test_each_family_states_its_timer() -> None:
    rummikub, gin = family_info("rummikub").timer, family_info("gin").timer
    carousel, zoliky = family_info("carousel").timer, family_info("zoliky").timer
    assert (rummikub.style, rummikub.seconds, rummikub.at_zero) == ("turn", 60, "Time's up — draw 3")
    assert (gin.style, gin.seconds, gin.increment) == ("chess", 300, 5)
    assert (carousel.style, carousel.seconds, carousel.increment) == ("chess", 600, 5)
    assert (zoliky.style, zoliky.seconds, zoliky.at_zero) == ("turn", 60, "Time's up")


def test_the_seat_after_the_dealer_plays_first() -> None:
    assert first_player(["Ann", "Bob", "Cid"], "Ann") == "Bob"
    assert first_player(["Ann", "Bob", "Cid"], "Cid") == "Ann"
    assert first_player(["Ann", "Bob"], None) == "Ann"
    assert first_player([], None) is None


@pytest.mark.django_db
def test_the_timer_page_starts_rummikub_with_a_minute_and_draw_three_in_czech() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"], first_dealer=1)
    response = Client().get(f"/cs/g/{game.public_id}/timer/")
    assert response.status_code == 200
    assert setup_of(response.content) == {
        "style": "turn",
        "seconds": 60,
        "increment": 0,
        "at_zero": "Čas vypršel — lízni si 3 kameny",
        "players": ["Ann", "Bob", "Cid"],
        "first": "Cid",
        "hand": 1,
    }
    html = response.content.decode()
    assert "Sekund na tah" in html and 'href="/cs/g/' in html  # the times to change; back to the sheet
    assert "/static/js/timer.js" in html and "/static/css/timer.css" in html


@pytest.mark.django_db
def test_a_player_out_of_the_game_has_no_turn() -> None:
    game = GameFactory.create(
        family="zoliky", options={"elimination": 50}, players=["Ann", "Bob", "Cid", "Dan"]
    )
    outcome = {"closer": "Ann", "from_hand": False, "left": {"Bob": 5, "Cid": 60, "Dan": 7}}
    hand_record(game=game, outcome=outcome, request_id=None, user=None)
    setup = setup_of(Client().get(f"/g/{game.public_id}/timer/").content)
    # Bob deals hand 2; Cid is out, so Dan plays first.
    assert (setup["players"], setup["first"], setup["hand"]) == (["Ann", "Bob", "Dan"], "Dan", 2)
    assert (setup["style"], setup["at_zero"]) == ("turn", "Time's up")


@pytest.mark.django_db
def test_the_page_reads_the_game_and_its_sheet(django_assert_num_queries: Any) -> None:
    game = GameFactory.create(family="gin", players=["Ola", "Kari"])
    SHEETS.clear()
    with django_assert_num_queries(3):  # the game; the sheet's seats and hands
        setup = timer_setup(game=game_by_public_id(public_id=game.public_id))  # type: ignore[arg-type]
    assert (setup.style, setup.seconds, setup.increment, setup.first) == ("chess", 300, 5, "Kari")


@pytest.mark.django_db
def test_the_api_gives_the_same_setup() -> None:
    game = GameFactory.create(family="carousel", players=["Ann", "Bob", "Cid"])
    response = APIClient().get(f"/api/v1/games/{game.public_id}/timer/", HTTP_ACCEPT_LANGUAGE="nb")
    assert response.status_code == 200
    assert response.json() == {
        "style": "chess",
        "seconds": 600,
        "increment": 5,
        "at_zero": "Tiden er ute",
        "players": ["Ann", "Bob", "Cid"],
        "first": "Bob",
        "hand": 1,
    }
    assert APIClient().get("/api/v1/games/nosuchgame/timer/").status_code == 404
    assert Client().get("/g/nosuchgame/timer/").status_code == 404


@pytest.mark.django_db
def test_the_score_sheet_links_the_timer_while_the_game_is_played() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    link = f'href="/g/{game.public_id}/timer/"'.encode()
    assert link in Client().get(f"/g/{game.public_id}/").content
    game_end(game=game, ended=True, user=None)
    assert link not in Client().get(f"/g/{game.public_id}/").content
