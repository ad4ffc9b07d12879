"""The REST API's shared parts, under one ``/api/v1/``: errors as RFC 9457 problem details,
cursor pagination, the OpenAPI schema and its documentation page. Each app's resources are in
its own ``api`` package (games.api, tournaments.api); this module only puts them together.

Errors all have one shape, ``application/problem+json``:
``{"type", "title", "status", "code", "message", "fields"}`` where ``code`` is the same stable
code as the engine's, scoring's and the services' errors and ``message`` is translated into the
caller's language (``Accept-Language``). Nothing under ``/api/`` answers an HTML page: the
middleware below turns any error page (an unknown address, a server error) into a problem too.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

from engine.errors import EngineError
from games.api.common import PROBLEM, ApiError
from games.services.errors import RequestIdReused
from games.text.errors import error_message
from rummy_site.idempotency import REUSED, reused_message

logger = logging.getLogger(__name__)
API_PREFIX = "/api/"


def problem(
    *, status_code: int, code: str, message: str, fields: Mapping[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """The body of an error: RFC 9457 members plus the site's code, message and fields."""
    return {
        "type": f"/api/v1/problems/{code}",
        "title": message,
        "status": status_code,
        "code": code,
        "message": message,
        "fields": dict(fields or {}),
        **extra,
    }


def _field_messages(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Validation messages per field, nested fields flattened to dotted names
    (``options.target``, ``players.2``), so ``fields`` is always {name: [message, ...]}."""
    if isinstance(detail, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            out.update(_field_messages(value, f"{prefix}{key}."))
        return out
    if isinstance(detail, list | tuple) and any(isinstance(item, Mapping | list | tuple) for item in detail):
        out = {}
        for index, item in enumerate(detail):
            if item:
                out.update(_field_messages(item, f"{prefix}{index}."))
        return out
    return {prefix.rstrip(".") or "non_field_errors": [str(e) for e in _as_list(detail)]}


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


CODES = {
    status.HTTP_400_BAD_REQUEST: "invalid",
    status.HTTP_401_UNAUTHORIZED: "not_authenticated",
    status.HTTP_403_FORBIDDEN: "permission_denied",
    status.HTTP_404_NOT_FOUND: "not_found",
    status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
    status.HTTP_406_NOT_ACCEPTABLE: "not_acceptable",
    status.HTTP_409_CONFLICT: "conflict",
    status.HTTP_412_PRECONDITION_FAILED: "precondition_failed",
    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
    status.HTTP_428_PRECONDITION_REQUIRED: "precondition_required",
    status.HTTP_429_TOO_MANY_REQUESTS: "throttled",
}


class ProblemRenderer(JSONRenderer):
    media_type = PROBLEM


def problem_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler: every error as a problem (an engine, scoring or service error
    is a 400 with its code and its translated message, at the field it names if any), in JSON
    whatever the view renders otherwise (the schema's YAML, a CSV export)."""
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = ProblemRenderer()
        request.accepted_media_type = PROBLEM
    if isinstance(exc, RequestIdReused):
        # A service found the key given to another change: the same 422 as the middleware's.
        body = problem(status_code=422, code=REUSED, message=reused_message())
        return Response(body, status=422, content_type=PROBLEM)
    if isinstance(exc, EngineError):
        message = error_message(exc)
        field = exc.params.get("field")
        fields = {str(field): [message]} if isinstance(field, str) else {}
        body = problem(
            status_code=400, code=exc.code, message=message, fields=fields, params=_jsonable(exc.params)
        )
        return Response(body, status=400, content_type=PROBLEM)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ApiError):
        body = problem(
            status_code=exc.status_code, code=exc.problem_code, message=str(exc.detail), **exc.extra
        )
    elif isinstance(exc, exceptions.ValidationError):
        body = problem(
            status_code=400,
            code="invalid",
            message=_("Some fields are not valid."),
            fields=_field_messages(exc.detail),
        )
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = CODES.get(response.status_code, "error")
        body = problem(status_code=response.status_code, code=code, message=str(detail))
    response.data = body
    response.content_type = PROBLEM
    return response


def _jsonable(params: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in params.items():
        try:
            json.dumps(value)
        except TypeError:
            value = str(value)
        out[str(key)] = value
    return out


class ApiLanguage:
    """The API speaks the caller's language: ``Accept-Language`` (or the site's language
    cookie), as the pages without a language prefix do (rummy_site/languages.py); never a
    language from the address, which the API's have none of."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response


class ApiErrorPages:
    """Under ``/api/`` an error is never an HTML page: a 404 for an unknown address, a 500, or
    a CSRF refusal rendered by Django become problem details too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith(("application/json", PROBLEM, "application/vnd.oai")):
            return response
        code = CODES.get(response.status_code, "server_error" if response.status_code >= 500 else "error")
        messages = {
            404: _("There is nothing at this address."),
            403: _("You may not do this."),
            500: _("Something went wrong on the server; nothing was changed. Try again."),
        }
        message = messages.get(response.status_code, _("The request could not be answered."))
        body = problem(status_code=response.status_code, code=code, message=message)
        document = HttpResponse(json.dumps(body), status=response.status_code, content_type=PROBLEM)
        # The page it replaces was given the site's policies on its way out (CSP, framing,
        # caching, language...): the document keeps them.
        for header, value in response.items():
            if header.lower() not in ("content-type", "content-length"):
                document.headers.setdefault(header, value)
        return document

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX) or isinstance(exception, Http404 | DjangoPermissionDenied):
            return None
        logger.exception("API error on %s %s", request.method, request.path)
        body = problem(
            status_code=500,
            code="server_error",
            message=_("Something went wrong on the server; nothing was changed. Try again."),
        )
        return HttpResponse(json.dumps(body), status=500, content_type=PROBLEM)


# Errors any operation can answer, whatever it declares itself: a malformed request (400), no or
# a bad credential (401), not allowed (403), nothing at that address (404), an Accept it cannot
# serve (406), a missing or stale If-Match (412, 428; only on writes), a body type it does not
# take (415, only with a body), a body over the site's limit (413, writes), an Idempotency-Key
# reused for another request (422, writes), too many requests (429).
COMMON_ERRORS = ("400", "401", "403", "404", "406", "429")
WRITE_ERRORS = ("412", "413", "415", "422", "428")
# Operations anonymous callers may use as well (as on the pages): every read but the exports,
# and starting a game (a first game needs no account).
PRIVATE_READS = {"club_export", "own_export"}
ANONYMOUS_WRITES = {"games_create"}


def add_problem_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: documents the problem responses every operation can
    give, so the schema says what clients (and the fuzzing in CI) really get."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(
        "Problem",
        {
            "type": "object",
            "description": "An error (RFC 9457 problem details).",
            "properties": {
                "type": {"type": "string"},
                "title": {"type": "string"},
                "status": {"type": "integer"},
                "code": {"type": "string"},
                "message": {"type": "string"},
                "fields": {"type": "object", "additionalProperties": True},
            },
            "required": ["type", "title", "status", "code", "message", "fields"],
        },
    )
    problem_content = {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            anonymous = (
                method == "get" and operation.get("operationId") not in PRIVATE_READS
            ) or operation.get("operationId") in ANONYMOUS_WRITES
            security = operation.get("security")
            if anonymous and security is not None and {} not in security:
                security.append({})
            responses = operation.setdefault("responses", {})
            wanted = COMMON_ERRORS + (WRITE_ERRORS if method != "get" else ())
            for status_code in wanted:
                response = responses.setdefault(status_code, {"description": "An error (problem details)."})
                content = response.setdefault("content", {})
                content.setdefault(PROBLEM, problem_content[PROBLEM])
    return result
