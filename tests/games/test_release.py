"""After a release that changes only a template, a server shows the new drawing: nothing drawn
by the earlier release outlives its process (games.sheets.cache)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from games.models import Game
from games.services.hands import hand_record
from games.sheets import cache as sheet_cache
from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

MARK = "drawn-by-the-new-release"


def released(settings: Any, tmp_path: Path, name: str) -> None:
    """The release: ``name`` changed (it now ends with MARK), and the servers restarted."""
    source = Path(django_settings.BASE_DIR) / "templates" / name
    changed = tmp_path / name
    changed.parent.mkdir(parents=True, exist_ok=True)
    changed.write_text(source.read_text() + f"<p>{MARK}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    sheet_cache.forget_local()  # what a new process starts with


def played() -> Game:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    hand = {"winner": "Ann", "left": {"Bob": 7, "Cid": 9}}
    hand_record(game=game, outcome=hand, request_id=uuid.uuid4(), user=None)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("path", ["/g/{}/", "/g/{}/live/"])
def test_a_changed_sheet_template_shows_on_the_page_after_a_restart(
    path: str, settings: Any, tmp_path: Path
) -> None:
    game = played()
    url = path.format(game.public_id)
    before = Client().get(url)  # every server drew this version of the game before the release
    assert before.status_code == 200 and MARK not in before.content.decode()
    released(settings, tmp_path, "games/_totals.html")
    after = Client().get(url)
    assert after.status_code == 200 and MARK in after.content.decode()


def test_a_changed_hand_form_shows_to_the_scorekeeper_after_a_restart(settings: Any, tmp_path: Path) -> None:
    game = played()
    url = f"/g/{game.public_id}/"
    before = editor(game).get(url)
    assert 'name="points_1"' in before.content.decode() and MARK not in before.content.decode()
    released(settings, tmp_path, "games/_hand_form_fields.html")
    after = editor(game).get(url).content.decode()
    assert 'name="points_1"' in after and MARK in after
