"""The engine over HTTP: check melds, value cards, arrange a hand, gin layoffs. Anyone may
call them (nothing is written); bad rules or cards are 400 problems with the engine's code."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import ApiToken
from games.services.tokens import token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"


def post(url: str, body: dict[str, Any], client: APIClient | None = None) -> Any:
    return (client or APIClient()).post(f"/api/v1/engine/{url}/", body, format="json")


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["status"] == status and body["message"]
    return body


# ---------------------------------------------------------------------- check-meld


def test_check_meld_zoliky_opening_ok() -> None:
    response = post(
        "check-meld", {"family": "zoliky", "melds": "AS 2S 3S 4S | QH QD QC | KH KD KC", "opening": True}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and body["points"] == 10 + 30 + 30 and body["code"] is None
    assert [m["kind"] for m in body["melds"]] == ["run", "group", "group"]
    assert body["melds"][0]["cards"] == ["AS", "2S", "3S", "4S"]


def test_check_meld_reports_each_bad_meld() -> None:
    body = post("check-meld", {"family": "gin", "melds": "AS 2S 3S | 7H 8D 9C | ZZ"}).json()
    assert body["ok"] is False
    first, second, third = body["melds"]
    assert first["ok"] and first["points"] == 6
    assert not second["ok"] and second["code"] == "mixed_suits" and second["message"]
    assert not third["ok"] and third["code"] == "bad_token"
    assert body["code"] == "mixed_suits" and "meld 2" in body["message"]


def test_check_meld_opening_rule_and_options() -> None:
    low = post("check-meld", {"family": "zoliky", "melds": "AS 2S 3S", "opening": True}).json()
    assert low["ok"] is False and low["code"] == "opening_too_low" and low["melds"][0]["ok"]
    lowered = post(
        "check-meld",
        {"family": "zoliky", "options": {"opening_points": 5}, "melds": "AS 2S 3S", "opening": True},
    ).json()
    assert lowered["ok"] is True
    pure = post("check-meld", {"family": "zoliky", "melds": "JK 2S 3S | KH KD KC KS", "opening": True})
    assert pure.json()["code"] == "no_pure_run"


def test_check_meld_joker_identity_and_rummikub() -> None:
    body = post("check-meld", {"family": "zoliky", "melds": "JK 5H 6H"}).json()
    assert body["ok"] and body["melds"][0]["jokers"] == {"0": "7H"}
    tiles = post("check-meld", {"family": "rummikub", "melds": "R10 R11 R12", "opening": True}).json()
    assert tiles["ok"] and tiles["points"] == 33


def test_check_meld_carousel_copies_across_melds() -> None:
    body = post("check-meld", {"family": "carousel", "options": {"decks": 1}, "melds": "AS 2S 3S | AS AH AD"})
    data = body.json()
    assert data["ok"] is False and data["code"] == "too_many_copies"


# ---------------------------------------------------------------------- value


@pytest.mark.parametrize(
    ("family", "cards", "points"),
    [
        ("zoliky", "KH 5S JK AS", 10 + 5 + 15 + 11),
        ("gin", "KH 5S AS", 10 + 5 + 1),
        ("carousel", "7H JK", 7 + 25),
        ("rummikub", "R7 B13 JK", 7 + 13 + 30),
    ],
)
def test_value_per_family(family: str, cards: str, points: int) -> None:
    response = post("value", {"family": family, "cards": cards})
    assert response.status_code == 200 and response.json()["points"] == points


def test_value_with_an_option() -> None:
    body = post("value", {"family": "zoliky", "options": {"joker_penalty": 50}, "cards": "JK"}).json()
    assert body == {"points": 50, "cards": ["JK"]}


# ---------------------------------------------------------------------- arrange


def test_arrange_gin_knock_and_gin() -> None:
    body = post("arrange", {"family": "gin", "hand": "AS 2S 3S 4S 5H 5D 5C 7H 8H 9H KD"}).json()
    assert body["deadwood"] == ["KD"] and body["deadwood_points"] == 10
    assert body["knock"]["gin"] is True and body["knock"]["discard"] == "KD"
    assert body["opening"] is None
    ten = post("arrange", {"family": "gin", "hand": "AS 2S 3S 4S 5H 5D 5C 7H 8H KD"}).json()
    assert ten["knock"]["can_knock"] is False and ten["knock"]["deadwood_points"] == 25


def test_arrange_zoliky_opening() -> None:
    body = post("arrange", {"family": "zoliky", "hand": "AS 2S 3S 4S QH QD QC KH KD KC 9D"}).json()
    assert body["opening"]["possible"] is True and body["opening"]["required"] == 42
    assert body["opening"]["points"] >= 42 and body["deadwood"] == ["9D"]
    none = post("arrange", {"family": "zoliky", "hand": "AS 2S 3S 7D 9C"}).json()
    assert none["opening"]["possible"] is False and none["opening"]["code"] == "no_opening"
    assert none["opening"]["message"]


def test_arrange_rummikub_and_carousel() -> None:
    body = post("arrange", {"family": "rummikub", "hand": "R10 R11 R12 B3 K3 Y3 JK B1"}).json()
    assert body["opening"]["possible"] is True and body["deadwood"] == ["B1"]
    carousel = post("arrange", {"family": "carousel", "hand": "7H 8H JK KS"}).json()
    assert carousel["melds"] == [["7H", "8H", "JK=9H"]] and carousel["opening"] is None
    assert carousel["knock"] is None and carousel["deadwood_points"] == 10


def test_arrange_bounds_the_hand() -> None:
    tiles = " ".join(f"{c}{n}" for c in "RBKY" for n in range(1, 7))  # 24 tiles
    assert post("arrange", {"family": "rummikub", "hand": tiles}).status_code == 200
    body = assert_problem(post("arrange", {"family": "rummikub", "hand": tiles + " R7"}), 400, "invalid")
    assert "hand" in body["fields"]
    cards = " ".join(f"{v}S" for v in "A23456789TJQKA"[:13]) + " 2H 3H"  # 15 cards
    assert_problem(post("arrange", {"family": "zoliky", "hand": cards}), 400, "invalid")
    long_text = assert_problem(post("value", {"family": "gin", "cards": "AS " * 200}), 400, "invalid")
    assert "cards" in long_text["fields"]


# ---------------------------------------------------------------------- layoffs


def test_layoffs_chain_onto_a_run() -> None:
    body = post(
        "layoffs",
        {"knocker_melds": "JS QS KS | 4H 4D 4C", "hand": "TS 9S 4S 2D 3D 5H 7C 8C KD KH"},
    ).json()
    assert body["layoffs"] == [
        {"card": "TS", "meld": 0},
        {"card": "9S", "meld": 0},
        {"card": "4S", "meld": 1},
    ]
    assert body["deadwood_points"] == 2 + 3 + 5 + 7 + 8 + 10 + 10


def test_layoffs_against_gin_and_bad_knocker_melds() -> None:
    body = post(
        "layoffs",
        {"knocker_melds": "JS QS KS", "hand": "TS 9S 2D", "against_gin": True},
    ).json()
    assert body["layoffs"] == [] and body["deadwood_points"] == 10 + 9 + 2
    assert_problem(post("layoffs", {"knocker_melds": "JS QH KS", "hand": "TS"}), 400, "mixed_suits")
    assert_problem(post("layoffs", {"knocker_melds": "JS QS KS", "hand": "JS"}), 400, "too_many_copies")


# ---------------------------------------------------------------------- errors and access


def test_unknown_family_and_option_are_engine_problems() -> None:
    body = assert_problem(post("value", {"family": "poker", "cards": "AS"}), 400, "unknown_family")
    assert body["params"]["family"] == "poker"
    assert_problem(
        post("value", {"family": "gin", "options": {"jokers": 2}, "cards": "AS"}), 400, "unknown_option"
    )
    assert_problem(
        post("value", {"family": "gin", "options": {"knock_limit": 99}, "cards": "AS"}), 400, "option_range"
    )
    assert_problem(
        post("value", {"family": "gin", "options": {"ace_high": [1]}, "cards": "AS"}), 400, "option_not_bool"
    )


def test_bad_cards_and_bad_bodies() -> None:
    assert_problem(post("value", {"family": "gin", "cards": "AS JK"}), 400, "no_jokers")
    assert_problem(post("arrange", {"family": "gin", "hand": "AS XX"}), 400, "bad_token")
    body = assert_problem(post("value", {"family": "gin"}), 400, "invalid")
    assert "cards" in body["fields"]
    assert_problem(post("value", {"family": "gin", "options": "x", "cards": "AS"}), 400, "invalid")
    assert_problem(APIClient().get("/api/v1/engine/value/"), 405, "method_not_allowed")


def test_the_problem_carries_the_engine_message() -> None:
    body = assert_problem(post("value", {"family": "poker", "cards": "AS"}), 400, "unknown_family")
    assert body["message"] == body["title"] == "unknown rule family poker"


@pytest.mark.parametrize("scope", [ApiToken.Scope.READ, ApiToken.Scope.WRITE])
def test_tokens_of_either_scope_and_sessions_may_call(scope: str) -> None:
    user = UserFactory.create()
    _row, token = token_create(user=user, name="t", scope=scope)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert post("value", {"family": "gin", "cards": "AS"}, client).status_code == 200
    session = APIClient()
    session.force_login(user)
    assert post("value", {"family": "gin", "cards": "AS"}, session).status_code == 200


def test_a_bad_token_is_refused() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer rs_nope")
    assert_problem(post("value", {"family": "gin", "cards": "AS"}, client), 401, "not_authenticated")
