"""The tournaments resources of the API: access per role, a whole tournament through the API,
idempotent resends, If-Match (428, stale 412 with the current object)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import ApiToken, Club, Membership
from games.services.hands import hand_record
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import NAMES, play_round, rummikub_hand, season_settings, tournament
from tournaments.models import Entry, Round, Table, Tournament, TournamentChange
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"
API = "/api/v1"


def _problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    if code is not None:
        assert body["code"] == code, body
    return body


def _client(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _token_client(user: User, scope: str) -> APIClient:
    _row, token = token_create(user=user, name="script", scope=scope)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


BODY = {
    "name": "Winter cup",
    "date": "2026-12-05",
    "family": "rummikub",
    "rounds": 2,
    "round_hands": 1,
}


@pytest.fixture
def organiser() -> User:
    return UserFactory.create(username="org")


@pytest.fixture
def club(organiser: User) -> Club:
    return ClubFactory.create(name="Tuesday club", organiser=organiser)


@pytest.fixture
def private_club(organiser: User) -> Club:
    made = ClubFactory.create(name="Secret club", organiser=organiser)
    made.visibility = Club.Visibility.MEMBERS
    made.save()
    return made


def test_create_and_list_by_organiser(club: Club, organiser: User) -> None:
    client = _client(organiser)
    response = client.post(f"{API}/clubs/{club.slug}/tournaments/", BODY, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Winter cup" and body["rounds"] == 2 and body["version"] == 1
    assert body["table_min"] >= 2 and body["next_round"] == 1 and body["played_rounds"] == []
    assert response["ETag"] == body["etag"]
    listed = _client().get(f"{API}/clubs/{club.slug}/tournaments/")
    assert listed.status_code == 200
    assert [t["public_id"] for t in listed.json()["results"]] == [body["public_id"]]


def test_create_refused_to_member_anonymous_and_read_only_token(club: Club, organiser: User) -> None:
    member = UserFactory.create(username="member")
    add_member(club, member)
    url = f"{API}/clubs/{club.slug}/tournaments/"
    _problem(_client(member).post(url, BODY, format="json"), 403, "permission_denied")
    _problem(_client().post(url, BODY, format="json"), 401)
    _problem(_token_client(organiser, ApiToken.Scope.READ).post(url, BODY, format="json"), 403)
    response = _token_client(organiser, ApiToken.Scope.WRITE).post(url, BODY, format="json")
    assert response.status_code == 201
    assert Tournament.objects.count() == 1


def test_create_invalid_settings_are_problems(club: Club, organiser: User) -> None:
    url = f"{API}/clubs/{club.slug}/tournaments/"
    body = _problem(_client(organiser).post(url, {**BODY, "family": "chess"}, format="json"), 400, "invalid")
    assert "family" in body["fields"]
    body = _problem(
        _client(organiser).post(url, {**BODY, "table_min": 4, "table_max": 2}, format="json"), 400
    )
    assert body["code"] == "table_limits"
    _problem(_client(organiser).post(url, {**BODY, "tiebreaks": ["nope"]}, format="json"), 400)


def test_members_only_club_is_404_to_outsiders(private_club: Club, organiser: User) -> None:
    t = tournament(private_club, organiser, players=4)
    outsider = UserFactory.create(username="outsider")
    for client in (_client(), _client(outsider)):
        _problem(client.get(f"{API}/clubs/{private_club.slug}/tournaments/"), 404, "not_found")
        for suffix in ("", "entries/", "rounds/", "standings/", "history/", "seat/?q=anna"):
            _problem(client.get(f"{API}/tournaments/{t.public_id}/{suffix}"), 404, "not_found")
        _problem(client.patch(f"{API}/tournaments/{t.public_id}/", {"name": "X"}, format="json"), 404)
    member = UserFactory.create(username="member")
    add_member(private_club, member)
    assert _client(member).get(f"{API}/tournaments/{t.public_id}/").status_code == 200
    response = _client(member).patch(f"{API}/tournaments/{t.public_id}/", {"name": "X"}, format="json")
    _problem(response, 403, "permission_denied")


def test_public_club_is_readable_anonymously(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=8)
    client = _client()
    detail = client.get(f"{API}/tournaments/{t.public_id}/")
    assert detail.status_code == 200 and detail["ETag"] == f'"tournament-{t.public_id}-v1"'
    entries = client.get(f"{API}/tournaments/{t.public_id}/entries/").json()["entries"]
    assert len(entries) == 8 and {e["status"] for e in entries} == {"checked_in"}
    assert (
        client.get(f"{API}/tournaments/{t.public_id}/history/").json()["items"][0]["action"] == "registered"
    )
    _problem(client.get(f"{API}/tournaments/nope/"), 404, "not_found")
    _problem(client.get(f"{API}/tournaments/{t.public_id}/rounds/1/"), 404)
    _problem(client.get(f"{API}/tournaments/{t.public_id}/seat/"), 400, "invalid")


def test_patch_settings_if_match(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=4)
    client = _client(organiser)
    url = f"{API}/tournaments/{t.public_id}/"
    _problem(client.patch(url, {"name": "Renamed"}, format="json"), 428, "precondition_required")
    tag = client.get(url)["ETag"]
    key = str(uuid.uuid4())
    response = client.patch(
        url, {"name": "Renamed"}, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key
    )
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Renamed" and response.json()["version"] == 2
    # A resend (same key, the old ETag): the same answer, no second change.
    again = client.patch(url, {"name": "Renamed"}, format="json", HTTP_IF_MATCH=tag, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json()["version"] == 2
    assert TournamentChange.objects.filter(tournament=t, action="settings").count() == 1
    # Another change with the stale ETag: 412 with the current tournament.
    body = _problem(client.patch(url, {"name": "Other"}, format="json", HTTP_IF_MATCH=tag), 412, "stale_edit")
    assert body["current"]["name"] == "Renamed" and body["etag"] == '"tournament-' + t.public_id + '-v2"'
    _problem(client.patch(url, {"rounds": 0}, format="json", HTTP_IF_MATCH=body["etag"]), 400, "invalid")
    _problem(client.patch(url, {"name": "X"}, format="json", HTTP_IDEMPOTENCY_KEY="nope"), 400)


def test_entries_register_and_actions(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=0)
    client = _client(organiser)
    url = f"{API}/tournaments/{t.public_id}/entries/"
    key = str(uuid.uuid4())
    first = client.post(url, {"names": ["Anna", "Bára"]}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201, first.content
    again = client.post(url, {"names": ["Anna", "Bára"]}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.json() == first.json()
    assert Entry.objects.filter(tournament=t).count() == 2
    anna = next(e for e in first.json()["entries"] if e["name"] == "Anna")
    assert anna["status"] == "registered"
    by_id = client.post(url, {"players": [anna["player_id"]]}, format="json")
    assert [e["id"] for e in by_id.json()["entries"]] == [anna["id"]]
    _problem(client.post(url, {"players": [99999]}, format="json"), 400, "invalid")
    _problem(client.post(url, {}, format="json"), 400, "invalid")
    check_in = f"{url}{anna['id']}/check-in/"
    _problem(client.post(check_in), 428, "precondition_required")
    done = client.post(check_in, HTTP_IF_MATCH=anna["etag"])
    assert done.status_code == 200 and done.json()["status"] == "checked_in"
    body = _problem(client.post(f"{url}{anna['id']}/drop/", HTTP_IF_MATCH=anna["etag"]), 412, "stale_edit")
    assert body["current"]["checked_in"] is True
    dropped = client.post(f"{url}{anna['id']}/drop/", HTTP_IF_MATCH=done["ETag"])
    assert dropped.json()["status"] == "dropped"
    back = client.post(f"{url}{anna['id']}/rejoin/", HTTP_IF_MATCH=dropped["ETag"])
    assert back.json()["status"] == "checked_in"
    out = client.post(f"{url}{anna['id']}/check-out/", HTTP_IF_MATCH=back["ETag"])
    assert out.json()["status"] == "registered"
    _problem(client.post(f"{url}99999/check-in/", HTTP_IF_MATCH="*"), 404)
    pin = f"{url}{anna['id']}/pin/"
    pinned = client.post(pin, {"table": 2}, format="json", HTTP_IF_MATCH=out["ETag"])
    assert pinned.status_code == 200 and pinned.json()["pinned_table"] == 2
    _problem(client.post(pin, {"table": 0}, format="json", HTTP_IF_MATCH=pinned["ETag"]), 400, "invalid")
    loose = client.post(pin, {"table": None}, format="json", HTTP_IF_MATCH=pinned["ETag"])
    assert loose.json()["pinned_table"] is None
    out = loose
    member = UserFactory.create(username="member")
    add_member(club, member)
    _problem(_client(member).post(check_in, HTTP_IF_MATCH=out["ETag"]), 403)


def _record_all_tables(played: Round, organiser: User) -> None:
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        hand_record(game=table.game, outcome=rummikub_hand(names), request_id=None, user=organiser)


def test_whole_tournament_through_the_api(club: Club, organiser: User) -> None:
    client = _client(organiser)
    created = client.post(
        f"{API}/clubs/{club.slug}/tournaments/",
        {**BODY, "table_min": 4, "table_max": 4, "table_preferred": 4},
        format="json",
    ).json()
    base = f"{API}/tournaments/{created['public_id']}"
    registered = client.post(f"{base}/entries/", {"names": NAMES[:8], "checked_in": True}, format="json")
    assert registered.status_code == 201 and len(registered.json()["entries"]) == 8
    key = str(uuid.uuid4())
    seated = client.post(f"{base}/rounds/1/seat/", HTTP_IDEMPOTENCY_KEY=key)
    assert seated.status_code == 201, seated.content
    # The resend: the same round, not seated again, not refused.
    resent = client.post(f"{base}/rounds/1/seat/", HTTP_IDEMPOTENCY_KEY=key)
    assert resent.status_code == 200 and resent.json()["version"] == seated.json()["version"]
    assert Round.objects.filter(tournament__public_id=created["public_id"]).count() == 1
    assert TournamentChange.objects.filter(action="seated").count() == 1
    round_1 = seated.json()
    assert len(round_1["tables"]) == 2 and all(len(t["players"]) == 4 for t in round_1["tables"])
    # Seating again needs the round's ETag.
    _problem(client.post(f"{base}/rounds/1/seat/"), 428)
    reseated = client.post(f"{base}/rounds/1/seat/", HTTP_IF_MATCH=seated["ETag"])
    assert reseated.status_code == 200 and reseated.json()["version"] == round_1["version"] + 1
    _problem(client.post(f"{base}/rounds/1/seat/", HTTP_IF_MATCH=seated["ETag"]), 412, "stale_edit")
    # Where do I sit?
    found = _client().get(f"{base}/seat/", {"q": "anna"}).json()["results"]
    assert found[0]["name"] == "Anna" and found[0]["table"] in (1, 2) and found[0]["game"] is None
    # Start (stale ETag refused, then the current one).
    _problem(client.post(f"{base}/rounds/1/start/", HTTP_IF_MATCH=seated["ETag"]), 412, "stale_edit")
    started = client.post(f"{base}/rounds/1/start/", HTTP_IF_MATCH=reseated["ETag"])
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert all(t["game"] and t["edit_url"] for t in started.json()["tables"])
    public = _client().get(f"{base}/rounds/1/").json()
    assert all("edit_url" not in t for t in public["tables"])
    played = Round.objects.get(tournament__public_id=created["public_id"], number=1)
    _record_all_tables(played, organiser)
    table = client.get(f"{base}/rounds/1/").json()["tables"][0]
    assert table["hands"] == 1 and table["finished"] and len(table["leaders"]) == 1
    standings = client.get(f"{base}/standings/").json()
    assert standings["provisional"] is True
    confirmed = client.post(f"{base}/rounds/1/confirm/", HTTP_IF_MATCH=started["ETag"])
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    standings = _client().get(f"{base}/standings/").json()
    assert standings["provisional"] is False and standings["tiebreaks"][0] == "points"
    rows = standings["rows"]
    assert len(rows) == 8 and rows[0]["rank"] == 1 and rows[0]["points"] == "7"
    assert rows[0]["points_value"] == 7.0 and "separated_by" in rows[0]
    rounds = client.get(f"{base}/rounds/").json()
    assert rounds["next_round"] == 2 and rounds["rounds"][0]["status"] == "confirmed"
    history = client.get(f"{base}/history/").json()["items"]
    assert [i["action"] for i in history][:3] == ["confirmed", "started", "seated"]
    # Round 2 cannot be confirmed before it is seated; a round beyond the last cannot be seated.
    _problem(client.post(f"{base}/rounds/2/confirm/", HTTP_IF_MATCH="*"), 404)
    _problem(client.post(f"{base}/rounds/3/seat/"), 400, "round_range")


def test_move_between_tables(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=7, table_min=3, table_max=4, table_preferred=4)
    client = _client(organiser)
    base = f"{API}/tournaments/{t.public_id}"
    seated = client.post(f"{base}/rounds/1/seat/")
    assert seated.status_code == 201
    tables = seated.json()["tables"]
    big = next(t for t in tables if len(t["players"]) == 4)
    small = next(t for t in tables if len(t["players"]) == 3)
    mover = big["players"][0]["entry"]
    body = {"entry": mover, "to_table": small["number"]}
    _problem(client.post(f"{base}/rounds/1/move/", body, format="json"), 428)
    moved = client.post(f"{base}/rounds/1/move/", body, format="json", HTTP_IF_MATCH=seated["ETag"])
    assert moved.status_code == 200, moved.content
    after = {t["number"]: [p["entry"] for p in t["players"]] for t in moved.json()["tables"]}
    assert mover in after[small["number"]]
    stale = client.post(f"{base}/rounds/1/move/", body, format="json", HTTP_IF_MATCH=seated["ETag"])
    assert _problem(stale, 412)["current"]["version"] == moved.json()["version"]
    bad = {"entry": 99999, "to_table": 1}
    _problem(client.post(f"{base}/rounds/1/move/", bad, format="json", HTTP_IF_MATCH=moved["ETag"]), 400)


def test_round_writes_refused_to_others(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=8)
    play_round(t, 1, organiser, confirm=False)
    base = f"{API}/tournaments/{t.public_id}"
    member = UserFactory.create(username="member")
    add_member(club, member, Membership.Role.MEMBER)
    read_only = _token_client(organiser, ApiToken.Scope.READ)
    for client in (_client(member), read_only):
        _problem(client.post(f"{base}/rounds/1/confirm/", HTTP_IF_MATCH="*"), 403)
        _problem(client.post(f"{base}/rounds/2/seat/"), 403)
    # The read-only token still reads, and its organiser sees the edit links.
    detail = read_only.get(f"{base}/rounds/1/")
    assert detail.status_code == 200 and all(t["edit_url"] for t in detail.json()["tables"])
    assert all("edit_url" not in t for t in _client(member).get(f"{base}/rounds/1/").json()["tables"])
    # A table's edit link used as a bearer writes its game only, not the tournament: a
    # credential without the right (403), as for another game.
    game = Table.objects.filter(round__tournament=t, round__number=1).first().game  # type: ignore[union-attr]
    assert game is not None
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    _problem(link.post(f"{base}/rounds/1/confirm/", HTTP_IF_MATCH="*"), 403)
    assert link.get(f"{base}/standings/").status_code == 200


def test_the_final_settings_are_answered_as_set(club: Club, organiser: User) -> None:
    body = {**BODY, "final": "table", "final_size": 3, "final_counts": "adds"}
    response = _client(organiser).post(f"{API}/clubs/{club.slug}/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    made = response.json()
    read = _client().get(f"{API}/tournaments/{made['public_id']}/").json()
    for answer in (made, read):
        assert (answer["final"], answer["final_size"], answer["final_counts"], answer["final_season"]) == (
            "table",
            3,
            "adds",
            None,
        )


def test_the_final_season_is_named_by_its_public_id(club: Club, organiser: User) -> None:
    spring = season_create(club=club, settings=season_settings(name="Spring"), user=organiser)
    autumn = season_create(club=club, settings=season_settings(name="Autumn"), user=organiser)
    elsewhere = season_create(
        club=ClubFactory.create(organiser=organiser), settings=season_settings(name="Theirs"), user=organiser
    )
    client = _client(organiser)
    body = {**BODY, "final": "table", "final_season": spring.public_id}
    made = client.post(f"{API}/clubs/{club.slug}/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    url = f"{API}/tournaments/{made.json()['public_id']}/"
    assert made.json()["final_season"] == _client().get(url).json()["final_season"] == spring.public_id
    assert Tournament.objects.get(public_id=made.json()["public_id"]).final_season == spring
    tag = made["ETag"]
    changed = client.patch(url, {"final_season": autumn.public_id}, format="json", HTTP_IF_MATCH=tag)
    assert changed.status_code == 200, changed.content
    assert changed.json()["final_season"] == _client().get(url).json()["final_season"] == autumn.public_id
    tag = changed["ETag"]
    # Another club's season, an unknown one, or an integer id (which the API never gave): a
    # coded field error, nothing changed.
    for wrong in (elsewhere.public_id, "nope", spring.pk):
        for response in (
            client.patch(url, {"final_season": wrong}, format="json", HTTP_IF_MATCH=tag),
            client.post(
                f"{API}/clubs/{club.slug}/tournaments/", {**body, "final_season": wrong}, format="json"
            ),
        ):
            problem = _problem(response, 400)
            assert list(problem["fields"]) == ["final_season"], problem
            assert problem["code"] == ("invalid" if wrong == spring.pk else "final_season")
    assert _client().get(url).json()["final_season"] == autumn.public_id
    assert Tournament.objects.filter(club=club).count() == 1
    # Null seeds the final from the tournament's standings again.
    cleared = client.patch(url, {"final_season": None}, format="json", HTTP_IF_MATCH=tag)
    assert cleared.status_code == 200 and cleared.json()["final_season"] is None


def test_the_history_names_who_did_it_to_the_clubs_organisers_only(club: Club, organiser: User) -> None:
    t = tournament(club, organiser, players=8)
    play_round(t, 1, organiser)
    member = UserFactory.create(username="member")
    add_member(club, member, Membership.Role.MEMBER)
    path = f"{API}/tournaments/{t.public_id}/history/"
    shown = _client(organiser).get(path).json()["items"]
    assert shown and {item["user"] for item in shown if item["kind"] == "change"} == {"org"}
    for reader in (_client(), _client(member)):
        items = reader.get(path).json()["items"]
        assert [i["action"] for i in items] == [i["action"] for i in shown]
        assert {i["user"] for i in items} == {None}


def test_times_are_written_as_in_every_other_answer(club: Club, organiser: User) -> None:
    """In the site's time zone with its offset, as a game's times are."""
    from django.utils import timezone

    t = tournament(club, organiser, players=8)
    play_round(t, 1, organiser)
    played = Round.objects.get(tournament=t, number=1)
    assert played.started_at is not None and played.confirmed_at is not None
    answer = _client().get(f"{API}/tournaments/{t.public_id}/rounds/1/").json()
    assert answer["started_at"] == timezone.localtime(played.started_at).isoformat()
    assert answer["confirmed_at"] == timezone.localtime(played.confirmed_at).isoformat()
    game = Table.objects.filter(round=played).first().game  # type: ignore[union-attr]
    assert game is not None
    shown = _client().get(f"{API}/games/{game.public_id}/").json()
    assert shown["created_at"] == timezone.localtime(game.created_at).isoformat()


def test_a_change_made_between_the_check_and_the_write_is_a_412_with_what_is_stored(
    club: Club, organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another organiser's change lands after If-Match was checked, before the service locks the
    row: the service refuses the stale version and the answer holds the object as stored now."""
    from tournaments.api import tournaments as api
    from tournaments.services.entries import entry_check_in, entry_pin

    t = tournament(club, organiser, players=8)
    entry = Entry.objects.filter(tournament=t, checked_in=True).select_related("player").first()
    assert entry is not None

    def meanwhile(**kwargs: Any) -> Entry:
        entry_pin(entry=entry, table=2, version=entry.version, user=organiser)  # the other organiser
        return entry_check_in(**kwargs)

    monkeypatch.setattr(api, "entry_check_in", meanwhile)
    tag = f'"entry-{entry.pk}-v{entry.version}"'
    answer = _client(organiser).post(
        f"{API}/tournaments/{t.public_id}/entries/{entry.pk}/check-out/", HTTP_IF_MATCH=tag
    )
    body = _problem(answer, 412, "stale_edit")
    stored = Entry.objects.get(pk=entry.pk)
    assert stored.checked_in and stored.pinned_table == 2
    assert body["etag"] == f'"entry-{entry.pk}-v{stored.version}"' != tag
    assert (body["current"]["checked_in"], body["current"]["pinned_table"]) == (True, 2)
