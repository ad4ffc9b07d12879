"""The engine resources' shapes (games/api/engine.py): the bodies they take, bounded so that no
request makes the solver work long, and their answers over games/engine_answers.py's objects,
cards written under the rules in the serializer's context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.rules import FAMILIES, RUMMIKUB, ZOLIKY
from games.api.engine_fields import CardField, CardsField, ErrorMessageField, MeldsField
from games.engine_answers import MAX_GIN_HAND
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


class OpeningShape(serializers.Serializer[Any]):
    # games.solver's Opening (may a hand open, with which first laydown), declared once for every
    # answer that carries one: the engine's arrange (OpeningSerializer) and a game's
    # (games/api/arrange.py). Each says in its own words what ``required`` and ``code`` mean
    # there, how it writes the melds, and any member of its own (before ``message``). Built in
    # ``get_fields``: a member named ``required`` cannot be a class attribute. No docstring: the
    # schema would show it as the description of every answer built on it.

    required_help = ""
    code_help = ""

    def melds_field(self) -> serializers.Field[Any, Any, Any, Any]:
        raise NotImplementedError

    def own_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {}

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "possible": serializers.BooleanField(),
            "points": serializers.IntegerField(
                help_text="The best opening's points; when none, the best laydown's."
            ),
            "required": serializers.IntegerField(help_text=self.required_help),
            "melds": self.melds_field(),
            "code": serializers.CharField(source="error.code", allow_null=True, help_text=self.code_help),
            **self.own_fields(),
            "message": ErrorMessageField(source="error", allow_null=True),
        }


class OpeningSerializer(OpeningShape):
    """(Built in ``get_fields``: a member named ``required`` cannot be a class attribute.)"""

    required_help = "The points a first laydown needs."
    code_help = "Why no opening (no_opening)."

    def melds_field(self) -> serializers.Field[Any, Any, Any, Any]:
        return MeldsField(source="meld_cards")


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
