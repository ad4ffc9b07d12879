"""The API's bearer credentials: a personal token by its digest and a game by its edit link, as
each request reads them, and a user's own tokens, as his account page lists them."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import ApiToken, Game


def api_token_by_digest(*, digest: str) -> ApiToken | None:
    """The token stored under ``digest``, revoked or not, with its user (1 query)."""
    return ApiToken.objects.select_related("user").filter(digest=digest).first()


def game_by_edit_token(*, token: str) -> Game | None:
    """The game whose edit link carries ``token``, deleted or not, with only its id and edit
    token read (1 query)."""
    return Game.objects.filter(edit_token=token).only("pk", "edit_token").first()


def user_tokens(*, user_id: int) -> QuerySet[ApiToken]:
    """The user's tokens that still work (1 query)."""
    return ApiToken.objects.filter(user_id=user_id, revoked_at=None)


def user_token(*, user_id: int, pk: int) -> ApiToken | None:
    """One of the user's tokens, revoked or not (1 query); another user's is None."""
    return ApiToken.objects.filter(user_id=user_id, pk=pk).first()
