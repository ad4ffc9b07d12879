"""A game's rules as its rules page shows them (games/views/rules.py): the house rules in force,
how a hand is scored under them, and the family's example hand scored under them. Read by anyone
with the game's address, like the game; texts in the request's language."""

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
from games.sheets.sheet import game_rules
from games.text.rules import rules_shown


class RuleSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The option's name (see /engine/ and the game's `options`).")
    label = serializers.CharField(help_text="What the page calls it, in the request's language.")  # type: ignore[assignment]
    value = serializers.JSONField(source="raw", help_text="The value in force.")
    usual = serializers.JSONField(help_text="The family's usual value.")
    changed = serializers.BooleanField(help_text="A house rule: differs from the usual value.")


class ExampleRowSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    held = serializers.CharField(
        help_text="The cards or tiles he held, as displayed; empty for points given."
    )
    count = serializers.IntegerField(allow_null=True, help_text="What they are worth.")
    points = serializers.IntegerField(help_text="What he scored in the hand.")


class ExampleSerializer(serializers.Serializer[Any]):
    said = serializers.CharField(help_text="What happened in the hand, in words.")
    rows = ExampleRowSerializer(many=True)


class GameRulesSerializer(serializers.Serializer[Any]):
    family = serializers.CharField()
    hand_limit = serializers.IntegerField(
        help_text="The game ends after this many hands at the latest; 0: none."
    )
    rules = RuleSerializer(many=True)
    how = serializers.ListField(
        child=serializers.CharField(), help_text="How a hand is scored, sentence by sentence."
    )
    example = ExampleSerializer(
        allow_null=True, help_text="Null when the house rules cannot play the example."
    )


class GameRulesView(APIView):
    @extend_schema(
        operation_id="games_rules",
        summary="A game's rules, with a worked example",
        description="The house rules in force (with the family's usual values), how a hand is scored "
        "under them, and the family's example hand scored by the real scoring under them. Texts are "
        "in the request's language (Accept-Language).",
        responses={200: GameRulesSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        shown = rules_shown(game_rules(game=game), game.hand_limit)
        return Response(GameRulesSerializer(shown, context={"request": request}).data)


urlpatterns: list[URLPattern] = [
    path("games/<str:public_id>/rules/", GameRulesView.as_view(), name="game-rules"),
]
