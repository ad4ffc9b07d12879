"""What every API resource shares (games' and tournaments'): the error shape for the schema,
coded errors with their HTTP status, the ``Idempotency-Key`` header, and ``ETag`` / ``If-Match``
for optimistic concurrency. The error handler itself is ``rummy_site.api.problem_handler``."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.pagination import CursorPagination
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.body_types import check_types
from games.services.errors import StaleVersion
from games.web.input import InputRefused, read_int, read_json
from games.web.links import absolute_url


class ApiError(exceptions.APIException):
    """A coded error with its HTTP status (a stale ``If-Match``: 412, a missing one: 428...)."""

    def __init__(self, *, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.problem_code = code
        self.extra = extra


class ProblemSerializer(serializers.Serializer[Any]):
    """An error (RFC 9457 problem details): ``code`` is stable, ``message`` translated. (Its
    members are built in ``get_fields``: a member named ``fields`` cannot be a class attribute
    of a serializer.)"""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "type": serializers.CharField(),
            "title": serializers.CharField(),
            "status": serializers.IntegerField(),
            "code": serializers.CharField(help_text="A stable error code: stale_edit, not_found, invalid..."),
            "message": serializers.CharField(
                help_text="What went wrong, in the language of Accept-Language."
            ),
            "fields": serializers.DictField(
                child=serializers.ListField(child=serializers.CharField()),
                help_text="Messages per request field (empty when the error is not about one field).",
            ),
        }


PROBLEM = "application/problem+json"


def problems(*statuses: int) -> dict[tuple[int, str], OpenApiResponse]:
    """The error responses of an operation, for ``extend_schema(responses=...)``: problem
    details, served as ``application/problem+json``."""
    return {
        (s, PROBLEM): OpenApiResponse(ProblemSerializer, description="An error (problem details).")
        for s in statuses
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    type=OpenApiTypes.UUID,
    location=OpenApiParameter.HEADER,
    required=False,
    description="A UUID chosen by the client: a resend with the same key returns the first answer "
    "and changes nothing again.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    type=str,
    location=OpenApiParameter.HEADER,
    required=True,
    description="The ETag of the version being changed (from a GET). A stale one gets 412 with "
    "the current value; without it, 428.",
)


UUID_TEXT = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def idempotency_key(request: Request) -> uuid.UUID | None:
    """The request's ``Idempotency-Key`` (a UUID), None if absent; 400 if malformed."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    # Exactly what the schema names (format uuid: 8-4-4-4-12 hex digits). Python would also read
    # braces, a URN or bare hex, and an empty header; the schema refuses them, so does the site.
    if not UUID_TEXT.fullmatch(raw):
        raise ApiError(
            status_code=400, code="idempotency_key", message=_("The Idempotency-Key header must be a UUID.")
        )
    return uuid.UUID(raw)


def etag(kind: str, pk: object, version: object) -> str:
    return f'"{kind}-{pk}-v{version}"'


def stale_edit(*, tag: str, current: Any) -> ApiError:
    """412: the object changed since the caller read it; ``current`` is it now, with its ETag."""
    return ApiError(
        status_code=412,
        code="stale_edit",
        message=_("Someone else changed this meanwhile; the current value is in 'current'."),
        current=current,
        etag=tag,
    )


def guarded[T](call: Callable[[], T], current: Callable[[], tuple[str, Any]]) -> T:
    """Run a service call; a stale-version refusal (someone changed the object between our
    If-Match check and the service's lock) is a 412 with the current object, like our check.
    ``current`` gives the object's ETag and body as they are now."""
    try:
        return call()
    except StaleVersion:
        tag, body = current()
        raise stale_edit(tag=tag, current=body) from None


def with_etag(data: Any, tag: str, status: int = 200) -> Response:
    response = Response(data, status=status)
    response["ETag"] = tag
    return response


def unchanged(request: Request, tag: str) -> bool:
    """The caller already holds this version (``If-None-Match``): a 304 will do."""
    wanted = request.headers.get("If-None-Match", "")
    return tag in (t.strip().removeprefix("W/") for t in wanted.split(","))


def if_match(request: Request, *, current: str, body: Any = None) -> None:
    """Refuse a change made without ``If-Match`` (428) or against another version (412, with the
    current value in ``current``)."""
    given = request.headers.get("If-Match")
    if not given:
        raise ApiError(
            status_code=428,
            code="precondition_required",
            message=_("Send If-Match with the ETag of the version you change."),
        )
    if given.strip() != current and given.strip() != "*":
        raise stale_edit(tag=current, current=body)


class ETagField(serializers.CharField):
    """The ETag of the object the field reads (``tag`` makes it): the one its answer's header
    carries."""

    def __init__(self, tag: Callable[[Any], str], **kwargs: Any) -> None:
        self.tag = tag
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return self.tag(value)


class SiteLink(serializers.CharField):
    """A site path (as ``reverse`` gives it) written as the link other phones open, at the
    address the request came to (``games.web.links.absolute_url``); the request is the
    serializer's context's."""

    def to_representation(self, value: Any) -> str:
        return absolute_url(self.context["request"], str(value))


class CursorPage(CursorPagination):
    """Every list: a cursor (stable while rows are added), newest first unless a view says."""

    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering: str | tuple[str, ...] = "-pk"

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        # The bounds the API enforces, so that the schema says them (a client, and the fuzzing
        # in CI, learn that 0 or 500 is refused before trying).
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
                most, default = self.max_page_size, self.page_size
                parameter["description"] = f"Results per page: 1 to {most} ({default} if absent)."
        return parameters

    def get_page_size(self, request: Any) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = read_int(raw, lo=1, hi=self.max_page_size)
        if size is None:
            message = _("A whole number from 1 to %(most)d.") % {"most": self.max_page_size}
            raise exceptions.ValidationError({self.page_size_query_param: [message]})
        return size


class StrictJSONParser(JSONParser):
    """Every API body is read by the site's one JSON reader (games.web.input): too deep, not finite,
    unstorable text or a repeated key is a 400 before any view sees it; so is a member of
    another type than the schema says (games.api.body_types)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = stream.read() if stream is not None else b""
        try:
            document = read_json(data)
        except InputRefused as refused:
            raise exceptions.ParseError(refused.message) from None
        if parser_context and parser_context.get("request") is not None:
            check_types(parser_context["request"], document)
        return document


def conditional_write[T](
    request: Request,
    *,
    replayed: bool,
    before: Callable[[], tuple[str, Any]],
    call: Callable[[], T],
    current: Callable[[], tuple[str, Any]],
) -> T:
    """A change to a versioned object, as every such write makes it: unless the request is the
    resend of a change already made (``replayed``: the service answers it and changes nothing),
    ``If-Match`` must name the version the caller read (``before``: its ETag and body, the body
    answered with a 412); then the service call, a stale-version refusal from it a 412 with the
    object as ``current`` gives it now."""
    if not replayed:
        tag, body = before()
        if_match(request, current=tag, body=body)
    return guarded(call, current)


# A PATCH body: a request serializer's fields, each optional and without its default, so that
# only what is sent changes. (No docstring: a serializer's docstring is its schema description.)
class PartialMixin(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = super().get_fields()
        for field in fields.values():
            field.required = False
            field.default = serializers.empty
        return fields
