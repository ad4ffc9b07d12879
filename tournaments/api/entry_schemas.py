"""The schema text of a tournament's players: registering, check-in, drop and rejoin, pinning,
keeping apart."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema

from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems
from tournaments.api.entry_serializers import (
    ApartChangeSerializer,
    ApartListSerializer,
    EntriesAddSerializer,
    EntryListSerializer,
    EntrySerializer,
    PinSerializer,
)
from tournaments.api.tournament_schemas import ENTRY, PUBLIC_ID, TAGS

tournament_entries_list = extend_schema(
    operation_id="tournament_entries_list",
    summary="The players registered, with their status",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: EntryListSerializer, **problems(404)},
)


tournament_entries_create = extend_schema(
    operation_id="tournament_entries_create",
    summary="Register players by id and/or by name (organisers)",
    description="Answers the entries of the players asked for (those already registered "
    "included), so a resend with the same Idempotency-Key gets the same answer.",
    tags=TAGS,
    parameters=[PUBLIC_ID, IDEMPOTENCY_KEY],
    request=EntriesAddSerializer,
    examples=[
        OpenApiExample(
            "Known players and new names",
            summary="Players 12 and 15 of the club, and two new names, checked in at once",
            value={"players": [12, 15], "names": ["Ann Novak", "Bob Cerny"], "checked_in": True},
            request_only=True,
        )
    ],
    responses={201: EntryListSerializer, **problems(400, 401, 403, 404)},
)


tournament_entry_pin = extend_schema(
    operation_id="tournament_entry_pin",
    summary="Keep a player at one table every round, or let him move again (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID, ENTRY, IF_MATCH, IDEMPOTENCY_KEY],
    request=PinSerializer,
    examples=[
        OpenApiExample("Pin to table 2", value={"table": 2}, request_only=True),
        OpenApiExample("Unpin", summary="Let him move again", value={"table": None}, request_only=True),
    ],
    responses={200: EntrySerializer, **problems(400, 401, 403, 404, 412, 428)},
)


tournament_apart_list = extend_schema(
    operation_id="tournament_apart_list",
    summary="Who must not meet: pairs kept at different tables (organisers)",
    tags=TAGS,
    parameters=[PUBLIC_ID],
    responses={200: ApartListSerializer, **problems(401, 403, 404)},
)


tournament_apart_change = extend_schema(
    operation_id="tournament_apart_change",
    summary="Keep two players apart, or let them meet again (organisers)",
    description="Every seating keeps such a pair at different tables when any seating can, "
    "before it avoids repeats; the round's report names a pair it could not. If-Match: the "
    "tournament's ETag (the change is a new version of the tournament).",
    tags=TAGS,
    parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
    request=ApartChangeSerializer,
    examples=[
        OpenApiExample("Keep apart", value={"first": 12, "second": 15}, request_only=True),
        OpenApiExample("Let them meet", value={"first": 12, "second": 15, "keep": False}, request_only=True),
    ],
    responses={200: ApartListSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


ENTRY_ACTION_SUMMARIES = {
    "check_in": "Check a player in",
    "check_out": "Undo a check-in",
    "drop": "A player drops out (his results stay)",
    "rejoin": "A player comes back (from the next round)",
}


def entry_action(operation: str) -> Any:
    return extend_schema(
        operation_id=f"tournament_entry_{operation}",
        summary=f"{ENTRY_ACTION_SUMMARIES[operation]} (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, ENTRY, IF_MATCH, IDEMPOTENCY_KEY],
        request=None,
        responses={200: EntrySerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
