"""The schema text of the rating list, the league card and the CSV downloads."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema

from games.api.common import problems
from tournaments.api.league_serializers import LeagueCardSerializer, RatingListSerializer
from tournaments.api.season_schemas import FAMILY, PLAYER, PUBLIC_ID, SLUG

TAGS = ["seasons"]


def _csv_download(operation_id: str, summary: str, parameters: list[Any]) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description="The page's CSV download: UTF-8 with a byte-order mark, the header row in the "
        "request's language.",
        tags=TAGS,
        parameters=parameters,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV file."),
            **problems(404),
        },
    )


club_rating_list = extend_schema(
    operation_id="club_rating_list",
    summary="The club's rating list of one rule family",
    description="Every player with a rated game of ?family= (else the first family rated), by rating.",
    tags=TAGS,
    parameters=[SLUG, FAMILY],
    responses={200: RatingListSerializer, **problems(400, 404)},
)


season_league_card = extend_schema(
    operation_id="season_league_card",
    summary="A player's league card: every event of the season, its points and whether it counted",
    tags=TAGS,
    parameters=[PUBLIC_ID, PLAYER, FAMILY],
    responses={200: LeagueCardSerializer, **problems(400, 404)},
)


club_rating_list_csv = _csv_download(
    "club_rating_list_csv", "The club's rating list of one rule family as CSV", [SLUG, FAMILY]
)
season_standings_csv = _csv_download(
    "season_standings_csv", "Every row of the season's standings as CSV", [PUBLIC_ID, FAMILY]
)
season_league_card_csv = _csv_download(
    "season_league_card_csv", "A player's league card as CSV", [PUBLIC_ID, PLAYER, FAMILY]
)
