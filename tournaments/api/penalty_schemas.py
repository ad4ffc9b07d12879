"""The schema text of warnings and point penalties."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.penalty_serializers import PenaltiesSerializer, PenaltyGiveSerializer
from tournaments.api.tournament_schemas import PUBLIC_ID, TAGS

tournament_penalties = extend_schema(
    operation_id="tournament_penalties",
    summary="The warnings and point penalties given, newest first (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: PenaltiesSerializer, **problems(401, 403, 404)},
)


tournament_penalty_give = extend_schema(
    operation_id="tournament_penalty_give",
    summary="Give a player a warning or a point penalty with a reason (organisers)",
    description="Refused (400, at its field) without a reason (penalty_reason), with points out "
    "of range or points on a warning (penalty_points_range, penalty_warning_points), for a round "
    "not seated (penalty_round) or an entry not registered (penalty_entry).",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=PenaltyGiveSerializer,
    responses={201: PenaltiesSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_penalty_undo = extend_schema(
    operation_id="tournament_penalty_undo",
    summary="Take back a warning or a penalty (organisers); taking it back twice changes nothing",
    tags=TAGS,
    parameters=[
        PUBLIC_ID,
        OpenApiParameter("penalty", int, OpenApiParameter.PATH, description="The penalty's id."),
        IF_MATCH,
        IDEMPOTENCY_KEY,
    ],
    request=None,
    responses={200: PenaltiesSerializer, **problems(400, 401, 403, 404, 412, 428)},
)
