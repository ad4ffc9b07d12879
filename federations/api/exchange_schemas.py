"""The schema text of a federation's export and import."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from federations.api.exchange_serializers import (
    FederationImportRequestSerializer,
    ImportedFederationSerializer,
)
from federations.api.federation_schemas import SLUG, TAGS
from games.api.common import problems

federation_export = extend_schema(
    operation_id="federation_export",
    summary="Export a federation's own records",
    description="The federation's settings, register, member clubs' periods, links, rated "
    "tournaments and published monthly lists as one versioned document "
    "(rummy-federation-export, version 1), sent as an attachment. Clubs are named by address, "
    "players by name: the clubs themselves are exported with clubs/{slug}/export/. "
    "Organisers only.",
    parameters=[SLUG],
    responses={
        200: OpenApiResponse(OpenApiTypes.OBJECT, description="The document."),
        **problems(401, 403, 404),
    },
    tags=TAGS,
)


federation_import = extend_schema(
    operation_id="federation_import",
    summary="Import a federation export into a new federation",
    description="Creates a federation with the caller as its organiser from an export document "
    "(the JSON body, or a multipart form's `file`), at the document's address or, when taken, "
    "one made from it. The clubs, players and tournaments it names must be on this site "
    "(import them first with clubs/import/). Everything is checked first: any problem answers "
    "400 import_invalid, with `fields` (messages by place in the document, e.g. links[3].club, "
    "0-based) and `report`, and nothing is written. The live rating list is re-rated; the "
    "published lists are kept as they were. A resend makes a second federation.",
    request={
        "application/json": FederationImportRequestSerializer,
        "multipart/form-data": {
            "type": "object",
            "properties": {"file": {"type": "string", "format": "binary"}},
            "required": ["file"],
        },
    },
    responses={201: ImportedFederationSerializer, **problems(400, 401, 403, 413)},
    examples=[
        OpenApiExample(
            "An empty federation",
            request_only=True,
            media_type="application/json",
            value={
                "format": "rummy-federation-export",
                "version": 1,
                "federation": {
                    "name": "Regional federation",
                    "slug": "regional-federation",
                    "visibility": "public",
                    "counts": "games",
                    "id_prefix": "RF",
                    "provisional_games": 5,
                    "inactive_days": 365,
                    "next_number": 1,
                },
                "register": [],
                "clubs": [],
                "links": [],
                "rated_tournaments": [],
                "published": [],
                "opens": [],
                "seasons": [],
            },
        ),
    ],
    tags=TAGS,
)
