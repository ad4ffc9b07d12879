"""The arrange page's data over the API: ``POST /api/v1/games/<id>/arrange/`` arranges a hand
under that game's house rules (games/solver.py), as ``g/<id>/arrange/`` shows it. Nothing is
written: anyone with the game's address may ask, throttled as usual. The family-and-options
variant without a game is ``/api/v1/engine/arrange/`` (games/api/engine.py)."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import problems
from games.api.engine_fields import CardField, CardsField, MeldsField
from games.api.engine_serializers import OpeningShape
from games.api.lookups import game_or_404
from games.sheets.sheet import game_rules
from games.solver import MAX_TEXT, TooManyCards, advise


class GameArrangeRequest(serializers.Serializer[Any]):
    hand = serializers.CharField(
        max_length=MAX_TEXT,
        help_text='A whole hand, e.g. "AS 2S 3S 5H 5D 5C 7H 8H 9H TD" (at most 14 cards, Rummikub 24 tiles).',
    )


class GameKnockSerializer(serializers.Serializer[Any]):
    possible = serializers.BooleanField(help_text="The deadwood is within the game's knock limit.")
    gin = serializers.BooleanField(help_text="No deadwood at all.")
    deadwood_points = serializers.IntegerField()
    limit = serializers.IntegerField(help_text="The game's knock_limit.")
    discard = CardField(allow_null=True, help_text="With 11 cards: the card to discard first.")
    melds = MeldsField(help_text="The melds after the discard (jokers written JK=7H).")
    deadwood = CardsField()


class GameOpeningMeldSerializer(serializers.Serializer[Any]):
    cards = CardsField(declared=True, help_text="Jokers written JK=7H.")
    points = serializers.IntegerField()


class GameOpeningSerializer(OpeningShape):
    required_help = "The game's opening_points."
    code_help = "Why not: no_opening."

    def melds_field(self) -> serializers.Field[Any, Any, Any, Any]:
        return GameOpeningMeldSerializer(many=True)

    def own_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {"reason": serializers.CharField(allow_null=True, help_text="too_low or no_pure_run.")}


# Over games.solver's Advice; cards are written under the game's rules (the context's).
class GameArrangeResponse(serializers.Serializer[Any]):
    cards = CardsField(help_text="The hand, canonical codes.")
    melds = MeldsField(
        source="arrangement.melds", help_text="The melds leaving the least deadwood (jokers written JK=7H)."
    )
    deadwood = CardsField(source="arrangement.deadwood")
    deadwood_points = serializers.IntegerField(source="arrangement.deadwood_points")
    knock = GameKnockSerializer(allow_null=True, help_text="Games with a knock limit (gin, carousel).")
    opening = GameOpeningSerializer(
        allow_null=True, help_text="Games with an opening rule (Žolíky, Rummikub)."
    )


class GameArrangeView(APIView):
    """No writes: anyone with the game's address may call (a read-only token too)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="games_arrange",
        summary="Arrange a hand under the game's house rules",
        description="The engine's best arrangement of a whole hand (melds, deadwood and its value) and, "
        "as the game's rules ask, whether it may knock (knock_limit; with 11 cards after the best "
        "discard) or open (opening_points; with which melds). Cards that cannot be read: 400 with "
        "the engine's code.",
        request=GameArrangeRequest,
        responses={200: GameArrangeResponse, **problems(400, 404, 429)},
        examples=[OpenApiExample("Gin", value={"hand": "AS 2S 3S 5H 5D 5C 7H 8H 9H TD"}, request_only=True)],
        tags=["games"],
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        serializer = GameArrangeRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        rules = game_rules(game=game)
        try:
            advice = advise(serializer.validated_data["hand"], rules)
        except TooManyCards as error:
            raise serializers.ValidationError(
                {"hand": [_("At most %(maximum)d cards or tiles.") % {"maximum": error.maximum}]}
            ) from None
        return Response(GameArrangeResponse(advice, context={"request": request, "rules": rules}).data)


urlpatterns = [
    path("games/<str:public_id>/arrange/", GameArrangeView.as_view(), name="api-game-arrange"),
]
