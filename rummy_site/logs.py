"""Log lines a log tool can read, with no secret in them.

Secrets travel in some addresses: a game's older edit link (``/g/<id>/edit/<token>/``), a club's
older invite link (``/clubs/join/<token>/``), a password reset link. Every path that reaches a
log line or an error report goes through ``scrub_path`` first: the value of each URL argument
named like a token, and (for an address that matched no view) the segment after ``edit/``,
``join/`` or ``reset/``, become ``[token]``.

``LOG_FORMAT=json`` prints one JSON object per line (``JsonFormatter``) and adds one line per
request (``RequestLog``: method, path, status, duration, user id). ``SENTRY_DSN`` sends errors
to Sentry through ``before_send``, which scrubs the same way.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import ResolverMatch

TOKEN = "[token]"
FILTERED = "[Filtered]"
# URL arguments that carry a secret: a new view names its secret argument "token".
SECRET_KWARGS = ("token", "uidb64")
# For an address no view answered: the segments that follow these carry the secret.
_SECRET_AFTER = [
    re.compile(r"(/(?:edit|join)/)[^/?#\s]+"),
    re.compile(r"(/reset(?:-link)?/)(?!done/)[^/?#\s]+(?:/[^/?#\s]+)?"),
]
# A secret anywhere in free text: personal API tokens, bearer headers, a fragment's token.
_SECRET_TEXT = [
    (re.compile(r"\brs_[A-Za-z0-9_-]{8,}"), TOKEN),
    (re.compile(r"(?i)\b(bearer\s+)\S+"), r"\1" + TOKEN),
    (re.compile(r"#[A-Za-z0-9_-]{20,}"), "#" + TOKEN),
]
_SECRET_KEYS = re.compile(r"(?i)token|secret|password|passwd|authorization|cookie|session|csrf|dsn|key")

request_logger = logging.getLogger("rummy_site.requests")


def scrub_path(path: str, match: ResolverMatch | None = None) -> str:
    """``path`` with every secret in it replaced by ``[token]``."""
    if match is not None:
        for name, value in match.kwargs.items():
            if name in SECRET_KWARGS and isinstance(value, str) and value:
                path = path.replace(f"/{value}/", f"/{TOKEN}/").replace(f"/{value}", f"/{TOKEN}")
    return scrub_text(path)


def scrub_text(text: str) -> str:
    """``text`` (a log message, an exception's words) with the secrets that addresses and
    headers carry replaced by ``[token]``."""
    for after in _SECRET_AFTER:
        text = after.sub(lambda m: m.group(1) + TOKEN, text)
    for pattern, replacement in _SECRET_TEXT:
        text = pattern.sub(replacement, text)
    return text


class ScrubTokens(logging.Filter):
    """Every record's message with its secrets scrubbed, whoever logged it (Django's "Not Found:
    /clubs/join/…" line names the path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return True
        scrubbed = scrub_text(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's fields when the
    record is a request line, and the traceback when there is one."""

    FIELDS = ("method", "path", "status", "duration_ms", "user_id")

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in self.FIELDS:
            if hasattr(record, field):
                line[field] = getattr(record, field)
        status = getattr(record, "status_code", None)
        if "status" not in line and isinstance(status, int):
            line["status"] = status
        if record.exc_info:
            line["exception"] = scrub_text(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


class RequestLog:
    """One line per request, after the answer: method, path (scrubbed), status, duration in
    milliseconds and the user's id (None when anonymous). Outermost, so the duration covers
    every other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        duration = round((time.perf_counter() - started) * 1000, 1)
        user = getattr(request, "user", None)
        path = scrub_path(request.path, getattr(request, "resolver_match", None))
        request_logger.info(
            "%s %s %s",
            request.method,
            path,
            response.status_code,
            extra={
                "method": request.method,
                "path": path,
                "status": response.status_code,
                "duration_ms": duration,
                "user_id": user.pk if user is not None and user.is_authenticated else None,
            },
        )
        return response


def _scrub_value(value: Any, key: str = "") -> Any:
    if key and _SECRET_KEYS.search(key) and isinstance(value, (str, int, float)) and value != "":
        return FILTERED
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {k: _scrub_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_scrub_value(v) for v in value)
    return value


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Sentry's last look at an error report: no cookie, no query string (it may hold a
    ``next`` link), no secret header or form field, and every address and message scrubbed."""
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        if request.get("query_string"):
            request["query_string"] = FILTERED
        if isinstance(request.get("url"), str):
            request["url"] = scrub_path(request["url"])
    return dict(_scrub_value(event))


def init_sentry(dsn: str, *, environment: str, release: str | None = None) -> None:
    """Error reports to Sentry. Imported only here, only when ``SENTRY_DSN`` is set."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        integrations=[DjangoIntegration()],
        send_default_pii=False,
        # Errors only: performance traces would send every request's address.
        traces_sample_rate=0.0,
        before_send=before_send,  # type: ignore[arg-type]
        before_send_transaction=before_send,  # type: ignore[arg-type]
    )
