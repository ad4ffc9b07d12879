"""The arrange page's data over the API: ``POST /api/v1/games/<id>/arrange/`` arranges a hand
under that game's house rules (games/solver.py), as ``g/<id>/arrange/`` shows it. Nothing is
written: anyone with the game's address may ask, throttled as usual. The family-and-options
variant without a game is ``/api/v1/engine/arrange/`` (games/api/engine.py)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.cards import Card
from engine.notation import code, codes
from engine.rules import RuleSet
from games.api.common import problems
from games.error_messages import error_message
from games.selectors.games import game_by_public_id
from games.sheet import game_rules
from games.solver import MAX_TEXT, Advice, TooManyCards, advise


class GameArrangeRequest(serializers.Serializer[Any]):
    hand = serializers.CharField(
        max_length=MAX_TEXT,
        help_text='A whole hand, e.g. "AS 2S 3S 5H 5D 5C 7H 8H 9H TD" (at most 14 cards, Rummikub 24 tiles).',
    )


class _Melds(serializers.ListField):
    child = serializers.ListField(child=serializers.CharField())


class GameKnockSerializer(serializers.Serializer[Any]):
    possible = serializers.BooleanField(help_text="The deadwood is within the game's knock limit.")
    gin = serializers.BooleanField(help_text="No deadwood at all.")
    deadwood_points = serializers.IntegerField()
    limit = serializers.IntegerField(help_text="The game's knock_limit.")
    discard = serializers.CharField(allow_null=True, help_text="With 11 cards: the card to discard first.")
    melds = _Melds(help_text="The melds after the discard (jokers written JK=7H).")
    deadwood = serializers.ListField(child=serializers.CharField())


class GameOpeningMeldSerializer(serializers.Serializer[Any]):
    cards = serializers.ListField(child=serializers.CharField(), help_text="Jokers written JK=7H.")
    points = serializers.IntegerField()


class GameOpeningSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # (a member named ``required`` cannot be a class attribute)
        return {
            "possible": serializers.BooleanField(),
            "points": serializers.IntegerField(
                help_text="The best opening's points; when none, the best laydown's."
            ),
            "required": serializers.IntegerField(help_text="The game's opening_points."),
            "melds": GameOpeningMeldSerializer(many=True),
            "code": serializers.CharField(allow_null=True, help_text="Why not: no_opening."),
            "reason": serializers.CharField(allow_null=True, help_text="too_low or no_pure_run."),
            "message": serializers.CharField(allow_null=True),
        }


class GameArrangeResponse(serializers.Serializer[Any]):
    cards = serializers.ListField(child=serializers.CharField(), help_text="The hand, canonical codes.")
    melds = _Melds(help_text="The melds leaving the least deadwood (jokers written JK=7H).")
    deadwood = serializers.ListField(child=serializers.CharField())
    deadwood_points = serializers.IntegerField()
    knock = GameKnockSerializer(allow_null=True, help_text="Games with a knock limit (gin, carousel).")
    opening = GameOpeningSerializer(
        allow_null=True, help_text="Games with an opening rule (Žolíky, Rummikub)."
    )


def _melds(melds: tuple[tuple[Card, ...], ...], rules: RuleSet) -> list[list[str]]:
    return [codes(meld, rules, declared=True) for meld in melds]


def advice_body(advice: Advice, rules: RuleSet) -> dict[str, Any]:
    """The answer's body: what the arrange page shows, in codes."""
    arrangement = advice.arrangement
    body: dict[str, Any] = {
        "cards": codes(advice.cards, rules),
        "melds": _melds(arrangement.melds, rules),
        "deadwood": codes(arrangement.deadwood, rules),
        "deadwood_points": arrangement.deadwood_points,
        "knock": None,
        "opening": None,
    }
    if advice.knock is not None:
        knock = advice.knock
        body["knock"] = {
            "possible": knock.possible,
            "gin": knock.gin,
            "deadwood_points": knock.deadwood_points,
            "limit": knock.limit,
            "discard": code(knock.discard, rules) if knock.discard is not None else None,
            "melds": _melds(knock.melds, rules),
            "deadwood": codes(knock.deadwood, rules),
        }
    if advice.opening is not None:
        opening = advice.opening
        error = opening.error
        reason = error.params.get("reason") if error is not None else None
        body["opening"] = {
            "possible": opening.possible,
            "points": opening.points,
            "required": opening.required,
            "melds": [{"cards": codes(m, rules, declared=True), "points": p} for m, p in opening.melds],
            "code": error.code if error is not None else None,
            "reason": reason if isinstance(reason, str) else None,
            "message": error_message(error) if error is not None else None,
        }
    return body


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
        game = game_by_public_id(public_id=public_id)
        if game is None:
            raise Http404
        serializer = GameArrangeRequest(data=request.data)
        serializer.is_valid(raise_exception=True)
        rules = game_rules(game=game)
        try:
            advice = advise(serializer.validated_data["hand"], rules)
        except TooManyCards as error:
            raise serializers.ValidationError(
                {"hand": [_("At most %(maximum)d cards or tiles.") % {"maximum": error.maximum}]}
            ) from None
        return Response(GameArrangeResponse(advice_body(advice, rules)).data)


urlpatterns = [
    path("games/<str:public_id>/arrange/", GameArrangeView.as_view(), name="api-game-arrange"),
]
