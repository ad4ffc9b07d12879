"""The players registered (entries), their ETag, the requests that register, pin and keep them apart."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.api.common import (
    ETagField,
    etag,
)
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.models import Entry


def entry_etag(entry: Entry) -> str:
    return etag("entry", entry.pk, entry.version)


# Reads an ``Entry`` (its player read with it).
class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    status = serializers.CharField(help_text="registered, checked_in or dropped.")
    checked_in = serializers.BooleanField()
    from_round = serializers.IntegerField()
    dropped_after = serializers.IntegerField(allow_null=True)
    pinned_table = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    etag = ETagField(entry_etag, source="*")


class EntriesAddSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        max_length=500,
        help_text="Ids of the club's players.",
    )
    names = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        default=list,
        max_length=500,
        help_text="New names (a new name becomes a club player; a known one is that player).",
    )
    checked_in = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["players"] and not [n for n in attrs["names"] if n.strip()]:
            raise serializers.ValidationError(_("Give player ids or names to register."))
        return attrs


# Reads a ``selectors.EntryList``.
class EntryListSerializer(serializers.Serializer[Any]):
    entries = EntrySerializer(many=True)


class PinSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(
        min_value=1,
        max_value=999,
        allow_null=True,
        help_text="The table number he always sits at; null: none.",
    )


class ApartEntrySerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="player.name")


class ApartPairSerializer(serializers.Serializer[Any]):
    first = ApartEntrySerializer()
    second = ApartEntrySerializer()


# Reads ``{"tournament": Tournament, "pairs": [selectors.ApartPair]}``.
class ApartListSerializer(serializers.Serializer[Any]):
    pairs = ApartPairSerializer(many=True)
    version = serializers.IntegerField(source="tournament.version")
    etag = ETagField(tournament_etag, source="tournament")


class ApartChangeSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField(min_value=1, help_text="An entry's id.")
    second = serializers.IntegerField(min_value=1, help_text="Another entry's id.")
    keep = serializers.BooleanField(
        default=True, help_text="true: keep them at different tables; false: they may meet again."
    )
