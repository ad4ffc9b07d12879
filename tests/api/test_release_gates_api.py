"""Release gates in the API: before a round's seating is published, no read of anyone but the
organisers gives its tables, seats or byes (the tournament, its rounds, the round, "where do I
sit", a player's rounds, the history, the signed-in home); the organisers publish it with one
request (If-Match, Idempotency-Key), and frozen standings are revealed alike."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Club, Membership, Player
from games.services.players import player_claim
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import play_round, tournament
from tournaments.models import Round, TableSeat, Tournament, TournamentChange
from tournaments.services.round_seating import round_seat
from tournaments.tournament_data import compute_standings, data_upto, tournament_data

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _client(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _setup() -> tuple[Tournament, User, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 9, hide_seating=True, date=timezone.localdate())
    me = UserFactory.create()
    add_member(club, me, Membership.Role.MEMBER)
    player_claim(player=Player.objects.get(club=club, name="Anna"), user=me, claim=True)
    round_seat(tournament=cup, number=1, user=organiser)
    return cup, organiser, me


def _reads(cup: Tournament, client: APIClient) -> dict[str, Any]:
    base = f"{API}/tournaments/{cup.public_id}"
    anna = TableSeat.objects.filter(table__round__tournament=cup, entry__player__name="Anna").first()
    entry = anna.entry_id if anna else cup.entries.get(player__name="Anna").pk
    answers = {
        "tournament": client.get(f"{base}/"),
        "rounds": client.get(f"{base}/rounds/"),
        "round": client.get(f"{base}/rounds/1/"),
        "seat": client.get(f"{base}/seat/", {"q": "Anna"}),
        "player": client.get(f"{base}/players/{entry}/"),
        "history": client.get(f"{base}/history/"),
    }
    out = {}
    for name, response in answers.items():
        assert response.status_code == 200, (name, response.content)
        out[name] = response.json()
    return out


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_nothing_of_a_round_not_published_leaks_to_players(who: str) -> None:
    cup, _organiser, me = _setup()
    client = _client(me if who == "member" else None)
    got = _reads(cup, client)
    summary = got["tournament"]["played_rounds"][0]
    assert (summary["published"], summary["table_count"], summary["byes"]) == (False, 0, [])
    assert got["tournament"]["hide_seating"] is True
    listed = got["rounds"]["rounds"][0]
    assert (listed["published"], listed["table_count"], listed["byes"]) == (False, 0, [])
    assert (got["round"]["tables"], got["round"]["byes"], got["round"]["published"]) == ([], [], False)
    [anna] = got["seat"]["results"]
    assert (anna["table"], anna["seat"], anna["bye"], anna["published"]) == (None, None, False, False)
    first = got["player"]["rounds"][0]
    assert (first["table"], first["seat"], first["bye"], first["published"]) == (None, None, False, False)
    seated = [i for i in got["history"]["items"] if i["action"] == "seated"]
    assert seated and all(set(i["details"]) == {"round"} for i in seated)
    if who == "member":
        home = client.get(f"{API}/me/home/").json()
        [tonight] = home["tournaments"]
        assert (tonight["table"], tonight["seat"], tonight["bye"], tonight["published"]) == (
            None,
            None,
            False,
            False,
        )
        assert tonight["table_url"] is None


def test_the_organisers_see_publish_and_then_everyone_sees() -> None:
    cup, organiser, me = _setup()
    base = f"{API}/tournaments/{cup.public_id}"
    org = _client(organiser)
    theirs = org.get(f"{base}/rounds/1/")
    body = theirs.json()
    assert len(body["tables"]) == 3 and body["published"] is False
    # A player cannot publish it.
    refused = _client(me).post(f"{base}/rounds/1/publish/", {}, format="json", HTTP_IF_MATCH=theirs["ETag"])
    assert refused.status_code == 403
    key = str(uuid.uuid4())
    done = org.post(
        f"{base}/rounds/1/publish/",
        {"published": True},
        format="json",
        HTTP_IF_MATCH=theirs["ETag"],
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert done.status_code == 200, done.content
    assert done.json()["published"] is True
    again = org.post(
        f"{base}/rounds/1/publish/",
        {"published": True},
        format="json",
        HTTP_IF_MATCH=theirs["ETag"],
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert again.status_code == 200
    assert TournamentChange.objects.filter(tournament=cup, action="published").count() == 1
    stale = org.post(
        f"{base}/rounds/1/publish/", {"published": False}, format="json", HTTP_IF_MATCH=theirs["ETag"]
    )
    assert stale.status_code == 412

    got = _reads(cup, _client(me))
    assert len(got["round"]["tables"]) == 3 and got["round"]["published"] is True
    [anna] = got["seat"]["results"]
    assert anna["table"] is not None and anna["published"] is True
    tonight = _client(me).get(f"{API}/me/home/").json()["tournaments"][0]
    assert tonight["table"] is not None and tonight["published"] is True
    assert any(i["action"] == "published" for i in got["history"]["items"])


def test_frozen_standings_in_the_api_and_their_reveal() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8, rounds=3, freeze_rounds=1)
    for number in (1, 2, 3):
        play_round(cup, number, organiser)
    url = f"{API}/tournaments/{cup.public_id}/standings/"
    public = _client().get(url).json()
    stood = compute_standings(data_upto(tournament_data(cup), 2))
    assert [(r["entry"], r["rank"], r["points"]) for r in public["rows"]] == [
        (s.player, s.rank, str(s.points)) for s in stood
    ]
    assert (public["public"], public["hidden"], public["stood_after"]) == (True, False, 2)
    org = _client(organiser)
    theirs = org.get(url).json()
    live = compute_standings(tournament_data(cup))
    assert [(r["entry"], r["points"]) for r in theirs["rows"]] == [(s.player, str(s.points)) for s in live]
    assert theirs["public"] is False
    tag = org.get(f"{API}/tournaments/{cup.public_id}/")["ETag"]
    assert _client().post(f"{url}reveal/", {}, format="json", HTTP_IF_MATCH=tag).status_code in (401, 403)
    revealed = org.post(
        f"{url}reveal/",
        {"revealed": True},
        format="json",
        HTTP_IF_MATCH=tag,
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert revealed.status_code == 200, revealed.content
    assert revealed.json()["public"] is True
    after = _client().get(url).json()
    assert [(r["entry"], r["points"]) for r in after["rows"]] == [(s.player, str(s.points)) for s in live]
    assert after["stood_after"] is None
    assert Round.objects.filter(tournament=cup).count() == 3
