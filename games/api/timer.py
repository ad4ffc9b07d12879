"""A game's turn timer as its timer page starts it (games/views/timer.py): the family's times,
the next hand's players in seat order and who plays first. Read by anyone with the game's
address, like the game. The timer runs in the phone: nothing of it is stored or sent back."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import problems
from games.api.lookups import game_or_404
from games.selectors.timer import timer_setup


class TimerSerializer(serializers.Serializer[Any]):
    style = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["turn", "chess"],
        help_text="`turn`: every turn has `seconds` and passing starts the next afresh; `chess`: "
        "every player has `seconds` for the hand on a clock of his own, and `increment` seconds "
        "are added to it when he passes.",
    )
    seconds = serializers.IntegerField(help_text="A turn's time, or each player's (chess), in seconds.")
    increment = serializers.IntegerField(
        help_text="Seconds added to a player's clock when he passes (chess)."
    )
    at_zero = serializers.CharField(
        help_text="What the phone says when the time runs out, in the request's language "
        "(Rummikub: the three tiles a late player draws)."
    )
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The players of the next hand, in seat order."
    )
    first = serializers.CharField(
        allow_null=True, help_text="Who plays first: the seat after the next hand's dealer."
    )
    hand = serializers.IntegerField(help_text="The next hand's place on the score sheet.")


class GameTimerView(APIView):
    @extend_schema(
        operation_id="games_timer",
        summary="A game's turn timer",
        description="What the table's turn timer starts from: the family's usual times (players "
        "change them on their phone), the next hand's players in seat order and who plays first. "
        "Texts are in the request's language (Accept-Language).",
        responses={200: TimerSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        return Response(TimerSerializer(timer_setup(game=game)).data)


urlpatterns: list[URLPattern] = [
    path("games/<str:public_id>/timer/", GameTimerView.as_view(), name="game-timer"),
]
