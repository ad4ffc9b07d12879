"""The self check-in at the door: its state for the organisers, the players it finds, the check-in request."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.common import (
    ETagField,
    SiteLink,
)
from tournaments.api.tournament_serializers import tournament_etag


# Reads a ``selectors.DoorView``.
class DoorSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField(help_text="Players may check themselves in by the link.")
    url = SiteLink(
        source="path",
        allow_null=True,
        help_text="The check-in link for the door's QR code (null until first opened).",
    )
    entries = serializers.IntegerField()
    checked_in = serializers.IntegerField()
    version = serializers.IntegerField(source="tournament.version", help_text="The tournament's version.")
    etag = ETagField(tournament_etag, source="tournament", help_text="The tournament's ETag.")


class DoorSetSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField()


# Reads an ``Entry`` (its player read with it).
class DoorEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The entry's id, to check in.")
    name = serializers.CharField(source="player.name")
    checked_in = serializers.BooleanField()


# Reads a ``selectors.DoorSearch``.
class DoorFoundSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField()
    results = DoorEntrySerializer(many=True)


class SelfCheckInSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="The entry's id.")
