"""The schema text of a federation's register: its entries, one entry, a new one, an edit and
a merge."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema

from federations.api.federation_schemas import SLUG, TAGS
from federations.api.lookups import MAX_PAGE
from federations.api.register_serializers import (
    RegisterEntryPatchSerializer,
    RegisterEntrySerializer,
    RegisterEntryWriteSerializer,
    RegisterMergeResultSerializer,
    RegisterMergeSerializer,
    RegisterSerializer,
)
from games.api.common import IDEMPOTENCY_KEY, IF_MATCH, problems

NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="The entry's number (its id's digits)."
)
PAGE = OpenApiParameter(
    "page",
    {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    OpenApiParameter.QUERY,
    required=False,
    description="From 1; 100 entries a page.",
)


federation_register_list = extend_schema(
    operation_id="federation_register_list",
    summary="The federation's register, 100 entries a page, by number",
    description="Whoever sees the federation reads it. Merged entries are left out.",
    tags=TAGS,
    parameters=[
        SLUG,
        OpenApiParameter(
            "q",
            str,
            OpenApiParameter.QUERY,
            required=False,
            description='A part of a name (accents and case aside) or a federation id ("CZ-00042", "42").',
        ),
        PAGE,
    ],
    responses={200: RegisterSerializer, **problems(400, 404)},
)


federation_register_add = extend_schema(
    operation_id="federation_register_add",
    summary="Add a person to the register (organisers); he gets the next number",
    description="A home club must be a member club (home_club_not_member, at the field).",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=RegisterEntryWriteSerializer,
    responses={201: RegisterEntrySerializer, **problems(400, 401, 403, 404)},
)


federation_register_retrieve = extend_schema(
    operation_id="federation_register_retrieve",
    summary="One register entry (a merged one names the entry it was merged into)",
    tags=TAGS,
    parameters=[SLUG, NUMBER],
    responses={200: RegisterEntrySerializer, **problems(404)},
)


federation_register_partial_update = extend_schema(
    operation_id="federation_register_partial_update",
    summary="Change an entry's name or home club (organisers)",
    tags=TAGS,
    parameters=[SLUG, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
    request=RegisterEntryPatchSerializer,
    responses={200: RegisterEntrySerializer, **problems(400, 401, 403, 404, 412, 428)},
)


federation_register_merge = extend_schema(
    operation_id="federation_register_merge",
    summary="Merge a duplicate entry into another (organisers); the history can undo it",
    description="Each entry's version is the one read (a stale one: 412 with the entries now). "
    "The merged entry's links to the clubs' players move to the kept one; its number still finds "
    "him. Refused when both are linked to players of one club (merge_same_club), for one entry "
    "twice (merge_same), an unknown number (person_unknown) or an entry merged already (person_merged).",
    tags=TAGS,
    parameters=[SLUG, IDEMPOTENCY_KEY],
    request=RegisterMergeSerializer,
    responses={201: RegisterMergeResultSerializer, **problems(400, 401, 403, 404, 412)},
)
