"""A federation's export and import: its records out as one document and back into a new
federation on a site where its clubs exist, the same document again (apart from its address),
its published lists as they were, its live list re-rated; a document that is wrong anywhere
refused with the place and nothing written; the command, the API and the pages."""

from __future__ import annotations

import copy
import datetime
import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from federations import seasons
from federations.exchange.exporting import export_federation
from federations.exchange.importing import import_federation
from federations.exchange.validation import ImportInvalid
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationDirty,
    FederationOpen,
    FederationOrganiser,
    FederationRating,
    FederationRatingEvent,
    FederationSeason,
    FederationSeasonStanding,
    Person,
    PersonLink,
    PublishedLine,
    PublishedList,
    RatedTournament,
)
from federations.publication import month_of, publish
from federations.ratings import differences, refresh
from federations.services.events import tournament_rate
from federations.services.links import claim
from federations.services.memberships import club_invite
from federations.services.opens import open_end, open_host
from federations.services.register import person_add, person_merge
from tests.factories import ClubFactory, UserFactory
from tests.federations.seasons_support import grand_prix
from tests.federations.support import a_federation, game_on, link_all, own_player
from tests.tournaments.support import play_round, tournament

pytestmark = pytest.mark.django_db
FAMILY = "rummikub"
MODELS = (
    Federation,
    FederationOrganiser,
    FederationChange,
    Person,
    FederationClub,
    PersonLink,
    RatedTournament,
    PublishedList,
    PublishedLine,
    FederationRatingEvent,
    FederationRating,
    FederationDirty,
    FederationOpen,
    FederationSeason,
    FederationSeasonStanding,
)


def a_full_federation(*, opens: bool = False) -> Federation:
    """A federation with games at both clubs, people linked (one merged away, one with a home
    club), a rated tournament played, two published lists, two seasons (one of its own points)
    and (``opens``) two opens of one name on one day."""
    w, people, founded = a_federation()
    last_month = (month_of() - datetime.timedelta(days=1)).replace(day=1)
    game_on(w, 0, ["Ann", "Bob", "Cid"], "Ann", founded + datetime.timedelta(days=3))
    game_on(w, 1, ["Ann", "Dan", "Bob"], "Dan", founded + datetime.timedelta(days=4))
    game_on(w, 0, ["Cid", "Dan", "Bob"], "Cid", last_month + datetime.timedelta(days=2))
    link_all(w, people)
    twin = person_add(federation=w.federation, name="Ann Novákova", home_club=w.clubs[1])
    person_merge(source=twin, into=people[0], versions=(twin.version, people[0].version))
    cup = tournament(w.clubs[0], w.organisers[0], players=["Ann", "Bob", "Cid", "Dan"], rounds=1)
    tournament_rate(federation=w.federation, tournament=cup, rated=True, user=w.organisers[0])
    play_round(cup, 1, w.organisers[0])
    grand_prix(w)
    grand_prix(
        w,
        name="Podzimní cena",
        starts=cup.date,
        ends=cup.date + datetime.timedelta(days=90),
        families=["rummikub", "zoliky"],
        tournament_points="custom",
        custom_points="10 7.5 5 5/2",
        best_events=3,
        drop_worst=1,
        qualify=2,
        tiebreaks=["wins", "average_place"],
    )
    if opens:
        close = timezone.now() + datetime.timedelta(days=5)
        for self_entry, entries_close in ((True, None), (False, close)):
            open_cup = tournament(w.clubs[0], w.organisers[0], players=4, name="Open", date=cup.date)
            open_host(
                federation=w.federation,
                tournament=open_cup,
                self_entry=self_entry,
                entries_close=entries_close,
                user=w.organisers[0],
            )
    # A claim waiting for its club, and a club invited that has not answered.
    eve = person_add(federation=w.federation, name="Eve")
    claimant = UserFactory.create(username="eve")
    own_player(w.clubs[1], claimant, "Eve")
    assert claim(federation=w.federation, person_id=str(eve.number), name="Eve", user=claimant)
    newcomer = ClubFactory.create(name="Klub nový", organiser=UserFactory.create())
    club_invite(federation=w.federation, club=newcomer, user=w.director)
    refresh(w.federation)
    assert publish(w.federation, FAMILY, last_month) is not None
    assert publish(w.federation, FAMILY, month_of()) is not None
    w.federation.refresh_from_db()
    return w.federation


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def same_apart_from_address(a: dict[str, Any], b: dict[str, Any]) -> None:
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    for doc in (a, b):
        doc.pop("exported_at")
        doc["federation"].pop("slug")
    assert a == b


def test_the_round_trip_gives_the_same_document_and_the_same_lists() -> None:
    federation = a_full_federation(opens=True)
    document = export_federation(federation)
    assert len(document["register"]) == 6 and document["register"][4]["merged_into"] == 1
    assert document["register"][4]["home_club"] == "klub-1"
    assert {link["state"] for link in document["links"]} == {"linked", "claimed"}
    assert {period["state"] for period in document["clubs"]} == {"member", "invited"}
    # The opens are rated while they are opens.
    assert len(document["links"]) >= 4 and len(document["rated_tournaments"]) == 3
    assert [p["month"] for p in document["published"]] == sorted(p["month"] for p in document["published"])
    assert [s["name"] for s in document["seasons"]] == ["Grand Prix", "Podzimní cena"]
    assert document["seasons"][1]["custom_points"] == ["10", "15/2", "5", "5/2"]
    assert [(o["name"], o["self_entry"]) for o in document["opens"]] == [("Open", True), ("Open", False)]
    assert document["opens"][1]["entries_close"] is not None
    hosted = list(FederationOpen.objects.filter(federation=federation).order_by("tournament_id"))
    # A tournament is an open of one federation: the first one is gone, as on another site.
    FederationOpen.objects.filter(federation=federation).delete()
    organiser = UserFactory.create(username="newcomer")
    # Through JSON, as a file travels.
    done = import_federation(json.loads(json.dumps(document)), user=organiser)
    copy_ = done.federation
    assert copy_.slug != federation.slug and copy_.slug.startswith(federation.slug)
    assert copy_.organisers.get().user == organiser
    assert done.people == 6 and done.published == 2 and done.seasons == 2 and done.opens == 2
    again = export_federation(copy_)
    same_apart_from_address(document, again)
    # The published lists byte for byte, the frozen copy as it was.
    text = lambda doc: json.dumps(doc["published"], ensure_ascii=False, sort_keys=True)  # noqa: E731
    assert text(document) == text(again)
    # The live list re-derived: as a fresh derivation, and as the first federation's.
    assert differences(copy_) == []
    live = lambda f: sorted(  # noqa: E731
        FederationRating.objects.filter(federation=f).values_list(
            "person__number", "family", "mu", "sigma", "games"
        )
    )
    assert live(copy_) == live(federation) != []
    # The opens on the same tournaments (two of one name on one day told apart), as they were.
    assert [
        (o.tournament_id, o.self_entry, o.entries_close)
        for o in FederationOpen.objects.filter(federation=copy_).order_by("tournament_id")
    ] == [(o.tournament_id, o.self_entry, o.entries_close) for o in hosted]
    # The seasons' standings derived in the import, as a fresh derivation, the cup in them.
    assert seasons.differences(copy_) == []
    assert FederationSeasonStanding.objects.filter(season__federation=copy_).count() > 0
    assert not FederationSeason.objects.filter(federation=copy_, computed_at__isnull=True).exists()
    # Its history: one change, "imported", by the importing user.
    change = FederationChange.objects.get(federation=copy_)
    assert change.action == "imported" and change.user == organiser
    # No account comes with it: the entries' and the claims' accounts stay the first one's.
    assert not Person.objects.filter(federation=copy_, user__isnull=False).exists()
    assert not PersonLink.objects.filter(federation=copy_, created_by__isnull=False).exists()


def test_a_published_list_keeps_its_previous_and_its_lines_find_the_register() -> None:
    federation = a_full_federation()
    done = import_federation(export_federation(federation), user=None)
    lists = list(PublishedList.objects.filter(federation=done.federation).order_by("month"))
    assert lists[1].previous == lists[0]
    line = PublishedLine.objects.filter(published=lists[0]).first()
    assert line is not None and line.person is not None and line.person.federation == done.federation
    assert (
        lists[0].published_at
        == PublishedList.objects.get(federation=federation, month=lists[0].month).published_at
    )


def refused(doc: Any, code: str, path: str = "") -> ImportInvalid:
    before = counts()
    with pytest.raises(ImportInvalid) as caught:
        import_federation(doc, user=UserFactory.create())
    assert counts() == before, "nothing written"
    found = [(p.code, p.path) for p in caught.value.problems]
    assert any(c == code and p.startswith(path) for c, p in found), found
    return caught.value


def test_a_schema_violation_is_refused_with_nothing_written() -> None:
    document = export_federation(a_full_federation())
    document["register"][0]["number"] = "one"
    refused(document, "schema", "register[0].number")
    refused({**document, "format": "rummy-club-export"}, "wrong_format")
    refused({**document, "version": 2}, "wrong_version")


def test_an_unknown_club_is_refused_with_its_address() -> None:
    document = export_federation(a_full_federation())
    document["links"][0]["club"] = "nowhere"
    invalid = refused(document, "unknown_club", "links[0].club")
    assert "nowhere" in str(invalid) and "import" in str(invalid)
    document = export_federation(Federation.objects.order_by("pk").first())  # type: ignore[arg-type]
    document["clubs"][0]["club"] = "nowhere"
    refused(document, "unknown_club", "clubs[0].club")


def test_a_number_twice_and_an_unknown_merge_are_refused() -> None:
    document = export_federation(a_full_federation())
    twice = copy.deepcopy(document)
    twice["register"][1]["number"] = twice["register"][0]["number"]
    refused(twice, "duplicate_number", "register[1].number")
    unknown = copy.deepcopy(document)
    unknown["register"][4]["merged_into"] = 77
    refused(unknown, "unknown_person", "register[4].merged_into")
    low = copy.deepcopy(document)
    low["federation"]["next_number"] = 2
    refused(low, "next_number_low", "federation.next_number")


def test_a_link_to_a_player_the_club_lacks_is_refused() -> None:
    document = export_federation(a_full_federation())
    document["links"][0]["player"] = "Nobody"
    invalid = refused(document, "unknown_player", "links[0].player")
    assert "Nobody" in str(invalid)


def test_a_published_line_naming_an_unknown_number_is_imported_as_it_is() -> None:
    document = export_federation(a_full_federation())
    document["published"][0]["lines"][0]["number"] = 4242
    done = import_federation(document, user=None)
    line = PublishedLine.objects.get(published__federation=done.federation, number=4242)
    assert line.person is None


def test_an_unknown_tournament_is_refused() -> None:
    document = export_federation(a_full_federation())
    document["rated_tournaments"][0]["name"] = "Another cup"
    refused(document, "unknown_tournament", "rated_tournaments[0]")


def test_a_bad_season_and_an_unknown_open_tournament_are_refused_at_their_places() -> None:
    document = export_federation(a_full_federation(opens=True))
    FederationOpen.objects.all().delete()
    bad = copy.deepcopy(document)
    bad["seasons"][1]["ends"] = "2020-01-01"
    bad["seasons"][0]["families"] = []
    bad["opens"][1]["name"] = "Another open"
    invalid = refused(bad, "season_dates", "seasons[1].ends")
    assert ("season_families", "seasons[0].families") in [(p.code, p.path) for p in invalid.problems]
    assert ("unknown_tournament", "opens[1]") in [(p.code, p.path) for p in invalid.problems]
    assert "Another open" in str(invalid)
    points = copy.deepcopy(document)
    points["seasons"][1]["custom_points"] = ["10", "many"]
    refused(points, "league_places_number", "seasons[1].custom_points")
    tiebreak = copy.deepcopy(document)
    tiebreak["seasons"][0]["tiebreaks"] = ["games"]
    refused(tiebreak, "grand_prix_tiebreak_games", "seasons[0].tiebreaks")
    refused({**document, "seasons": [{"name": "GP"}]}, "schema", "seasons[0]")


def test_an_open_another_federation_holds_here_is_refused() -> None:
    federation = a_full_federation(opens=True)
    invalid = refused(export_federation(federation), "open_taken", "opens[0]")
    assert federation.name in str(invalid)


def test_a_document_written_before_seasons_and_opens_imports_with_none() -> None:
    document = export_federation(a_full_federation(opens=True))
    FederationOpen.objects.all().delete()
    del document["seasons"], document["opens"]
    done = import_federation(document, user=None)
    assert (done.seasons, done.opens) == (0, 0)
    assert not FederationSeason.objects.filter(federation=done.federation).exists()
    again = export_federation(done.federation)
    assert again["seasons"] == [] and again["opens"] == []


def test_ending_an_imported_open_leaves_its_rated_mark() -> None:
    document = export_federation(a_full_federation(opens=True))
    FederationOpen.objects.all().delete()
    made = import_federation(document, user=None).federation
    imported = FederationOpen.objects.filter(federation=made).select_related("tournament__club").first()
    assert imported is not None
    host = imported.tournament.club.memberships.get(role="organiser").user
    open_end(open_=imported, user=host)
    # The history has no "open hosted" change saying the hosting made the mark.
    assert RatedTournament.objects.filter(federation=made, tournament=imported.tournament).exists()
    assert not FederationOpen.objects.filter(pk=imported.pk).exists()


def test_the_commands_export_and_import(tmp_path: Any) -> None:
    federation = a_full_federation()
    out = io.StringIO()
    call_command("export_federation", federation.slug, stdout=out)
    document = json.loads(out.getvalue())
    assert document["format"] == "rummy-federation-export"
    UserFactory.create(username="boss")
    path = str(tmp_path / "federation.json")
    call_command("export_federation", federation.slug, "--output", path)
    said = io.StringIO()
    call_command("import_federation", path, "--organiser", "boss", stdout=said)
    made = Federation.objects.exclude(pk=federation.pk).get()
    assert made.slug in said.getvalue() and made.organisers.get().user.username == "boss"
    with pytest.raises(CommandError):
        call_command("export_federation", "nowhere")
    broken = copy.deepcopy(document)
    broken["links"][0]["club"] = "nowhere"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(broken, f)
    before = counts()
    errors = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_federation", path, stderr=errors)
    assert "links[0].club" in errors.getvalue() and "[unknown_club]" in errors.getvalue()
    assert counts() == before


def test_the_api_exports_for_organisers_only_and_imports_for_a_logged_in_user() -> None:
    federation = a_full_federation()
    url = f"/api/v1/federations/{federation.slug}/export/"
    api = APIClient()
    assert api.get(url).status_code in (401, 403)
    outsider = UserFactory.create()
    api.force_authenticate(outsider)
    assert api.get(url).status_code == 403
    director = federation.organisers.get().user
    api.force_authenticate(director)
    answer = api.get(url)
    assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
    document = answer.json()
    assert document["federation"]["name"] == federation.name
    # The import: JSON body, then nothing written on a bad document.
    api.force_authenticate(outsider)
    made = api.post("/api/v1/federations/import/", document, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] != federation.slug and made.json()["people"] == 6
    assert (made.json()["seasons"], made.json()["opens"]) == (2, 0)
    new = Federation.objects.get(slug=made.json()["slug"])
    assert new.organisers.get().user == outsider
    before = counts()
    document["links"][0]["player"] = "Nobody"
    bad = api.post("/api/v1/federations/import/", document, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "import_invalid"
    assert any(r["code"] == "unknown_player" for r in bad.json()["report"])
    assert counts() == before
    # As a file (multipart), as the club import takes it.
    document["links"][0]["player"] = "Ann"
    upload = io.BytesIO(json.dumps(export_federation(federation)).encode())
    upload.name = "federation.json"
    filed = api.post("/api/v1/federations/import/", {"file": upload}, format="multipart")
    assert filed.status_code == 201, filed.json()
    # Nobody logged in: refused.
    assert APIClient().post("/api/v1/federations/import/", document, format="json").status_code in (401, 403)


def test_the_pages_export_for_organisers_and_import_for_a_logged_in_user() -> None:
    federation = a_full_federation()
    director = federation.organisers.get().user
    browser = Client()
    browser.force_login(director)
    settings_page = browser.get(reverse("federations:settings", args=[federation.slug])).content.decode()
    export_url = reverse("federations:export", args=[federation.slug])
    assert export_url in settings_page
    download = browser.get(export_url)
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    document = json.loads(download.content)
    outsider = Client()
    outsider.force_login(UserFactory.create())
    assert outsider.get(export_url).status_code in (403, 404)
    page = outsider.get(reverse("federations:import")).content.decode()
    assert 'type="file"' in page
    # A bad file: the problems shown, nothing written.
    before = counts()
    broken = copy.deepcopy(document)
    broken["links"][0]["club"] = "nowhere"
    upload = io.BytesIO(json.dumps(broken).encode())
    upload.name = "f.json"
    shown = outsider.post(reverse("federations:import"), {"document": upload})
    assert shown.status_code == 200 and "links[0].club" in shown.content.decode()
    assert "nowhere" in shown.content.decode()
    assert counts() == before
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "f.json"
    done = outsider.post(reverse("federations:import"), {"document": upload})
    assert done.status_code == 302
    made = Federation.objects.exclude(pk=federation.pk).get()
    assert done["Location"] == reverse("federations:detail", args=[made.slug])
    assert Client().get(reverse("federations:import")).status_code == 302  # to the login


def test_the_export_reads_as_many_queries_whatever_the_federation_holds(
    django_assert_num_queries: Any,
) -> None:
    small, _people, _founded = a_federation()
    with django_assert_num_queries(8):
        export_federation(small.federation)
    full = a_full_federation(opens=True)
    with django_assert_num_queries(8):
        export_federation(full)


def test_the_api_refuses_a_document_the_schema_refuses_and_import_is_no_federation_address() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory.create())
    document = export_federation(a_full_federation())
    document["federation"]["visibility"] = "everyone"
    before = counts()
    answer = api.post("/api/v1/federations/import/", document, format="json")
    assert answer.status_code == 400 and answer.json()["report"][0]["code"] == "schema"
    assert "federation.visibility" in answer.json()["fields"]
    assert counts() == before
    document["federation"]["visibility"] = "public"
    document["federation"]["slug"] = "import"
    made = api.post("/api/v1/federations/import/", document, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] != "import"
