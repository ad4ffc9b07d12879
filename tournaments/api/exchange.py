"""Export and import of a club's data through the API (docs/design/export-format.md):

- ``GET clubs/{slug}/export/``: the club's document (JSON), or its score sheets as CSV with
  ``?format=csv`` (or ``Accept: text/csv``). Organisers only: a members-only club answers 404
  to outsiders, 403 to its other members (as the club's pages do).
- ``GET me/export/``: the caller's own games (outside clubs) and roster in the same format
  (``club`` null, no tournaments or seasons).
- ``POST clubs/import/``: the document plus ``name`` (and optionally ``slug``) makes a new club
  with the caller as its organiser. Everything is validated first; a problem anywhere answers
  400 ``import_invalid`` with ``fields`` (messages by place in the document) and ``report``, and
  nothing is written.

The import service takes no request id: a resent import makes a second club (nothing extra is
stored for ``Idempotency-Key``).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework import permissions, renderers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.auth import TokenScope
from games.api.common import ApiError
from games.api.lookups import visible_club
from games.models import AuditEntry
from games.services.audit import record
from tournaments.api import exchange_schemas as schemas
from tournaments.api.exchange_serializers import ImportedSerializer, ImportRequestSerializer
from tournaments.exchange.exporting import export_club, export_csv, export_user
from tournaments.exchange.importing import import_club
from tournaments.exchange.validation import ImportInvalid


class CsvRenderer(renderers.BaseRenderer):
    """``text/csv``: the view hands over the finished text (an error stays a JSON problem)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data, ensure_ascii=False).encode("utf-8")


class ClubExportView(APIView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @schemas.club_export
    def get(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug, manage=True)
        fmt = "csv" if request.accepted_renderer.format == "csv" else "json"
        record(club=club, action=AuditEntry.Action.EXPORTED, actor=request.user, data={"format": fmt})
        if fmt == "csv":
            response = Response(export_csv(club), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{club.slug}-score-sheets.csv"'
            return response
        response = Response(export_club(club))
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-export.json"'
        return response


class OwnExportView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.own_export
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        response = Response(export_user(user))
        response["Content-Disposition"] = 'attachment; filename="my-games-export.json"'
        return response


class ClubImportView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.club_import
    def post(self, request: Request) -> Response:
        try:
            body = request.data
        except RequestDataTooBig:
            # Django's limit (DATA_UPLOAD_MAX_MEMORY_SIZE): a bigger club goes through the command.
            raise ApiError(
                status_code=413,
                code="too_big",
                message=_("The export is too big to upload here; ask the site's administrator to import it."),
            ) from None
        if not isinstance(body, dict):
            raise ApiError(
                status_code=400, code="invalid", message=_("The body must be a JSON object."), fields={}
            )
        doc = dict(body)
        name = doc.pop("name", None)
        slug = doc.pop("slug", None)
        if not isinstance(name, str) or not name or (slug is not None and not isinstance(slug, str)):
            raise ApiError(
                status_code=400,
                code="invalid",
                message=_("Some fields are not valid."),
                fields={"name": [_("Give the new club a name.")]},
            )
        # The lengths the schema gives (the import itself would cut them silently).
        for key, value in (("name", name), ("slug", slug)):
            most = getattr(ImportRequestSerializer().fields[key], "max_length", None)
            if value is not None and most is not None and len(value) > most:
                raise ApiError(
                    status_code=400,
                    code="invalid",
                    message=_("Some fields are not valid."),
                    fields={key: [_("At most %(maximum)d characters.") % {"maximum": most}]},
                )
        assert request.user.is_authenticated
        try:
            done = import_club(doc, user=request.user, name=name, slug=slug or None)
        except ImportInvalid as invalid:
            fields: dict[str, list[str]] = {}
            for problem in invalid.problems:
                fields.setdefault(problem.path, []).append(problem.message)
            raise ApiError(
                status_code=400,
                code="import_invalid",
                message=_("The export cannot be imported; nothing was written."),
                fields=fields,
                report=[p.as_dict() for p in invalid.problems],
            ) from None
        response = Response(ImportedSerializer(done).data, status=status.HTTP_201_CREATED)
        response["Location"] = f"/c/{done.club.slug}/"
        return response
