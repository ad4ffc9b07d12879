"""Personal API tokens: made on the account page, shown once, stored as a digest, revoked at
any time (the API refuses a revoked token at once)."""

from __future__ import annotations

import hashlib

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import ApiToken, AuditEntry, Membership, new_api_token

from .audit import record_for_user
from .errors import ServiceError

MAX_TOKENS = 20
USED_EVERY = 60  # seconds: how stale a token's "last used" may get, to keep most calls free of writes
# A token acts for its owner in every club: the clubs where he records or organises log it.
LOGGED_ROLES = (Membership.Role.SCOREKEEPER, Membership.Role.ORGANISER)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_create(*, user: User, name: str, scope: str) -> tuple[ApiToken, str]:
    """A new token: (its row, the token itself, to show once)."""
    name = " ".join(name.split())[:60]
    if not name:
        raise ServiceError("token_name", "a token needs a name")
    with transaction.atomic():
        # The user's row locked: parallel creations count the live tokens one after another.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MAX_TOKENS:
            raise ServiceError("token_limit", "too many tokens", maximum=MAX_TOKENS)
        token = new_api_token()
        row = ApiToken.objects.create(
            user=user, name=name, digest=token_digest(token), prefix=token[:10], scope=scope
        )
        data = {"prefix": row.prefix, "scope": scope}
        record_for_user(
            user=user, action=AuditEntry.Action.TOKEN_CREATED, roles=LOGGED_ROLES, target=name, data=data
        )
    return row, token


def token_used(*, token: ApiToken) -> None:
    """Note that ``token`` was just used, unless that was noted less than a minute ago."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)


def token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        with transaction.atomic():
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            record_for_user(
                user=token.user,
                action=AuditEntry.Action.TOKEN_REVOKED,
                roles=LOGGED_ROLES,
                target=token.name,
                data={"prefix": token.prefix},
            )
    return token
