"""Warnings and point penalties on the record: given and taken back on the organiser's page and
in the API (each a recorded change: a resend changes nothing twice, a stale version is
refused), applied by the standings (the points off, the row marked, the reason beside it),
in the history and the club's audit log, kept by ``rebuild_derived --check`` and by an export
and import; bad input gets a message at its field, never a 500."""

from __future__ import annotations

import datetime
import io
import json
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django.utils.html import strip_tags
from rest_framework.test import APIClient

from games.models import AuditEntry, Club
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.pipeline import drain
from tests.tournaments.support import play_round, season_settings, tournament
from tournaments.exchange.exporting import export_club
from tournaments.exchange.importing import import_club
from tournaments.models import SeasonStanding, Tournament, TournamentChange
from tournaments.selectors.view import tournament_view
from tournaments.services.penalties import penalty_give, penalty_undo
from tournaments.services.seasons import season_create
from tournaments.tournament_data import compute_standings, tournament_data

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _cup(rounds: int = 2) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, players=6, rounds=rounds)
    play_round(cup, 1, organiser)
    cup.refresh_from_db()
    return cup, organiser


def _organiser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(page: bytes) -> str:
    return " ".join(strip_tags(page.decode()).split())


def _ranks(cup: Tournament) -> dict[int, tuple[int, Any]]:
    cup.refresh_from_db()
    return {s.player: (s.rank, s.points) for s in compute_standings(tournament_data(cup))}


def _leader(cup: Tournament) -> tuple[int, str]:
    row = tournament_view(tournament=cup).standings[0]
    return row.standing.player, row.name


def _give(client: Client, cup: Tournament, **fields: object) -> Any:
    cup.refresh_from_db()
    data: dict[str, object] = {"version": cup.version, "request_id": uuid.uuid4(), "round": "", "points": ""}
    data.update(fields)
    return client.post(f"/t/{cup.public_id}/penalties/", data)


def test_a_penalty_given_on_the_page_moves_the_player_down_and_undo_brings_him_back() -> None:
    cup, organiser = _cup()
    client = _organiser(organiser)
    entry, name = _leader(cup)
    before = _ranks(cup)
    assert before[entry] == (1, 7)  # first at his table of three: 7, 4, 1
    answer = _give(client, cup, entry=entry, kind="points", points="4", round="1", reason="Slow play")
    assert answer.status_code == 302
    after = _ranks(cup)
    # 7 − 4 = 3: below everyone with 4 points, above those with 1.
    assert after[entry][1] == 3
    assert after[entry][0] == 1 + sum(1 for p, (_r, pts) in before.items() if p != entry and pts > 3)
    standings = client.get(f"/t/{cup.public_id}/standings/").content.decode()
    assert 'class="badge missing penalised"' in standings
    assert '<details class="penalty-note"><summary>−4 points, round 1</summary>' in standings
    assert "Slow play" in standings
    # The projector, the player's page, the API and the CSV say so too.
    assert "penalised" in client.get(f"/t/{cup.public_id}/screen/").content.decode()
    player = _text(client.get(f"/t/{cup.public_id}/p/{entry}/").content)
    assert "−4 points, round 1 Slow play" in player and "3 points" in player
    rows = Client().get(f"{API}/tournaments/{cup.public_id}/standings/").json()["rows"]
    row = next(r for r in rows if r["entry"] == entry)
    assert row["points"] == "3" and row["penalty"] == "4"
    assert row["penalties"][0]["reason"] == "Slow play" and row["penalties"][0]["round"] == 1
    csv = client.get(f"/t/{cup.public_id}/standings.csv").content.decode("utf-8-sig")
    assert "Penalty points" in csv.splitlines()[0]
    assert any(
        line.startswith(f"{after[entry][0]},{name},3,") and "Slow play" in line for line in csv.splitlines()
    )
    # History and the club's audit log.
    history = _text(client.get(f"/t/{cup.public_id}/history/").content)
    assert f"Gave a penalty or a warning {name}: −4 points, round 1" in history
    assert "Reason: Slow play" in history
    audit = _text(client.get(f"/c/{cup.club.slug}/audit/").content)
    assert f"Gave a tournament penalty or warning: {cup.name}: {name}" in audit
    # Taken back: the standings are as before, the list keeps it marked.
    cup.refresh_from_db()
    penalty = cup.penalties[0]["id"]
    undone = client.post(
        f"/t/{cup.public_id}/penalties/undo/",
        {"penalty": penalty, "version": cup.version, "request_id": uuid.uuid4()},
    )
    assert undone.status_code == 302
    assert _ranks(cup) == before
    page = _text(client.get(f"/t/{cup.public_id}/penalties/").content)
    assert "taken back" in page and "Slow play" in page
    assert "penalised" not in client.get(f"/t/{cup.public_id}/standings/").content.decode()
    actions = list(TournamentChange.objects.filter(tournament=cup).values_list("action", flat=True)[:2])
    assert actions == ["penalty_undone", "penalty"]
    assert AuditEntry.objects.filter(club=cup.club, action="penalty_undone").count() == 1


def test_a_warning_marks_the_row_and_takes_no_points() -> None:
    cup, organiser = _cup()
    entry, _name = _leader(cup)
    before = _ranks(cup)
    penalty_give(
        tournament=cup,
        entry_id=entry,
        kind="warning",
        points=None,
        round_number=None,
        reason="Phone at the table",
        version=cup.version,
        user=organiser,
    )
    assert _ranks(cup) == before
    standings = _organiser(organiser).get(f"/t/{cup.public_id}/standings/").content.decode()
    assert "<summary>Warning</summary>" in standings and "Phone at the table" in standings


def test_a_tournament_penalty_counts_in_every_round_a_round_s_from_its_round() -> None:
    cup, organiser = _cup(rounds=3)
    play_round(cup, 2, organiser)
    entry, _name = _leader(cup)
    cup.refresh_from_db()
    cup = penalty_give(
        tournament=cup, entry_id=entry, kind="points", points=2, round_number=2, reason="Late",
        version=cup.version, user=organiser,
    )  # fmt: skip
    cup = penalty_give(
        tournament=cup, entry_id=entry, kind="points", points=1, round_number=None, reason="Rude",
        version=cup.version, user=organiser,
    )  # fmt: skip
    body = APIClient().get(f"{API}/tournaments/{cup.public_id}/players/{entry}/").json()
    assert [p["reason"] for p in body["penalties"]] == ["Late", "Rude"]
    data = tournament_data(cup)
    cut = type(data)(cup, data.entries, [r for r in data.rounds if r.number <= 1], data.tables, data.byes)
    first = next(s for s in compute_standings(cut) if s.player == entry)
    assert first.penalty == 1  # after round 1: only the tournament's penalty
    now = next(s for s in compute_standings(data) if s.player == entry)
    assert now.penalty == 3


def test_api_give_resend_stale_and_undo() -> None:
    cup, organiser = _cup()
    entry, _name = _leader(cup)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"{API}/tournaments/{cup.public_id}/penalties/"
    listed = api.get(url)
    assert listed.status_code == 200 and listed.json()["penalties"] == []
    tag = listed["ETag"]
    body = {"entry": entry, "kind": "points", "points": "2.5", "round": 1, "reason": "Slow play"}
    key = str(uuid.uuid4())
    given = api.post(url, body, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key)
    assert given.status_code == 201, given.content
    assert given.json()["penalties"][0]["points"] == "5/2"
    # The same request again (the answer lost on the way): nothing new, the same state.
    again = api.post(url, body, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and len(again.json()["penalties"]) == 1
    cup.refresh_from_db()
    assert len(cup.penalties) == 1
    assert TournamentChange.objects.filter(tournament=cup, action="penalty").count() == 1
    # A stale ETag is refused with the current list; no If-Match at all is 428.
    stale = api.post(url, body, format="json", HTTP_IF_MATCH=tag)
    assert stale.status_code == 412 and stale.json()["code"] == "stale_edit"
    assert api.post(url, body, format="json").status_code == 428
    # Undo, then undo again (a resend with another key): one change.
    undo = f"{url}{given.json()['penalties'][0]['id']}/undo/"
    done = api.post(undo, HTTP_IF_MATCH=given["ETag"], HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert done.status_code == 200 and done.json()["penalties"][0]["undone"] is True
    twice = api.post(undo, HTTP_IF_MATCH=done["ETag"])
    assert twice.status_code == 200
    assert TournamentChange.objects.filter(tournament=cup, action="penalty_undone").count() == 1
    assert api.post(f"{url}99/undo/", HTTP_IF_MATCH=done["ETag"]).status_code == 404
    # Only organisers.
    member = APIClient()
    member.force_authenticate(UserFactory.create())
    assert member.post(url, body, format="json", HTTP_IF_MATCH=done["ETag"]).status_code in (403, 404)
    rows = APIClient().get(f"{API}/tournaments/{cup.public_id}/standings/").json()["rows"]
    assert next(r for r in rows if r["entry"] == entry)["penalty"] == "0"


def test_a_stale_page_form_is_refused_and_a_resent_one_records_once() -> None:
    cup, organiser = _cup()
    client = _organiser(organiser)
    entry, _name = _leader(cup)
    seen = cup.version
    request_id = uuid.uuid4()
    fields = {"entry": entry, "kind": "warning", "reason": "Noise", "request_id": request_id}
    assert _give(client, cup, **fields).status_code == 302
    assert _give(client, cup, version=seen, **fields).status_code == 302  # a resend: the same change
    cup.refresh_from_db()
    assert len(cup.penalties) == 1
    stale = _give(client, cup, entry=entry, kind="warning", reason="Noise again", version=seen)
    assert stale.status_code == 400
    assert "Someone changed the tournament meanwhile (a penalty or a setting)" in _text(stale.content)
    cup.refresh_from_db()
    assert len(cup.penalties) == 1
    # The page shown with the refusal carries the version now: sending it again records it.
    assert f'name="version" value="{cup.version}"' in stale.content.decode()
    again = _give(client, cup, entry=entry, kind="warning", reason="Noise again", version=cup.version)
    assert again.status_code == 302
    cup.refresh_from_db()
    assert len(cup.penalties) == 2


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"kind": "points", "points": "2", "reason": ""}, "reason", "Say why"),
        ({"kind": "points", "points": "2", "reason": "   "}, "reason", "Say why"),
        ({"kind": "points", "points": "-3", "reason": "x"}, "points", "more than 0 and at most 1000"),
        ({"kind": "points", "points": "0", "reason": "x"}, "points", "more than 0 and at most 1000"),
        ({"kind": "points", "points": "5000", "reason": "x"}, "points", "more than 0 and at most 1000"),
        ({"kind": "points", "points": "", "reason": "x"}, "points", "more than 0 and at most 1000"),
        ({"kind": "points", "points": "1e400", "reason": "x"}, "points", ""),
        ({"kind": "points", "points": "abc", "reason": "x"}, "points", ""),
        ({"kind": "warning", "points": "3", "reason": "x"}, "points", "A warning takes no points"),
        ({"kind": "points", "points": "1", "round": "7", "reason": "x"}, "round", ""),
        ({"kind": "points", "points": "1", "reason": "x" * 201}, "reason", ""),
        ({"kind": "fine", "points": "1", "reason": "x"}, "kind", ""),
    ],
)
def test_bad_input_on_the_page_gets_a_message_at_its_field(
    fields: dict[str, str], field: str, message: str
) -> None:
    cup, organiser = _cup()
    entry, _name = _leader(cup)
    answer = _give(_organiser(organiser), cup, entry=entry, **fields)
    assert answer.status_code == 400
    page = answer.content.decode()
    at = page.index(f'name="{field}"')
    block = page[page.rindex('<div class="field', 0, at) : page.index("</div>", at)]
    assert 'class="error"' in block, block
    assert message in block
    cup.refresh_from_db()
    assert cup.penalties == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "points", "points": "2", "reason": ""}, "reason"),
        ({"kind": "points", "points": "-1", "reason": "x"}, "points"),
        ({"kind": "points", "points": "999999", "reason": "x"}, "points"),
        ({"kind": "points", "points": "1", "round": 9, "reason": "x"}, "round"),
        ({"kind": "warning", "points": "1", "reason": "x"}, "points"),
        ({"kind": "points", "points": "1", "reason": "x", "entry": 999999}, "entry"),
        ({"kind": "points", "points": "nan", "reason": "x"}, "points"),
    ],
)
def test_bad_input_in_the_api_is_a_problem_naming_its_field(body: dict[str, Any], field: str) -> None:
    cup, organiser = _cup()
    entry, _name = _leader(cup)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"{API}/tournaments/{cup.public_id}/penalties/"
    answer = api.post(url, {"entry": entry, **body}, format="json", HTTP_IF_MATCH=api.get(url)["ETag"])
    assert answer.status_code == 400, answer.content
    assert field in json.dumps(answer.json())


def test_a_penalty_on_a_finished_tournament_moves_the_season_and_rebuild_derived_agrees() -> None:
    organiser = UserFactory.create()
    club: Club = ClubFactory.create(organiser=organiser)
    today = timezone.localdate()
    season_create(
        club=club,
        settings=season_settings(starts=today - datetime.timedelta(days=30), ends=today),
        user=organiser,
    )
    cup = tournament(club, organiser, players=6, rounds=1, date=today)
    play_round(cup, 1, organiser)
    drain()
    entry, name = _leader(cup)
    season_before = SeasonStanding.objects.get(season__club=club, family="", player__name=name)
    cup.refresh_from_db()
    penalty_give(
        tournament=cup, entry_id=entry, kind="points", points=6, round_number=None, reason="Cheating",
        version=cup.version, user=organiser,
    )  # fmt: skip
    drain()
    season_after = SeasonStanding.objects.get(season__club=club, family="", player__name=name)
    assert season_after.points < season_before.points  # his tournament place fell
    call_command("rebuild_derived", "--check", stdout=io.StringIO())  # raises on any difference
    cup.refresh_from_db()
    penalty_undo(tournament=cup, penalty_id=1, version=cup.version, user=organiser)
    drain()
    call_command("rebuild_derived", "--check", stdout=io.StringIO())
    assert (
        SeasonStanding.objects.get(season__club=club, family="", player__name=name).points
        == season_before.points
    )


def test_penalties_survive_an_export_and_an_import() -> None:
    cup, organiser = _cup()
    entry, name = _leader(cup)
    others = [s.player for s in compute_standings(tournament_data(cup)) if s.player != entry]
    cup = penalty_give(
        tournament=cup, entry_id=entry, kind="points", points=Decimal("1.5"), round_number=1, reason="Slow",
        version=cup.version, user=organiser,
    )  # fmt: skip
    cup = penalty_give(
        tournament=cup, entry_id=others[0], kind="warning", points=None, round_number=None,
        reason="Phone", version=cup.version, user=organiser,
    )  # fmt: skip
    cup = penalty_undo(tournament=cup, penalty_id=2, version=cup.version, user=organiser)
    doc = json.loads(json.dumps(export_club(cup.club)))
    assert [
        (p["kind"], p["points"], p["reason"], p["undone"]) for p in doc["tournaments"][0]["penalties"]
    ] == [
        ("points", "3/2", "Slow", False),
        ("warning", "0", "Phone", True),
    ]
    copy = import_club(doc, user=UserFactory.create(), name="Copy").club
    copied = Tournament.objects.get(club=copy)

    def named(t: Tournament) -> list[tuple[str, int, Any, Any]]:
        data = tournament_data(t)
        return [
            (data.entries[s.player].player.name, s.rank, s.points, s.penalty) for s in compute_standings(data)
        ]

    assert named(copied) == named(cup)
    assert (name, 1.5) in [(n, float(p)) for n, _r, _pts, p in named(copied)]
    again = json.loads(json.dumps(export_club(copy)))
    assert again["tournaments"][0]["penalties"] == doc["tournaments"][0]["penalties"]
    # A document naming a round the tournament never seated is refused at that penalty.
    doc["tournaments"][0]["penalties"][0]["round"] = 9
    with pytest.raises(Exception) as refused:
        import_club(doc, user=UserFactory.create(), name="Broken")
    assert "penalties[0]" in str(getattr(refused.value, "problems", refused.value))
