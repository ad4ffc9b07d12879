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
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.auth import TokenScope
from games.api.common import ApiError, problems
from games.api.lookups import visible_club
from games.models import AuditEntry
from games.services.audit import record
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


class ImportRequestSerializer(serializers.Serializer[Any]):
    """An export document (docs/design/export-format.md) with the new club's name."""

    name = serializers.CharField(max_length=80, help_text="The new club's name.")
    slug = serializers.CharField(
        max_length=50,
        required=False,
        allow_blank=True,
        help_text="The new club's address (absent or empty: made from the name).",
    )
    format = serializers.CharField(help_text='Always "rummy-club-export".')
    version = serializers.IntegerField(help_text="The format's version: 1.")
    club = serializers.DictField(help_text="name, slug, visibility (only the visibility is used).")
    players = serializers.ListField(child=serializers.DictField())
    games = serializers.ListField(child=serializers.DictField())
    tournaments = serializers.ListField(child=serializers.DictField())
    seasons = serializers.ListField(child=serializers.DictField())


class ImportedClubSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    slug = serializers.CharField()


class ImportedSerializer(serializers.Serializer[Any]):
    club = ImportedClubSerializer()
    players = serializers.IntegerField()
    games = serializers.IntegerField()
    hands = serializers.IntegerField()
    tournaments = serializers.IntegerField()
    seasons = serializers.IntegerField()


FORMAT_PARAMETER = OpenApiParameter(
    "format",
    type=str,
    location=OpenApiParameter.QUERY,
    required=False,
    enum=["json", "csv"],
    description="json (default): the export document; csv: the score sheets, one row per player per hand "
    "(game, date, family, event, hand, player, points, total).",
)


class ClubExportView(APIView):
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @extend_schema(
        operation_id="club_export",
        summary="Export a club's recorded data",
        description="The club's players, games with their hands, tournaments and seasons as one "
        "versioned document (rummy-club-export, version 1), or the score sheets as CSV. "
        "Organisers only.",
        parameters=[FORMAT_PARAMETER],
        responses={
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description="The document."),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The score sheets."),
            **problems(403, 404),
        },
        tags=["clubs"],
    )
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

    @extend_schema(
        operation_id="own_export",
        summary="Export my own games",
        description="The games you started outside any club, with your roster, in the club "
        "export's format (club null, no tournaments or seasons). It imports like a club's export, "
        "into a new club (POST clubs/import/).",
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The document."),
            **problems(401, 403),
        },
        tags=["clubs"],
    )
    def get(self, request: Request) -> Response:
        user = request.user
        assert isinstance(user, User)
        response = Response(export_user(user))
        response["Content-Disposition"] = 'attachment; filename="my-games-export.json"'
        return response


class ClubImportView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @extend_schema(
        operation_id="club_import",
        summary="Import a club export into a new club",
        description="Creates a club with the caller as its organiser from an export document. "
        "Everything is checked first (the schema, every reference, every game's hands scored "
        "by the rules): any problem answers 400 import_invalid, with `fields` (messages by place "
        "in the document, e.g. games[3].hands[2], 0-based) and `report`, and nothing is written. "
        "A resend makes a second club (no Idempotency-Key).",
        request=ImportRequestSerializer,
        responses={201: ImportedSerializer, **problems(400, 401, 403, 413)},
        examples=[
            OpenApiExample(
                "An empty club",
                request_only=True,
                value={
                    "name": "Thursday club",
                    "format": "rummy-club-export",
                    "version": 1,
                    "club": {"name": "Tuesday club", "slug": "tuesday-club", "visibility": "public"},
                    "players": [],
                    "games": [],
                    "tournaments": [],
                    "seasons": [],
                },
            ),
            OpenApiExample(
                "Two players and one game",
                summary="A minimal document with one private game of one hand",
                request_only=True,
                value={
                    "name": "Thursday club",
                    "slug": "thursday-club",
                    "format": "rummy-club-export",
                    "version": 1,
                    "club": {"name": "Tuesday club", "slug": "tuesday-club", "visibility": "members"},
                    "players": [
                        {"ref": "p1", "name": "Ann", "merged_into": None},
                        {"ref": "p2", "name": "Bob", "merged_into": None},
                    ],
                    "games": [
                        {
                            "ref": "g1",
                            "family": "rummikub",
                            "options": {},
                            "first_dealer": 0,
                            "ended": True,
                            "hand_limit": 0,
                            "event_name": "",
                            "event_round": None,
                            "event_table": None,
                            "event_path": "",
                            "created_at": "2026-11-27T19:02:11Z",
                            "next_hand_number": 2,
                            "seats": [
                                {"position": 0, "name": "Ann", "player": "p1"},
                                {"position": 1, "name": "Bob", "player": "p2"},
                            ],
                            "hands": [
                                {
                                    "number": 1,
                                    "outcome": {"winner": "Ann", "left": {"Bob": 24}},
                                    "created_at": "2026-11-27T19:20:45Z",
                                }
                            ],
                        }
                    ],
                    "tournaments": [],
                    "seasons": [],
                },
            ),
        ],
        tags=["clubs"],
    )
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


urlpatterns: list[URLPattern] = [
    path("clubs/import/", ClubImportView.as_view(), name="club-import"),
    path("clubs/<slug:slug>/export/", ClubExportView.as_view(), name="club-export"),
    path("me/export/", OwnExportView.as_view(), name="own-export"),
]
