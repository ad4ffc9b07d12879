"""The schema text of the self check-in at the door."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.door_serializers import (
    DoorEntrySerializer,
    DoorFoundSerializer,
    DoorSerializer,
    DoorSetSerializer,
    SelfCheckInSerializer,
)
from tournaments.api.tournament_schemas import NAME_QUERY, PUBLIC_ID, TAGS

DOOR_KEY = OpenApiParameter("key", str, OpenApiParameter.PATH, description="The check-in link's key.")


tournament_door_retrieve = extend_schema(
    operation_id="tournament_door_retrieve",
    summary="The self check-in at the door: open or closed, its link (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: DoorSerializer, **problems(401, 403, 404)},
)


tournament_door_set = extend_schema(
    operation_id="tournament_door_set",
    summary="Open or close the self check-in at the door (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=DoorSetSerializer,
    responses={200: DoorSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_self_check_in_find = extend_schema(
    operation_id="tournament_self_check_in_find",
    summary="Self check-in: the registered players matching a name (with the door's link)",
    tags=TAGS,
    auth=[],
    parameters=[
        PUBLIC_ID,
        DOOR_KEY,
        NAME_QUERY,
    ],
    responses={200: DoorFoundSerializer, **problems(400, 404, 429)},
)


tournament_self_check_in = extend_schema(
    operation_id="tournament_self_check_in",
    summary="Self check-in: check a registered player in (with the door's link, while it is open)",
    description="Refused (400) when the check-in is closed (check_in_closed), the entry is not "
    "this tournament's (check_in_unknown) or has dropped out (check_in_dropped). Checking in "
    "twice is checking in once.",
    tags=TAGS,
    auth=[],
    parameters=[PUBLIC_ID, DOOR_KEY, IDEMPOTENCY_KEY],
    request=SelfCheckInSerializer,
    responses={200: DoorEntrySerializer, **problems(400, 404, 429)},
)
