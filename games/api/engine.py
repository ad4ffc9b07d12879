"""The engine resources of the API (see games/api/urls.py): the command line's operations
(``python -m engine check|laydown|value|arrange|layoff``) over HTTP.

Nothing is written: anyone may call them (a read-only token too), throttled like every other
resource. Every request names a rule family and its house-rule options; an unknown family or
option, or cards that cannot be read, is a 400 problem with the engine's code. Inputs are
bounded (text length, number of cards) so that no request makes the solver work long. The
answers are worked out by games/engine_answers.py; games/api/engine_serializers.py writes them
and games/api/engine_schemas.py says what the schema shows of each operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.rules import RuleSet, rule_set
from games.api import engine_schemas as schemas
from games.api.engine_serializers import (
    ArrangeResponse,
    ArrangeSerializer,
    CheckMeldResponse,
    CheckMeldSerializer,
    LayoffsResponse,
    LayoffsSerializer,
    ValueResponse,
    ValueSerializer,
)
from games.engine_answers import arrange_hand, check_melds, defend, value_cards
from games.solver import TooManyCards


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
    @schemas.engine_check_meld
    def post(self, request: Request) -> Response:
        data = _valid(CheckMeldSerializer, request)
        rules = _rules(data)
        checked = check_melds(data["melds"], rules, opening=data["opening"])
        return Response(CheckMeldResponse(checked, context={"request": request, "rules": rules}).data)


class ValueView(EngineView):
    @schemas.engine_value
    def post(self, request: Request) -> Response:
        data = _valid(ValueSerializer, request)
        rules = _rules(data)
        valued = value_cards(data["cards"], rules)
        return Response(ValueResponse(valued, context={"request": request, "rules": rules}).data)


class ArrangeView(EngineView):
    @schemas.engine_arrange
    def post(self, request: Request) -> Response:
        data = _valid(ArrangeSerializer, request)
        rules = _rules(data)
        try:
            arranged = arrange_hand(data["hand"], rules)
        except TooManyCards as error:
            raise _too_many("hand", error.maximum) from None
        return Response(ArrangeResponse(arranged, context={"request": request, "rules": rules}).data)


class LayoffsView(EngineView):
    @schemas.engine_layoffs
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
