"""Warnings and point penalties: list, give, take back (organisers)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    idempotency_key,
    with_etag,
)
from tournaments.api import penalty_schemas as schemas
from tournaments.api.lookups import visible_tournament
from tournaments.api.penalty_serializers import PenaltiesSerializer, PenaltyGiveSerializer
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.api.writes import tournament_write
from tournaments.models import Tournament
from tournaments.selectors.standings import penalties_view
from tournaments.services.penalties import (
    penalty_give,
    penalty_target,
    penalty_undo,
    penalty_undo_target,
)


def _penalties_json(tournament: Tournament) -> Any:
    return PenaltiesSerializer(penalties_view(tournament=tournament)).data


class Penalties(APIView):
    @schemas.tournament_penalties
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        return with_etag(_penalties_json(tournament), tournament_etag(tournament))

    @schemas.tournament_penalty_give
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        form = PenaltyGiveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        key = idempotency_key(request)
        done = tournament_write(
            request,
            tournament,
            key=key,
            target=penalty_target(data["entry"]),
            shown=_penalties_json,
            change=penalty_give,
            entry_id=data["entry"],
            kind=data["kind"],
            points=data.get("points"),
            round_number=data.get("round"),
            reason=data["reason"],
        )
        return with_etag(_penalties_json(done), tournament_etag(done), status=status.HTTP_201_CREATED)


class PenaltyUndo(APIView):
    @schemas.tournament_penalty_undo
    def post(self, request: Request, public_id: str, penalty: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        if not any(int(p.get("id", 0)) == penalty for p in tournament.penalties or []):
            raise Http404
        key = idempotency_key(request)
        done = tournament_write(
            request,
            tournament,
            key=key,
            target=penalty_undo_target(penalty),
            shown=_penalties_json,
            change=penalty_undo,
            penalty_id=penalty,
        )
        return with_etag(_penalties_json(done), tournament_etag(done))
