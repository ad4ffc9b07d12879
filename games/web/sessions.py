"""A user's logged-in browsers, which he can see and end (models.UserSession), and the
organisers' logins in their clubs' audit logs.

A row is made at login and its ``last_seen`` moved on by SessionSeen at most every few
minutes (the session remembers when, so an ordinary request costs no extra query). Ending a
session deletes it from Django's session store: that browser is logged out at its next
request. SessionSeen also lends the request's address to the audit log for the length of
the request (games.services.audit.current_address).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games.models import AuditEntry, Membership, UserSession
from games.services.audit import current_address, record_for_user
from games.services.errors import ServiceError, SessionUnknown
from games.web.client import client_ip

SEEN_KEY = "_seen"
SEEN_EVERY = 300  # seconds: how stale "last seen" may get, to keep requests free of writes
USER_AGENT_LENGTH = 300


def _address(request: HttpRequest) -> str | None:
    """The client's address, if it is one (PostgreSQL's inet column takes nothing else)."""
    try:
        return str(ipaddress.ip_address(client_ip(request) or ""))
    except ValueError:  # none (a Unix socket), or not an address: none rather than no request
        return None


def note_session(request: HttpRequest, user: User) -> None:
    """Make or refresh the row of this request's session, and remember in it when."""
    key = request.session.session_key
    if not key:
        return
    UserSession.objects.update_or_create(
        session_key=key,
        defaults={
            "user": user,
            "user_agent": request.headers.get("User-Agent", "")[:USER_AGENT_LENGTH],
            "address": _address(request),
            "last_seen": timezone.now(),
        },
    )
    request.session[SEEN_KEY] = [key, int(time.time())]


class SessionSeen:
    """After AuthenticationMiddleware: the request's address for the audit log, and now and
    then the session's ``last_seen``. Only for a request whose user was looked up anyway (a
    page that never reads the session is not made to)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = current_address.set(_address(request))
        try:
            response = self.get_response(request)
        finally:
            current_address.reset(token)
        user = getattr(request, "_cached_user", None)
        if isinstance(user, User) and hasattr(request, "session") and request.session.session_key:
            seen = request.session.get(SEEN_KEY)
            key = request.session.session_key
            fresh = isinstance(seen, list) and len(seen) == 2 and seen[0] == key
            if not fresh or time.time() - float(seen[1]) > SEEN_EVERY:  # type: ignore[index]
                note_session(request, user)
        return response


def on_login(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """``user_logged_in``: the new session's row, and the login in the clubs he organises."""
    if request is None or not hasattr(request, "session"):
        return
    with transaction.atomic():
        # Rows of sessions that have ended meanwhile (expired, logged out elsewhere) go.
        live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
        UserSession.objects.filter(user=user).exclude(session_key__in=live).delete()
        note_session(request, user)
        agent = request.headers.get("User-Agent", "")[:USER_AGENT_LENGTH]
        record_for_user(
            user=user,
            action=AuditEntry.Action.LOGIN,
            roles=[Membership.Role.ORGANISER],
            data={"user_agent": agent},
        )


def on_logout(sender: Any, request: HttpRequest | None, user: User | None, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session") and request.session.session_key:
        UserSession.objects.filter(session_key=request.session.session_key).delete()


# ---------------------------------------------------------------------- reads and writes


def active_sessions(*, user: User) -> list[UserSession]:
    """The user's sessions that still work, the most recent first (1 query)."""
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    return list(UserSession.objects.filter(user=user, session_key__in=live))


def _store_delete(session_key: str) -> None:
    engine = import_module(settings.SESSION_ENGINE)
    engine.SessionStore(session_key=session_key).delete()


def session_end(*, user: User, pk: int, current_key: str | None) -> None:
    """End one of the user's other sessions (ServiceError if it is not his, or is this one)."""
    row = UserSession.objects.filter(user=user, pk=pk).first()
    if row is None:
        raise SessionUnknown
    if current_key is not None and row.session_key == current_key:
        raise ServiceError("session_current", "this is the session you are using: log out instead")
    _store_delete(row.session_key)
    row.delete()


def session_end_others(*, user: User, current_key: str | None) -> int:
    """End every session of the user but ``current_key``'s; how many."""
    rows = list(UserSession.objects.filter(user=user).exclude(session_key=current_key or ""))
    for row in rows:
        _store_delete(row.session_key)
    UserSession.objects.filter(pk__in=[row.pk for row in rows]).delete()
    return len(rows)
