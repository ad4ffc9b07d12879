"""Export and import of a club's data: the round trip (export, import into a new
club, export again: the same document, and every derived number the same) on the demo data and
on hypothesis-made clubs; an invalid document writes nothing and says what is wrong where; the
commands; and the API's access rules and error shapes."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import include, path
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from engine.errors import EngineError
from games.models import Club, Game, Hand, Membership, Player, Result
from games.services.games import game_end, game_start
from games.services.hands import hand_record
from games.services.players import player_merge
from rummy_site import urls as site_urls
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.pipeline import drain
from tests.tournaments.support import season_settings, tournament
from tournaments.api import exchange as exchange_api
from tournaments.exchange.exporting import export_club, export_csv, export_user
from tournaments.exchange.importing import import_club
from tournaments.exchange.validation import ImportInvalid, validate
from tournaments.models import RatingEvent, Round, Season, SeasonStanding, Tournament
from tournaments.rating_history import rebuild_club
from tournaments.seasons import rebuild_seasons
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_start
from tournaments.services.seasons import SeasonSettings, season_create
from tournaments.tournament_data import compute_standings, tournament_data

# The API module is routed by games/api/urls.py; the tests route it themselves too, so they do
# not depend on that.
urlpatterns = [path("api/v1/", include(exchange_api.urlpatterns)), *site_urls.urlpatterns]
pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.api.test_exchange")]
PROBLEM = "application/problem+json"


# ---------------------------------------------------------------------- helpers


def normalised(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without what differs between two clubs by design."""
    doc = copy.deepcopy(doc)
    doc.pop("exported_at", None)
    doc["club"].pop("name")
    doc["club"].pop("slug")
    return doc


def derived(club: Club) -> dict[str, Any]:
    """Every derived number of the club, keyed by document order and player names."""
    games = list(Game.objects.filter(club=club).order_by("created_at", "pk"))
    index = {g.pk: i for i, g in enumerate(games)}
    results = [
        [
            (r.seat.name, r.total, r.place, r.winner, r.finished, r.eliminated_in, r.hands)
            for r in Result.objects.filter(game=g).select_related("seat").order_by("seat__position")
        ]
        for g in games
    ]
    standings = []
    for t in Tournament.objects.filter(club=club).order_by("date", "created_at", "pk"):
        data = tournament_data(t)
        rows = []
        for row in compute_standings(data):
            line = asdict(row)
            line["player"] = data.entries[row.player].player.name
            rows.append(line)
        standings.append(rows)
    ratings = [
        (
            index[e.game_id],
            e.player.name,
            e.family,
            e.place,
            e.players,
            e.mu,
            e.sigma,
            e.mu_before,
            e.sigma_before,
        )
        for e in RatingEvent.objects.filter(club=club)
        .select_related("player")
        .order_by("played_at", "game_id", "player__key")  # within a game: by name, on every database
    ]
    seasons = [
        sorted(
            (
                s.family,
                s.player.name,
                s.rank,
                s.previous_rank,
                s.ranked,
                s.separated_by,
                s.points,
                s.games,
                s.wins,
                s.average_place,
                s.events,
                s.rating,
            )
            for s in SeasonStanding.objects.filter(season=season).select_related("player")
        )
        for season in Season.objects.filter(club=club).order_by("starts", "created_at", "pk")
    ]
    return {"results": results, "standings": standings, "ratings": ratings, "seasons": seasons}


def round_trip(club: Club) -> Club:
    """Export ``club``, import the document into a new club, and check both agree."""
    doc = json.loads(json.dumps(export_club(club)))
    importer = UserFactory.create(username=f"importer-{uuid.uuid4().hex[:8]}")
    done = import_club(doc, user=importer, name="Imported club")
    copy_club = done.club
    drain()  # the worker rates and ranks the imported club after the commit
    assert copy_club.pk != club.pk and copy_club.name == "Imported club"
    assert Membership.objects.get(club=copy_club).user == importer
    again = json.loads(json.dumps(export_club(copy_club)))
    assert normalised(again) == normalised(doc)
    assert derived(copy_club) == derived(club)
    assert export_csv(copy_club) == export_csv(club)
    return copy_club


def counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Hand.objects.count(),
        Tournament.objects.count(),
        Season.objects.count(),
    )


@pytest.fixture
def demo(settings: Any) -> Club:
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    return Club.objects.get()


# ---------------------------------------------------------------------- round trips


def test_round_trip_of_the_demo_club(demo: Club) -> None:
    doc = export_club(demo)
    assert doc["format"] == "rummy-club-export" and doc["version"] == 1
    assert len(doc["tournaments"]) == 1 and len(doc["seasons"]) == 1
    assert validate(json.loads(json.dumps(doc))) == []
    copy_club = round_trip(demo)
    # Derived rows were rebuilt, not left empty.
    assert (
        RatingEvent.objects.filter(club=copy_club).count()
        == RatingEvent.objects.filter(club=demo).count()
        > 0
    )
    assert SeasonStanding.objects.filter(season__club=copy_club).exists()
    # A table's game points at the new tournament's page.
    table = Game.objects.filter(club=copy_club).exclude(event_name="").first()
    assert table is not None
    assert table.event_path.endswith(f"/{Tournament.objects.get(club=copy_club).public_id}/")


NAMES = ["Ann", "Bob", "Cid", "Dora", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jan"]


@st.composite
def club_games(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A few games: family, players, hands drafts (outcomes may be refused: then skipped)."""
    games = []
    for _ in range(draw(st.integers(1, 4))):
        family = draw(st.sampled_from(["rummikub", "gin"]))
        size = 2 if family == "gin" else draw(st.integers(2, 4))
        players = draw(st.lists(st.sampled_from(NAMES), min_size=size, max_size=size, unique=True))
        hands = []
        for _hand in range(draw(st.integers(0, 5))):
            if family == "gin":
                knocker = draw(st.sampled_from(players))
                other = next(p for p in players if p != knocker)
                gin = draw(st.booleans())
                hands.append(
                    {
                        "knocker": knocker,
                        "gin": gin,
                        "deadwood": {
                            knocker: 0 if gin else draw(st.integers(0, 10)),
                            other: draw(st.integers(0, 60)),
                        },
                    }
                )
            else:
                winner = draw(st.sampled_from(players))
                hands.append(
                    {"winner": winner, "left": {p: draw(st.integers(1, 60)) for p in players if p != winner}}
                )
        games.append(
            {
                "family": family,
                "players": players,
                "hands": hands,
                "ended": draw(st.booleans()),
                "days_ago": draw(st.integers(0, 60)),
            }
        )
    return games


@hypothesis_settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(games=club_games())
def test_round_trip_of_a_random_club(games: list[dict[str, Any]]) -> None:
    organiser = UserFactory.create(username=f"org-{uuid.uuid4().hex[:8]}")
    club = ClubFactory.create(name=f"Random {uuid.uuid4().hex[:6]}", organiser=organiser)
    now = datetime.datetime.now(datetime.UTC)
    for spec in games:
        game = game_start(
            family=spec["family"], options={}, players=spec["players"], owner=organiser, club=club
        )
        for outcome in spec["hands"]:
            try:
                hand_record(game=game, outcome=outcome, request_id=None, user=organiser)
            except EngineError:
                continue  # the game is over, or the draft breaks a rule: the hand is not recorded
        if spec["ended"] and game.hands.exists():
            game_end(game=game, ended=True, user=organiser)
        Game.objects.filter(pk=game.pk).update(played_at=now - datetime.timedelta(days=spec["days_ago"]))
    season_create(
        club=club,
        settings=SeasonSettings(
            name="Season",
            starts=(now - datetime.timedelta(days=90)).date(),
            ends=(now + datetime.timedelta(days=1)).date(),
            families=["gin", "rummikub"],
            counts="games",
            game_points="table",
            tournament_points="preset",
            custom_points="",
            best_events=0,
            drop_worst=0,
            min_games=0,
            tiebreaks=[],
        ),
        user=organiser,
    )
    # What the tasks run after the commits (which a test's transaction never makes): the
    # ratings and season standings as a full rebuild leaves them.
    rebuild_club(club=club)
    rebuild_seasons(club)
    round_trip(club)


def test_import_into_an_existing_empty_club(demo: Club) -> None:
    doc = json.loads(json.dumps(export_club(demo)))
    organiser = UserFactory.create(username="second")
    empty = ClubFactory.create(name="Empty", organiser=organiser)
    done = import_club(doc, user=organiser, club=empty)
    assert done.club.pk == empty.pk
    assert normalised(export_club(empty)) == normalised(doc)
    # Not again: the club has players now.
    with pytest.raises(ImportInvalid) as raised:
        import_club(doc, user=organiser, club=empty)
    assert [p.code for p in raised.value.problems] == ["club_not_empty"]


# ---------------------------------------------------------------------- validation


def broken(doc: dict[str, Any], how: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    if how == "outcome":
        hand = doc["games"][1]["hands"][1]
        hand["outcome"] = {**hand["outcome"], "closer": "Nobody"}
    elif how == "player_ref":
        doc["games"][2]["seats"][0]["player"] = "p999"
    elif how == "version":
        doc["version"] = 2
    return doc


@pytest.mark.parametrize(
    ("how", "where", "code"),
    [
        ("outcome", "games[1].hands[1]", None),
        ("player_ref", "games[2].seats[0].player", "unknown_player"),
        ("version", "version", "wrong_version"),
    ],
)
def test_an_invalid_document_writes_nothing(demo: Club, how: str, where: str, code: str | None) -> None:
    doc = broken(json.loads(json.dumps(export_club(demo))), how)
    before = counts()
    with pytest.raises(ImportInvalid) as raised:
        import_club(doc, user=UserFactory.create(username="x"), name="Broken")
    problems = raised.value.problems
    assert [p.path for p in problems] == [where]
    assert code is None or problems[0].code == code
    assert problems[0].message
    assert counts() == before


def test_every_problem_is_reported_at_once(demo: Club) -> None:
    doc = json.loads(json.dumps(export_club(demo)))
    doc = broken(broken(doc, "outcome"), "player_ref")
    doc["tournaments"][0]["seated_rounds"][0]["tables"][0]["game"] = "g99"
    doc["seasons"][0]["families"] = ["poker"]
    paths = [p.path for p in validate(doc)]
    assert "seasons[0].families[0]" in paths  # the schema's check comes first
    del doc["seasons"][0]["families"]
    doc["seasons"][0]["families"] = ["gin"]
    paths = [p.path for p in validate(doc)]
    assert paths == [
        "games[1].hands[1]",
        "games[2].seats[0].player",
        "tournaments[0].seated_rounds[0].tables[0].game",
    ]


def test_schema_file_is_valid_json_schema() -> None:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    schema = json.loads((Path(__file__).parents[2] / "tournaments" / "exchange_schema.json").read_text())
    Draft202012Validator.check_schema(schema)


# ---------------------------------------------------------------------- commands


def test_commands_export_and_import(demo: Club, tmp_path: Path) -> None:
    target = tmp_path / "club.json"
    call_command("export_club", demo.slug, "-o", str(target))
    sheets = io.StringIO()
    call_command("export_club", demo.slug, "--csv", stdout=sheets)
    rows = list(csv.DictReader(io.StringIO(sheets.getvalue())))
    assert set(rows[0]) == {"game", "date", "family", "event", "hand", "player", "points", "total"}
    first = [r for r in rows if r["game"] == "g1"]
    assert first and all(r["hand"] in {"1", "2", "3"} for r in first)
    UserFactory.create(username="boss")
    out = io.StringIO()
    call_command(
        "import_club", str(target), "--name", "Copy", "--organiser", "boss", "--slug", "copy-club", stdout=out
    )
    assert "Imported into Copy" in out.getvalue()
    assert Club.objects.get(slug="copy-club").memberships.get().user.username == "boss"
    doc = json.loads(target.read_text())
    doc["version"] = 7
    target.write_text(json.dumps(doc))
    before = counts()
    errors = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_club", str(target), "--name", "Again", "--organiser", "boss", stderr=errors)
    assert "version:" in errors.getvalue()
    assert counts() == before


# ---------------------------------------------------------------------- API


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_api_export_for_organisers_only(demo: Club) -> None:
    organiser = demo.memberships.get().user
    url = f"/api/v1/clubs/{demo.slug}/export/"
    answer = client_for(organiser).get(url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/json")
    assert normalised(answer.json()) == normalised(json.loads(json.dumps(export_club(demo))))
    sheets = client_for(organiser).get(url + "?format=csv")
    assert sheets.status_code == 200 and sheets["Content-Type"].startswith("text/csv")
    assert sheets.content.decode().splitlines()[0] == "game,date,family,event,hand,player,points,total"
    member = UserFactory.create(username="member")
    add_member(demo, member)
    refused = client_for(member).get(url)
    assert refused.status_code == 403 and refused["Content-Type"] == PROBLEM
    assert refused.json()["code"] == "permission_denied"
    # Members only: an outsider (anonymous or not) learns nothing.
    demo.visibility = Club.Visibility.MEMBERS
    demo.save()
    for who in (None, UserFactory.create(username="outsider")):
        hidden = client_for(who).get(url)
        assert hidden.status_code == 404 and hidden["Content-Type"] == PROBLEM
    assert client_for(member).get(url).status_code == 403
    assert client_for(None).get("/api/v1/clubs/no-such-club/export/").status_code == 404
    assert client_for(organiser).get(url + "?format=xml").status_code == 404


def test_api_import_makes_a_club_for_the_caller(demo: Club) -> None:
    doc = json.loads(json.dumps(export_club(demo)))
    caller = UserFactory.create(username="caller")
    answer = client_for(caller).post("/api/v1/clubs/import/", {**doc, "name": "From the API"}, format="json")
    assert answer.status_code == 201, answer.json()
    made = Club.objects.get(slug=answer.json()["club"]["slug"])
    assert made.name == "From the API" and made.memberships.get(user=caller).role == "organiser"
    assert answer.json()["games"] == len(doc["games"])
    assert normalised(export_club(made)) == normalised(doc)


def test_api_import_errors_write_nothing(demo: Club) -> None:
    doc = broken(json.loads(json.dumps(export_club(demo))), "player_ref")
    caller = UserFactory.create(username="caller")
    before = counts()
    answer = client_for(caller).post("/api/v1/clubs/import/", {**doc, "name": "Broken"}, format="json")
    assert answer.status_code == 400 and answer["Content-Type"] == PROBLEM
    body = answer.json()
    assert body["code"] == "import_invalid"
    assert list(body["fields"]) == ["games[2].seats[0].player"]
    assert body["report"][0]["code"] == "unknown_player"
    assert counts() == before
    nameless = client_for(caller).post("/api/v1/clubs/import/", doc, format="json")
    assert nameless.status_code == 400 and "name" in nameless.json()["fields"]
    anonymous = client_for(None).post("/api/v1/clubs/import/", {**doc, "name": "X"}, format="json")
    assert anonymous.status_code in (401, 403) and anonymous["Content-Type"] == PROBLEM
    assert counts() == before


def test_api_import_needs_a_write_token_and_a_readable_body(demo: Club) -> None:
    from games.services.tokens import token_create

    caller = UserFactory.create(username="caller")
    doc = json.loads(json.dumps(export_club(demo)))
    made = token_create(user=caller, name="read", scope="read")
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {made[1]}")
    before = counts()
    refused = reader.post("/api/v1/clubs/import/", {**doc, "name": "X"}, format="json")
    assert refused.status_code == 403 and refused["Content-Type"] == PROBLEM
    not_json = client_for(caller).post("/api/v1/clubs/import/", "[1, 2]", content_type="application/json")
    assert not_json.status_code == 400 and not_json["Content-Type"] == PROBLEM
    huge = client_for(caller).post(
        "/api/v1/clubs/import/", {**doc, "name": "X", "pad": "x" * 3_000_000}, format="json"
    )
    assert huge.status_code in (400, 413) and huge["Content-Type"] == PROBLEM
    wrong = client_for(caller).post("/api/v1/clubs/import/", {"name": "X", "format": "other"}, format="json")
    assert wrong.status_code == 400 and list(wrong.json()["fields"]) == ["format"]
    assert counts() == before


def test_a_users_own_games_export_and_import_into_a_new_club(demo: Club) -> None:
    demo_user = User.objects.get(username="demo")
    doc = json.loads(json.dumps(export_user(demo_user)))
    assert doc["club"] is None and doc["tournaments"] == [] and doc["seasons"] == []
    own = Game.objects.filter(owner=demo_user, club=None)
    assert len(doc["games"]) == own.count() == 4
    assert validate(doc) == []
    answer = client_for(demo_user).get("/api/v1/me/export/")
    assert answer.status_code == 200 and len(answer.json()["games"]) == 4
    assert client_for(None).get("/api/v1/me/export/").status_code in (401, 403)
    done = import_club(doc, user=demo_user, name="My table")
    again = json.loads(json.dumps(export_club(done.club)))
    for d in (doc, again):
        d.pop("exported_at")
        d.pop("club")
    assert again == doc
    # Every game scores alike in its new club.
    sheets = io.StringIO()
    call_command("export_club", "--user", "demo", stdout=sheets)
    assert json.loads(sheets.getvalue())["club"] is None
    originals = [
        [(r.seat.name, r.total, r.place) for r in g.results.select_related("seat").order_by("seat__position")]
        for g in own.order_by("created_at", "pk")
    ]
    copies = [
        [(r.seat.name, r.total, r.place) for r in g.results.select_related("seat").order_by("seat__position")]
        for g in Game.objects.filter(club=done.club).order_by("created_at", "pk")
    ]
    assert copies == originals


def test_round_trip_keeps_merged_players_and_renamed_seats() -> None:
    organiser = UserFactory.create(username="merger")
    club = ClubFactory.create(name="Merging club", organiser=organiser)
    first = game_start(family="rummikub", options={}, players=["Ann", "Bob"], owner=organiser, club=club)
    hand_record(game=first, outcome={"winner": "Ann", "left": {"Bob": 12}}, request_id=None, user=organiser)
    game_end(game=first, ended=True, user=organiser)
    second = game_start(family="rummikub", options={}, players=["Anna", "Bob"], owner=organiser, club=club)
    hand_record(game=second, outcome={"winner": "Bob", "left": {"Anna": 7}}, request_id=None, user=organiser)
    game_end(game=second, ended=True, user=organiser)
    ann, anna = Player.objects.get(club=club, name="Ann"), Player.objects.get(club=club, name="Anna")
    player_merge(keep=ann, drop=anna, keep_version=None, drop_version=None, request_id=None, user=organiser)
    rebuild_club(club=club)
    doc = export_club(club)
    assert [p["merged_into"] for p in doc["players"]] == [None, None, "p1"]
    assert doc["games"][1]["seats"][0] == {"position": 0, "name": "Anna", "player": "p1"}
    copy_club = round_trip(club)
    assert Player.objects.get(club=copy_club, name="Anna").merged_into == Player.objects.get(
        club=copy_club, name="Ann"
    )


def test_the_import_page_lists_every_problem_and_imports_a_good_file(settings: Any) -> None:
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    demo = Club.objects.get(name="Tuesday club")
    document = export_club(demo)
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    broken = json.loads(json.dumps(document))
    broken["games"][0]["hands"][0]["outcome"] = {"closer": "Nobody here"}
    upload = SimpleUploadedFile("club.json", json.dumps(broken).encode(), content_type="application/json")
    page = client.post("/clubs/import/", {"name": "Copy", "document": upload})
    assert page.status_code == 200 and "games[0].hands[0]" in page.content.decode()
    assert not Club.objects.filter(name="Copy").exists()
    good = SimpleUploadedFile("club.json", json.dumps(document).encode(), content_type="application/json")
    done = client.post("/clubs/import/", {"name": "Copy", "document": good})
    copy = Club.objects.get(name="Copy")
    assert done.status_code == 302 and done["Location"].endswith(f"/c/{copy.slug}/")
    assert copy.memberships.get().user == user and copy.games.count() == demo.games.count()


def test_round_trip_keeps_the_rating_lists_settings() -> None:
    """A club that marks ratings provisional under 12 games and players inactive after 30 days
    keeps both through an export and an import; an older document without them gets the defaults."""
    organiser = UserFactory.create(username=f"org-{uuid.uuid4().hex[:8]}")
    club = ClubFactory.create(name="Monthly club", organiser=organiser)
    Club.objects.filter(pk=club.pk).update(provisional_games=12, inactive_days=30)
    club.refresh_from_db()
    doc = export_club(club)
    assert doc["club"]["provisional_games"] == 12 and doc["club"]["inactive_days"] == 30
    copy_club = round_trip(club)
    assert (copy_club.provisional_games, copy_club.inactive_days) == (12, 30)
    older = json.loads(json.dumps(doc))
    del older["club"]["provisional_games"], older["club"]["inactive_days"]
    assert validate(older) == []
    plain = import_club(older, user=organiser, name="Older copy").club
    assert (plain.provisional_games, plain.inactive_days) == (5, 180)
    wrong = json.loads(json.dumps(doc))
    wrong["club"]["inactive_days"] = -1
    assert validate(wrong) != []


def test_round_trip_keeps_the_round_clock() -> None:
    """The minutes per round, a started round's end and its tables' end come back from an
    export; an older document without them imports with no clock."""
    organiser = UserFactory.create(username=f"org-{uuid.uuid4().hex[:8]}")
    club = ClubFactory.create(name="Clock club", organiser=organiser)
    cup = tournament(club, organiser, 8, round_minutes=40)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    assert played.ends_at is not None
    doc = json.loads(json.dumps(export_club(club)))
    assert doc["tournaments"][0]["round_minutes"] == 40
    assert doc["tournaments"][0]["seated_rounds"][0]["ends_at"] is not None
    copy_club = round_trip(club)
    copied = Tournament.objects.get(club=copy_club)
    assert copied.round_minutes == 40
    assert Round.objects.get(tournament=copied).ends_at == played.ends_at
    assert {g.event_ends for g in Game.objects.filter(club=copy_club)} == {played.ends_at}
    older = copy.deepcopy(doc)
    del older["tournaments"][0]["round_minutes"], older["tournaments"][0]["seated_rounds"][0]["ends_at"]
    for game in older["games"]:
        del game["event_ends"]
    assert validate(older) == []
    plain = import_club(older, user=organiser, name="Older copy").club
    assert Tournament.objects.get(club=plain).round_minutes == 0
    assert Round.objects.get(tournament__club=plain).ends_at is None
    assert not Game.objects.filter(club=plain, event_ends__isnull=False).exists()


def test_a_club_s_finals_come_back_from_its_export() -> None:
    """A knockout played to its champion and a final table seeded from a season: the settings,
    each stage's rounds and the places the finals decided survive the export and the import."""
    from tests.tournaments.test_finals import gin_first_wins, play, rummikub_order
    from tournaments.services.final_stages import final_seat

    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    knockout = tournament(
        club, organiser, players=10, family="gin", rounds=2, final="knockout", final_size=8, seating="swiss"
    )
    for number in (1, 2):
        play(round_seat(tournament=knockout, number=number, user=organiser), organiser, gin_first_wins)
    for _stage in range(3):
        play(final_seat(tournament=knockout, user=organiser), organiser, gin_first_wins)
    spring = season_create(club=club, settings=season_settings(name="Spring", qualify=3), user=organiser)
    seeded = tournament(
        club, organiser, players=8, rounds=1, final="table", final_size=3, final_season=spring.pk
    )
    play(round_seat(tournament=seeded, number=1, user=organiser), organiser, rummikub_order)
    drain()
    doc = export_club(club)
    assert [(r["number"], r["final_stage"]) for r in doc["tournaments"][0]["seated_rounds"]] == [
        (1, 0), (2, 0), (3, 1), (4, 2), (5, 3)
    ]  # fmt: skip
    assert doc["tournaments"][1]["final_season"] == doc["seasons"][0]["ref"] == "s1"
    copy_club = round_trip(club)
    copied = Tournament.objects.filter(club=copy_club).order_by("date", "created_at", "pk")
    assert [(t.final, t.final_size, t.final_counts) for t in copied] == [
        ("knockout", 8, "decides"),
        ("table", 3, "decides"),
    ]
    assert copied[1].final_season is not None and copied[1].final_season.name == "Spring"
    # An older document without finals still reads; a final's stage among the rounds is refused.
    older = json.loads(json.dumps(doc))
    for t in older["tournaments"]:
        for key in ("final", "final_size", "final_counts", "final_season"):
            t.pop(key)
    older["tournaments"][0]["seated_rounds"][2]["final_stage"] = 0
    problems = validate(older)
    assert [(p.path, p.code) for p in problems] == [
        ("tournaments[0].seated_rounds[2].number", "round_number")
    ]


def test_a_club_s_evenings_come_back_from_its_export() -> None:
    """The links that make an evening (a rematch, a game put in the evening) survive the export
    and the import, so the evening is settled alike in the copy."""
    from games.selectors.evening import evening_of
    from games.services.evening import evening_join
    from games.services.games import game_rematch

    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    names = ["Ann", "Bob", "Cid"]

    def closing(game: Game, closer: str, left: dict[str, int]) -> None:
        hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=None, user=None)

    first = game_start(family="zoliky", options={}, players=names, owner=organiser, club=club)
    closing(first, "Cid", {"Ann": 14, "Bob": 120})
    game_end(game=first, ended=True, user=organiser)
    second = game_rematch(game=first, user=organiser, request_id=uuid.uuid4())
    closing(second, "Bob", {"Ann": 24, "Cid": 16})
    third = game_start(family="zoliky", options={}, players=names, owner=organiser, club=club)
    closing(third, "Ann", {"Bob": 13, "Cid": 10})
    evening_join(game=second, other=third, user=organiser)
    doc = export_club(club)
    links = [(g["rematch_of"], g["evening"]) for g in doc["games"]]
    assert links == [(None, None), ("g1", None), (None, "g2")]
    copy_club = round_trip(club)
    copies = list(Game.objects.filter(club=copy_club).order_by("played_at", "pk"))
    evening, original = evening_of(game=copies[2]), evening_of(game=third)
    assert evening is not None and original is not None and original.settlement is not None
    assert len(evening.games) == 3 and evening.settlement == original.settlement
    broken = json.loads(json.dumps(doc))
    broken["games"][2]["evening"] = "g9"
    assert [(p.path, p.code) for p in validate(broken)] == [("games[2].evening", "unknown_game")]


def test_round_trip_keeps_who_must_not_meet_and_seeding_by_rating() -> None:
    """The pairs kept apart (by player) and round 1 by rating come back from an export; a pair
    naming an unregistered player is refused at its place."""
    from tournaments.models import Entry
    from tournaments.services.round_seating import apart_set

    organiser = UserFactory.create(username=f"org-{uuid.uuid4().hex[:8]}")
    club = ClubFactory.create(name="Apart club", organiser=organiser)
    cup = tournament(club, organiser, 8, seed_by_rating=True)
    entries = {e.player.name: e for e in Entry.objects.filter(tournament=cup).select_related("player")}
    apart_set(
        tournament=cup, first=entries["Anna"], second=entries["Eva"], keep=True, version=1, user=organiser
    )
    doc = json.loads(json.dumps(export_club(club)))
    assert doc["tournaments"][0]["seed_by_rating"] is True
    assert len(doc["tournaments"][0]["apart"]) == 1
    copied = Tournament.objects.get(club=round_trip(club))
    assert copied.seed_by_rating
    names = {e.pk: e.player.name for e in Entry.objects.filter(tournament=copied).select_related("player")}
    assert [sorted(names[p] for p in pair) for pair in copied.apart] == [["Anna", "Eva"]]
    broken = copy.deepcopy(doc)
    broken["tournaments"][0]["apart"] = [[doc["tournaments"][0]["entries"][0]["player"]] * 2]
    assert any("apart" in str(problem) for problem in validate(broken))
