"""The schema text of a club's seasons and a season's settings and standings, and the parameters
the seasons and ratings resources name."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from engine.rules import FAMILIES
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.season_serializers import (
    MAX_PAGE,
    SeasonListSerializer,
    SeasonSerializer,
    SeasonSettingsPatchSerializer,
    SeasonSettingsSerializer,
)

TAGS = ["seasons"]


SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The club's slug.")


PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The season's id.")


PLAYER = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="A club player's id.")


FAMILY = OpenApiParameter(
    "family", str, OpenApiParameter.QUERY, required=False, enum=list(FAMILIES), description="A rule family."
)


club_seasons_list = extend_schema(
    operation_id="club_seasons_list",
    summary="A club's seasons",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: SeasonListSerializer(many=True), **problems(404)},
)


club_seasons_create = extend_schema(
    operation_id="club_seasons_create",
    summary="Create a season (organisers); its standings are built at once",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=SeasonSettingsSerializer,
    examples=[
        OpenApiExample(
            "A winter league",
            summary="Club games and tournaments of two families, best 10 events",
            value={
                "name": "Winter league 2026/27",
                "starts": "2026-12-01",
                "ends": "2027-02-28",
                "families": ["zoliky", "rummikub"],
                "counts": "both",
                "game_points": "table",
                "tournament_points": "preset",
                "best_events": 10,
                "drop_worst": 0,
                "min_games": 5,
                "tiebreaks": ["points", "wins", "average_place", "head_to_head"],
            },
            request_only=True,
        )
    ],
    responses={201: SeasonSerializer, **problems(400, 401, 403, 404)},
)


seasons_retrieve = extend_schema(
    operation_id="seasons_retrieve",
    summary="A season: its settings and one page of its standings",
    tags=TAGS,
    parameters=[
        PUBLIC_ID,
        FAMILY,
        OpenApiParameter(
            "page",
            {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
            OpenApiParameter.QUERY,
            required=False,
            description="From 1.",
        ),
        OpenApiParameter(
            "evening",
            str,
            OpenApiParameter.QUERY,
            required=False,
            description="YYYY-MM-DD, one of `evenings`: the standings as they stood after it (▲▼ "
            "relative to the evening before). Another day: as they are now.",
        ),
    ],
    responses={200: SeasonSerializer, **problems(400, 404)},
    examples=[
        OpenApiExample(
            "Two rows",
            summary="A season's first page of standings, two players",
            value={
                "public_id": "s7Hq2LmX",
                "club": "tuesday-club",
                "name": "Winter league 2026/27",
                "starts": "2026-12-01",
                "ends": "2027-02-28",
                "families": ["zoliky"],
                "counts": "both",
                "game_points": "table",
                "tournament_points": "preset",
                "custom_points": "",
                "best_events": 0,
                "drop_worst": 0,
                "min_games": 3,
                "tiebreaks": ["points", "wins", "average_place", "head_to_head"],
                "version": 2,
                "etag": '"season-s7Hq2LmX-v2"',
                "computed_at": "2026-12-15T21:04:00Z",
                "standings": {
                    "family": "",
                    "page": 1,
                    "pages": 1,
                    "updating": False,
                    "pending": False,
                    "as_of": "2026-12-15T21:04:00Z",
                    "rows": [
                        {
                            "rank": 1,
                            "previous_rank": 2,
                            "ranked": True,
                            "player_id": 12,
                            "name": "Ann Novak",
                            "points": "41.000",
                            "points_value": 41.0,
                            "games": 6,
                            "wins": 3,
                            "average_place": 1.83,
                            "events": 6,
                            "rating": 1612,
                            "separated_by": "",
                        },
                        {
                            "rank": 2,
                            "previous_rank": 1,
                            "ranked": True,
                            "player_id": 15,
                            "name": "Bob Cerny",
                            "points": "37.500",
                            "points_value": 37.5,
                            "games": 6,
                            "wins": 2,
                            "average_place": 2.17,
                            "events": 6,
                            "rating": 1548,
                            "separated_by": "points",
                        },
                    ],
                },
            },
            response_only=True,
            status_codes=["200"],
        )
    ],
)


seasons_partial_update = extend_schema(
    operation_id="seasons_partial_update",
    summary="Change a season's settings (organisers); its standings are rebuilt",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=SeasonSettingsPatchSerializer,
    examples=[
        OpenApiExample(
            "Custom tournament points",
            summary="Only the settings sent change",
            value={"tournament_points": "custom", "custom_points": "10 8 6 5 4 3 2 1", "min_games": 3},
            request_only=True,
        )
    ],
    responses={200: SeasonSerializer, **problems(400, 401, 403, 404, 412, 428)},
)
