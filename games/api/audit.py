"""The audit log, sessions and reset-link resources of the API (see games/api/urls.py), the
same data and actions as their pages (games/views/audit.py, games/views/accounts.py):

- ``GET clubs/{slug}/audit/``: the club's audit log, newest first (organisers only: 404 to
  outsiders of a members-only club, 403 to its other members, as the pages).
- ``GET clubs/{slug}/audit/export/``: the whole log as CSV (the export itself is logged).
- ``POST clubs/{slug}/members/{id}/reset-link/``: a one-time password reset link for a member
  (shown in this answer only).
- ``GET me/sessions/``, ``DELETE me/sessions/{id}/``, ``POST me/sessions/end-others/``: the
  caller's logged-in browsers; a token caller has no session of his own, so all are "others".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.urls import URLPattern, path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, permissions, renderers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.auth import TokenScope
from games.api.common import ApiError, CursorPage, SiteLink, problems
from games.api.lookups import visible_club
from games.models import AuditEntry, Club, ResetLink, UserSession
from games.selectors.audit import audit_entries
from games.selectors.clubs import club_membership
from games.services.audit import audit_export
from games.services.errors import NotAllowed, SessionUnknown, TooOften
from games.services.resets import reset_link_create, reset_link_path
from games.text.errors import error_message
from games.web.sessions import active_sessions, session_end, session_end_others

SLUG = OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's address.")


def _organised(request: Request, slug: str) -> Club:
    club, _role = visible_club(request, slug, manage=True)
    return club


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    actor = serializers.CharField(
        source="actor_name", help_text="The user name of who did it ('' if unknown)."
    )
    description = serializers.CharField(source="get_action_display", help_text="The action in words.")

    class Meta:
        model = AuditEntry
        fields = ["id", "created_at", "action", "description", "actor", "target", "address", "data"]


class CsvText(renderers.BaseRenderer):
    """``text/csv``: the view hands over the finished text (an error stays a JSON problem)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return data.encode("utf-8") if isinstance(data, str) else b""


class AuditList(generics.ListAPIView[AuditEntry]):
    serializer_class = AuditEntrySerializer
    filter_backends: list[Any] = []
    pagination_class = CursorPage
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    def get_queryset(self) -> Any:
        return audit_entries(club=_organised(self.request, self.kwargs["slug"]))

    @extend_schema(
        operation_id="clubs_audit_list",
        summary="A club's audit log (organisers)",
        description="Invites made and revoked, members joining, removed or leaving, roles, settings "
        "and visibility, exports, API tokens of the club's scorekeepers and organisers, games handed "
        "over, deleted and brought back, password reset links and the organisers' logins; newest first.",
        parameters=[SLUG],
        responses={200: AuditEntrySerializer(many=True), **problems(400, 401, 403, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class AuditExport(APIView):
    renderer_classes = [CsvText, renderers.JSONRenderer]
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @extend_schema(
        operation_id="clubs_audit_export",
        summary="Export a club's audit log as CSV (organisers)",
        description="Every entry, newest first: time, action, description, actor, target, address, "
        "details (JSON). Cells that a spreadsheet would run as a formula are written as text. The "
        "export is itself logged.",
        parameters=[SLUG],
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR), **problems(401, 403, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _organised(request, slug)
        response = Response(
            audit_export(club=club, user=request.user), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-audit-log.csv"'
        return response


@dataclass(frozen=True)
class IssuedLink:
    """A reset link as made: its row and its token, which no later read can give back."""

    link: ResetLink
    token: str

    @property
    def path(self) -> str:
        return reset_link_path(self.token)


class ResetLinkSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="link.user.username")
    url = SiteLink(source="path", help_text="The link to hand over: it is shown only in this answer.")
    expires_at = serializers.DateTimeField(source="link.expires_at")


class ResetLinkCreate(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @extend_schema(
        operation_id="clubs_members_reset_link",
        summary="Make a one-time password reset link for a member (organisers)",
        description="The link sets the member's password once, within 30 minutes; a newer link "
        "replaces it. Refused (403 reset_not_allowed) for the caller's own account, one that also "
        "belongs to a club the caller does not organise, or a site admin's; at most a few per hour "
        "(429 reset_link_limit). "
        "Logged in the club's audit log.",
        parameters=[
            SLUG,
            OpenApiParameter(
                "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The membership's id."
            ),
        ],
        request=None,
        responses={201: ResetLinkSerializer, **problems(401, 403, 404, 429)},
        tags=["clubs"],
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        club = _organised(request, slug)
        membership = club_membership(club=club, pk=pk)
        if membership is None:
            raise exceptions.NotFound()
        assert isinstance(request.user, User)
        try:
            row, token = reset_link_create(user=membership.user, by=request.user, club=club)
        except (NotAllowed, TooOften) as error:
            # Not the request's fault: the caller may not reset this account, or not so often.
            refused = 403 if isinstance(error, NotAllowed) else 429
            raise ApiError(
                status_code=refused, code=error.code, message=error_message(error), params=error.params
            ) from None
        issued = IssuedLink(link=row, token=token)
        response = Response(
            ResetLinkSerializer(issued, context={"request": request}).data, status=status.HTTP_201_CREATED
        )
        response["Cache-Control"] = "no-store"
        return response


class SessionSerializer(serializers.ModelSerializer[UserSession]):
    current = serializers.SerializerMethodField(help_text="This is the session making the request.")

    class Meta:
        model = UserSession
        fields = ["id", "user_agent", "address", "created_at", "last_seen", "current"]

    def get_current(self, row: UserSession) -> bool:
        return bool(row.session_key == self.context.get("current"))


def _current_key(request: Request) -> str | None:
    session = getattr(request._request, "session", None)
    return session.session_key if session is not None and request.auth is None else None


class EndedSerializer(serializers.Serializer[Any]):
    # Reads the count itself, as the service answers it.
    ended = serializers.IntegerField(source="*", help_text="How many sessions were ended.")


class SessionList(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]
    pagination_class = None

    @extend_schema(
        operation_id="me_sessions_list",
        summary="My active sessions",
        description="The browsers logged in to the caller's account, the most recently seen first.",
        responses={200: SessionSerializer(many=True), **problems(401, 403, 429)},
        tags=["account"],
    )
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        rows = active_sessions(user=request.user)
        return Response(SessionSerializer(rows, many=True, context={"current": _current_key(request)}).data)


class SessionDetail(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @extend_schema(
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
    def delete(self, request: Request, pk: int) -> Response:
        assert isinstance(request.user, User)
        try:
            session_end(user=request.user, pk=pk, current_key=_current_key(request))
        except SessionUnknown as unknown:
            raise exceptions.NotFound(error_message(unknown)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionEndOthers(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @extend_schema(
        operation_id="me_sessions_end_others",
        summary="End all my other sessions",
        description="Every session but the caller's own (a token caller has none: all of them).",
        request=None,
        responses={200: EndedSerializer, **problems(401, 403, 429)},
        tags=["account"],
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        ended = session_end_others(user=request.user, current_key=_current_key(request))
        return Response(EndedSerializer(ended).data)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/audit/", AuditList.as_view(), name="api-club-audit"),
    path("clubs/<slug:slug>/audit/export/", AuditExport.as_view(), name="api-club-audit-export"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/reset-link/",
        ResetLinkCreate.as_view(),
        name="api-club-reset-link",
    ),
    path("me/sessions/", SessionList.as_view(), name="api-me-sessions"),
    path("me/sessions/<int:pk>/", SessionDetail.as_view(), name="api-me-session"),
    path("me/sessions/end-others/", SessionEndOthers.as_view(), name="api-me-sessions-end-others"),
]
