"""The schema text of a federation's opens: the list, hosting, one open, ending it, its
entries, entering and withdrawing."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from federations.api.federation_schemas import SLUG, TAGS
from federations.api.open_serializers import (
    OpenDetailSerializer,
    OpenEntrySerializer,
    OpenEntryWriteSerializer,
    OpenHostSerializer,
    OpenSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, problems

PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The tournament's id.")
NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The register entry's number (its id's digits)."
)
WHO_ENTERS = (
    "A person enters himself (the register entry his account holds) when the open allows it; an "
    "organiser of a member club enters the people linked to his club's players or whose home club "
    "it is; the federation's and the host club's organisers enter anyone. Anyone else: 403 "
    "(open_not_allowed), whatever the id, so it reveals nothing of the register."
)


federation_opens_list = extend_schema(
    operation_id="federation_opens_list",
    summary="The federation's opens, the latest first, with their host clubs and entry counts",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: OpenSerializer(many=True), **problems(404)},
)


federation_opens_host = extend_schema(
    operation_id="federation_opens_host",
    summary="Host one of a member club's tournaments as an open (the club's organisers)",
    description="The tournament must have no round yet (open_started) and its club be a member "
    "(link_not_member); a tournament is one federation's open (open_taken). It is marked "
    "federation-rated and seeded by rating in the same change; hosting it again changes nothing.",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=OpenHostSerializer,
    responses={201: OpenDetailSerializer, **problems(400, 401, 403, 404)},
)


federation_open_retrieve = extend_schema(
    operation_id="federation_open_retrieve",
    summary="One open: whether its entries are closed, what the caller may do, its entries",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID],
    responses={200: OpenDetailSerializer, **problems(404)},
)


federation_open_end = extend_schema(
    operation_id="federation_open_end",
    summary="The tournament is no longer an open (before round 1; the host's or the federation's organisers)",
    description="The federation-rated mark hosting made goes with it; the players entered stay "
    "registered for the club's tournament. Refused once round 1 is seated (open_started).",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, IDEMPOTENCY_KEY],
    responses={204: None, **problems(400, 401, 403, 404)},
)


federation_open_entries = extend_schema(
    operation_id="federation_open_entries",
    summary="An open's entries, best on the federation's live list first",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID],
    responses={200: OpenEntrySerializer(many=True), **problems(404)},
)


federation_open_enter = extend_schema(
    operation_id="federation_open_enter",
    summary="Enter a register entry in the open",
    description=WHO_ENTERS
    + " His player in the host club is used, or one is made under his registered name and linked to "
    "him. Refused (400, at the field): entries closed (open_closed), entered already "
    "(open_already_entered), for organisers an unknown or merged entry (person_unknown, person_merged).",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, IDEMPOTENCY_KEY],
    request=OpenEntryWriteSerializer,
    responses={201: OpenDetailSerializer, **problems(400, 401, 403, 404)},
)


federation_open_withdraw = extend_schema(
    operation_id="federation_open_withdraw",
    summary="Withdraw a register entry from the open, before round 1 (who may enter him)",
    description="Refused once round 1 is seated (open_closed) or when he is not entered (open_not_entered).",
    tags=TAGS,
    parameters=[SLUG, PUBLIC_ID, NUMBER, IDEMPOTENCY_KEY],
    responses={204: None, **problems(400, 401, 403, 404)},
)
