"""Password help without e-mail: a one-time reset link an organiser makes for a member of
his club (a site admin for anyone), shown to him once to hand over (read aloud, sent in a
chat, scanned), valid for a short time and once.

Only a digest of the link's token is stored. A new link for the same user ends his older
ones. Using it sets the password, which also logs out every session of the account (Django
checks a session against the password it was made with). An organiser cannot make one for
an account that belongs to a club he does not organise, or for a site admin: that would let
him into what the club did not give him (the site admin does it then).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import AuditEntry, Club, Membership, ResetLink, UserSession

from .audit import record
from .errors import NotAllowed, ServiceError, TooOften
from .rates import rate_hit

RESET_MINUTES = 30


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def may_reset(*, by: User, user: User) -> bool:
    """``by`` may make a reset link for ``user``: a site admin for anyone; an organiser for an
    ordinary account all of whose clubs he organises."""
    if by.is_superuser:
        return True
    if user.is_superuser or user.is_staff or user.pk == by.pk:
        return False
    theirs = set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    mine = set(
        Membership.objects.filter(user=by, role=Membership.Role.ORGANISER).values_list("club_id", flat=True)
    )
    return bool(theirs) and theirs <= mine


def reset_link_path(token: str) -> str:
    """The path of a reset link (the one place that builds it). The token travels in the
    fragment, which browsers never send, so it stays out of access logs, as the edit link's."""
    return reverse("reset_link_use") + "#" + token


def reset_link_create(*, user: User, by: User, club: Club | None) -> tuple[ResetLink, str]:
    """A new link for ``user``: (its row, its token, to show once). ``club``: the club it is
    made in (its audit log records it). Whether ``by`` may is checked here too."""
    if not may_reset(by=by, user=user):
        raise NotAllowed(
            "reset_not_allowed",
            "the account belongs to a club you do not run, or is a site admin's: ask the administrator",
        )
    hit = rate_hit(f"reset-link:{by.pk}", limit=settings.RESET_LINKS_PER_HOUR, seconds=3600)
    if not hit.allowed:
        raise TooOften("reset_link_limit", "too many reset links: try again later", wait=int(hit.wait) + 1)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    expires = now + datetime.timedelta(minutes=RESET_MINUTES)
    with transaction.atomic():
        ResetLink.objects.filter(user=user, used_at=None).update(used_at=now)
        row = ResetLink.objects.create(
            user=user, digest=_digest(token), created_by=by, club=club, expires_at=expires
        )
        if club is not None:
            data = {"expires_at": expires.isoformat(timespec="seconds")}
            record(club=club, action=AuditEntry.Action.RESET_LINK, actor=by, target=user.username, data=data)
    return row, token


def reset_link_find(*, token: str) -> ResetLink | None:
    """The link of this token if it still works (unused, not expired), else None."""
    if not token or len(token) > 100:
        return None
    row = ResetLink.objects.select_related("user").filter(digest=_digest(token)).first()
    if row is None or row.used_at is not None or row.expires_at <= timezone.now() or not row.user.is_active:
        return None
    return row


def reset_link_use(*, token: str, password: str) -> User:
    """Set the password of the link's account, and end the link (once only)."""
    with transaction.atomic():
        row = reset_link_find(token=token)
        locked = (
            ResetLink.objects.select_for_update().filter(pk=row.pk, used_at=None).first() if row else None
        )
        if row is None or locked is None:
            raise ServiceError("reset_link_invalid", "this reset link does not work any more")
        user = row.user
        user.set_password(password)
        user.save(update_fields=["password"])
        locked.used_at = timezone.now()
        locked.save(update_fields=["used_at"])
        UserSession.objects.filter(user=user).delete()
    return user


def account_set_email(*, user: User, email: str) -> None:
    """The address a reset by e-mail goes to (empty: none). Each address belongs to one
    account at most, or the e-mail reset would reach someone else's."""
    email = email.strip()
    if email and User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise ServiceError("email_taken", "another account has this e-mail address", field="email")
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])
