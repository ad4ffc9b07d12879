"""Site-wide security helpers: the client's address for login throttling (games.web.client, named
here for django-axes), the lockout page, and quiet logs for ordinary client errors.

Imported by the settings (the logging filter), so nothing here may import models at module level.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from games.web.client import client_ip

__all__ = ["client_ip"]  # AXES_CLIENT_IP_CALLABLE names it here


# django-axes keeps the username it was given in a varchar(255).
AXES_USERNAME_LENGTH = 255


def login_username(request: HttpRequest, credentials: Any = None) -> str | None:
    """The username django-axes counts failures of (``AXES_USERNAME_CALLABLE``): what was typed,
    cut to what its table holds (no account's name is that long, so nothing is confused)."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", request.POST).get(field)
    return username[:AXES_USERNAME_LENGTH] if isinstance(username, str) else username


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The page shown instead of logging in while an account or an address is locked out (django-axes'
    ``AXES_LOCKOUT_CALLABLE``): in the user's language, like the site's other pages, 429."""
    cool_off = settings.AXES_COOLOFF_TIME
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    response = render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    add_never_cache_headers(response)
    return response


class QuietClientErrors(logging.Filter):
    """Drop the traceback from ``django.request``'s line about a 4xx answer.

    Django logs an ordinary ``PermissionDenied`` (403) or ``BadRequest`` (400) with the exception
    attached, so every refused request printed a traceback. The WARNING line with the path and
    status stays; 5xx records keep their traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True
