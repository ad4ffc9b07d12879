"""A tournament's standings (read, reveal), "where do I sit?", one player's rounds and the history."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    idempotency_key,
    with_etag,
)
from tournaments.access import can_manage
from tournaments.api import standings_schemas as schemas
from tournaments.api.lookups import name_query, visible_tournament
from tournaments.api.standings_serializers import (
    FoundSeatsSerializer,
    HistorySerializer,
    PlayerRoundsSerializer,
    RevealSerializer,
    StandingsSerializer,
)
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.api.writes import tournament_write
from tournaments.models import Tournament
from tournaments.selectors.entries import seat_search
from tournaments.selectors.history import history_of
from tournaments.selectors.player import player_rounds
from tournaments.selectors.view import tournament_view
from tournaments.services.rounds import reveal_target, standings_reveal


def _standings_json(tournament: Tournament) -> Any:
    return StandingsSerializer(tournament_view(tournament=tournament, organiser=True)).data


class StandingsReveal(APIView):
    @schemas.tournament_standings_reveal
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        form = RevealSerializer(data=request.data or {})
        form.is_valid(raise_exception=True)
        revealed = form.validated_data["revealed"]
        key = idempotency_key(request)
        done = tournament_write(
            request,
            tournament,
            key=key,
            target=reveal_target(revealed),
            shown=_standings_json,
            change=standings_reveal,
            revealed=revealed,
        )
        response = with_etag(_standings_json(done), tournament_etag(done))
        response["Cache-Control"] = "private, no-store"
        return response


class Standings(APIView):
    @schemas.tournament_standings
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = visible_tournament(request, public_id)
        view = tournament_view(tournament=tournament, organiser=can_manage(role=role))
        return Response(StandingsSerializer(view).data)


class FindSeat(APIView):
    @schemas.tournament_find_seat
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = visible_tournament(request, public_id)
        query = name_query(request)
        found = seat_search(tournament=tournament, query=query, organiser=can_manage(role=role))
        return Response(FoundSeatsSerializer(found).data)


class PlayerRounds(APIView):
    @schemas.tournament_player
    def get(self, request: Request, public_id: str, entry: int) -> Response:
        tournament, role = visible_tournament(request, public_id)
        found = player_rounds(tournament=tournament, entry_id=entry, organiser=can_manage(role=role))
        if found is None:
            raise Http404
        return Response(PlayerRoundsSerializer(found).data)


class History(APIView):
    @schemas.tournament_history
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = visible_tournament(request, public_id)
        found = history_of(tournament=tournament, organiser=can_manage(role=role))
        return Response(HistorySerializer(found, context={"organiser": can_manage(role=role)}).data)
