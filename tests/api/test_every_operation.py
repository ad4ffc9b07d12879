"""The operations of the schema the other API tests leave out, each called the way a client
would and answering as documented: reads of a club (audit log, freshness of derived numbers,
ratings as CSV), of a game (chances, rules, timer, a Žolíky evening), of a season as CSV, a player's
sessions, a member's reset link, the door of a tournament, a final seated and taken back, and
the engine's layoffs and card values. With ``--record-api`` every operation is then recorded."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Membership
from tests.factories import GameFactory, UserFactory, add_member
from tests.tournaments.support import play_round, small_league, tournament

pytestmark = pytest.mark.django_db
API = "/api/v1"
PASSWORD = "table-Secret-1"  # tests.factories.UserFactory's


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _csv(response: Any) -> list[list[str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


@pytest.fixture
def league() -> dict[str, Any]:
    return small_league()


def test_a_club_s_audit_log_freshness_and_rating_list(league: dict[str, Any]) -> None:
    club, client = league["club"], _client(league["organiser"])
    audit = client.get(f"{API}/clubs/{club.slug}/audit/")
    assert audit.status_code == 200, audit.content
    assert isinstance(audit.json()["results"], list)
    assert _csv(client.get(f"{API}/clubs/{club.slug}/audit/export/"))[0]
    derived = client.get(f"{API}/clubs/{club.slug}/derived/")
    assert derived.status_code == 200, derived.content
    assert isinstance(derived.json(), dict) and derived.json()
    rows = _csv(client.get(f"{API}/clubs/{club.slug}/ratings/csv/?family=rummikub"))
    assert {"Ann", "Bob", "Cid", "Dan"} <= {cell for row in rows[1:] for cell in row}
    assert APIClient().get(f"{API}/clubs/{club.slug}/audit/").status_code in (401, 403)


def test_a_club_game_s_chances_evening_rules_and_timer(league: dict[str, Any]) -> None:
    game, client = league["games"][0], _client(league["organiser"])
    base = f"{API}/games/{game.public_id}"
    for tail in ("chances/", "rules/", "timer/"):
        response = client.get(f"{base}/{tail}")
        assert response.status_code == 200, (tail, response.content)
        assert isinstance(response.json(), dict) and response.json(), tail
    assert client.get(f"{API}/games/nosuchgame00/rules/").status_code == 404
    # An evening is settled in crowns: Žolíky only.
    assert client.get(f"{base}/evening/").status_code == 404
    zoliky = GameFactory.create(family="zoliky", owner=league["organiser"])
    hand = {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}}
    recorded = client.post(f"{API}/games/{zoliky.public_id}/hands/", hand, format="json")
    assert recorded.status_code == 201, recorded.content
    evening = client.get(f"{API}/games/{zoliky.public_id}/evening/")
    assert evening.status_code == 200, evening.content
    assert isinstance(evening.json(), dict) and evening.json()


def test_a_season_s_standings_and_a_league_card_as_csv(league: dict[str, Any]) -> None:
    season, client = league["season"], _client(league["organiser"])
    rows = _csv(client.get(f"{API}/seasons/{season.public_id}/csv/"))
    assert len(rows) >= 5 and {"Ann", "Dan"} <= {cell for row in rows for cell in row}
    player = league["club"].players.get(name="Ann")
    card = _csv(client.get(f"{API}/seasons/{season.public_id}/players/{player.pk}/csv/"))
    assert len(card) >= 2
    assert client.get(f"{API}/seasons/{season.public_id}/players/0/csv/").status_code == 404


def test_a_member_s_reset_link(league: dict[str, Any]) -> None:
    club, client = league["club"], _client(league["organiser"])
    member = add_member(club, UserFactory.create(username="member"))
    response = client.post(f"{API}/clubs/{club.slug}/members/{member.pk}/reset-link/")
    assert response.status_code == 201, response.content
    assert isinstance(response.json(), dict) and response.json()
    own = Membership.objects.get(club=club, user=league["organiser"])
    refused = client.post(f"{API}/clubs/{club.slug}/members/{own.pk}/reset-link/")
    assert refused.status_code == 403 and refused.json()["code"] == "reset_not_allowed"


def test_my_sessions_listed_one_ended_then_all_others() -> None:
    user = UserFactory.create(username="traveller")
    phones = [Client(), Client(), Client()]
    for phone in phones:
        assert phone.login(username="traveller", password=PASSWORD)
    listed = phones[0].get(f"{API}/me/sessions/")
    assert listed.status_code == 200, listed.content
    sessions = listed.json()["results"] if isinstance(listed.json(), dict) else listed.json()
    assert len(sessions) == 3 and sum(1 for row in sessions if row["current"]) == 1
    other = next(row for row in sessions if not row["current"])
    assert phones[0].delete(f"{API}/me/sessions/{other['id']}/").status_code == 204
    assert phones[0].delete(f"{API}/me/sessions/{other['id']}/").status_code == 404
    ended = phones[0].post(f"{API}/me/sessions/end-others/")
    assert ended.status_code == 200, ended.content
    after = phones[0].get(f"{API}/me/sessions/").json()
    assert len(after["results"] if isinstance(after, dict) else after) == 1
    assert user.pk


def test_the_door_opened_a_final_seated_and_taken_back(league: dict[str, Any]) -> None:
    club, organiser = league["club"], league["organiser"]
    client = _client(organiser)
    cup = tournament(
        club, organiser, players=6, rounds=1, final="table", final_size=4, final_counts="decides"
    )
    base = f"{API}/tournaments/{cup.public_id}"
    door = client.get(f"{base}/door/")
    assert door.status_code == 200, door.content
    assert door.json()["open"] is False
    assert client.post(f"{base}/door/", {"open": True}, format="json").status_code == 428
    opened = client.post(f"{base}/door/", {"open": True}, format="json", HTTP_IF_MATCH=door["ETag"])
    assert opened.status_code == 200, opened.content
    assert opened.json()["open"] is True

    play_round(cup, 1, organiser)
    final = client.post(f"{base}/final/", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    assert final.status_code == 201, final.content
    number = final.json()["number"]
    assert number == 2
    stage = client.get(f"{base}/rounds/{number}/")
    assert stage.status_code == 200, stage.content
    undone = client.post(f"{base}/rounds/{number}/final-undo/", HTTP_IF_MATCH=stage["ETag"])
    assert undone.status_code == 204, undone.content
    assert client.get(f"{base}/rounds/{number}/").status_code == 404


def test_the_engine_s_layoffs_and_card_values() -> None:
    client = APIClient()
    layoffs = client.post(
        f"{API}/engine/layoffs/", {"knocker_melds": "7H 8H 9H|KS KD KC", "hand": "TH 2C 3D"}, format="json"
    )
    assert layoffs.status_code == 200, layoffs.content
    assert isinstance(layoffs.json(), dict) and layoffs.json()
    value = client.post(f"{API}/engine/value/", {"family": "zoliky", "cards": "KH 5S JK"}, format="json")
    assert value.status_code == 200, value.content
    assert isinstance(value.json(), dict) and value.json()
    bad = client.post(f"{API}/engine/value/", {"family": "zoliky", "cards": "ZZ"}, format="json")
    assert bad.status_code == 400
