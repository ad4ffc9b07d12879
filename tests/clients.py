"""Test clients in the roles the site knows."""

from __future__ import annotations

from django.test import Client

from games.models import Game


def editor(game: Game) -> Client:
    """A phone that opened the game's edit link (no account): it may record hands."""
    client = Client()
    assert client.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    return client
