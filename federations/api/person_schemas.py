"""The schema text of a person's claim and his register entry."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from federations.api.club_schemas import TAGS
from federations.api.person_serializers import ClaimListSerializer, ClaimRequestSerializer, PersonSerializer
from games.api.common import problems

FED = OpenApiParameter("fed", str, OpenApiParameter.PATH, description="The federation's slug.")
NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The entry's number (its federation id's digits)."
)


federation_claim_players = extend_schema(
    operation_id="federation_claim_players",
    summary="The caller's players in the federation's member clubs, and where each stands",
    tags=TAGS,
    parameters=[FED],
    responses={200: ClaimListSerializer, **problems(401, 404)},
)


federation_claim = extend_schema(
    operation_id="federation_claim",
    summary="Claim one's register entry (federation id and name as registered) for one's players",
    description="Each club's organisers confirm. Whatever does not match (an unknown id, another "
    "name, an entry another account holds) gets the same 400 claim_no_match at the field person; "
    "without players of one's own in a member club, 400 claim_no_players. A resend makes no "
    "claim twice.",
    tags=TAGS,
    parameters=[FED],
    request=ClaimRequestSerializer,
    responses={200: ClaimListSerializer, **problems(400, 401, 403, 404)},
)


federation_person = extend_schema(
    operation_id="federation_person",
    summary="A register entry: its linked players and latest finished games across the clubs",
    description="A merged entry answers the entry it was merged into (its number says which). "
    "A members-only club the caller may not see shows only its name.",
    tags=TAGS,
    parameters=[FED, NUMBER],
    responses={200: PersonSerializer, **problems(404)},
)
