"""The self check-in at the door: the organisers open and close it; players find themselves and
check in by its link."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    ApiError,
    idempotency_key,
    with_etag,
)
from games.web.client import client_ip
from tournaments.api import door_schemas as schemas
from tournaments.api.door_serializers import (
    DoorEntrySerializer,
    DoorFoundSerializer,
    DoorSerializer,
    DoorSetSerializer,
    SelfCheckInSerializer,
)
from tournaments.api.lookups import name_query, visible_tournament
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.api.writes import tournament_write
from tournaments.models import Tournament
from tournaments.selectors.entries import door_search, door_view
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.services.entries import (
    check_in_door,
    check_in_key_matches,
    check_in_try,
    door_target,
    entry_self_check_in,
)


def _door_json(request: Request, tournament: Tournament) -> Any:
    return DoorSerializer(door_view(tournament=tournament), context={"request": request}).data


class Door(APIView):
    @schemas.tournament_door_retrieve
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        return with_etag(_door_json(request, tournament), tournament_etag(tournament))

    @schemas.tournament_door_set
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        form = DoorSetSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        opened = form.validated_data["open"]
        key = idempotency_key(request)
        done = tournament_write(
            request,
            tournament,
            key=key,
            target=door_target(opened),
            shown=lambda now: _door_json(request, now),
            change=check_in_door,
            opened=opened,
        )
        return with_etag(_door_json(request, done), tournament_etag(done))


def _door(request: Request, public_id: str, key: str) -> Tournament:
    """The tournament whose check-in link this is (404 for a wrong key), one try counted for
    the caller's address (429 once too many)."""
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None or not check_in_key_matches(tournament, key):
        raise Http404
    hit = check_in_try(tournament, client_ip(request._request) or "unknown")
    if not hit.allowed:
        raise ApiError(
            status_code=429,
            code="check_in_limit",
            message=_(
                "Too many tries from this network: wait a while, or ask the organiser to check you in."
            ),
            params={"wait": max(1, int(hit.wait))},
        )
    return tournament


class SelfCheckIn(APIView):
    """The door's link: no account needed, its key is the permission."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    @schemas.tournament_self_check_in_find
    def get(self, request: Request, public_id: str, key: str) -> Response:
        query = name_query(request)
        tournament = _door(request, public_id, key)
        found = door_search(tournament=tournament, query=query)
        return Response(DoorFoundSerializer(found).data)

    @schemas.tournament_self_check_in
    def post(self, request: Request, public_id: str, key: str) -> Response:
        form = SelfCheckInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = _door(request, public_id, key)
        entry = entry_self_check_in(
            tournament=tournament,
            key=key,
            entry_id=form.validated_data["entry"],
            request_id=idempotency_key(request),
        )
        return Response(DoorEntrySerializer(entry).data)
