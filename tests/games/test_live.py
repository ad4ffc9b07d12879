"""The live view (/g/<id>/live/): the part of a game page a save changes, for a phone polling
it; 304 from the game's row alone while nothing changed, whichever server answers."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from games.models import Game
from games.services.games import game_end
from games.services.hands import hand_record
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

HAND = {"winner": "Ann", "left": {"Bob": 7}}


def editor(game: Game) -> Client:
    client = Client()
    assert client.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    client.get(f"/g/{game.public_id}/")  # shows (and so clears) the "you can now record" message
    return client


def live(game: Game) -> str:
    return f"/g/{game.public_id}/live/"


def totals(html: str) -> list[str]:
    return re.findall(r'<span class="total">([^<]+)</span>', html)


def page_tag(client: Client, game: Game) -> str:
    html = client.get(f"/g/{game.public_id}/").content.decode()
    found = re.search(r'<div id="game-body" data-live-etag="([^"]+)"', html)
    assert found, "the page carries the live tag of what it shows"
    return found.group(1).replace("&quot;", '"')


def save(client: Client, game: Game, cards: str = "R7", htmx: bool = False) -> str:
    data = {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": cards}
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(f"/g/{game.public_id}/hands/", data, headers=headers)
    assert response.status_code == (200 if htmx else 302)
    return response.content.decode()


def test_a_viewer_gets_the_game_body_then_304_from_one_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=HAND, request_id=None, user=None)
    viewer = Client()
    response = viewer.get(live(game))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="game-body"') and "<html" not in html
    assert totals(html) == ["7", "−7"] and "Hand 1:" in html
    assert "You are viewing this game" in html and "<form" not in html
    tag = response["ETag"]
    assert "no-cache" in response["Cache-Control"]
    # What the page drew first carries the same tag: its first poll is already a 304.
    assert page_tag(viewer, game) == tag
    with django_assert_num_queries(1):
        again = viewer.get(live(game), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and not again.content


def test_a_save_on_another_phone_reaches_the_viewer_at_his_next_poll() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    first = viewer.get(live(game))
    assert totals(first.content.decode()) == ["0", "0"]
    save(editor(game), game, "R7 B13")
    response = viewer.get(live(game), HTTP_IF_NONE_MATCH=first["ETag"])
    html = response.content.decode()
    assert response.status_code == 200 and response["ETag"] != first["ETag"]
    assert totals(html) == ["20", "−20"] and "Hand 1:" in html
    assert viewer.get(live(game), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_a_watching_phone_follows_the_dealer_too() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    first = viewer.get(live(game))
    assert "Hand 1: Ann deals" in first.content.decode()
    save(editor(game), game)
    html = viewer.get(live(game), HTTP_IF_NONE_MATCH=first["ETag"]).content.decode()
    assert "Hand 2: Bob deals" in html and "Ann deals" not in html


def test_an_editor_gets_the_form_and_its_own_save_is_no_news_to_it() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    response = client.get(live(game))
    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert 'name="csrfmiddlewaretoken"' in html and 'name="request_id"' in html and "Hand 1" in html
    assert 'id="game-end"' in html and "End the game now" in html
    assert "Ann deals" in html
    # The htmx answer to a save carries the tag the live view gives for it: the next poll is
    # a 304, so the phone that saved never hears its own hand as "updated on another phone".
    answer = save(client, game, htmx=True)
    tag = re.search(r'<div id="game-body" data-live-etag="([^"]+)"', answer)
    assert tag
    after = client.get(live(game), HTTP_IF_NONE_MATCH=tag.group(1).replace("&quot;", '"'))
    assert after.status_code == 304
    # Another editor's phone, polling with what it showed before, gets the next hand's form
    # and its dealer.
    html = editor(game).get(live(game), HTTP_IF_NONE_MATCH=response["ETag"]).content.decode()
    assert "Hand 2" in html and "Bob deals" in html


def test_the_viewers_and_the_editors_tags_differ() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer, writer = Client(), editor(game)
    theirs = viewer.get(live(game))["ETag"]
    mine = writer.get(live(game))["ETag"]
    assert mine != theirs
    # An editor holding a viewer's tag gets his form, and the reverse never shows it.
    assert writer.get(live(game), HTTP_IF_NONE_MATCH=theirs).status_code == 200
    assert viewer.get(live(game), HTTP_IF_NONE_MATCH=mine).status_code == 200
    czech = viewer.get(f"/cs/g/{game.public_id}/live/", HTTP_IF_NONE_MATCH=theirs)
    assert czech.status_code == 200 and czech["ETag"] != theirs


def test_304_costs_the_session_and_the_game_for_an_editor_and_the_user_when_logged_in() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner)
    logged_in = Client()
    logged_in.force_login(owner)
    link_holder = Client()
    assert link_holder.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    link_holder.get(f"/g/{game.public_id}/")
    for client, most in ((link_holder, 2), (logged_in, 3)):
        tag = client.get(live(game))["ETag"]
        with CaptureQueriesContext(connection) as queries:
            response = client.get(live(game), HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 304
        assert len(queries.captured_queries) <= most, [q["sql"] for q in queries.captured_queries]


def test_the_games_end_shows_on_a_watching_phone() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner)
    hand_record(game=game, outcome=HAND, request_id=None, user=owner)
    watcher, other_editor = Client(), editor(game)
    seen = watcher.get(live(game))["ETag"]
    editor_seen = other_editor.get(live(game))["ETag"]
    assert game_end(game=game, ended=True, user=owner, request_id=None) is not None
    html = watcher.get(live(game), HTTP_IF_NONE_MATCH=seen).content.decode()
    assert "Game over" in html and "Winner: Ann" in html
    # The other editor's phone loses the hand form and its end button becomes "Reopen".
    html = other_editor.get(live(game), HTTP_IF_NONE_MATCH=editor_seen).content.decode()
    assert "Game over" in html and 'name="request_id"' in html
    assert "Reopen the game" in html and "End the game now" not in html
    assert 'class="hand-form' not in html


def test_a_new_edit_link_takes_the_form_from_the_old_links_phone() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner)
    old_link = editor(game)
    tag = old_link.get(live(game))["ETag"]
    client = Client()
    client.force_login(owner)
    client.post(f"/g/{game.public_id}/new-edit-link/", {"request_id": str(uuid.uuid4())})
    response = old_link.get(live(game), HTTP_IF_NONE_MATCH=tag)
    html = response.content.decode()
    assert response.status_code == 200 and 'class="hand-form' not in html
    assert "You are viewing this game" in html


def test_an_unknown_game_is_404_and_the_live_view_only_reads() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    assert Client().get("/g/nope/live/").status_code == 404
    assert editor(game).post(live(game)).status_code == 405


def test_without_javascript_the_page_is_a_plain_page() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    # The live view only adds an empty status line and a deferred script; the form posts and
    # redirects as before, and a reload shows what another phone saved.
    assert re.search(r'<p id="live-status" class="live-status" role="status"[^>]*></p>', html)
    assert f'data-live-url="/g/{game.public_id}/live/"' in html
    assert re.search(r'<script src="/static/js/live\.js" defer></script>', html)
    assert re.search(rf'<form method="post" action="/g/{game.public_id}/hands/"', html)
    save(editor(game), game)
    assert totals(client.get(f"/g/{game.public_id}/").content.decode()) == ["7", "−7"]


# --- the API's game: the same conditional GET -----------------------------------------------


def test_the_apis_game_answers_304_from_one_query_until_it_changes(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome=HAND, request_id=None, user=None)
    client = APIClient()
    url = f"/api/v1/games/{game.public_id}/"
    tag = client.get(url)["ETag"]
    # Not even the throttles' shared counts are read: a scoreboard's poll costs the game's row.
    with django_assert_num_queries(1):
        response = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304 and response["ETag"] == tag
    hand_record(game=game, outcome=HAND, request_id=None, user=None)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["totals"] == {"Ann": 14, "Bob": -14}
    assert client.get("/api/v1/games/nope/", HTTP_IF_NONE_MATCH=tag).status_code == 404
