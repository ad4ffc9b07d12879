"""The standings as a CSV file: UTF-8 with a byte order mark (a spreadsheet reads accented
names right), numbers a spreadsheet reads as numbers, and no cell that runs as a formula."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from games.models import Club, Player
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, tournament

pytestmark = pytest.mark.django_db


def test_standings_download_as_csv_with_bom_and_safe_cells() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    names = ["Šimon", "=HYPERLINK(1)", "Bára", "David", "Eva", "Filip", "Gita", "Hana"]
    cup = tournament(club, organiser, names)
    play_round(cup, 1, organiser)
    page = Client().get(f"/t/{cup.public_id}/standings/").content.decode()
    assert f'href="/t/{cup.public_id}/standings.csv"' in page
    response = Client().get(f"/t/{cup.public_id}/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    raw = response.content
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == 8
    by_name = {row["Player"]: row for row in rows}
    assert "Šimon" in by_name
    assert "'=HYPERLINK(1)" in by_name and "=HYPERLINK(1)" not in by_name  # text, not a formula
    assert Player.objects.filter(name="=HYPERLINK(1)").exists()
    assert {row["Points"] for row in rows} <= {"7", "5", "3", "1"}
    assert any(row["Game score"].startswith("-") for row in rows)  # a number, not "'-10"
    assert [int(row["Rank"]) for row in rows] == sorted(int(row["Rank"]) for row in rows)


def test_a_members_only_club_hides_the_csv() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    cup = tournament(club, organiser, 8)
    assert Client().get(f"/t/{cup.public_id}/standings.csv").status_code == 404
