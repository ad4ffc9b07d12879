"""What the API's schema says of the engine resources (games/api/engine.py): one
``extend_schema`` per operation, named by its operation id; the views wear them as decorators."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema

from games.api.common import problems
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

engine_check_meld = extend_schema(
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


engine_value = extend_schema(
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


engine_arrange = extend_schema(
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


engine_layoffs = extend_schema(
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
