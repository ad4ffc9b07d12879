"""The schema text of a tournament's rounds and the final's stages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.round_serializers import (
    MoveSerializer,
    PublishSerializer,
    RoundConfirmSerializer,
    RoundListSerializer,
    RoundSerializer,
    RoundStartSerializer,
)
from tournaments.api.tournament_schemas import NUMBER, PUBLIC_ID, TAGS

FORCE = OpenApiParameter(
    "force",
    bool,
    OpenApiParameter.QUERY,
    required=False,
    description="As the body's force: confirm although some tables have not confirmed their results.",
)


tournament_rounds_list = extend_schema(
    operation_id="tournament_rounds_list",
    summary="The rounds seated so far",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: RoundListSerializer, **problems(404)},
)


tournament_rounds_retrieve = extend_schema(
    operation_id="tournament_rounds_retrieve",
    summary="A round: its tables (players, game, hands, leaders) and byes",
    description="The organisers' view also has each table's edit link (edit_url).",
    tags=TAGS,
    parameters=[PUBLIC_ID, NUMBER],
    responses={200: RoundSerializer, **problems(404)},
)


tournament_round_seat = extend_schema(
    operation_id="tournament_round_seat",
    summary="Seat a round, or seat it again (organisers)",
    description="A new round (the next one, once the one before is confirmed): no If-Match. "
    "Seating again a round not started yet: If-Match with the round's ETag.",
    tags=TAGS,
    parameters=[
        PUBLIC_ID,
        NUMBER,
        OpenApiParameter(
            "If-Match",
            str,
            OpenApiParameter.HEADER,
            required=False,
            description="The round's ETag, to seat an existing round again (412 if stale).",
        ),
        IDEMPOTENCY_KEY,
    ],
    request=None,
    responses={200: RoundSerializer, 201: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_round_move = extend_schema(
    operation_id="tournament_round_move",
    summary="Move a player to another table of a seated round (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
    request=MoveSerializer,
    examples=[
        OpenApiExample("Move to table 3", value={"entry": 41, "to_table": 3}, request_only=True),
        OpenApiExample(
            "Give the bye",
            summary="Table 0 is the bye",
            value={"entry": 41, "to_table": 0},
            request_only=True,
        ),
    ],
    responses={200: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_final_seat = extend_schema(
    operation_id="tournament_final_seat",
    summary="Seat the final's next stage (organisers)",
    description="Once the rounds (and the stage before) are confirmed: a final table of the top "
    "players, or a knockout's matches seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6, then their winners. "
    "The stage is a round numbered after the tournament's rounds: start and confirm it as one.",
    tags=TAGS,
    parameters=[PUBLIC_ID, IDEMPOTENCY_KEY],
    request=None,
    responses={201: RoundSerializer, **problems(400, 401, 403, 404)},
)


tournament_final_undo = extend_schema(
    operation_id="tournament_final_undo",
    summary="Take back a stage of the final not started yet (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
    request=None,
    responses={204: None, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_round_publish = extend_schema(
    operation_id="tournament_round_publish",
    summary="Publish a round's seating to the players, or hide it again (organisers)",
    description="With hide_seating, a round is seated hidden: only the organisers see its tables "
    "until they publish it. Starting a round publishes it.",
    tags=TAGS,
    parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
    request=PublishSerializer,
    responses={200: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


ROUND_STEP_SUMMARIES = {
    "start": "Start a seated round: each table gets its game (organisers)",
    "confirm": "Confirm a round's results: open tables are ended (organisers)",
}


def round_step(step: str) -> Any:
    return extend_schema(
        operation_id=f"tournament_round_{step}",
        summary=ROUND_STEP_SUMMARIES[step],
        tags=TAGS,
        description=""
        if step == "start"
        else "When the tournament asks the tables to confirm their results (table_confirm), a round "
        "with a table not confirmed by all its players, or disputed, is refused with 409 "
        "tables_unconfirmed listing them (tables: table, state, agreed, players, words), unless "
        "force is true.",
        parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY, *([] if step == "start" else [FORCE])],
        request=RoundStartSerializer if step == "start" else RoundConfirmSerializer,
        responses={
            200: RoundSerializer,
            **problems(400, 401, 403, 404, 412, 428, *([] if step == "start" else [409])),
        },
    )
