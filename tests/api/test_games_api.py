"""The games API: games, score sheets, hands, the evening's end, history and undo, per role."""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from rest_framework.test import APIClient

from games.models import Change, Club, Game, Hand, Membership
from games.services.access import grant_edit
from games.services.hands import hand_record
from games.services.tokens import token_create
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
ZOLIKY = {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}}
CORRECTED = {"closer": "Bob", "from_hand": True, "left": {"Ann": 4, "Cid": 12}}
OUTCOMES: dict[str, tuple[list[str], dict[str, Any], dict[str, int]]] = {
    "zoliky": (["Ann", "Bob", "Cid"], ZOLIKY, {"Ann": -10, "Bob": 23, "Cid": 30}),
    "gin": (
        ["Ann", "Bob"],
        {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}},
        {"Ann": 5, "Bob": 0},
    ),
    "carousel": (
        ["Ann", "Bob", "Cid"],
        {"knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}},
        {"Ann": 38, "Bob": 0, "Cid": 0},
    ),
    "rummikub": (
        ["Ann", "Bob", "Cid"],
        {"winner": "Ann", "left": {"Bob": 24, "Cid": "R7 B13 JK"}},
        {"Ann": 74, "Bob": -24, "Cid": -50},
    ),
}


def client_for(user: User | None = None, *, bearer: str | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    if bearer is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {bearer}")
    return client


def token(user: User, scope: str) -> str:
    return token_create(user=user, name=f"t-{scope}", scope=scope)[1]


def url(game: Game, tail: str = "") -> str:
    return f"/api/v1/games/{game.public_id}/{tail}"


def record(
    client: APIClient, game: Game, outcome: dict[str, Any] | None = None, key: str | None = None
) -> Any:
    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(url(game, "hands/"), ZOLIKY if outcome is None else outcome, format="json", **headers)


def assert_problem(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["message"]
    if code is not None:
        assert body["code"] == code
    return body


# --- reading --------------------------------------------------------------------------------


def test_anyone_with_the_address_reads_a_game_and_its_sheet() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    hand_record(game=game, outcome=ZOLIKY, request_id=None, user=owner)
    response = APIClient().get(url(game))
    assert response.status_code == 200
    body = response.json()
    assert body["public_id"] == game.public_id and body["family"] == "zoliky" and body["club"] is None
    assert [s["name"] for s in body["seats"]] == ["Ann", "Bob", "Cid"]
    assert body["totals"] == {"Ann": -10, "Bob": 23, "Cid": 30}
    row = body["rows"][0]
    assert row["number"] == 1 and row["ordinal"] == 1 and row["dealer"] == "Ann"
    assert row["points"] == {"Ann": -10, "Bob": 23, "Cid": 30} and row["totals"] == row["points"]
    assert body["hands"] == 1 and body["finished"] is False and body["settlement"] is not None
    assert "edit_url" not in body and "edit_token" not in str(body)
    assert response["ETag"]
    again = APIClient().get(url(game), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_an_unknown_game_or_hand_is_a_404_problem_never_html() -> None:
    game = GameFactory.create()
    assert_problem(APIClient().get("/api/v1/games/nope/"), 404, "not_found")
    assert_problem(APIClient().get(url(game, "hands/7/")), 404, "not_found")
    assert_problem(APIClient().get(url(game, "hands/99999999999999999999/")), 404)
    assert_problem(APIClient().get("/api/v1/games/nope/history/"), 404)
    assert_problem(APIClient().get("/api/v1/no-such-thing/"), 404)


def test_the_list_is_by_date_of_play_newest_first_through_every_page() -> None:
    owner = UserFactory.create()
    club = ClubFactory.create(organiser=owner)
    day = datetime.datetime(2026, 11, 20, 19, 0, tzinfo=datetime.UTC)
    # Entered in this order, played in another; two at the same moment, ordered by id.
    played = [
        day,
        day - datetime.timedelta(days=7),
        day + datetime.timedelta(days=3),
        day,
        day - datetime.timedelta(days=1),
    ]
    games = [GameFactory.create(owner=owner, club=club) for _ in played]
    for game, when in zip(games, played, strict=True):
        Game.objects.filter(pk=game.pk).update(played_at=when)
    expected = [
        g.public_id for g in sorted(games, key=lambda g: (played[games.index(g)], g.pk), reverse=True)
    ]
    assert expected != [g.public_id for g in reversed(games)]  # not the order of entry
    client = client_for(owner)
    seen: list[str] = []
    page = f"/api/v1/games/?club={club.slug}&page_size=2"
    while page:
        answer = client.get(page)
        assert answer.status_code == 200, answer.content
        seen += [g["public_id"] for g in answer.json()["results"]]
        page = answer.json()["next"]
    assert seen == expected
    listed = client.get(f"/api/v1/games/?club={club.slug}").json()["results"]
    assert [g["played_at"] for g in listed] == sorted((g["played_at"] for g in listed), reverse=True)


def test_the_list_shows_only_the_games_the_caller_may_see() -> None:
    owner, other, member = UserFactory.create(), UserFactory.create(), UserFactory.create()
    public = ClubFactory.create(organiser=owner)
    hidden = ClubFactory.create(organiser=owner)
    Club.objects.filter(pk=hidden.pk).update(visibility=Club.Visibility.MEMBERS)
    hidden.refresh_from_db()
    add_member(hidden, member)
    in_public = GameFactory.create(owner=owner, club=public)
    in_hidden = GameFactory.create(owner=owner, club=hidden)
    private = GameFactory.create(owner=owner)
    others = GameFactory.create(owner=other)

    def listed(client: APIClient, query: str = "") -> set[str]:
        response = client.get("/api/v1/games/" + query)
        assert response.status_code == 200, response.content
        return {g["public_id"] for g in response.json()["results"]}

    assert listed(APIClient()) == {in_public.public_id}
    assert listed(client_for(member)) == {in_public.public_id, in_hidden.public_id}
    assert listed(client_for(owner)) == {in_public.public_id, in_hidden.public_id, private.public_id}
    assert listed(client_for(other)) == {in_public.public_id, others.public_id}
    assert listed(client_for(bearer=others.edit_token)) == {in_public.public_id, others.public_id}
    assert listed(client_for(owner), f"?club={hidden.slug}") == {in_hidden.public_id}
    assert listed(client_for(owner), "?family=gin") == set()
    seat_player = private.seats.get(name="Ann").player_id
    assert listed(client_for(owner), f"?player={seat_player}") == {private.public_id}
    assert listed(client_for(owner), "?finished=false") == {
        in_public.public_id,
        in_hidden.public_id,
        private.public_id,
    }
    assert listed(client_for(owner), "?finished=true") == set()
    assert listed(client_for(owner), "?since=2000-01-01&until=2999-01-01") == {
        in_public.public_id,
        in_hidden.public_id,
        private.public_id,
    }
    item = client_for(owner).get(f"/api/v1/games/?club={public.slug}").json()["results"][0]
    assert item["club"] == public.slug and item["hands"] == 0
    assert [p["name"] for p in item["players"]] == ["Ann", "Bob", "Cid"]
    assert_problem(APIClient().get("/api/v1/games/?family=poker"), 400, "invalid")
    assert_problem(APIClient().get("/api/v1/games/?since=yesterday"), 400, "invalid")
    assert_problem(APIClient().get("/api/v1/games/?player=x"), 400, "invalid")


def test_a_members_only_club_is_not_named_to_outsiders_reading_its_game() -> None:
    owner = UserFactory.create()
    hidden = ClubFactory.create(organiser=owner)
    Club.objects.filter(pk=hidden.pk).update(visibility=Club.Visibility.MEMBERS)
    hidden.refresh_from_db()
    game = GameFactory.create(owner=owner, club=hidden)
    assert APIClient().get(url(game)).json()["club"] is None
    assert client_for(owner).get(url(game)).json()["club"] == hidden.slug


# --- creating -------------------------------------------------------------------------------


def test_starting_a_game_answers_it_with_its_edit_link() -> None:
    user = UserFactory.create()
    body = {"family": "zoliky", "options": {}, "players": ["Ann", "Bob", "Cid"], "first_dealer": 1}
    response = client_for(user).post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    game = Game.objects.get(public_id=data["public_id"])
    assert game.owner == user and game.first_dealer == 1
    assert data["edit_url"].endswith("#" + game.edit_token)
    assert data["next_dealer"] == "Bob"
    # The edit link works as a bearer token on that game.
    assert record(client_for(bearer=game.edit_token), game).status_code == 201


def test_starting_a_game_checks_its_input() -> None:
    user = UserFactory.create()
    client = client_for(user)
    bad = assert_problem(
        client.post("/api/v1/games/", {"family": "poker", "players": ["A", "B"]}, format="json"), 400
    )
    assert "family" in bad["fields"]
    twice = client.post(
        "/api/v1/games/", {"family": "zoliky", "players": ["Ann", "ann", "Bob"]}, format="json"
    )
    assert_problem(twice, 400, "duplicate_player")
    dealer = client.post(
        "/api/v1/games/", {"family": "gin", "players": ["A", "B"], "first_dealer": 5}, format="json"
    )
    assert "first_dealer" in assert_problem(dealer, 400, "invalid")["fields"]
    assert Game.objects.count() == 0


def test_a_club_game_needs_a_scorekeeper() -> None:
    organiser, keeper, member = UserFactory.create(), UserFactory.create(), UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    add_member(club, keeper, Membership.Role.SCOREKEEPER)
    add_member(club, member)
    body = {"family": "gin", "players": ["Ann", "Bob"], "club": club.slug}
    assert client_for(keeper).post("/api/v1/games/", body, format="json").status_code == 201
    assert_problem(client_for(member).post("/api/v1/games/", body, format="json"), 403, "permission_denied")
    missing = client_for(keeper).post("/api/v1/games/", {**body, "club": "nope"}, format="json")
    assert "club" in assert_problem(missing, 400, "invalid")["fields"]
    assert Game.objects.filter(club=club).count() == 1


def test_a_read_only_token_or_an_edit_link_cannot_start_a_game() -> None:
    user = UserFactory.create()
    game = GameFactory.create(owner=user)
    body = {"family": "gin", "players": ["Ann", "Bob"]}
    assert_problem(client_for(bearer=token(user, "read")).post("/api/v1/games/", body, format="json"), 403)
    assert_problem(client_for(bearer=game.edit_token).post("/api/v1/games/", body, format="json"), 403)
    created = client_for(bearer=token(user, "write")).post("/api/v1/games/", body, format="json")
    assert created.status_code == 201
    assert Game.objects.count() == 2


# --- who may write --------------------------------------------------------------------------


def test_who_may_record_a_hand() -> None:
    owner, keeper, member, outsider = (UserFactory.create() for _ in range(4))
    club = ClubFactory.create(organiser=owner)
    add_member(club, keeper, Membership.Role.SCOREKEEPER)
    add_member(club, member)
    game = GameFactory.create(owner=owner, club=club)
    other = GameFactory.create(owner=outsider)

    assert_problem(record(APIClient(), game), 401, "not_authenticated")
    assert_problem(record(client_for(member), game), 403, "permission_denied")
    assert_problem(record(client_for(outsider), game), 403)
    assert_problem(record(client_for(bearer=token(owner, "read")), game), 403, "permission_denied")
    assert_problem(record(client_for(bearer=other.edit_token), game), 403)
    assert Hand.objects.count() == 0

    assert client_for(member).get(url(game)).status_code == 200
    assert client_for(bearer=token(owner, "read")).get(url(game, "hands/")).status_code == 200
    for client in (
        client_for(owner),
        client_for(keeper),
        client_for(bearer=token(owner, "write")),
        client_for(bearer=game.edit_token),
    ):
        assert record(client, game).status_code == 201
    assert game.hands.count() == 4


def test_a_session_holding_the_edit_link_records() -> None:
    game = GameFactory.create()
    client = APIClient()
    # The site's edit-link page grants the browser's session; do the same here.
    session_owner = client.session
    request = RequestFactory().get("/")
    request.session = session_owner
    grant_edit(request=request, game=game)
    session_owner.save()
    client.cookies["sessionid"] = session_owner.session_key or ""
    assert record(client, game).status_code == 201
    listed = client.get("/api/v1/games/").json()["results"]
    assert [g["public_id"] for g in listed] == [game.public_id]


# --- hands ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", list(OUTCOMES))
def test_record_in_every_family(family: str) -> None:
    owner = UserFactory.create()
    players, outcome, points = OUTCOMES[family]
    game = GameFactory.create(owner=owner, family=family, players=players)
    response = record(client_for(owner), game, outcome)
    assert response.status_code == 201, response.content
    assert response.json()["points"] == points
    assert response["Location"].endswith(f"/games/{game.public_id}/hands/1/")


def test_record_correct_delete_and_undo_round_trip() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    created = record(client, game, key=str(uuid.uuid4()))
    assert created.status_code == 201
    hand = client.get(url(game, "hands/1/"))
    assert hand.status_code == 200 and hand.json()["version"] == 1
    tag = hand["ETag"]
    assert tag == created["ETag"]

    corrected = client.put(url(game, "hands/1/"), CORRECTED, format="json", HTTP_IF_MATCH=tag)
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["points"] == {"Ann": 4, "Bob": -20, "Cid": 12}
    assert corrected.json()["version"] == 2 and corrected["ETag"] != tag
    assert client.get(url(game)).json()["totals"] == {"Ann": 4, "Bob": -20, "Cid": 12}

    deleted = client.delete(url(game, "hands/1/"), HTTP_IF_MATCH=corrected["ETag"])
    assert deleted.status_code == 204
    assert_problem(client.get(url(game, "hands/1/")), 404, "hand_gone")
    assert client.get(url(game, "hands/")).json() == []

    history = client.get(url(game, "history/")).json()["results"]
    assert [c["action"] for c in history] == ["deleted", "edited", "added"]
    assert all(c["undoable"] for c in history) and history[0]["hand"] == 1
    undone = client.post(url(game, f"history/{history[0]['id']}/undo/"))
    assert undone.status_code == 201, undone.content
    assert undone.json()["undoes"] == history[0]["id"] and undone.json()["action"] == "added"
    assert client.get(url(game)).json()["totals"] == {"Ann": 4, "Bob": -20, "Cid": 12}
    history = client.get(url(game, "history/")).json()["results"]
    assert history[1]["undone"] is True and history[1]["undoable"] is False
    again = client.post(url(game, f"history/{history[1]['id']}/undo/"))
    assert_problem(again, 400, "already_undone")
    assert_problem(client.post(url(game, "history/999999/undo/")), 404)


def test_a_resend_with_the_same_idempotency_key_records_one_hand() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    key = str(uuid.uuid4())
    first = record(client, game, key=key)
    again = record(client, game, key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert game.hands.count() == 1 and Change.objects.filter(game=game).count() == 1
    assert_problem(record(client, game, key="not-a-uuid"), 400, "idempotency_key")
    # Only the schema's form of a UUID: bare hex, braces, a URN or an empty header are refused
    # and record nothing.
    bare = uuid.uuid4()
    for malformed in (bare.hex, f"{{{bare}}}", bare.urn, ""):
        assert_problem(record(client, game, key=malformed), 400, "idempotency_key")
    assert game.hands.count() == 1


def test_corrections_need_a_current_if_match() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    tag = record(client, game)["ETag"]
    assert_problem(client.put(url(game, "hands/1/"), CORRECTED, format="json"), 428, "precondition_required")
    assert_problem(client.delete(url(game, "hands/1/")), 428)

    # Two phones correct the same version: one wins, the other is told what is stored now.
    first = client.put(url(game, "hands/1/"), CORRECTED, format="json", HTTP_IF_MATCH=tag)
    second = client.put(url(game, "hands/1/"), ZOLIKY, format="json", HTTP_IF_MATCH=tag)
    assert first.status_code == 200
    stale = assert_problem(second, 412, "stale_edit")
    assert stale["current"]["outcome"] == CORRECTED and stale["current"]["version"] == 2
    assert stale["etag"] == first["ETag"]
    assert_problem(client.delete(url(game, "hands/1/"), HTTP_IF_MATCH=tag), 412, "stale_edit")
    assert game.hands.get().version == 2


def test_an_invalid_outcome_is_a_400_problem_with_the_engines_code() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    unknown = assert_problem(record(client, game, {"closer": "Zed", "left": {"Bob": 1, "Cid": 2}}), 400)
    assert unknown["code"] not in ("invalid", "server_error")
    for junk in (
        {"closer": 5, "left": "x"},
        {"closer": "Ann", "left": {"Bob": -4, "Cid": None}},
        {"closer": "Ann", "left": {"Bob": "ZZ", "Cid": 2}},
        {},
    ):
        assert_problem(record(client, game, junk), 400)
    assert_problem(client.post(url(game, "hands/"), ["a"], format="json"), 400, "invalid")
    assert_problem(client.post(url(game, "hands/"), {"closer": "Ann"}), 415)
    assert game.hands.count() == 0


def test_ending_and_reopening() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    record(client, game)
    key = str(uuid.uuid4())
    ended = client.post(url(game, "end/"), HTTP_IDEMPOTENCY_KEY=key)
    assert ended.status_code == 200 and ended.json()["ended"] is True and ended.json()["finished"] is True
    assert client.post(url(game, "end/"), HTTP_IDEMPOTENCY_KEY=key).status_code == 200
    assert Change.objects.filter(game=game, action="ended").count() == 1
    assert_problem(record(client, game), 400, "game_ended")
    assert_problem(APIClient().post(url(game, "reopen/")), 401)
    reopened = client.post(url(game, "reopen/"))
    assert reopened.status_code == 200 and reopened.json()["ended"] is False
    assert record(client, game).status_code == 201


def test_a_session_link_write_from_another_site_is_refused_without_csrf() -> None:
    game = GameFactory.create()
    client = APIClient(enforce_csrf_checks=True)
    session = client.session
    request = RequestFactory().get("/")
    request.session = session
    grant_edit(request=request, game=game)
    session.save()
    client.cookies["sessionid"] = session.session_key or ""
    assert_problem(client.post(url(game, "end/")), 403)
    assert not Game.objects.get(pk=game.pk).ended


def test_a_game_can_be_started_without_an_account_and_kept_by_its_link() -> None:
    created = APIClient().post("/api/v1/games/", {"family": "gin", "players": ["Ann", "Bob"]}, format="json")
    assert created.status_code == 201
    game = Game.objects.get(public_id=created.json()["public_id"])
    assert game.owner is None and created.json()["edit_url"].endswith(game.edit_token)
    outcome = OUTCOMES["gin"][1]
    assert record(client_for(bearer=game.edit_token), game, outcome).status_code == 201
    assert_problem(record(APIClient(), game, outcome), 401)
