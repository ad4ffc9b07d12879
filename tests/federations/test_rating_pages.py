"""The federation's rating list pages as a reader sees them: the live list with ranks, marks,
the trend since the last published list, each person's name, id and link; the search and the
pages; a members-only federation kept from outsiders; a published month exactly as published,
even after a later correction; the CSV files; a tournament's rating report; and a fixed number
of queries for each page at 20 and at 2,000 register entries."""

from __future__ import annotations

import csv
import datetime
import io
import re
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from federations.models import Federation, FederationClub, Person, PublishedLine, PublishedList
from federations.publication import month_of, publish
from federations.ratings import refresh
from federations.selectors import ratings as selectors
from federations.selectors.ratings import live_list, tournament_report
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from games.web.spreadsheet import BOM
from tests.factories import ClubFactory, UserFactory
from tests.federations.support import World, a_federation, a_rated_cup, game_on, link_all, world
from tests.federations.test_rating_selectors import register
from tests.tournaments.fault_club import correct
from tests.tournaments.support import play_round, tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
FAMILY = "rummikub"


@dataclass
class Listed:
    w: World
    people: list[Person]
    last_month: datetime.date
    first: PublishedList
    early: list


def listed() -> Listed:
    """Four people linked at two clubs, a list published last month, and a game since."""
    w, people, founded = a_federation()
    last_month = (month_of() - datetime.timedelta(days=1)).replace(day=1)
    early = [
        game_on(w, 0, ["Ann", "Bob", "Cid"], "Ann", founded + datetime.timedelta(days=3)),
        game_on(w, 1, ["Ann", "Dan", "Bob"], "Dan", founded + datetime.timedelta(days=4)),
    ]
    link_all(w, people)
    refresh(w.federation)
    first = publish(w.federation, FAMILY, last_month)
    assert first is not None
    game_on(w, 0, ["Cid", "Bob", "Ann"], "Cid", month_of())
    refresh(w.federation)
    return Listed(w, people, last_month, first, early)


def reader(w: World) -> Client:
    client = Client()
    client.force_login(w.organisers[0])
    return client


def body_rows(page: str) -> list[str]:
    return re.findall(r"<tr[^>]*><td class=\"rank\">.*?</tr>", page, flags=re.S)


def test_the_live_list_shows_ranks_marks_trend_and_each_persons_name_id_and_link() -> None:
    s = listed()
    slug = s.w.federation.slug
    response = Client().get(f"/f/{slug}/ratings/")
    assert response.status_code == 200
    page = response.content.decode()
    expected = live_list(federation=s.w.federation)
    rows = body_rows(page)
    assert len(rows) == len(expected.rows) == 4
    for html_row, row in zip(rows, expected.rows, strict=True):
        assert f'<td class="rank">{row.rank}</td>' in html_row
        assert row.name in html_row and row.label in html_row
        assert f'href="/f/{slug}/register/{row.number}/"' in html_row
        assert f'{row.rating} <span class="uncertainty">±{row.uncertainty}</span>' in html_row
        assert "provisional" in html_row  # fewer than five games each
        if row.trend is None:
            assert ">new<" in html_row
        elif row.trend > 0:
            assert f"▲{row.trend}" in html_row
        elif row.trend < 0:
            assert f"▼{-row.trend}" in html_row
    assert any(row.trend for row in expected.rows)  # the game since the list moved someone
    assert "css/print.css" in page and 'media="print"' in page
    assert f"/f/{slug}/ratings/{FAMILY}/csv/" in page
    assert f"/f/{slug}/ratings/{FAMILY}/{s.last_month:%Y-%m}/" in page
    # The family in the address gives the same list; a family not rated is not found.
    assert Client().get(f"/f/{slug}/ratings/{FAMILY}/").status_code == 200
    assert Client().get(f"/f/{slug}/ratings/gin/").status_code == 404
    assert Client().get(f"/f/{slug}/ratings/gin/csv/").status_code == 404
    assert Client().get("/f/nobody/ratings/").status_code == 404


def test_an_inactive_person_is_marked_and_a_federation_with_no_games_says_so() -> None:
    s = listed()
    Federation.objects.filter(pk=s.w.federation.pk).update(inactive_days=1)
    page = Client().get(f"/f/{s.w.federation.slug}/ratings/").content.decode()
    assert "inactive-mark" in page and '<tr class="inactive">' in page
    empty = world(clubs=1, prefix="SK", tag="e")
    page = Client().get(f"/f/{empty.federation.slug}/ratings/").content.decode()
    assert "No rated games yet" in page and "table-scroll" not in page


def test_search_by_name_or_id_keeps_each_ones_rank() -> None:
    s = listed()
    slug = s.w.federation.slug
    whole = {row.number: row for row in live_list(federation=s.w.federation).rows}
    bob = s.people[1]
    for query in ("dvořák", "dvorak", f"CZ-{bob.number:05d}", str(bob.number)):
        page = Client().get(f"/f/{slug}/ratings/{FAMILY}/", {"q": query}).content.decode()
        rows = body_rows(page)
        assert len(rows) == 1, query
        assert "Bob Dvořák" in rows[0] and f'<td class="rank">{whole[bob.number].rank}</td>' in rows[0]
        assert 'value="' + query + '"' in page
    page = Client().get(f"/f/{slug}/ratings/{FAMILY}/", {"q": "nobody at all"}).content.decode()
    assert not body_rows(page) and "Nobody on the list matches." in page


def test_pages_of_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    s = listed()
    monkeypatch.setattr(selectors, "PAGE", 3)
    slug = s.w.federation.slug
    first = Client().get(f"/f/{slug}/ratings/").content.decode()
    second = Client().get(f"/f/{slug}/ratings/", {"page": "2"}).content.decode()
    assert len(body_rows(first)) == 3 and len(body_rows(second)) == 1
    assert "Page 1 of 2" in first and 'href="?page=2" rel="next"' in first
    assert "Page 2 of 2" in second and 'rel="prev"' in second
    whole = live_list(federation=s.w.federation, size=10)
    assert f'<td class="rank">{whole.rows[3].rank}</td>' in body_rows(second)[0]
    # Past the last page: the last; not a number: the first.
    assert body_rows(Client().get(f"/f/{slug}/ratings/", {"page": "99"}).content.decode()) == body_rows(
        second
    )
    assert body_rows(Client().get(f"/f/{slug}/ratings/", {"page": "x"}).content.decode()) == body_rows(first)


def test_a_members_only_federations_lists_are_not_found_by_outsiders() -> None:
    s = listed()
    Federation.objects.filter(pk=s.w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    slug, month = s.w.federation.slug, f"{s.last_month:%Y-%m}"
    paths = [
        f"/f/{slug}/ratings/",
        f"/f/{slug}/ratings/{FAMILY}/csv/",
        f"/f/{slug}/ratings/{FAMILY}/{month}/",
        f"/f/{slug}/ratings/{FAMILY}/{month}/csv/",
    ]
    outsider = Client()
    outsider.force_login(UserFactory.create())
    for path in paths:
        assert Client().get(path).status_code == 404, path
        assert outsider.get(path).status_code == 404, path
        assert reader(s.w).get(path).status_code == 200, path


def test_a_published_month_shows_what_was_published_even_after_a_correction() -> None:
    s = listed()
    slug = s.w.federation.slug
    path = f"/f/{slug}/ratings/{FAMILY}/{s.last_month:%Y-%m}/"
    before = Client().get(path).content.decode()
    rows = body_rows(before)
    lines = list(s.first.lines.order_by("rank", "name"))
    assert len(rows) == len(lines) == 4
    for html_row, line in zip(rows, lines, strict=True):
        assert f'<td class="rank">{line.rank}</td>' in html_row and line.name in html_row
        assert f"{line.rating} <span" in html_row and f"CZ-{line.number:05d}" in html_row
    # A correction of a counted game, and the register entry renamed: the month stays as it was.
    correct(s.early[0], s.w.organisers[0], "Cid")
    refresh(s.w.federation)
    Person.objects.filter(pk=s.people[0].pk).update(name="Ann Renamed")
    after = Client().get(path).content.decode()
    assert body_rows(after) == rows
    assert "Ann Renamed" not in after
    # The month switcher, once there are two lists; this month's compares with the first.
    second = publish(s.w.federation, FAMILY, month_of())
    assert second is not None
    page = Client().get(f"/f/{slug}/ratings/{FAMILY}/{month_of():%Y-%m}/").content.decode()
    assert f'href="{path}"' in page and 'aria-current="page"' in page
    assert body_rows(Client().get(path).content.decode()) == rows
    for line in second.lines.all():
        if line.previous_rating is not None and line.previous_rating != line.rating:
            change = line.rating - line.previous_rating
            assert (f"▲{change}" if change > 0 else f"▼{-change}") in page
    # A month without a list, and no month at all: not found.
    assert Client().get(f"/f/{slug}/ratings/{FAMILY}/2001-01/").status_code == 404
    assert Client().get(f"/f/{slug}/ratings/{FAMILY}/2026-13/").status_code == 404
    assert Client().get(f"/f/{slug}/ratings/gin/{s.last_month:%Y-%m}/").status_code == 404


def read_csv(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text.removeprefix(BOM))))


def test_the_csv_files_name_the_federation_family_and_list_and_neutralise_formulas() -> None:
    s = listed()
    federation, slug = s.w.federation, s.w.federation.slug
    # A name a spreadsheet would run as a formula.
    Person.objects.filter(pk=s.people[3].pk).update(name="=HYPERLINK(1)")
    live = Client().get(f"/f/{slug}/ratings/{FAMILY}/csv/")
    assert live.status_code == 200 and live["Content-Type"] == "text/csv; charset=utf-8"
    assert live["Content-Disposition"] == f'attachment; filename="{slug}-{FAMILY}-live.csv"'
    table = read_csv(live.content)
    assert table[0][:6] == ["Federation", "Game", "List", "Rank", "Federation id", "Player"]
    expected = live_list(federation=federation)
    assert len(table) == 1 + len(expected.rows)
    for cells, row in zip(table[1:], expected.rows, strict=True):
        assert cells[:3] == [federation.name, FAMILY, "live"]
        assert cells[3:8] == [
            str(row.rank),
            row.label,
            row.name.replace("=", "'=", 1),
            row.home_club,
            str(row.rating),
        ]
    assert "'=HYPERLINK(1)" in [cells[5] for cells in table]
    month = f"{s.last_month:%Y-%m}"
    frozen = Client().get(f"/f/{slug}/ratings/{FAMILY}/{month}/csv/")
    assert frozen["Content-Disposition"] == f'attachment; filename="{slug}-{FAMILY}-{month}.csv"'
    table = read_csv(frozen.content)
    assert table[0][11:13] == ["Rating change", "Previous rank"]
    lines = list(s.first.lines.order_by("rank", "name"))
    assert [cells[:7] for cells in table[1:]] == [
        [federation.name, FAMILY, month, str(line.rank), f"CZ-{line.number:05d}", line.name, line.home_club]
        for line in lines
    ]
    # In the reader's language: the header row, and the live list's name.
    czech = Client().get(f"/cs/f/{slug}/ratings/{FAMILY}/csv/")
    assert read_csv(czech.content)[0][0] != "Federation"


def test_a_tournaments_rating_report() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    cup = a_rated_cup(w)
    for n, name in enumerate(("Anna", "Bára"), start=1):
        person_add(federation=w.federation, name=f"{name} Nováková")
        link_make(
            federation=w.federation,
            club=club,
            player=Player.objects.get(club=club, name=name),
            person_id=str(n),
        )
    refresh(w.federation)
    path = f"/t/{cup.public_id}/federation/{w.federation.slug}/report/"
    response = reader(w).get(path)
    assert response.status_code == 200
    page = response.content.decode()
    rows = re.findall(r"<tr>\s*<th scope=\"row\".*?</tr>", page, flags=re.S)
    expected = tournament_report(federation=w.federation, tournament=cup)
    assert len(rows) == len(expected) == 2
    for html_row, row in zip(rows, expected, strict=True):
        assert row.name in html_row and row.label in html_row
        cells = re.findall(r"<td[^>]*>(.*?)</td>", html_row, flags=re.S)
        assert cells[1:4] == [str(row.before), str(row.after), str(row.games)]
        change = "–" if not row.change else (f"▲{row.change}" if row.change > 0 else f"▼{-row.change}")
        assert change in cells[0]
        assert f'href="/f/{w.federation.slug}/register/{row.number}/"' in html_row
    # A members-only federation: not found for who cannot see it, even if he sees the tournament.
    Federation.objects.filter(pk=w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    assert Client().get(path).status_code == 404
    assert reader(w).get(path).status_code == 200
    assert reader(w).get(f"/t/nothing/federation/{w.federation.slug}/report/").status_code == 404


def big(size: int) -> tuple[Federation, PublishedList]:
    """A federation of ``size`` register entries with live lines and a published list of them."""
    w = world(clubs=1, tag=str(size))
    people = register(w.federation, [900 + (i * 7919) % 400 for i in range(size)])
    published = PublishedList.objects.create(
        federation=w.federation, family=FAMILY, month=month_of(), cutoff=timezone.now()
    )
    PublishedLine.objects.bulk_create(
        [
            PublishedLine(
                published=published, person=p, number=p.number, name=p.name, rank=i + 1, rating=1300 - i,
                uncertainty=40, mu=25, sigma=1, games=10, last_played=timezone.now(), provisional=False,
                inactive=False,
            )
            for i, p in enumerate(people)
        ],
        batch_size=1000,
    )  # fmt: skip
    return w.federation, published


def _queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


@pytest.mark.parametrize("size", [20, 2_000])
def test_each_page_reads_a_fixed_number_of_queries(size: int) -> None:
    federation, published = big(size)
    slug, month = federation.slug, f"{published.month:%Y-%m}"
    client = Client()
    # The federation, the list (8 queries, as the selector's test pins them), its months.
    assert _queries(client, f"/f/{slug}/ratings/{FAMILY}/?page=2") == 11
    assert _queries(client, f"/f/{slug}/ratings/{FAMILY}/?q=Hráč") == 11
    assert _queries(client, f"/f/{slug}/ratings/{FAMILY}/csv/") == 11
    # The federation, the list, its lines, their count and the months.
    assert _queries(client, f"/f/{slug}/ratings/{FAMILY}/{month}/?page=2") == 5
    assert _queries(client, f"/f/{slug}/ratings/{FAMILY}/{month}/csv/") == 5


def reported(players: int) -> tuple[World, Tournament]:
    """A tournament of ``players`` at a member club, one round played, every player linked."""
    w = world(clubs=1, tag=str(players))
    club, organiser = w.clubs[0], w.organisers[0]
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    cup = tournament(club, organiser, players=players)
    play_round(cup, 1, organiser)
    for n, player in enumerate(Player.objects.filter(club=club).order_by("pk"), start=1):
        person_add(federation=w.federation, name=player.name)
        link_make(federation=w.federation, club=club, player=player, person_id=str(n))
    refresh(w.federation)
    return w, cup


def test_the_report_reads_a_fixed_number_of_queries() -> None:
    counts = []
    for players in (8, 16):
        w, cup = reported(players)
        assert len(tournament_report(federation=w.federation, tournament=cup)) == players
        counts.append(_queries(reader(w), f"/t/{cup.public_id}/federation/{w.federation.slug}/report/"))
    assert counts == [9, 9]  # the session, the tournament and its role, the federation, the report


def test_the_tournament_page_links_its_rating_report_in_each_federation_that_rated_it() -> None:
    w = world(clubs=1)
    cup = a_rated_cup(w)
    organiser = w.organisers[0]
    page = f"/t/{cup.public_id}/"
    report = f"/t/{cup.public_id}/federation/{w.federation.slug}/report/"
    assert report not in Client().get(page).text  # not rated by anyone yet
    refresh(w.federation)
    assert report in Client().get(page).text
    # A members-only federation's link is for those who may see it.
    w.federation.visibility = "members"
    w.federation.save()
    assert report not in Client().get(page).text
    own = Client()
    own.force_login(organiser)
    assert report in own.get(page).text
    # A tournament of a club in no federation shows nothing of it.
    other = tournament(ClubFactory.create(organiser=organiser, public=True), organiser, players=8)
    assert "federation-reports-title" not in Client().get(f"/t/{other.public_id}/").text
