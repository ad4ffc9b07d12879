"""An export document, the import that makes a club from one, and the import's answer, as the
API takes and answers them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class ImportRequestSerializer(serializers.Serializer[Any]):
    """An export document (docs/design/export-format.md) with the new club's name."""

    name = serializers.CharField(max_length=80, help_text="The new club's name.")
    slug = serializers.CharField(
        max_length=50,
        required=False,
        allow_blank=True,
        help_text="The new club's address (absent or empty: made from the name).",
    )
    format = serializers.CharField(help_text='Always "rummy-club-export".')
    version = serializers.IntegerField(help_text="The format's version: 1.")
    club = serializers.DictField(help_text="name, slug, visibility (only the visibility is used).")
    players = serializers.ListField(child=serializers.DictField())
    games = serializers.ListField(child=serializers.DictField())
    tournaments = serializers.ListField(child=serializers.DictField())
    seasons = serializers.ListField(child=serializers.DictField())


class ImportedClubSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    slug = serializers.CharField()


class ImportedSerializer(serializers.Serializer[Any]):
    club = ImportedClubSerializer()
    players = serializers.IntegerField()
    games = serializers.IntegerField()
    hands = serializers.IntegerField()
    tournaments = serializers.IntegerField()
    seasons = serializers.IntegerField()
