"""What the API's schema says of the audit log, sessions and reset-link resources
(games/api/audit.py): one ``extend_schema`` per operation, named by its operation id; the views
wear them as decorators."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api.audit_serializers import (
    AuditEntrySerializer,
    EndedSerializer,
    ResetLinkSerializer,
    SessionSerializer,
)
from games.api.common import problems

SLUG = OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's address.")


clubs_audit_list = extend_schema(
    operation_id="clubs_audit_list",
    summary="A club's audit log (organisers)",
    description="Invites made and revoked, members joining, removed or leaving, roles, settings "
    "and visibility, exports, API tokens of the club's scorekeepers and organisers, games handed "
    "over, deleted and brought back, password reset links and the organisers' logins; newest first.",
    parameters=[SLUG],
    responses={200: AuditEntrySerializer(many=True), **problems(400, 401, 403, 404, 429)},
    tags=["clubs"],
)


clubs_audit_export = extend_schema(
    operation_id="clubs_audit_export",
    summary="Export a club's audit log as CSV (organisers)",
    description="Every entry, newest first: time, action, description, actor, target, address, "
    "details (JSON). Cells that a spreadsheet would run as a formula are written as text. The "
    "export is itself logged.",
    parameters=[SLUG],
    responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR), **problems(401, 403, 404, 429)},
    tags=["clubs"],
)


clubs_members_reset_link = extend_schema(
    operation_id="clubs_members_reset_link",
    summary="Make a one-time password reset link for a member (organisers)",
    description="The link sets the member's password once, within 30 minutes; a newer link "
    "replaces it. Refused (403 reset_not_allowed) for the caller's own account, one that also "
    "belongs to a club the caller does not organise, or a site admin's; at most a few per hour "
    "(429 reset_link_limit). "
    "Logged in the club's audit log.",
    parameters=[
        SLUG,
        OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The membership's id."),
    ],
    request=None,
    responses={201: ResetLinkSerializer, **problems(401, 403, 404, 429)},
    tags=["clubs"],
)


me_sessions_list = extend_schema(
    operation_id="me_sessions_list",
    summary="My active sessions",
    description="The browsers logged in to the caller's account, the most recently seen first.",
    responses={200: SessionSerializer(many=True), **problems(401, 403, 429)},
    tags=["account"],
)


me_sessions_destroy = extend_schema(
    operation_id="me_sessions_destroy",
    summary="End one of my other sessions",
    description="That browser is logged out at once. The caller's own session is refused "
    "(400 session_current: log out instead).",
    parameters=[
        OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The session's id.")
    ],
    responses={204: None, **problems(400, 401, 403, 404, 429)},
    tags=["account"],
)


me_sessions_end_others = extend_schema(
    operation_id="me_sessions_end_others",
    summary="End all my other sessions",
    description="Every session but the caller's own (a token caller has none: all of them).",
    request=None,
    responses={200: EndedSerializer, **problems(401, 403, 429)},
    tags=["account"],
)
