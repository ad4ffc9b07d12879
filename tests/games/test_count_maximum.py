"""A count no hand can hold is refused at its field, on the pages and in the API, naming the
most a hand can hold; nothing is recorded."""

from __future__ import annotations

import html as htmllib
import re
import uuid

import pytest

from games.models import Hand
from tests.api.test_games_api import assert_problem, client_for, record
from tests.factories import GameFactory, UserFactory
from tests.games.test_views import editor

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("prefix", "said"),
    [
        ("", "Cid cannot have 2000 in hand: no hand can hold more than 168"),
        ("/cs", "Cid nemůže mít v ruce 2000: žádná ruka nemá víc než 168"),
    ],
)
def test_the_page_names_the_maximum_at_the_field(prefix: str, said: str) -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    response = client.post(
        f"{prefix}/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Bob", "points_0": "12", "points_2": "2000"},
    )
    assert response.status_code == 200
    html = htmllib.unescape(response.content.decode())
    alerts = re.findall(r'role="alert">\s*([^<]+)<', html)
    assert any(said in alert for alert in alerts), alerts
    field = html[html.index('name="points_2"') :]
    assert said in field[: field.index("</fieldset>") if "</fieldset>" in field else 2000]
    assert not Hand.objects.exists()


def test_the_api_refuses_with_a_code_and_the_maximum() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    client = client_for(owner)
    body = assert_problem(
        record(client, game, {"closer": "Bob", "left": {"Ann": 12, "Cid": 2000}}), 400, "count_too_high"
    )
    assert "168" in body["message"]
    assert game.hands.count() == 0
    assert record(client, game, {"closer": "Bob", "left": {"Ann": 12, "Cid": 168}}).status_code == 201
