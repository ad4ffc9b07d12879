"""The schema text of the export and the import."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from games.api.common import problems
from tournaments.api.exchange_serializers import ImportedSerializer, ImportRequestSerializer

FORMAT_PARAMETER = OpenApiParameter(
    "format",
    type=str,
    location=OpenApiParameter.QUERY,
    required=False,
    enum=["json", "csv"],
    description="json (default): the export document; csv: the score sheets, one row per player per hand "
    "(game, date, family, event, hand, player, points, total).",
)


club_export = extend_schema(
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


own_export = extend_schema(
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


club_import = extend_schema(
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
