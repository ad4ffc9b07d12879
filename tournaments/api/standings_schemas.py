"""The schema text of a tournament's standings, "where do I sit?", a player's rounds and the history."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.standings_serializers import (
    FoundSeatsSerializer,
    HistorySerializer,
    PlayerRoundsSerializer,
    RevealSerializer,
    StandingsSerializer,
)
from tournaments.api.tournament_schemas import NAME_QUERY, PUBLIC_ID, TAGS

tournament_standings_reveal = extend_schema(
    operation_id="tournament_standings_reveal",
    summary="Reveal the frozen standings to the players, or freeze them again (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=RevealSerializer,
    responses={200: StandingsSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_standings = extend_schema(
    operation_id="tournament_standings",
    summary="The standings (derived from the tables' games on every read)",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: StandingsSerializer, **problems(404)},
    examples=[
        OpenApiExample(
            "Two players after two rounds",
            value={
                "provisional": False,
                "tiebreaks": ["points", "game_score", "average_place", "firsts", "opponents_points"],
                "rows": [
                    {
                        "rank": 1,
                        "entry": 41,
                        "player_id": 12,
                        "name": "Ann Novak",
                        "dropped": False,
                        "points": "13",
                        "points_value": 13.0,
                        "game_score": -42,
                        "game_score_average": "-21",
                        "average_place": "1",
                        "average_place_value": 1.0,
                        "firsts": 2,
                        "opponents_points": "17/2",
                        "opponents_points_value": 8.5,
                        "tables": 2,
                        "byes": 0,
                        "separated_by": None,
                        "shared_by": None,
                    },
                    {
                        "rank": 2,
                        "entry": 42,
                        "player_id": 15,
                        "name": "Bob Cerny",
                        "dropped": False,
                        "points": "9/2",
                        "points_value": 4.5,
                        "game_score": 118,
                        "game_score_average": "59",
                        "average_place": "5/2",
                        "average_place_value": 2.5,
                        "firsts": 0,
                        "opponents_points": "29/2",
                        "opponents_points_value": 14.5,
                        "tables": 2,
                        "byes": 0,
                        "separated_by": "points",
                        "shared_by": None,
                    },
                ],
            },
            response_only=True,
            status_codes=["200"],
        )
    ],
)


tournament_find_seat = extend_schema(
    operation_id="tournament_find_seat",
    summary="Where do I sit? Players matching a name, with their table this round",
    tags=TAGS,
    parameters=[
        PUBLIC_ID,
        NAME_QUERY,
    ],
    responses={200: FoundSeatsSerializer, **problems(400, 404)},
)


tournament_player = extend_schema(
    operation_id="tournament_player",
    summary="One player's tournament round by round: table, seat, place, table points, rank",
    tags=TAGS,
    parameters=[
        PUBLIC_ID,
        OpenApiParameter("entry", int, OpenApiParameter.PATH, description="The entry's id."),
    ],
    responses={200: PlayerRoundsSerializer, **problems(404)},
)


tournament_history = extend_schema(
    operation_id="tournament_history",
    summary="The tournament's changes and later corrections at its tables, newest first",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: HistorySerializer, **problems(404)},
)
