"""The federation's rating lists in the API, the same as the pages: the families, the live list
a page at a time with its search, the published months and a published list as published (304
while unchanged), the CSV files, the freshness a page polls (304 while nothing changed) and a
tournament's report; a members-only federation kept from outsiders; a fixed number of queries
at 20 and at 2,000 register entries."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from federations.models import Federation, FederationDirty, Person
from federations.publication import month_of, publish
from federations.ratings import refresh
from federations.selectors import ratings as selectors
from federations.selectors.ratings import live_list, tournament_report
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from tests.factories import UserFactory
from tests.federations.support import a_rated_cup, world
from tests.federations.test_rating_pages import FAMILY, big, listed, reported
from tests.tournaments.fault_club import correct

pytestmark = pytest.mark.django_db
API = "/api/v1"


def test_the_families_and_the_live_list_as_the_page_shows_them(monkeypatch: pytest.MonkeyPatch) -> None:
    s = listed()
    federation, slug = s.w.federation, s.w.federation.slug
    families = APIClient().get(f"{API}/federations/{slug}/ratings/").json()
    assert families["families"] == [FAMILY] and families["federation"] == slug
    assert families["pending"] is False and "as_of" in families
    answer = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/").json()
    expected = live_list(federation=federation)
    assert (answer["total"], answer["page"], answer["pages"]) == (4, 1, 1)
    assert answer["last_published"] == f"{s.last_month:%Y-%m}"
    keys = ("rank", "id", "name", "rating", "trend", "new", "provisional")
    assert [tuple(r[k] for k in keys) for r in answer["rows"]] == [
        (r.rank, r.label, r.name, r.rating, r.trend, r.new, r.provisional) for r in expected.rows
    ]
    # Pages and a search.
    monkeypatch.setattr(selectors, "PAGE", 3)
    second = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/?page=2").json()
    assert (second["page"], second["pages"], len(second["rows"])) == (2, 2, 1)
    assert second["rows"][0]["rank"] == expected.rows[3].rank
    found = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/", {"q": "Dvořák"}).json()
    assert [r["name"] for r in found["rows"]] == ["Bob Dvořák"] and found["query"] == "Dvořák"
    # Bad input: a clear 400 at the parameter; a family not rated: 404.
    bad = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/?page=0")
    assert bad.status_code == 400 and "page" in str(bad.json())
    assert APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/", {"q": "x" * 41}).status_code == 400
    assert APIClient().get(f"{API}/federations/{slug}/ratings/gin/").status_code == 404
    assert APIClient().get(f"{API}/federations/nobody/ratings/").status_code == 404


def test_a_published_month_as_published_and_unchanged_after_a_correction() -> None:
    s = listed()
    slug, month = s.w.federation.slug, f"{s.last_month:%Y-%m}"
    months = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/published/").json()
    assert months["months"] == [month]
    path = f"{API}/federations/{slug}/ratings/{FAMILY}/published/{month}/"
    first = APIClient().get(path)
    assert first.status_code == 200
    body = first.json()
    assert body["month"] == month and body["previous"] is None and body["total"] == 4
    assert [(r["rank"], r["number"], r["name"], r["rating"], r["change"]) for r in body["lines"]] == [
        (line.rank, line.number, line.name, line.rating, None)
        for line in s.first.lines.order_by("rank", "name")
    ]
    # It never changes: the tag says so (304), and a correction does not move it.
    again = APIClient().get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    correct(s.early[0], s.w.organisers[0], "Cid")
    refresh(s.w.federation)
    assert APIClient().get(path).json() == body
    assert publish(s.w.federation, FAMILY, month_of()) is not None
    newer = APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/published/{month_of():%Y-%m}/").json()
    assert newer["previous"] == month
    assert all(
        r["change"] == (None if r["previous_rating"] is None else r["rating"] - r["previous_rating"])
        for r in newer["lines"]
    )
    assert APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/published/2001-01/").status_code == 404
    assert APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/published/2001-13/").status_code == 404
    assert APIClient().get(f"{API}/federations/{slug}/ratings/gin/published/").status_code == 404


def _csv(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_csv_files_are_the_pages() -> None:
    s = listed()
    Person.objects.filter(pk=s.people[3].pk).update(name="=HYPERLINK(1)")
    slug, month = s.w.federation.slug, f"{s.last_month:%Y-%m}"
    api = _csv(APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/csv/"))
    page = _csv(APIClient().get(f"/f/{slug}/ratings/{FAMILY}/csv/"))
    assert api == page and "'=HYPERLINK(1)" in {row[5] for row in api}
    assert _csv(APIClient().get(f"{API}/federations/{slug}/ratings/{FAMILY}/published/{month}/csv/")) == _csv(
        APIClient().get(f"/f/{slug}/ratings/{FAMILY}/{month}/csv/")
    )


def test_the_freshness_a_page_polls() -> None:
    s = listed()
    federation = s.w.federation
    path = f"{API}/federations/{federation.slug}/freshness/"
    first = APIClient().get(path)
    assert first.status_code == 200 and first.json()["pending"] is False
    assert APIClient().get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # A game recorded: pending until the worker is done; the page says "Updating…" and polls.
    game = s.early[1]
    correct(game, s.w.organisers[1], "Ann")
    assert FederationDirty.objects.filter(federation=federation).exists()
    changed = APIClient().get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["pending"] is True
    page = APIClient().get(f"/f/{federation.slug}/ratings/").content.decode()
    assert 'id="derived-status"' in page and f'data-derived-url="{path}"' in page
    assert "js/derived.js" in page
    refresh(federation)
    assert APIClient().get(path, HTTP_IF_NONE_MATCH=changed["ETag"]).json()["pending"] is False
    assert 'id="derived-status"' not in APIClient().get(f"/f/{federation.slug}/ratings/").content.decode()


def test_a_members_only_federation_is_not_found_by_outsiders() -> None:
    s = listed()
    Federation.objects.filter(pk=s.w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    slug, month = s.w.federation.slug, f"{s.last_month:%Y-%m}"
    outsider, member = APIClient(), APIClient()
    outsider.force_authenticate(UserFactory.create())
    member.force_authenticate(s.w.organisers[1])
    for path in (
        "ratings/",
        f"ratings/{FAMILY}/",
        f"ratings/{FAMILY}/csv/",
        f"ratings/{FAMILY}/published/",
        f"ratings/{FAMILY}/published/{month}/",
        f"ratings/{FAMILY}/published/{month}/csv/",
        "freshness/",
    ):
        url = f"{API}/federations/{slug}/{path}"
        assert APIClient().get(url).status_code == 404, path
        assert outsider.get(url).status_code == 404, path
        assert member.get(url).status_code == 200, path


def test_a_tournaments_report() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    cup = a_rated_cup(w)
    person_add(federation=w.federation, name="Anna Nováková")
    link_make(
        federation=w.federation, club=club, player=Player.objects.get(club=club, name="Anna"), person_id="1"
    )
    refresh(w.federation)
    client = APIClient()
    client.force_authenticate(w.organisers[0])
    answer = client.get(f"{API}/tournaments/{cup.public_id}/federations/{w.federation.slug}/report/").json()
    expected = tournament_report(federation=w.federation, tournament=cup)
    assert answer["tournament"] == cup.public_id and answer["federation"] == w.federation.slug
    assert [(r["id"], r["games"], r["before"], r["after"], r["change"]) for r in answer["rows"]] == [
        (r.label, r.games, r.before, r.after, r.change) for r in expected
    ]
    assert answer["rows"][0]["games"] == 2 and answer["rows"][0]["before"] == 1000
    assert client.get(f"{API}/tournaments/nothing/federations/{w.federation.slug}/report/").status_code == 404
    assert client.get(f"{API}/tournaments/{cup.public_id}/federations/nothing/report/").status_code == 404


def _queries(path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = APIClient().get(path)
    assert response.status_code == 200, path
    return len(queries)


@pytest.mark.parametrize("size", [20, 2_000])
def test_each_resource_reads_a_fixed_number_of_queries(size: int) -> None:
    federation, published = big(size)
    base, month = f"{API}/federations/{federation.slug}", f"{published.month:%Y-%m}"
    # The page's reads and the throttle's count (its row made by the first call).
    assert _queries(f"{base}/ratings/{FAMILY}/?page=2") == 15
    assert _queries(f"{base}/ratings/{FAMILY}/?q=Hráč") == 14
    assert _queries(f"{base}/ratings/{FAMILY}/csv/") == 14
    assert _queries(f"{base}/ratings/{FAMILY}/published/{month}/?page=2") == 8
    assert _queries(f"{base}/freshness/") == 6


def test_the_report_reads_a_fixed_number_of_queries() -> None:
    counts = []
    for players in (8, 16):
        w, cup = reported(players)
        client = APIClient()
        client.force_authenticate(w.organisers[0])
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"{API}/tournaments/{cup.public_id}/federations/{w.federation.slug}/report/")
        assert len(answer.json()["rows"]) == players
        counts.append(len(queries))
    assert counts == [11, 11]  # the tournament and its role, the federation, the report, the throttle
