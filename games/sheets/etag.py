"""The live view's tag: what names one drawing of a game page's ``#game-body`` (the totals, the
new-hand form, the sheet) and ``#game-end`` (ending, reopening, a rematch), for one viewer.

Every phone showing a game asks ``/g/<id>/live/`` every few seconds with the tag it holds
(``If-None-Match``); while the tag is the same, the answer is a 304 read from the game's row
alone. The tag is made from the request and that row, never from a server's memory, so any
application server behind the proxy answers any phone alike. The page and every htmx answer
that redraws ``#game-body`` carry the same tag (``data-live-etag``), so a phone's own save never
comes back to it as "changed on another phone".
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from games.models import Game
from games.services.access import can_rematch
from games.sheets.cache import sheet_version
from games.web.release import release_id


def live_etag(request: HttpRequest, game: Game, role: str | None, editable: bool) -> str:
    """The tag of ``game``'s live part as this viewer gets it (``role``: his role in the game's
    club, as the caller read it). It changes with every write to the game (its ``updated_at``:
    hands, corrections, undo, the end, a new edit link), and with what else the part depends on:
    the right to record (the form, the hand links) and to start a rematch, the language, the
    user, and for an editor the CSRF secret the forms' tokens come from."""
    rematch = can_rematch(request=request, game=game, role=role, known=True)
    seen = (
        "live",
        release_id(),
        *sheet_version(game),
        editable,
        rematch,
        get_language(),
        request.user.pk,
        csrf_secret(request) if editable or rematch else "",
    )
    return '"' + hashlib.sha256(repr(seen).encode()).hexdigest()[:32] + '"'


def csrf_secret(request: HttpRequest) -> str:
    """The CSRF secret the forms are signed with (made now, and sent as a cookie, if the
    browser has none)."""
    if "CSRF_COOKIE" not in request.META:
        get_token(request)
    return str(request.META.get("CSRF_COOKIE", ""))
