"""The schema text of the federations, a federation's settings, its organisers and its clubs,
and the path parameters the federation resources share."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema

from federations.api.federation_serializers import (
    FederationClubsSerializer,
    FederationCreateSerializer,
    FederationInviteSerializer,
    FederationListSerializer,
    FederationMembershipSerializer,
    FederationOrganiserAddSerializer,
    FederationOrganiserSerializer,
    FederationSerializer,
    FederationSettingsPatchSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems

TAGS = ["federations"]

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The federation's slug.")


federations_list = extend_schema(
    operation_id="federations_list",
    summary="The federations the caller sees, by name, with their member clubs' count",
    tags=TAGS,
    responses={200: FederationListSerializer(many=True), **problems(400)},
)


federations_create = extend_schema(
    operation_id="federations_create",
    summary="Create a federation (signed in); its creator is its first organiser",
    description="Its slug is made from the name. Refused (400, at its field) with an empty name "
    "(federation_name_empty) or a prefix other than up to six letters or digits (federation_prefix).",
    tags=TAGS,
    parameters=[IDEMPOTENCY_KEY],
    request=FederationCreateSerializer,
    examples=[
        OpenApiExample(
            "A national federation",
            value={"name": "Česká federace žolíků", "id_prefix": "CZ"},
            request_only=True,
        )
    ],
    responses={201: FederationSerializer, **problems(400, 401, 403)},
)


federations_retrieve = extend_schema(
    operation_id="federations_retrieve",
    summary="A federation: its settings, member clubs and the size of its register",
    description="A members-only federation is a 404 to whoever is neither its organiser nor a "
    "member of one of its clubs. A member club the caller may not see has no slug.",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: FederationSerializer, **problems(404)},
)


federations_partial_update = extend_schema(
    operation_id="federations_partial_update",
    summary="Change a federation's settings (organisers)",
    description="Only what is sent changes. A slug another federation has is refused "
    "(slug_taken, at the field).",
    tags=TAGS,
    parameters=[SLUG, IF_MATCH, IDEMPOTENCY_KEY],
    request=FederationSettingsPatchSerializer,
    responses={200: FederationSerializer, **problems(400, 401, 403, 404, 412, 428)},
)


federation_organisers_list = extend_schema(
    operation_id="federation_organisers_list",
    summary="A federation's organisers (organisers)",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: FederationOrganiserSerializer(many=True), **problems(401, 403, 404)},
)


federation_organisers_add = extend_schema(
    operation_id="federation_organisers_add",
    summary="Make an account an organiser of the federation (organisers)",
    description="An unknown account name is refused at the field (organiser_unknown); one who "
    "is an organiser already changes nothing.",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=FederationOrganiserAddSerializer,
    responses={201: FederationOrganiserSerializer(many=True), **problems(400, 401, 403, 404)},
)


federation_organisers_remove = extend_schema(
    operation_id="federation_organisers_remove",
    summary="Remove an organiser, or step down (organisers); the last one stays",
    tags=TAGS,
    parameters=[
        SLUG,
        OpenApiParameter("username", str, OpenApiParameter.PATH, description="The organiser's account name."),
        IDEMPOTENCY_KEY,
    ],
    request=None,
    responses={204: None, **problems(400, 401, 403, 404)},
)


federation_clubs_list = extend_schema(
    operation_id="federation_clubs_list",
    summary="The federation's clubs: members, open invitations and past periods (organisers)",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: FederationClubsSerializer, **problems(401, 403, 404)},
)


federation_clubs_invite = extend_schema(
    operation_id="federation_clubs_invite",
    summary="Invite a club (organisers); its organisers accept on their side",
    description="Refused at the field for an unknown club (club_unknown), one invited or a member "
    "already (club_already_invited, club_already_member) or a day out of range (counts_from_range).",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=FederationInviteSerializer,
    examples=[
        OpenApiExample(
            "A founding club with its history",
            value={"club": "karetni-klub-brno", "counts_from": "2025-01-01"},
            request_only=True,
        )
    ],
    responses={201: FederationMembershipSerializer, **problems(400, 401, 403, 404)},
)


federation_club_end = extend_schema(
    operation_id="federation_club_end",
    summary="End a club's membership, or withdraw its invitation (organisers)",
    description="The federation's side; what the club played while a member still counts. "
    "If-Match is the membership's ETag (from the clubs list).",
    tags=TAGS,
    parameters=[
        SLUG,
        OpenApiParameter("club", str, OpenApiParameter.PATH, description="The club's slug."),
        IF_MATCH,
        IDEMPOTENCY_KEY,
    ],
    request=None,
    responses={200: FederationMembershipSerializer, **problems(400, 401, 403, 404, 412, 428)},
)
