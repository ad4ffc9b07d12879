"""Warnings and point penalties as the API answers and takes them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.common import (
    ETagField,
)
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.services.penalties import (
    MAX_PENALTY,
    MAX_REASON,
    PENALTY_KINDS,
)


# Reads a ``tournament_data.Penalty``.
class PenaltySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The entry's id.")
    player = serializers.CharField(help_text="The player's name when it was given.")
    kind = serializers.ChoiceField(choices=list(PENALTY_KINDS), help_text="warning or points.")
    points = serializers.CharField(
        help_text='The points taken off, exact as a fraction: "2", "1/2"; 0: a warning.'
    )
    round = serializers.IntegerField(
        allow_null=True, help_text="The round it is for; null: the tournament's total."
    )
    reason = serializers.CharField()
    undone = serializers.BooleanField(help_text="Taken back: it no longer counts.")


# Reads a ``selectors.PenaltiesView``.
class PenaltiesSerializer(serializers.Serializer[Any]):
    penalties = PenaltySerializer(many=True, help_text="Newest first, taken back ones too.")
    version = serializers.IntegerField(source="tournament.version", help_text="The tournament's version.")
    etag = ETagField(tournament_etag, source="tournament", help_text="The tournament's ETag.")


class PenaltyGiveSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="The entry's id.")
    kind = serializers.ChoiceField(choices=list(PENALTY_KINDS))
    points = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        required=False,
        allow_null=True,
        help_text=f"Points taken off: more than 0, at most {MAX_PENALTY}; none for a warning.",
    )
    round = serializers.IntegerField(
        min_value=1,
        max_value=2**15,
        required=False,
        allow_null=True,
        help_text="The round whose points it is taken off; null: the tournament's total.",
    )
    reason = serializers.CharField(max_length=MAX_REASON, allow_blank=True)
