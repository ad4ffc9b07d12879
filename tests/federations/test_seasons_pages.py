"""The federation seasons' pages and API: the list, a season's standings (families, the
qualification line, "Updating…"), a person's league card, the organisers' settings; a fixed
number of queries whatever the size of the register; the API's writes with If-Match and
Idempotency-Key; ``rebuild_derived`` rebuilds and checks the seasons."""

from __future__ import annotations

import datetime
import uuid
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from federations import derived
from federations.models import (
    FederationChange,
    FederationClub,
    FederationSeason,
    FederationSeasonDirty,
    FederationSeasonStanding,
    Person,
)
from federations.selectors.seasons import season_view
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from tests.federations.seasons_support import cup, grand_prix, reference, seeded_season, stored
from tests.federations.support import World, world
from tests.tournaments.support import NAMES

pytestmark = pytest.mark.django_db


def played_world() -> tuple[World, FederationSeason, list[Person]]:
    """Two clubs' rated cups, four people linked at both, a season whose top 2 qualify."""
    w = world()
    FederationClub.objects.update(counts_from=timezone.localdate() - datetime.timedelta(days=60))
    people = [person_add(federation=w.federation, name=n) for n in NAMES[:4]]
    today = timezone.localdate()
    for club in (0, 1):
        cup(w, club, NAMES[:5], today - datetime.timedelta(days=club + 1))
        for person in people:
            player = Player.objects.get(club=w.clubs[club], name=person.name)
            link_make(
                federation=w.federation, club=w.clubs[club], player=player, person_id=str(person.number)
            )
    season = grand_prix(w, qualify=2)
    derived.apply(w.federation.pk)
    return w, season, people


def test_the_pages_show_the_standings_the_line_and_the_card() -> None:
    w, season, _people = played_world()
    slug = w.federation.slug
    browser = Client()
    listed = browser.get(reverse("federations:seasons", kwargs={"slug": slug}))
    assert season.name in listed.text
    assert season.name in browser.get(reverse("federations:detail", kwargs={"slug": slug})).text
    page = browser.get(reverse("federations:season", kwargs={"slug": slug, "public_id": season.public_id}))
    assert page.status_code == 200
    # The line is drawn when someone ranked is below the top 2 (a tie at the line qualifies all).
    below = FederationSeasonStanding.objects.filter(season=season, family="", ranked=True, rank__gt=2)
    assert ("Above the line: the top 2 qualify" in page.text) == below.exists()
    first = FederationSeasonStanding.objects.filter(season=season, family="", rank=1).order_by("pk").first()
    assert first is not None
    card_url = reverse(
        "federations:season_card",
        kwargs={"slug": slug, "public_id": season.public_id, "number": first.person.number},
    )
    assert card_url in page.text
    card = browser.get(card_url)
    assert card.status_code == 200
    assert first.person.name in card.text and "Cup" in card.text and w.clubs[0].name in card.text
    assert "Total of 2 counted tournaments" in card.text
    # The person's register page names his place in the season, linking his card.
    person_page = browser.get(
        reverse("federations:person", kwargs={"slug": slug, "number": first.person.number})
    )
    assert season.name in person_page.text and card_url in person_page.text
    # A change not yet derived: "Updating…".
    FederationSeasonDirty.objects.create(season=season, federation=w.federation)
    again = browser.get(reverse("federations:season", kwargs={"slug": slug, "public_id": season.public_id}))
    assert "Updating…" in again.text
    assert browser.get(card_url.replace(f"/{first.person.number}/", "/99999/")).status_code == 404


def test_the_organisers_create_edit_and_delete_a_season_on_its_pages() -> None:
    w = world()
    slug = w.federation.slug
    director = Client()
    director.force_login(w.director)
    new = reverse("federations:season_new", kwargs={"slug": slug})
    assert director.get(new).status_code == 200
    form = {
        "name": "Velká cena", "starts": "2026-01-01", "ends": "2026-12-31",
        "families": ["rummikub", "zoliky"],
        "tournament_points": "custom", "custom_points": "10 8 6", "best_events": "4", "drop_worst": "0",
        "min_events": "2", "qualify": "8", "tiebreak_1": "wins", "tiebreak_2": "average_place",
        "tiebreak_3": "head_to_head", "version": "0", "request_id": str(uuid.uuid4()),
    }  # fmt: skip
    done = director.post(new, form, follow=True)
    season = FederationSeason.objects.get(name="Velká cena")
    assert done.status_code == 200 and season.custom_points == ["10", "8", "6"]
    assert season.tiebreaks == ["points", "wins", "average_place", "head_to_head"]
    assert FederationSeasonDirty.objects.filter(season=season).exists()  # for the worker
    director.post(new, form)  # a resend
    assert FederationSeason.objects.filter(name="Velká cena").count() == 1
    settings = reverse("federations:season_settings", kwargs={"slug": slug, "public_id": season.public_id})
    wrong = director.post(
        settings, {**form, "custom_points": "6 8", "version": "1", "request_id": str(uuid.uuid4())}
    )
    assert wrong.status_code == 200 and "error" in wrong.text
    stale = director.post(settings, {**form, "name": "Jiná", "version": "0", "request_id": str(uuid.uuid4())})
    assert "meanwhile" in stale.text
    director.post(settings, {**form, "name": "Jiná", "version": "1", "request_id": str(uuid.uuid4())})
    season.refresh_from_db()
    assert season.name == "Jiná" and season.version == 2
    # Others may not.
    member = Client()
    member.force_login(w.organisers[0])
    assert member.get(settings).status_code == 403
    delete = reverse("federations:season_delete", kwargs={"slug": slug, "public_id": season.public_id})
    assert member.post(delete, {"version": "2"}).status_code == 403
    director.post(delete, {"version": "2", "request_id": str(uuid.uuid4())})
    assert not FederationSeason.objects.exists()
    assert list(
        FederationChange.objects.filter(action__startswith="season")
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["season_created", "season_edited", "season_deleted"]


@pytest.mark.parametrize("people", [5, 300])
def test_the_standings_read_a_fixed_number_of_queries(people: int) -> None:
    w = world(clubs=1)
    season = seeded_season(w.federation, people, families=("rummikub", "zoliky"), qualify=3)
    with CaptureQueriesContext(connection) as selector:
        view = season_view(season=season, family="zoliky")
        assert len(view.lines) == min(people, 100)
    assert len(selector) == 4
    browser = Client()
    url = reverse("federations:season", kwargs={"slug": w.federation.slug, "public_id": season.public_id})
    with CaptureQueriesContext(connection) as page:
        shown = browser.get(url, {"family": "zoliky"})
    assert shown.status_code == 200
    assert "Above the line: the top 3 qualify" in shown.text and 'aria-current="page">Žolíky' in shown.text
    assert len(page) == 6, [q["sql"] for q in page.captured_queries]
    card = reverse(
        "federations:season_card",
        kwargs={"slug": w.federation.slug, "public_id": season.public_id, "number": people},
    )
    with CaptureQueriesContext(connection) as card_queries:
        assert browser.get(card).status_code == 200
    assert len(card_queries) == 7, [q["sql"] for q in card_queries.captured_queries]


def test_the_api_lists_creates_changes_and_deletes_a_season() -> None:
    w, season, _people = played_world()
    base = f"/api/v1/federations/{w.federation.slug}/seasons/"
    reader = APIClient()
    listed = reader.get(base)
    assert [s["public_id"] for s in listed.json()] == [season.public_id]
    one = reader.get(f"{base}{season.public_id}/")
    assert one.status_code == 200 and one.json()["qualify"] == 2
    tag = one["ETag"]
    standings = reader.get(f"{base}{season.public_id}/standings/").json()
    assert standings["pending"] is False
    assert [r["qualifies"] for r in standings["rows"]][:2] == [True, True]
    assert {r["number"]: r["points"] for r in standings["rows"]} == {
        Person.objects.get(pk=person).number: f"{line.points:.3f}"
        for person, line in reference(season).items()
    }
    number = standings["rows"][0]["number"]
    card = reader.get(f"{base}{season.public_id}/people/{number}/card/").json()
    assert card["ranked"] is True and len(card["lines"]) == 2
    assert sum(Fraction(x["points"]) for x in card["lines"]) == Fraction(card["total"])
    assert reader.get(f"{base}{season.public_id}/people/99999/card/").status_code == 404
    # Writes: the organisers only, If-Match, idempotent.
    assert reader.post(base, {"name": "X"}, format="json").status_code in (401, 403)
    director = APIClient()
    director.force_authenticate(w.director)
    key = str(uuid.uuid4())
    body = {"name": "Open series", "starts": "2026-01-01", "ends": "2026-12-31", "families": ["rummikub"]}
    made = [director.post(base, body, format="json", HTTP_IDEMPOTENCY_KEY=key) for _ in range(2)]
    assert made[0].status_code == made[1].status_code == 201
    assert made[0].json()["public_id"] == made[1].json()["public_id"]
    refused = director.post(base, {**body, "tiebreaks": ["points", "games"]}, format="json")
    assert refused.status_code == 400 and "grand_prix_tiebreak_games" in refused.text
    url = f"{base}{season.public_id}/"
    assert director.patch(url, {"best_events": 1}, format="json").status_code == 428
    changed = director.patch(url, {"best_events": 1}, format="json", HTTP_IF_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["best_events"] == 1
    stale = director.patch(url, {"best_events": 2}, format="json", HTTP_IF_MATCH=tag)
    assert stale.status_code == 412 and stale.json()["current"]["best_events"] == 1
    derived.apply(w.federation.pk)
    season.refresh_from_db()
    assert stored(season) == reference(season)
    assert director.delete(url, HTTP_IF_MATCH=tag).status_code == 412
    assert director.delete(url, HTTP_IF_MATCH=changed["ETag"]).status_code == 204
    assert reader.get(url).status_code == 404


def test_rebuild_derived_rebuilds_and_checks_the_seasons() -> None:
    w, season, _people = played_world()
    FederationSeasonStanding.objects.filter(season=season).update(points=0, exact_points="0")
    with pytest.raises(Exception, match="differ"):
        call_command(
            "rebuild_derived", "--federation", w.federation.slug, "--check", stdout=open("/dev/null", "w")
        )
    call_command("rebuild_derived", "--federation", w.federation.slug, stdout=open("/dev/null", "w"))
    assert stored(season) == reference(season)
    call_command(
        "rebuild_derived", "--federation", w.federation.slug, "--check", stdout=open("/dev/null", "w")
    )


def test_a_person_merged_away_has_his_card_at_the_survivor() -> None:
    w, season, people = played_world()
    client = Client()
    extra = person_add(federation=w.federation, name="Duplicate")
    from federations.services.register import person_merge

    person_merge(source=extra, into=people[0], versions=(extra.version, people[0].version))
    url = reverse(
        "federations:season_card",
        kwargs={"slug": w.federation.slug, "public_id": season.public_id, "number": extra.number},
    )
    assert client.get(url)["Location"].endswith(f"/people/{people[0].number}/")
