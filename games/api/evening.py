"""A game's whole evening (games/views/evening.py): the games linked to it (its rematch chain, the
games its scorekeepers put in it) with the same players, each game's totals, and their
settlement at once. Read by anyone with the game's address, like the game; computed from the
games' stored totals whenever it is asked for. Those who may write both games put a game in the
evening or take it out (games.services.evening)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import IDEMPOTENCY_KEY, idempotency_key, problems
from games.api.game_serializers import GameSettlementSerializer
from games.api.lookups import game_or_404, may_write, writable_game
from games.models import Game
from games.selectors.evening import evening_candidates, evening_of
from games.services.evening import evening_join, evening_part


class EveningGameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(source="game.public_id", help_text="The game's public id.")
    created_at = serializers.DateTimeField(source="game.created_at")
    ended = serializers.BooleanField(source="game.ended")
    incomplete = serializers.BooleanField(help_text="Some count is missing in this game.")
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Penalty points.")
    put_in = serializers.BooleanField(
        help_text="A scorekeeper put this game in the evening (it can be taken out again)."
    )


class EveningSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(child=serializers.CharField(), help_text="As this game names them.")
    games = EveningGameSerializer(many=True, help_text="In the order they were started.")
    settlement = GameSettlementSerializer(
        allow_null=True,
        help_text="The summed points settled at once (one crown per ten points, half up); null while "
        "a count is missing in one of the games.",
    )


class GameEveningView(APIView):
    @extend_schema(
        operation_id="games_evening",
        summary="The whole evening's settlement",
        description="The games the same players played at this table one after another (the game's "
        "rematch chain and the games its scorekeepers put in it, deleted games left out), each "
        "game's totals, and the evening settled at once: "
        "each player's points summed over the games, then divided by ten. Žolíky only (404 otherwise).",
        responses={200: EveningSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        return Response(_evening_data(game_or_404(public_id)))


def _evening_data(game: Game) -> Any:
    found = evening_of(game=game)
    if found is None:
        raise Http404
    return EveningSerializer(found).data


class CandidateSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(source="public_id", help_text="The game's public id.")
    played_at = serializers.DateTimeField()
    ended = serializers.BooleanField()


class PutInSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(max_length=16, help_text="The public id of the game to put in.")


def _other(request: Request, public_id: str) -> Game:
    """A game the caller may write, to put in an evening or take out (404 unseen, 403 not his)."""
    other = game_or_404(public_id)
    if not may_write(request, other):
        raise exceptions.PermissionDenied(_("You cannot change this game's evening."))
    return other


class EveningGamesView(APIView):
    @extend_schema(
        operation_id="games_evening_candidates",
        summary="The games the caller may put in this evening",
        description="Of the same family and players, played within 12 hours of this game, not "
        "deleted, not a tournament's table and in no evening yet; the latest first. Only for "
        "those who may write this game.",
        responses={200: CandidateSerializer(many=True), **problems(401, 403, 404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = writable_game(request, public_id)
        found = evening_of(game=game)
        if found is None:
            raise Http404
        offered = [g for g in evening_candidates(evening=found) if may_write(request, g)]
        return Response(CandidateSerializer(offered, many=True).data)

    @extend_schema(
        operation_id="games_evening_put_in",
        summary="Put a game in this evening",
        description="Recorded on the game put in (its history, undo). Refused (400) for a game "
        "of another family or other players (evening_other_players), one already in this evening "
        "(evening_already) or in another (evening_taken), or a tournament's table (evening_event).",
        parameters=[IDEMPOTENCY_KEY],
        request=PutInSerializer,
        responses={200: EveningSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = writable_game(request, public_id)
        form = PutInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        other = _other(request, form.validated_data["game"])
        evening_join(game=game, other=other, user=request.user, request_id=idempotency_key(request))
        return Response(_evening_data(game))


class EveningGameView(APIView):
    @extend_schema(
        operation_id="games_evening_take_out",
        summary="Take a game put in this evening out again",
        description="Only a game a scorekeeper put in (put_in); one linked by a rematch stays "
        "(evening_not_put). Recorded on that game (its history, undo).",
        parameters=[IDEMPOTENCY_KEY],
        responses={200: EveningSerializer, **problems(400, 401, 403, 404)},
    )
    def delete(self, request: Request, public_id: str, other_id: str) -> Response:
        game = writable_game(request, public_id)
        other = _other(request, other_id)
        evening_part(game=game, other=other, user=request.user, request_id=idempotency_key(request))
        return Response(_evening_data(game))


urlpatterns: list[URLPattern] = [
    path("games/<str:public_id>/evening/", GameEveningView.as_view(), name="game-evening"),
    path("games/<str:public_id>/evening/games/", EveningGamesView.as_view(), name="game-evening-games"),
    path(
        "games/<str:public_id>/evening/games/<str:other_id>/",
        EveningGameView.as_view(),
        name="game-evening-game",
    ),
]
