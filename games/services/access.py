"""Who may change a game: its owner, or anyone holding its edit link (kept in the session)."""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from games.models import Game

SESSION_KEY = "editable_games"


def can_edit(*, request: HttpRequest, game: Game) -> bool:
    if game.owner_id is not None and request.user.is_authenticated and request.user.pk == game.owner_id:
        return True
    return game.public_id in request.session.get(SESSION_KEY, [])


def grant_edit(*, request: HttpRequest, game: Game) -> None:
    """Remember in this browser's session that it may edit ``game``."""
    editable = list(request.session.get(SESSION_KEY, []))
    if game.public_id not in editable:
        editable.append(game.public_id)
        request.session[SESSION_KEY] = editable[-200:]


def token_matches(*, game: Game, token: str) -> bool:
    return secrets.compare_digest(game.edit_token.encode(), token.encode())


def session_game_ids(*, request: HttpRequest) -> list[str]:
    return list(request.session.get(SESSION_KEY, []))
