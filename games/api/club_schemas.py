"""What the API's schema says of the clubs resources (games/api/clubs.py): the path parameters
they share, and one ``extend_schema`` per operation, named by its operation id; the views wear
them as decorators."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from games.api.club_serializers import (
    MAX_QUERY,
    ClubSerializer,
    ClubSettingsSerializer,
    JoinSerializer,
    MergeSerializer,
    PlayerSerializer,
    RenameSerializer,
    RosterRowSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems

SLUG_PARAM = OpenApiParameter(
    "slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's address."
)
# Anonymous callers read public clubs (TokenScope lets every read through); spectacular cannot
# tell from that permission, so the security requirements are given (a list of requirement
# objects, though the stubs type `auth` as strings).
READ_AUTH: Any = [{"bearer": []}, {"cookieAuth": []}, {}]
ID_PARAM = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The player's id.")


clubs_list = extend_schema(
    operation_id="clubs_list",
    auth=READ_AUTH,
    summary="Clubs",
    description="The public clubs and the caller's own clubs (members-only ones included), "
    "by address, with the caller's role in each.",
    responses={200: ClubSerializer(many=True), **problems(400, 401, 404, 429)},
    tags=["clubs"],
)


clubs_retrieve = extend_schema(
    operation_id="clubs_retrieve",
    auth=READ_AUTH,
    summary="A club",
    description="A members-only club answers 404 to everyone outside it.",
    parameters=[SLUG_PARAM],
    responses={200: ClubSerializer, **problems(401, 404, 429)},
    tags=["clubs"],
)


clubs_partial_update = extend_schema(
    operation_id="clubs_partial_update",
    summary="Change a club's settings (organisers)",
    description="Only the settings sent change. If-Match is the club's ETag.",
    parameters=[SLUG_PARAM, IF_MATCH],
    request=ClubSettingsSerializer,
    examples=[
        OpenApiExample(
            "The rating list",
            value={"provisional_games": 10, "inactive_days": 90},
            request_only=True,
        )
    ],
    responses={200: ClubSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
    tags=["clubs"],
)


clubs_players_list = extend_schema(
    operation_id="clubs_players_list",
    auth=READ_AUTH,
    summary="A club's players",
    description="The club's current players (merged ones left out) by name, with the games "
    "each sat in. `q` finds names containing it (accents and case aside).",
    parameters=[
        SLUG_PARAM,
        OpenApiParameter(
            "q",
            {"type": "string", "maxLength": MAX_QUERY},
            OpenApiParameter.QUERY,
            required=False,
            description="Part of a name.",
        ),
    ],
    responses={200: RosterRowSerializer(many=True), **problems(400, 401, 404, 429)},
    tags=["clubs"],
)


clubs_players_retrieve = extend_schema(
    operation_id="clubs_players_retrieve",
    auth=READ_AUTH,
    summary="A player's summary",
    description="The player's statistics (finished games), results and frequent opponents; "
    "the ETag is the player's version (send it as If-Match to rename or merge). A merged "
    "player still answers, with `merged_into`.",
    parameters=[SLUG_PARAM, ID_PARAM],
    responses={200: PlayerSerializer, **problems(401, 404, 429)},
    tags=["clubs"],
)


clubs_players_rename = extend_schema(
    operation_id="clubs_players_rename",
    summary="Rename a player (organisers)",
    description="Old score sheets keep the names they were played under. Recorded in the "
    "club's history (undoable there).",
    parameters=[SLUG_PARAM, ID_PARAM, IF_MATCH, IDEMPOTENCY_KEY],
    request=RenameSerializer,
    examples=[OpenApiExample("Rename", value={"name": "Ann Novak"}, request_only=True)],
    responses={200: PlayerSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
    tags=["clubs"],
)


clubs_join = extend_schema(
    operation_id="clubs_join",
    summary="Join a club with an invite link",
    description="The caller (logged in, or with a read-write token) joins the invite's club as "
    "a member; joining twice changes nothing. Answers the club. Invite look-ups are limited "
    "per address and hour: over the limit every one is refused (429), the right one too.",
    request=JoinSerializer,
    examples=[
        OpenApiExample(
            "An invite link",
            value={"token": "https://rummy.example.org/clubs/join/#Zq8…"},
            request_only=True,
        )
    ],
    responses={200: ClubSerializer, **problems(400, 401, 404, 429)},
    tags=["clubs"],
)


clubs_players_merge = extend_schema(
    operation_id="clubs_players_merge",
    summary="Merge a player into another (organisers)",
    description="One person recorded under two names: every seat of this player moves to "
    "`into` with its results, and this player is hidden. If-Match is this (dropped) "
    "player's ETag. Undoable in the club's history. Answers the kept player.",
    parameters=[SLUG_PARAM, ID_PARAM, IF_MATCH, IDEMPOTENCY_KEY],
    request=MergeSerializer,
    examples=[
        OpenApiExample(
            "Merge into player 12",
            summary="Keep player 12, drop this one",
            value={"into": 12},
            request_only=True,
        )
    ],
    responses={200: PlayerSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
    tags=["clubs"],
)
