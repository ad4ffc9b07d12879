"""A hand-entry page with all its assets stays light for a phone on poor Wi-Fi."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.factories import GameFactory

LIMIT = 150 * 1024


@pytest.mark.django_db
@pytest.mark.parametrize("family", ["zoliky", "gin", "carousel", "rummikub"])
def test_hand_entry_page_with_assets_is_under_150_kb(family: str) -> None:
    game = GameFactory.create(
        family=family, players=["Ann", "Bob"] if family == "gin" else ["A", "B", "C", "D"]
    )
    client = Client()
    client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    html = client.get(f"/g/{game.public_id}/").content
    assert b'name="request_id"' in html  # the hand form is on the page
    assets = re.findall(rb'(?:src|href)="/static/([^"]+)"', html)
    assert any(a.endswith(b".css") for a in assets) and any(a.endswith(b".js") for a in assets)
    sizes = {}
    for asset in assets:
        path = finders.find(asset.decode())
        assert path, asset
        with open(path, "rb") as handle:
            sizes[asset] = len(handle.read())
    total = len(html) + sum(sizes.values())
    assert total < LIMIT, (total, sizes)
