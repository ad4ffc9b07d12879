"""What the schema forbids the API refuses, and what it allows the API takes: the mismatches
the stateful fuzzing found, each pinned (tests/api/test_fuzz.py finds new ones)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament

pytestmark = pytest.mark.django_db


def test_a_body_member_of_another_type_is_refused_at_the_member() -> None:
    url = "/api/v1/engine/check-meld/"
    melds = "AS 2S 3S 4S | QH QD QC | KH KD KC"
    refused = APIClient().post(url, {"family": "zoliky", "melds": melds, "opening": 0}, format="json")
    assert refused.status_code == 400
    assert "opening" in refused.json()["fields"]
    taken = APIClient().post(url, {"family": "zoliky", "melds": melds, "opening": True}, format="json")
    assert taken.status_code == 200


def test_bodies_are_json_only() -> None:
    answer = APIClient().post("/api/v1/engine/check-meld/", {"family": "zoliky", "melds": "AS 2S 3S"})
    assert answer.status_code == 415


@pytest.mark.parametrize(
    "query", ["until=", "family=", "since=", "finished=maybe", "page_size=0", "page_size=201"]
)
def test_game_list_parameters_the_schema_forbids_are_refused(query: str) -> None:
    answer = APIClient().get(f"/api/v1/games/?{query}")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid"


def test_the_schema_states_the_bounds_and_formats_the_api_enforces() -> None:
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    games = schema["paths"]["/api/v1/games/"]["get"]["parameters"]
    size = next(p for p in games if p["name"] == "page_size")["schema"]
    assert (size["minimum"], size["maximum"]) == (1, 200)
    end = schema["paths"]["/api/v1/games/{public_id}/end/"]["post"]["parameters"]
    key = next(p for p in end if p["name"] == "Idempotency-Key")["schema"]
    assert key == {"type": "string", "format": "uuid"}
    seat = schema["paths"]["/api/v1/tournaments/{public_id}/seat/"]["get"]["parameters"]
    assert next(p for p in seat if p["name"] == "q")["schema"]["minLength"] == 1


def test_a_blank_seat_search_is_refused_as_the_schema_says() -> None:
    organiser = UserFactory.create()
    cup = tournament(ClubFactory.create(organiser=organiser), organiser, 4)
    assert APIClient().get(f"/api/v1/tournaments/{cup.public_id}/seat/?q=").status_code == 400
    assert APIClient().get(f"/api/v1/tournaments/{cup.public_id}/seat/?q=a").status_code == 200
