"""The meld check page under the rules as the source states them: jokers in Žolíky groups,
and a run round the corner told apart from an ace that is not high, in the page's language."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def check(
    client: Client, melds: str, *, family: str = "zoliky", language: str = "en", **options: object
) -> str:
    game = GameFactory.create(family=family, options=options)
    prefix = "" if language == "en" else f"/{language}"
    response = client.get(f"{prefix}/g/{game.public_id}/check/", {"melds": melds})
    assert response.status_code == 200
    return response.content.decode()


def test_a_zoliky_group_may_hold_two_jokers(client: Client) -> None:
    assert "at most half" not in check(client, "5H JK JK")
    assert "at most half" in check(client, "5H JK JK", half_jokers_groups=True)
    assert "at most half" in check(client, "9H TH JK JK JK")  # a run stays limited


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "round the corner from the king to the ace"),
        ("cs", "přes roh od krále k esu"),
        ("sk", "cez roh od kráľa k esu"),
        ("pl", "od króla do asa"),
        ("nb", "fra kongen til esset"),
    ],
)
def test_a_run_round_the_corner_says_so(client: Client, language: str, said: str) -> None:
    page = check(client, "R13 JK R2", family="rummikub", language=language)
    assert said in page
