"""The schema text of a federation's history, its undo and its CSV."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from federations.api.federation_schemas import SLUG, TAGS
from federations.api.history_serializers import FederationChangeSerializer, FederationHistorySerializer
from federations.api.register_schemas import PAGE
from games.api.common import IDEMPOTENCY_KEY, problems

federation_history = extend_schema(
    operation_id="federation_history",
    summary="The federation's changes, newest first, 100 a page (organisers)",
    tags=TAGS,
    parameters=[SLUG, PAGE],
    responses={200: FederationHistorySerializer, **problems(400, 401, 403, 404)},
)


federation_history_undo = extend_schema(
    operation_id="federation_history_undo",
    summary="Undo a merge, or undo its undo (organisers); the undo is itself a change",
    description="Refused (400) for a change that is not a merge or an unmerge, or undone already "
    "(nothing_to_undo), and when the entries or their links changed since (undo_later_change).",
    tags=TAGS,
    parameters=[
        SLUG,
        OpenApiParameter("change", int, OpenApiParameter.PATH, description="The change's id."),
        IDEMPOTENCY_KEY,
    ],
    request=None,
    responses={201: FederationChangeSerializer, **problems(400, 401, 403, 404)},
)


federation_history_csv = extend_schema(
    operation_id="federation_history_csv",
    summary="The federation's whole history as CSV (organisers)",
    description="UTF-8 with a byte-order mark; newest first.",
    tags=TAGS,
    parameters=[SLUG],
    responses={
        (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV file."),
        **problems(401, 403, 404),
    },
)
