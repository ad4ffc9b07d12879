"""A game's whole evening (games/views/evening.py): the games of its rematch chain with the same
players, each game's totals, and their settlement at once. Read by anyone with the game's
address, like the game; computed from the games' stored totals whenever it is asked for."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import problems
from games.api.games import GameSettlementSerializer
from games.selectors.evening import evening_of
from games.selectors.games import game_by_public_id


class EveningGameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The game's public id.")
    created_at = serializers.DateTimeField()
    ended = serializers.BooleanField()
    incomplete = serializers.BooleanField(help_text="Some count is missing in this game.")
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Penalty points.")


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
        "rematch chain, deleted games left out), each game's totals, and the evening settled at once: "
        "each player's points summed over the games, then divided by ten. Žolíky only (404 otherwise).",
        responses={200: EveningSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = game_by_public_id(public_id=public_id)
        if game is None:
            raise Http404
        evening = evening_of(game=game)
        if evening is None:
            raise Http404
        body = {
            "players": list(evening.players),
            "games": [
                {
                    "id": g.game.public_id,
                    "created_at": g.game.created_at,
                    "ended": g.game.ended,
                    "incomplete": g.incomplete,
                    "totals": g.totals,
                }
                for g in evening.games
            ],
            "settlement": evening.settlement.as_dict() if evening.settlement is not None else None,
        }
        return Response(EveningSerializer(body).data)


urlpatterns: list[URLPattern] = [
    path("games/<str:public_id>/evening/", GameEveningView.as_view(), name="game-evening"),
]
