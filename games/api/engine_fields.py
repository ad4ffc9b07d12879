"""Serializer fields that write the engine's objects: cards and tiles as codes under the rule set
in the serializer's context (``context["rules"]``: a code depends on the family, cards or
tiles), and an engine error as its message in the request's language."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.notation import code
from games.text.errors import error_message


class CardField(serializers.CharField):
    """A card or tile's code (AS, TH, R7, JK); ``declared``: a joker that stands for a card is
    written with it (JK=7H)."""

    def __init__(self, *, declared: bool = False, **kwargs: Any) -> None:
        self.declared = declared
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return code(value, self.context["rules"], declared=self.declared)


class CardsField(serializers.ListField):
    def __init__(self, *, declared: bool = False, **kwargs: Any) -> None:
        super().__init__(child=CardField(declared=declared), **kwargs)


class MeldsField(serializers.ListField):
    """Melds as lists of codes, each joker written with the card it stands for (JK=7H)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=CardsField(declared=True), **kwargs)


class ErrorMessageField(serializers.CharField):
    """An EngineError, as its message translated."""

    def to_representation(self, value: Any) -> str:
        return error_message(value)
