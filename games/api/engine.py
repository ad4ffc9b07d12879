"""The engine resources of the API (see games/api/urls.py): the command line's operations
(``python -m engine check|laydown|value|arrange|layoff``) over HTTP.

Nothing is written: anyone may call them (a read-only token too), throttled like every other
resource. Every request names a rule family and its house-rule options; an unknown family or
option, or cards that cannot be read, is a 400 problem with the engine's code. Inputs are
bounded (text length, number of cards) so that no request makes the solver work long. The
answers are worked out by games/engine_answers.py; the serializers here write them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.rules import FAMILIES, RUMMIKUB, ZOLIKY, RuleSet, rule_set
from games.api.common import problems
from games.api.engine_fields import CardField, CardsField, ErrorMessageField, MeldsField
from games.engine_answers import MAX_GIN_HAND, arrange_hand, check_melds, defend, value_cards
from games.solver import TooManyCards
from games.text.errors import error_message

MAX_TEXT = 500  # characters of a cards or melds text
MAX_OPTIONS = 30
# Cards or tiles given to the solver: the families' rows say (``solver_max``), the same bound as
# the pages' and the command line's. The opening search grows fast with the hand (a Žolíky hand
# of 30 cards with jokers takes minutes), so these bound every request's work.
MAX_CARDS = ZOLIKY.solver_max
MAX_TILES = RUMMIKUB.solver_max


# ---------------------------------------------------------------------- requests


@extend_schema_field({"type": "string", "enum": list(FAMILIES)})
class FamilyField(serializers.CharField):
    """A family's name, checked by the engine (an unknown one: 400 ``unknown_family``)."""


class RulesSerializer(serializers.Serializer[Any]):
    family = FamilyField(max_length=20, help_text="The rule family.")
    options = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        default=dict,
        help_text='House-rule options over the family\'s defaults, e.g. {"opening_points": 51}.',
    )

    def validate_options(self, value: Mapping[str, Any]) -> Mapping[str, Any]:
        if len(value) > MAX_OPTIONS:
            raise serializers.ValidationError(_("Too many options."))
        return value


def _text(help_text: str) -> serializers.CharField:
    return serializers.CharField(max_length=MAX_TEXT, trim_whitespace=True, help_text=help_text)


class CheckMeldSerializer(RulesSerializer):
    melds = _text('Melds separated by "|", e.g. "AS 2S 3S | 7H 7D JK".')
    opening = serializers.BooleanField(
        default=False, help_text="A first laydown: the family's opening rule applies (Žolíky, Rummikub)."
    )


class ValueSerializer(RulesSerializer):
    cards = _text('The cards or tiles left in a hand, e.g. "KH 5S JK" or "R7 B13 JK".')


class ArrangeSerializer(RulesSerializer):
    hand = _text(f"A hand of at most {MAX_CARDS} cards (Rummikub: {MAX_TILES} tiles).")


class LayoffsSerializer(serializers.Serializer[Any]):
    options = serializers.DictField(
        child=serializers.JSONField(), required=False, default=dict, help_text="Gin house-rule options."
    )
    knocker_melds = _text('The knocker\'s melds separated by "|".')
    hand = _text(f"The defender's hand (at most {MAX_GIN_HAND} cards).")
    against_gin = serializers.BooleanField(
        default=False, help_text="The knocker went gin: nothing may be laid off."
    )

    def validate_options(self, value: Mapping[str, Any]) -> Mapping[str, Any]:
        if len(value) > MAX_OPTIONS:
            raise serializers.ValidationError(_("Too many options."))
        return value


# ---------------------------------------------------------------------- responses
# Over games/engine_answers.py's objects; cards are written under the rules in the context.


class MeldCheckSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="1-based, in the order typed.")
    ok = serializers.BooleanField()
    kind = serializers.CharField(
        source="meld.kind", allow_null=True, help_text="group, run or flush; null when invalid."
    )
    cards = CardsField(help_text="Canonical codes.")
    jokers = serializers.DictField(
        child=CardField(), help_text="0-based position of each joker -> the card it stands for."
    )
    points = serializers.IntegerField(source="meld.points", allow_null=True)
    code = serializers.CharField(
        source="error.code", allow_null=True, help_text="The engine's error code when invalid."
    )
    message = ErrorMessageField(
        source="error", allow_null=True, help_text="The translated error when invalid."
    )


class RefusalField(serializers.CharField):
    """Why a laydown is refused, translated: a refused meld's error is numbered."""

    def to_representation(self, value: Any) -> str:
        message = error_message(value.error)
        if value.meld is None:
            return message
        return _("meld %(index)d: %(message)s") % {"index": value.meld, "message": message}


class CheckMeldResponse(serializers.Serializer[Any]):
    ok = serializers.BooleanField(help_text="Every meld is legal (and the opening rule is met).")
    points = serializers.IntegerField(
        source="laydown.points", allow_null=True, help_text="The laydown's points when ok."
    )
    code = serializers.CharField(
        source="refusal.error.code", allow_null=True, help_text="Why the laydown as a whole is refused."
    )
    message = RefusalField(source="refusal", allow_null=True)
    melds = MeldCheckSerializer(many=True)


class ValueResponse(serializers.Serializer[Any]):
    points = serializers.IntegerField(help_text="The penalty value of the cards.")
    cards = CardsField()


class GinKnockSerializer(serializers.Serializer[Any]):
    can_knock = serializers.BooleanField()
    gin = serializers.BooleanField()
    discard = CardField(allow_null=True, help_text="With 11 cards: the card to discard.")
    melds = MeldsField(source="arrangement.melds")
    deadwood = CardsField(source="arrangement.deadwood")
    deadwood_points = serializers.IntegerField(source="arrangement.deadwood_points")


class OpeningSerializer(serializers.Serializer[Any]):
    """(Built in ``get_fields``: a member named ``required`` cannot be a class attribute.)"""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "possible": serializers.BooleanField(),
            "points": serializers.IntegerField(
                help_text="The best opening's points; when none, the best laydown's."
            ),
            "required": serializers.IntegerField(help_text="The points a first laydown needs."),
            "melds": MeldsField(source="meld_cards"),
            "code": serializers.CharField(
                source="error.code", allow_null=True, help_text="Why no opening (no_opening)."
            ),
            "message": ErrorMessageField(source="error", allow_null=True),
        }


class ArrangeResponse(serializers.Serializer[Any]):
    melds = MeldsField(source="arrangement.melds", help_text="Jokers are written with their identity, JK=7H.")
    deadwood = CardsField(source="arrangement.deadwood")
    deadwood_points = serializers.IntegerField(source="arrangement.deadwood_points")
    knock = GinKnockSerializer(allow_null=True, help_text="Gin, 10 or 11 cards: may the hand knock?")
    opening = OpeningSerializer(
        allow_null=True, help_text="Žolíky and Rummikub: the best first laydown of this hand."
    )


class LayoffSerializer(serializers.Serializer[Any]):
    card = CardField()
    meld = serializers.IntegerField(help_text="0-based index of the knocker's meld.")


class LayoffsResponse(serializers.Serializer[Any]):
    layoffs = LayoffSerializer(many=True, help_text="In the order laid.")
    melds = MeldsField(source="result.melds", help_text="The defender's own melds.")
    deadwood = CardsField(source="result.deadwood")
    deadwood_points = serializers.IntegerField(source="result.deadwood_points")


# ---------------------------------------------------------------------- views


def _rules(data: Mapping[str, Any], family: str | None = None) -> RuleSet:
    return rule_set(family or str(data["family"]), dict(data.get("options") or {}))


def _valid(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _too_many(field: str, maximum: int) -> serializers.ValidationError:
    return serializers.ValidationError(
        {field: [_("At most %(maximum)d cards or tiles.") % {"maximum": maximum}]}
    )


class EngineView(APIView):
    """No writes: anyone may call (a read-only token too); throttled as usual."""

    permission_classes = [permissions.AllowAny]


class CheckMeldView(EngineView):
    @extend_schema(
        operation_id="engine_check_meld",
        summary="Check melds (a laydown)",
        description="Each meld legal or its error (code and message); then the laydown as a whole: "
        "the pack's copy limits and, with `opening`, the family's first-laydown rule. An invalid "
        "meld is an answer (200, ok false), not an error.",
        request=CheckMeldSerializer,
        responses={200: CheckMeldResponse, **problems(400, 429)},
        examples=[
            OpenApiExample(
                "Žolíky opening",
                value={"family": "zoliky", "options": {}, "melds": "AS 2S 3S | QH QD QC", "opening": True},
                request_only=True,
            )
        ],
        tags=["engine"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(CheckMeldSerializer, request)
        rules = _rules(data)
        checked = check_melds(data["melds"], rules, opening=data["opening"])
        return Response(CheckMeldResponse(checked, context={"request": request, "rules": rules}).data)


class ValueView(EngineView):
    @extend_schema(
        operation_id="engine_value",
        summary="Value cards left in a hand",
        description="The penalty value of the cards or tiles, as the family counts them.",
        request=ValueSerializer,
        responses={200: ValueResponse, **problems(400, 429)},
        examples=[
            OpenApiExample(
                "Žolíky", value={"family": "zoliky", "options": {}, "cards": "KH 5S JK"}, request_only=True
            )
        ],
        tags=["engine"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(ValueSerializer, request)
        rules = _rules(data)
        valued = value_cards(data["cards"], rules)
        return Response(ValueResponse(valued, context={"request": request, "rules": rules}).data)


class ArrangeView(EngineView):
    @extend_schema(
        operation_id="engine_arrange",
        summary="Arrange a hand",
        description="The melds that leave the least deadwood value; for gin (10 or 11 cards) "
        "whether the hand may knock or goes gin, for Žolíky and Rummikub the best first laydown.",
        request=ArrangeSerializer,
        responses={200: ArrangeResponse, **problems(400, 429)},
        examples=[
            OpenApiExample(
                "Gin",
                value={"family": "gin", "options": {}, "hand": "AS 2S 3S 4S 5H 5D 5C 7H 8H 9H"},
                request_only=True,
            )
        ],
        tags=["engine"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(ArrangeSerializer, request)
        rules = _rules(data)
        try:
            arranged = arrange_hand(data["hand"], rules)
        except TooManyCards as error:
            raise _too_many("hand", error.maximum) from None
        return Response(ArrangeResponse(arranged, context={"request": request, "rules": rules}).data)


class LayoffsView(EngineView):
    @extend_schema(
        operation_id="engine_layoffs",
        summary="Gin: the defender's layoffs",
        description="The knocker's melds and the defender's hand: the defender's least deadwood "
        "after his own melds and his layoffs onto the knocker's melds (none against gin).",
        request=LayoffsSerializer,
        responses={200: LayoffsResponse, **problems(400, 429)},
        examples=[
            OpenApiExample(
                "Layoffs",
                value={
                    "options": {},
                    "knocker_melds": "JS QS KS | 4H 4D 4C",
                    "hand": "TS 9S 4S 2D 3D 5H 7C 8C KD KH",
                    "against_gin": False,
                },
                request_only=True,
            )
        ],
        tags=["engine"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(LayoffsSerializer, request)
        rules = _rules(data, family="gin")
        try:
            defence = defend(data["knocker_melds"], data["hand"], rules, against_gin=data["against_gin"])
        except TooManyCards as error:
            raise _too_many("hand", error.maximum) from None
        return Response(LayoffsResponse(defence, context={"request": request, "rules": rules}).data)


urlpatterns = [
    path("engine/check-meld/", CheckMeldView.as_view(), name="api-engine-check-meld"),
    path("engine/value/", ValueView.as_view(), name="api-engine-value"),
    path("engine/arrange/", ArrangeView.as_view(), name="api-engine-arrange"),
    path("engine/layoffs/", LayoffsView.as_view(), name="api-engine-layoffs"),
]
