"""The schema text of a federation's seasons (a Grand Prix): their list, a season's settings,
its standings and a person's league card."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from engine.rules import FAMILIES
from federations.api.season_serializers import (
    CardSerializer,
    GrandPrixSerializer,
    GrandPrixSettingsPatchSerializer,
    GrandPrixSettingsSerializer,
    GrandPrixStandingsSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems

TAGS = ["federation seasons"]

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The federation's slug.")
PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The season's id.")
NUMBER = OpenApiParameter(
    "number",
    int,
    OpenApiParameter.PATH,
    description="A register entry's number (its federation id's digits).",
)
FAMILY = OpenApiParameter(
    "family",
    str,
    OpenApiParameter.QUERY,
    required=False,
    enum=list(FAMILIES),
    description="One family of the season's (none: all together).",
)
PAGE = OpenApiParameter("page", int, OpenApiParameter.QUERY, required=False, description="From 1.")


federation_seasons_list = extend_schema(
    operation_id="federation_seasons_list",
    summary="A federation's seasons (Grand Prix), the latest first",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: GrandPrixSerializer(many=True), **problems(404)},
)


federation_seasons_create = extend_schema(
    operation_id="federation_seasons_create",
    summary="Create a season (the federation's organisers); the worker derives its standings",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=GrandPrixSettingsSerializer,
    examples=[
        OpenApiExample(
            "A Grand Prix",
            summary="Rummikub tournaments of the year, the best 6 count, the top 16 qualify",
            value={
                "name": "Grand Prix 2027",
                "starts": "2027-01-01",
                "ends": "2027-12-31",
                "families": ["rummikub"],
                "tournament_points": "preset",
                "best_events": 6,
                "drop_worst": 0,
                "min_events": 3,
                "qualify": 16,
                "tiebreaks": ["points", "wins", "average_place", "head_to_head"],
            },
            request_only=True,
        )
    ],
    responses={201: GrandPrixSerializer, **problems(400, 401, 403, 404)},
)


federation_season_retrieve = extend_schema(
    operation_id="federation_season_retrieve",
    summary="A season's settings",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID],
    responses={200: GrandPrixSerializer, **problems(404)},
)


federation_season_partial_update = extend_schema(
    operation_id="federation_season_partial_update",
    summary="Change a season's settings (the federation's organisers); the worker derives it again",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=GrandPrixSettingsPatchSerializer,
    responses={200: GrandPrixSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


federation_season_destroy = extend_schema(
    operation_id="federation_season_destroy",
    summary="Delete a season and its standings (the federation's organisers)",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    responses={204: None, **problems(400, 401, 403, 404, 412, 428)},
)


federation_season_standings = extend_schema(
    operation_id="federation_season_standings",
    summary="One page of a season's standings (100 rows), with the qualification line",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, FAMILY, PAGE],
    responses={200: GrandPrixStandingsSerializer, **problems(400, 404)},
)


federation_season_card = extend_schema(
    operation_id="federation_season_card",
    summary="A person's league card: each counted tournament, its place, points and whether they count",
    description="A merged entry's number answers the entry it was merged into.",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, NUMBER, FAMILY],
    responses={200: CardSerializer, **problems(404)},
)
