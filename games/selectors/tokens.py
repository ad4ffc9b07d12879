"""The API's bearer credentials as each request reads them: a personal token by its digest,
a game by its edit link."""

from __future__ import annotations

from games.models import ApiToken, Game


def api_token_by_digest(*, digest: str) -> ApiToken | None:
    """The token stored under ``digest``, revoked or not, with its user (1 query)."""
    return ApiToken.objects.select_related("user").filter(digest=digest).first()


def game_by_edit_token(*, token: str) -> Game | None:
    """The game whose edit link carries ``token``, deleted or not, with only its id and edit
    token read (1 query)."""
    return Game.objects.filter(edit_token=token).only("pk", "edit_token").first()
