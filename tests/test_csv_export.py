"""No CSV the site writes can run as a spreadsheet formula: a text cell starting with = + - @,
a tab or a carriage return is written with a leading apostrophe (games/web/spreadsheet.py)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.services.hands import hand_record
from games.web.spreadsheet import safe_cell
from tests.factories import ClubFactory, GameFactory, UserFactory
from tournaments.exchange.exporting import export_csv

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example","x")'


@pytest.mark.parametrize("text", [EVIL, "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "=", "-"])
def test_a_formula_start_is_written_as_text(text: str) -> None:
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann", "", "a=b", "1-2", " =x", -24, 0, 3.5, None])
def test_other_cells_are_untouched(value: object) -> None:
    assert safe_cell(value) == value


def test_the_clubs_score_sheets_neutralise_names_and_events() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    game = GameFactory.create(family="rummikub", players=[EVIL, "-Bob", "@Cid"], club=club, owner=organiser)
    game.event_name = "+cmd|' /C calc'!A0"
    game.save()
    outcome = {"winner": EVIL, "left": {"-Bob": 24, "@Cid": 3}}
    hand_record(game=game, outcome=outcome, request_id=None, user=organiser)  # type: ignore[arg-type]
    client = APIClient()
    client.force_login(organiser)
    answer = client.get(f"/api/v1/clubs/{club.slug}/export/?format=csv")
    assert answer.status_code == 200
    for text in [answer.content.decode(), export_csv(club)]:
        rows = list(csv.DictReader(io.StringIO(text)))
        assert {row["player"] for row in rows} == {"'" + EVIL, "'-Bob", "'@Cid"}
        assert {row["event"] for row in rows} == {"'+cmd|' /C calc'!A0"}
        # Scores are numbers, negative ones too.
        assert {row["points"] for row in rows} == {"27", "-24", "-3"}
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells)
    sheets = io.StringIO()
    call_command("export_club", club.slug, "--csv", stdout=sheets)
    assert "'" + EVIL in list(csv.reader(io.StringIO(sheets.getvalue())))[1]
