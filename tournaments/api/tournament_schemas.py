"""The schema text of a club's tournaments and a tournament's settings, and the path parameters
every tournaments resource names."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.tournament_serializers import (
    SettingsPatchSerializer,
    SettingsSerializer,
    TournamentListSerializer,
    TournamentSerializer,
)

PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The tournament's id.")


SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The club's slug.")


NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number.")


ENTRY = OpenApiParameter("entry_id", int, OpenApiParameter.PATH, description="The entry's id.")


TAGS = ["tournaments"]


NAME_QUERY = OpenApiParameter(
    "q",
    # Blank is refused (nothing to look for): the schema says so.
    {"type": "string", "minLength": 1, "pattern": r"\S"},
    OpenApiParameter.QUERY,
    required=True,
    description="A name or part (not blank); accents and case aside.",
)


club_tournaments_list = extend_schema(
    operation_id="club_tournaments_list",
    summary="A club's tournaments",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: TournamentListSerializer(many=True), **problems(404)},
)


club_tournaments_create = extend_schema(
    operation_id="club_tournaments_create",
    summary="Create a tournament (organisers)",
    description="No Idempotency-Key: the service has no request id for a new tournament.",
    tags=TAGS,
    parameters=[SLUG],
    request=SettingsSerializer,
    responses={201: TournamentSerializer, **problems(400, 401, 403, 404)},
    examples=[
        OpenApiExample(
            "A Žolíky evening",
            summary="Three rounds of Žolíky at tables of four, balanced seating",
            value={
                "name": "Winter cup",
                "date": "2026-12-12",
                "family": "zoliky",
                "options": {"joker_penalty": 30},
                "rounds": 3,
                "round_hands": 0,
                "table_preferred": 4,
                "byes_allowed": True,
                "seating": "balanced",
                "seat_order": "rotating",
                "points": "table",
                "tiebreaks": ["points", "game_score", "average_place", "firsts"],
            },
            request_only=True,
        )
    ],
)


tournaments_retrieve = extend_schema(
    operation_id="tournaments_retrieve",
    summary="A tournament: its settings and rounds",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: TournamentSerializer, **problems(404)},
)


tournaments_partial_update = extend_schema(
    operation_id="tournaments_partial_update",
    summary="Change a tournament's settings (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=SettingsPatchSerializer,
    examples=[
        OpenApiExample(
            "Four rounds with custom points",
            summary="Only the settings sent change",
            value={"rounds": 4, "points": "custom", "custom_points": "4: 5 3 2 0; 3: 4 2 0"},
            request_only=True,
        )
    ],
    responses={200: TournamentSerializer, **problems(400, 401, 403, 404, 412, 428)},
)
