"""A federation's export document as the import takes it, and the import's answer."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class FederationImportRequestSerializer(serializers.Serializer[Any]):
    """A federation export (docs/design/federation-export.md), as a JSON body; or a multipart
    form whose ``file`` is the document."""

    format = serializers.CharField(help_text='Always "rummy-federation-export".')
    version = serializers.IntegerField(help_text="The format's version: 1.")
    federation = serializers.DictField(
        help_text="name, slug, visibility, counts, id_prefix, provisional_games, inactive_days, next_number."
    )
    register = serializers.ListField(child=serializers.DictField())
    clubs = serializers.ListField(child=serializers.DictField())
    links = serializers.ListField(child=serializers.DictField())
    rated_tournaments = serializers.ListField(child=serializers.DictField())
    published = serializers.ListField(child=serializers.DictField())
    opens = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="club, name, date, self_entry, entries_close (documents written before may lack it).",
    )
    seasons = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Each season's settings (documents written before may lack it); the standings are derived.",
    )


class ImportedFederationSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(source="federation.name")
    slug = serializers.CharField(source="federation.slug")
    people = serializers.IntegerField()
    clubs = serializers.IntegerField(help_text="The clubs' membership periods.")
    links = serializers.IntegerField()
    rated_tournaments = serializers.IntegerField()
    published = serializers.IntegerField(help_text="The published monthly lists.")
    seasons = serializers.IntegerField(help_text="The seasons (Grand Prix), their standings derived.")
    opens = serializers.IntegerField(help_text="The federation's opens.")
