"""Who is calling the API: the site's session (its own pages), a personal token
(``Authorization: Bearer rs_…``, read-only or read-write), or a game's edit link used as a
bearer credential, which writes that game only (``request.auth`` is then a ``GameLink``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions, permissions, throttling
from rest_framework.request import Request

from games.models import ApiToken
from games.selectors.tokens import api_token_by_digest, game_by_edit_token
from games.services.rates import rate_hit
from games.services.tokens import token_digest, token_used
from games.web.client import client_ip


@dataclass(frozen=True)
class GameLink:
    """The caller holds this game's edit link: it may write this game, nothing else."""

    game_id: int


def _bearer(request: Request) -> str | None:
    header = authentication.get_authorization_header(request).split()
    if not header or header[0].lower() != b"bearer":
        return None
    if len(header) != 2:
        raise exceptions.AuthenticationFailed(_("The Authorization header must be: Bearer <token>."))
    try:
        return header[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed(_("That token is not valid.")) from None


class BearerAuthentication(authentication.BaseAuthentication):
    """A personal token, or else a game's edit link."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        token = _bearer(request)
        if token is None:
            return None
        if token.startswith("rs_"):
            row = api_token_by_digest(digest=token_digest(token))
            if row is None or row.revoked_at is not None or not row.user.is_active:
                raise exceptions.AuthenticationFailed(_("That token is not valid (any more)."))
            token_used(token=row)
            return row.user, row
        game = game_by_edit_token(token=token)
        if game is None or not secrets.compare_digest(game.edit_token, token):
            raise exceptions.AuthenticationFailed(_("That token is not valid (any more)."))
        return AnonymousUser(), GameLink(game.pk)

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class TokenScope(permissions.BasePermission):
    """A read-only token reads; writing needs a read-write token (or the session)."""

    message = _("This token is read-only: make a read-write token on your account page to change things.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        auth = request.auth
        return not (isinstance(auth, ApiToken) and auth.scope != ApiToken.Scope.WRITE)


class BearerScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """How the schema describes ``BearerAuthentication``."""

    target_class = "games.api.auth.BearerAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal token from the account page (rs_…, read-only or read-write), "
            "or a game's edit link token (writes that game only).",
        }


class _SharedCounts:
    """Throttle counts kept in the database, not in one server's memory (with several
    application servers a client's requests are counted together), and counted atomically
    (games/services/rates.py): DRF's own read-then-write lets parallel requests through
    uncounted."""

    rate: str | None
    num_requests: int
    duration: int

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        self._hit = rate_hit(key, limit=self.num_requests, seconds=self.duration)
        return self._hit.allowed

    def wait(self) -> float | None:
        hit = getattr(self, "_hit", None)
        return None if hit is None else max(hit.wait, 0.0)


class AnonThrottle(_SharedCounts, throttling.AnonRateThrottle):
    """Per anonymous address, as the login lockout counts it (games.web.client)."""

    def get_ident(self, request: Request) -> str:
        return client_ip(request) or ""


class TokenThrottle(_SharedCounts, throttling.UserRateThrottle):
    """Per personal token (each token its own budget), else per user (the session)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if isinstance(request.auth, ApiToken):
            return self.cache_format % {"scope": self.scope, "ident": f"token-{request.auth.pk}"}
        if isinstance(request.auth, GameLink):
            return self.cache_format % {"scope": self.scope, "ident": f"game-{request.auth.game_id}"}
        if not request.user or not request.user.is_authenticated:
            return None  # the anonymous budget is AnonThrottle's alone
        return super().get_cache_key(request, view)
