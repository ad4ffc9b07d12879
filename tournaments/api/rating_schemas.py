"""The schema text of a player's ratings, head to head, the club's freshness and a game's win chances."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api.common import problems
from tournaments.api.rating_serializers import (
    FreshnessSerializer,
    GameChancesSerializer,
    RatingsSerializer,
    VersusSerializer,
)
from tournaments.api.season_schemas import FAMILY, PLAYER, SLUG, TAGS

club_player_ratings = extend_schema(
    operation_id="club_player_ratings",
    summary="A player's ratings per rule family, with the history of one",
    description="The history is of ?family= (else the family he played most).",
    tags=TAGS,
    parameters=[SLUG, PLAYER, FAMILY],
    responses={200: RatingsSerializer, **problems(400, 404)},
)


club_player_versus = extend_schema(
    operation_id="club_player_versus",
    summary="Two club players head to head: their record and every game both played",
    tags=TAGS,
    parameters=[
        SLUG,
        PLAYER,
        OpenApiParameter("other_id", int, OpenApiParameter.PATH, description="The other player's id."),
    ],
    responses={200: VersusSerializer, **problems(400, 404)},
)


club_derived_freshness = extend_schema(
    operation_id="club_derived_freshness",
    summary="Whether the club's ratings and standings are up to date",
    description="Pages showing ratings or standings poll this while they say 'updating…', with the "
    "ETag as If-None-Match (304 while nothing changed), and reload once pending is false.",
    tags=TAGS,
    parameters=[SLUG],
    responses={
        200: FreshnessSerializer,
        304: OpenApiResponse(description="Not modified."),
        **problems(404),
    },
)


game_win_chances = extend_schema(
    operation_id="game_win_chances",
    summary="Each player's chance to win a club game, by the club's ratings before it",
    description="Exact numbers (not the page's rounded percents). Readable by whoever reads the "
    "game. A private game has no club ratings: 404.",
    tags=TAGS,
    parameters=[OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The game's id.")],
    responses={200: GameChancesSerializer, **problems(404)},
)
