"""After a save and confirmations, server side: the kind of each
family's hands, the saved line (with htmx and across the redirect), the end asked first, and
the undo of an old change previewed from two scorings."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.utils import translation

from engine.rules import rule_set
from games.hand_kinds import kind_label
from games.models import Change, Hand
from games.selectors.after_save import undo_asks, undo_preview
from games.selectors.sheets import game_sheet
from games.services.hands import hand_edit, hand_record
from scoring.hands import score_hand
from scoring.kinds import HandKind, hand_kind
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("family", "players", "outcome", "kind"),
    [
        ("zoliky", ["A", "B"], {"closer": "A", "left": {"B": 5}}, HandKind("closed", "A")),
        (
            "zoliky",
            ["A", "B"],
            {"closer": "A", "from_hand": True, "left": {"B": 5}},
            HandKind("from_hand", "A"),
        ),
        ("gin", ["A", "B"], {"knocker": "A", "deadwood": {"A": 4, "B": 20}}, HandKind("knock", "A")),
        ("gin", ["A", "B"], {"knocker": "A", "deadwood": {"A": 9, "B": 3}}, HandKind("undercut", "A")),
        ("gin", ["A", "B"], {"knocker": "A", "deadwood": {"A": 0, "B": 3}}, HandKind("gin", "A")),
        ("gin", ["A", "B"], {"knocker": None, "deadwood": {"A": 30, "B": 30}}, HandKind("void", None)),
        ("carousel", ["A", "B"], {"out": "B", "left": {"A": 5, "B": 0}}, HandKind("out", "B")),
        ("carousel", ["A", "B"], {"knocker": "A", "left": {"A": 4, "B": 3}}, HandKind("undercut", "A")),
        ("carousel", ["A", "B"], {"knocker": "A", "left": {"A": 2, "B": 3}}, HandKind("knock", "A")),
        ("carousel", ["A", "B"], {"left": {"A": 2, "B": 3}}, HandKind("stock", None)),
        ("rummikub", ["A", "B"], {"winner": "A", "left": {"B": 3}}, HandKind("out", "A")),
        ("rummikub", ["A", "B"], {"winner": None, "left": {"A": 2, "B": 3}}, HandKind("pool_dry", None)),
    ],
)
def test_each_familys_hand_kind_comes_from_its_scoring(
    family: str, players: list[str], outcome: dict[str, object], kind: HandKind
) -> None:
    rules = rule_set(family)  # type: ignore[arg-type]
    assert hand_kind(score_hand(rules=rules, outcome=outcome, players=players)) == kind


def test_the_htmx_answer_to_a_save_carries_the_saved_line_with_its_undo() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    data = {"request_id": str(uuid.uuid4()), "knocker": "Ann", "points_0": "2", "points_1": "30"}
    html = client.post(f"/g/{game.public_id}/hands/", data, HTTP_HX_REQUEST="true").content.decode()
    added = Change.objects.get(game=game, action="added")
    assert "Hand 1 saved — Ann knocked: Ann +28, Bob 0." in html
    assert f'action="/g/{game.public_id}/history/{added.pk}/undo/"' in html
    assert '<span class="kind">knock</span>' in html  # the sheet names it too
    # Another phone's page (or the live view) has no saved line.
    assert "saved-line" not in editor(game).get(f"/g/{game.public_id}/").content.decode()


def test_without_htmx_the_line_comes_once_after_the_redirect_and_its_undo_goes_back_to_the_sheet() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    data = {"request_id": str(uuid.uuid4()), "winner": "Ann", "points_1": "7"}
    page = client.post(f"/g/{game.public_id}/hands/", data, follow=True).content.decode()
    assert page.count("Hand 1 saved — Ann went out: Ann +7, Bob −7.") == 1
    assert "saved-line" not in client.get(f"/g/{game.public_id}/").content.decode()  # once
    added = Change.objects.get(game=game, action="added")
    response = client.post(f"/g/{game.public_id}/history/{added.pk}/undo/", {"back": "game"})
    assert response["Location"] == f"/g/{game.public_id}/"
    assert not Hand.objects.filter(game=game).exists()


def test_ending_asks_first_and_changes_nothing_until_confirmed() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    request_id = str(uuid.uuid4())
    response = client.post(f"/g/{game.public_id}/end/", {"ended": "1", "request_id": request_id})
    html = response.content.decode()
    assert response.status_code == 200 and "End the game now?" in html
    assert f'value="{request_id}"' in html and 'name="confirm" value="1"' in html
    game.refresh_from_db()
    assert not game.ended and not Change.objects.filter(game=game).exists()
    data = {"ended": "1", "request_id": request_id, "confirm": "1"}
    assert client.post(f"/g/{game.public_id}/end/", data).status_code == 302
    game.refresh_from_db()
    assert game.ended
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "End the game now" not in page and "Reopen the game" in page
    # Reopening is not asked.
    assert client.post(f"/g/{game.public_id}/end/", {"ended": "0"}).status_code == 302


def test_an_old_changes_undo_is_previewed_from_two_scorings_and_asked_first() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    for outcome in (
        {"winner": "Ann", "left": {"Bob": 10}},
        {"winner": "Bob", "left": {"Ann": 4}},
        {"winner": "Ann", "left": {"Bob": 7}},
    ):
        hand_record(game=game, outcome=outcome, request_id=None, user=None)
    first = Change.objects.filter(game=game).order_by("id").first()
    assert first is not None and undo_asks(change=first)
    preview = undo_preview(change=first)
    assert preview.hands == (1,) and preview.later == (2, 3)
    assert [(t.player, t.before, t.after) for t in preview.totals] == [("Ann", 13, 3), ("Bob", -13, -3)]
    client = editor(game)
    html = client.post(f"/g/{game.public_id}/history/{first.pk}/undo/").content.decode()
    assert "hand 1 is deleted" in html and "the running totals of hands 2, 3" in html
    assert re.findall(r"<td>(−?\d+)</td>", html) == ["13", "3", "−13", "−3"]
    assert Hand.objects.filter(game=game).count() == 3  # nothing done yet
    client.post(f"/g/{game.public_id}/history/{first.pk}/undo/", {"confirm": "1"})
    assert Hand.objects.filter(game=game).count() == 2
    # The last change is undone at once.
    last = Change.objects.filter(game=game).latest("id")
    assert not undo_asks(change=last)


def test_undoing_an_old_correction_previews_the_counts_put_back() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand = hand_record(
        game=game, outcome={"winner": "Ann", "left": {"Bob": 10}}, request_id=None, user=None
    ).hand
    hand_record(game=game, outcome={"winner": "Ann", "left": {"Bob": 1}}, request_id=None, user=None)
    hand_edit(hand=hand, outcome={"winner": "Ann", "left": {"Bob": 20}}, version=1, user=None)
    hand_record(game=game, outcome={"winner": "Bob", "left": {"Ann": 2}}, request_id=None, user=None)
    edit = Change.objects.get(game=game, action="edited")
    preview = undo_preview(change=edit)
    assert preview.hands == (1,) and preview.later == (2, 3)
    assert [(t.before, t.after) for t in preview.totals] == [(19, 9), (-19, -9)]


def test_the_api_names_each_hands_kind_as_the_sheet_does() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    hand_record(
        game=game, outcome={"knocker": "Ann", "deadwood": {"Ann": 9, "Bob": 3}}, request_id=None, user=None
    )
    rows = Client().get(f"/api/v1/games/{game.public_id}/").json()["rows"]
    assert [(r["kind"], r["ended_by"]) for r in rows] == [("undercut", "Ann")]


def test_an_undo_that_brings_a_player_back_says_whose_counts_will_be_missing() -> None:
    game = GameFactory.create(family="zoliky", options={"elimination": 40}, players=["Ann", "Bob", "Cid"])
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 45, "Cid": 5}}, request_id=None, user=None
    )
    hand_record(game=game, outcome={"closer": "Cid", "left": {"Ann": 7}}, request_id=None, user=None)
    first = Change.objects.filter(game=game).order_by("id").first()
    assert first is not None
    preview = undo_preview(change=first)
    assert preview.missing == (("Bob", (1,)),)
    assert [(t.player, t.before, t.after) for t in preview.totals] == [
        ("Ann", -3, 7),
        ("Bob", 45, 0),
        ("Cid", -5, -10),
    ]
    html = editor(game).post(f"/g/{game.public_id}/history/{first.pk}/undo/").content.decode()
    assert "The totals would be incomplete:" in html and "Bob's count missing in hand 1" in html


def test_each_row_of_the_sheet_names_its_own_hand_s_kind_in_the_reader_s_language() -> None:
    """The sheet draws each kind's label once (games_tags.sheet_rows), and every row still gets
    its own hand's kind, translated."""
    game = GameFactory.create(family="carousel", players=["Ann", "Bob"])
    outcomes: list[dict[str, object]] = [
        {"knocker": "Ann", "left": {"Ann": 2, "Bob": 3}},  # knock
        {"knocker": "Ann", "left": {"Ann": 4, "Bob": 3}},  # undercut
        {"left": {"Ann": 2, "Bob": 3}},  # the stock ran out
        {"knocker": "Bob", "left": {"Ann": 9, "Bob": 1}},  # knock
    ]
    for outcome in outcomes:
        hand_record(game=game, outcome=outcome, request_id=None, user=None)
    for language, prefix, words in (
        ("en", "", ["knock", "undercut", "stock ran out", "knock"]),
        ("cs", "/cs", None),
    ):
        with translation.override(language):  # and back: the request leaves its language active
            html = editor(game).get(f"{prefix}/g/{game.public_id}/").content.decode()
            expected = [kind_label(hand_kind(r), r.family) for r in game_sheet(game=game).state.hands]  # type: ignore[union-attr]
        shown = re.findall(r'<span class="kind">([^<]*)</span>', html)
        assert shown == expected and len(set(shown)) == 3
        if words is not None:
            assert shown == words
        else:
            assert shown != ["knock", "undercut", "stock ran out", "knock"]  # translated


@pytest.mark.parametrize(
    ("family", "options", "hand"),
    [
        ("gin", {"target": 20}, {"knocker": "Ann", "points_0": "2", "points_1": "30"}),
        ("zoliky", {"elimination": 100}, {"closer": "Ann", "points_1": "120"}),  # Bob is out: Ann is left
        ("carousel", {"target": 20}, {"out": "Ann", "points_1": "30"}),
    ],
)
def test_a_hand_that_ends_the_game_takes_the_end_button_away_on_the_phone_that_saved_it(
    family: str, options: dict[str, object], hand: dict[str, str]
) -> None:
    game = GameFactory.create(family=family, players=["Ann", "Bob"], options=options)
    client = editor(game)
    assert "End the game now" in client.get(f"/g/{game.public_id}/").content.decode()
    data = {"request_id": str(uuid.uuid4()), "confirm_end": "1", **hand}
    html = client.post(f"/g/{game.public_id}/hands/", data, HTTP_HX_REQUEST="true").content.decode()
    assert Hand.objects.filter(game=game).count() == 1
    # The answer replaces the end button's box too, which holds no "End the game now" any more.
    end = re.search(r'<div id="game-end" hx-swap-oob="true">(.*?)</div>', html, re.S)
    assert end is not None
    assert "End the game now" not in html
