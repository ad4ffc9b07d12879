"""The audit log, sessions and reset-link resources of the API (see games/api/urls.py), the
same data and actions as their pages (games/views/audit.py, games/views/accounts.py):

- ``GET clubs/{slug}/audit/``: the club's audit log, newest first (organisers only: 404 to
  outsiders of a members-only club, 403 to its other members, as the pages).
- ``GET clubs/{slug}/audit/export/``: the whole log as CSV (the export itself is logged).
- ``POST clubs/{slug}/members/{id}/reset-link/``: a one-time password reset link for a member
  (shown in this answer only).
- ``GET me/sessions/``, ``DELETE me/sessions/{id}/``, ``POST me/sessions/end-others/``: the
  caller's logged-in browsers; a token caller has no session of his own, so all are "others".

The shapes are games/api/audit_serializers.py; what the schema says of each operation,
games/api/audit_schemas.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import URLPattern, path
from rest_framework import exceptions, generics, permissions, renderers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import audit_schemas as schemas
from games.api.audit_serializers import (
    AuditEntrySerializer,
    EndedSerializer,
    IssuedLink,
    ResetLinkSerializer,
    SessionSerializer,
)
from games.api.auth import TokenScope
from games.api.common import ApiError, CursorPage
from games.api.lookups import visible_club
from games.models import AuditEntry, Club
from games.selectors.audit import audit_entries
from games.selectors.clubs import club_membership
from games.services.audit import audit_export
from games.services.errors import NotAllowed, SessionUnknown, TooOften
from games.services.resets import reset_link_create
from games.text.errors import error_message
from games.web.sessions import active_sessions, session_end, session_end_others


def _organised(request: Request, slug: str) -> Club:
    club, _role = visible_club(request, slug, manage=True)
    return club


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

    @schemas.clubs_audit_list
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class AuditExport(APIView):
    renderer_classes = [CsvText, renderers.JSONRenderer]
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.clubs_audit_export
    def get(self, request: Request, slug: str) -> Response:
        club = _organised(request, slug)
        response = Response(
            audit_export(club=club, user=request.user), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-audit-log.csv"'
        return response


class ResetLinkCreate(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.clubs_members_reset_link
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


def _current_key(request: Request) -> str | None:
    session = getattr(request._request, "session", None)
    return session.session_key if session is not None and request.auth is None else None


class SessionList(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]
    pagination_class = None

    @schemas.me_sessions_list
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        rows = active_sessions(user=request.user)
        return Response(SessionSerializer(rows, many=True, context={"current": _current_key(request)}).data)


class SessionDetail(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.me_sessions_destroy
    def delete(self, request: Request, pk: int) -> Response:
        assert isinstance(request.user, User)
        try:
            session_end(user=request.user, pk=pk, current_key=_current_key(request))
        except SessionUnknown as unknown:
            raise exceptions.NotFound(error_message(unknown)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionEndOthers(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]

    @schemas.me_sessions_end_others
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
