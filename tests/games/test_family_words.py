"""A family brings its own words: the tests' plain rummy (tests/plain_family.py) has a role
(``declarer``), a flag (``rummy``), a kind of hand (``rummy``) and a house rule
(``rummy_counts``, with labelled choices) that no shipped family has, and registering it is all
it takes for the new-game form, the hand form, the score sheet, the saved line, the history's
summaries, the corrections, the rules page, the API and the club's export to say them."""

from __future__ import annotations

import html as htmllib
import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules import OPTIONS, rule_set
from games.families import words
from games.forms import HandForm, NewGameForm
from games.hand_kinds import kind_label, kind_line
from games.models import Game
from games.selectors.sheets import game_sheet
from games.services.hands import hand_record
from games.templatetags.games_tags import outcome_summary
from scoring.families import every_word
from scoring.kinds import HandKind
from tests.clients import editor
from tests.factories import ClubFactory, GameFactory, UserFactory
from tests.plain_family import Plain, plain  # noqa: F401 (the fixture)
from tournaments.exchange.exporting import export_club, export_csv
from tournaments.exchange.importing import import_club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("plain")]

PLAYERS = ["Ann", "Bob", "Cid"]
RUMMY = {"declarer": "Ann", "rummy": True, "left": {"Bob": 5, "Cid": "KH"}}  # 2 × (5 + 10)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html)))


def test_its_words_are_its_own() -> None:
    shipped = every_word()
    said = words("plain")
    assert [r.name for r in said.roles] == ["declarer"] and [f.name for f in said.flags] == ["rummy"]
    assert said.kind("rummy") is not None
    # None of them is a shipped family's: the registry, not a table, must know them.
    for family in ("zoliky", "gin", "carousel", "rummikub"):
        own = words(family)
        assert own.role("declarer") is None and own.flag("rummy") is None and own.kind("rummy") is None
    assert shipped.role("declarer") is not None  # registered: every word includes its words


def test_the_hand_form_asks_in_its_words_and_reads_its_outcome() -> None:
    rules = rule_set("plain")
    form = HandForm(
        {"declarer": "Ann", "rummy": "on", "points_1": "5", "cards_2": "KH"},
        rules=rules,
        players=PLAYERS,
        seating=PLAYERS,
    )
    assert str(form["declarer"].label) == "Who declared?"
    assert str(form["rummy"].label) == "Went rummy (all cards at once)"
    assert [str(hint) for _field, hint in form.flag_rows()] == ["Going rummy doubles the points."]
    assert form.is_valid(), form.errors
    assert form.outcome() == RUMMY
    # A correction's form is filled from the stored outcome, with or without the game's rules.
    initial = {"declarer": "Ann", "rummy": True, "points_1": 5, "cards_2": "KH"}
    assert HandForm.initial_from(RUMMY, PLAYERS, rules) == initial
    assert HandForm.initial_from(RUMMY, PLAYERS) == initial


def test_its_summaries_and_kinds_read_in_its_words() -> None:
    rules = rule_set("plain")
    summary = text(str(outcome_summary(RUMMY, rules)))
    assert summary.startswith("Ann declared; rummy!; Bob 5; Cid ")
    assert text(str(outcome_summary(RUMMY))).startswith("Ann declared; rummy!; Bob 5; Cid KH")
    assert kind_label(HandKind("rummy", "Ann"), "plain") == "went rummy"
    game = GameFactory.create(family="plain", players=PLAYERS)
    hand_record(game=game, outcome=RUMMY, request_id=None, user=None)
    result = game_sheet(game=game).state.hands[0]  # type: ignore[union-attr]
    assert kind_line(result) == "Ann went rummy" and result.points["Ann"] == 30


def test_it_is_played_through_the_pages_in_its_words() -> None:
    game = GameFactory.create(family="plain", players=PLAYERS)
    client = editor(game)
    sheet = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Who declared?" in sheet and "Went rummy (all cards at once)" in sheet
    assert "Going rummy doubles the points." in sheet

    data = {
        "request_id": str(uuid.uuid4()),
        "declarer": "Ann",
        "rummy": "on",
        "points_1": "5",
        "cards_2": "KH",
    }
    page = client.post(f"/g/{game.public_id}/hands/", data, follow=True).content.decode()
    assert "Hand 1 saved — Ann went rummy: Ann +30, Bob 0, Cid 0." in text(page)
    assert '<span class="kind">went rummy</span>' in client.get(f"/g/{game.public_id}/").content.decode()
    assert game.hands.get().outcome == RUMMY

    # The correction's form is filled in its words; a plain "out" corrects it.
    edit = client.get(f"/g/{game.public_id}/hands/1/").content.decode()
    assert re.search(r'<input[^>]*name="rummy"[^>]*checked', edit)
    assert re.search(r'<input[^>]*name="declarer"[^>]*value="Ann"[^>]*checked', edit)
    corrected = {**data, "request_id": str(uuid.uuid4()), "version": "1", "rummy": "", "declarer": "Bob"}
    corrected |= {"points_0": "4", "points_1": "", "cards_1": ""}
    assert client.post(f"/g/{game.public_id}/hands/1/", corrected).status_code == 302
    assert '<span class="kind">went out</span>' in client.get(f"/g/{game.public_id}/").content.decode()

    history = text(client.get(f"/g/{game.public_id}/history/").content.decode())
    assert "Ann declared; rummy!; Bob 5" in history and "Bob declared; Ann 4" in history


def test_it_is_recorded_and_read_through_the_api_in_its_words() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner, family="plain", players=PLAYERS)
    client = APIClient()
    client.force_login(owner)
    (_title, example), *_ = Plain.api_examples  # the family's own example outcome records
    response = client.post(f"/api/v1/games/{game.public_id}/hands/", example, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["points"] == {"Ann": 30, "Bob": 0, "Cid": 0}
    read = client.get(f"/api/v1/games/{game.public_id}/").json()
    row = read["rows"][0]
    assert (row["kind"], row["ended_by"], row["outcome"]) == ("rummy", "Ann", example)
    unknown = client.post(
        f"/api/v1/games/{game.public_id}/hands/", {**example, "rummy": "yes"}, format="json"
    )
    assert unknown.status_code == 400 and unknown.json()["code"] == "field_type"


def test_its_hands_go_out_and_come_back_in_the_clubs_export() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    game = GameFactory.create(family="plain", players=PLAYERS, club=club, owner=organiser)
    hand_record(game=game, outcome=RUMMY, request_id=None, user=None)
    doc: dict[str, Any] = json.loads(json.dumps(export_club(club)))
    (exported,) = doc["games"]
    assert exported["family"] == "plain" and [h["outcome"] for h in exported["hands"]] == [RUMMY]
    sheets = export_csv(club)
    assert "plain" in sheets and ",Ann,30,30" in sheets

    copy = import_club(doc, user=UserFactory.create(username="importer"), name="Copy").club
    again = Game.objects.get(club=copy)
    assert again.family == "plain" and again.hands.get().outcome == RUMMY
    assert export_csv(copy) == sheets


def test_two_phones_at_once_see_both_versions_in_its_words() -> None:
    game = GameFactory.create(family="plain", players=PLAYERS)
    a, b = editor(game), editor(game)
    shown = {"request_id": str(uuid.uuid4()), "for_hand": "1"}
    mine = {"declarer": "Ann", "rummy": "on", "points_1": "5", "cards_2": "KH"}
    assert a.post(f"/g/{game.public_id}/hands/", {**shown, **mine}).status_code == 302
    theirs = {**shown, "request_id": str(uuid.uuid4()), "declarer": "Bob", "points_0": "4", "points_2": "6"}
    response = b.post(f"/g/{game.public_id}/hands/", theirs)
    assert response.status_code == 409
    table = re.search(r'<table class="conflict-table">(.*?)</table>', response.content.decode(), re.S)
    assert table is not None
    compared = text(table.group(1))
    assert "Who declared?" in compared and "Went rummy (all cards at once)" in compared


def test_its_house_rule_is_labelled_where_it_is_declared() -> None:
    assert all("rummy_counts" not in OPTIONS[f] for f in ("zoliky", "gin", "carousel", "rummikub"))
    client = Client()
    form = client.get("/games/new/plain/").content.decode()
    assert "A rummy counts" in form
    assert re.search(
        r'<option value="2" selected>twice</option>\s*<option value="3">three times</option>', form
    )
    changed = NewGameForm({"opt_target": "100", "opt_rummy_counts": "3"}, family="plain")
    assert changed.house_rules_changed() == ["A rummy counts: three times"]

    players = {"player_1": "Ann", "player_2": "Bob", "player_3": "Cid", "first_dealer": "0"}
    response = client.post("/games/new/plain/", {**players, "opt_target": "100", "opt_rummy_counts": "3"})
    assert response.status_code == 302, text(response.content.decode())
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert game.options == {"target": 100, "rummy_counts": 3}
    hand_record(game=game, outcome=RUMMY, request_id=None, user=None)
    assert game_sheet(game=game).state.hands[0].points["Ann"] == 45  # type: ignore[union-attr]

    assert "A rummy counts three times (house rule)" in text(
        client.get(f"/g/{game.public_id}/rules/").content.decode()
    )
    usual = text(client.get("/rules/plain/").content.decode())
    assert "A rummy counts twice" in usual and "(house rule)" not in usual
    rules = client.get(f"/api/v1/games/{game.public_id}/rules/").json()["rules"]
    assert {
        "name": "rummy_counts",
        "label": "A rummy counts",
        "value": 3,
        "usual": 2,
        "changed": True,
    } in rules
