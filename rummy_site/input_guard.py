"""The site's door for hostile input: one size limit for request bodies, and no text that a
database cannot store (a NUL, a lone surrogate) in the address or the query string. Each is
refused here with a clear 4xx, before any view, form or database sees it. Bodies are checked
where they are read: JSON by ``games.web.input.read_json`` (the API's parser), a page's form fields
by the forms (Django's text fields refuse a NUL at the field, with a message there; a form's
bytes are decoded with replacement, so no lone surrogate arrives).

A body over the limit is refused from its Content-Length, before anything parses it, but it is
still read and thrown away before the 413 goes out (``drain``): many clients (Python's
http.client and requests, phone libraries) send the whole body before they read the answer,
and a server that closes the connection with their upload unread resets it, so they would see
a broken connection instead of the 413. The reading is bounded: a body of up to
``DRAIN_BYTES`` is read for at most ``DRAIN_SECONDS`` (and a client that stops sending is
waited for ``DRAIN_IDLE_SECONDS`` at a time), so a refusal never holds a thread for long. A
larger body, or one not read within the bounds, is answered at once and its connection closed
by the server: a client that reads while it sends gets the 413, one that sends everything first
may see a reset, the price of not reading without end for a client that sends too much.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.api.common import PROBLEM
from games.web.input import unstorable_text

API_PREFIX = "/api/"
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_SECONDS = 5.0
DRAIN_IDLE_SECONDS = 1.0
_DRAIN_STEP = 16 * 1024


def body_limit() -> int:
    """The most bytes a request body may have, files of a form's upload apart."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def drain(request: HttpRequest, length: int) -> bool:
    """Read and drop the request's unread body of ``length`` bytes, within the bounds above;
    whether all of it was read. Under gunicorn the connection then stays open for the next
    request; one not wholly read is closed by gunicorn after the answer."""
    if length > DRAIN_BYTES:
        return False
    # gunicorn hands its socket to the application: the only way to bound a wait for the client.
    found = request.META.get("gunicorn.socket")
    sock = found if isinstance(found, socket.socket) else None
    prior = sock.gettimeout() if sock is not None else None
    deadline = time.monotonic() + DRAIN_SECONDS
    left = length
    try:
        while left > 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if sock is not None:
                sock.settimeout(min(remaining, DRAIN_IDLE_SECONDS))
            chunk = request.read(min(_DRAIN_STEP, left))
            if not chunk:
                return False
            left -= len(chunk)
    except OSError:  # the client went away, or stopped sending (UnreadablePostError too)
        return False
    finally:
        if sock is not None:
            sock.settimeout(prior)
    return True


def _unstorable(values: QueryDict) -> bool:
    return any(unstorable_text(key) or any(unstorable_text(v) for v in vs) for key, vs in values.lists())


def refusal(request: HttpRequest, *, status: int, code: str, message: str) -> HttpResponse:
    """A problem document under /api/, the site's error page elsewhere."""
    if request.path.startswith(API_PREFIX):
        body = {
            "type": f"/api/v1/problems/{code}",
            "title": message,
            "status": status,
            "code": code,
            "message": message,
            "fields": {},
        }
        return HttpResponse(json.dumps(body), status=status, content_type=PROBLEM)
    return render(request, "refused.html", {"message": message}, status=status)


class HostileInput:
    """Placed after the locale middleware (its pages speak the user's language) and before
    anything that reads the body (CSRF, sessions' users, the views)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = self._refused(request)
        if refused is not None:
            return refused
        return self.get_response(request)

    def _refused(self, request: HttpRequest) -> HttpResponse | None:
        limit = body_limit()
        multipart = request.content_type == "multipart/form-data"
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        # A multipart upload's files have their own limits (the import form's); its other
        # fields are held to this one by Django as it parses them.
        if limit and length > limit and not multipart:
            drain(request, length)
            return self.too_big(request)
        if unstorable_text(request.path) or _unstorable(request.GET):
            return self.unstorable(request)
        if multipart and request.method == "POST" and not request.path.startswith(API_PREFIX):
            # A page's form is parsed now rather than by the CSRF check, so that its fields
            # beyond the limit are a 413 too (the API's parsers read their own bodies).
            try:
                request.POST  # noqa: B018
            except RequestDataTooBig:
                return self.too_big(request)
        return None

    @staticmethod
    def too_big(request: HttpRequest) -> HttpResponse:
        megabytes = body_limit() / (1024 * 1024)
        message = _("The request is too big: at most %(size).1f MB.") % {"size": megabytes}
        return refusal(request, status=413, code="too_big", message=message)

    @staticmethod
    def unstorable(request: HttpRequest) -> HttpResponse:
        message = _("The address contains a character that is not text (a NUL or a lone surrogate).")
        return refusal(request, status=400, code="unstorable_text", message=message)
