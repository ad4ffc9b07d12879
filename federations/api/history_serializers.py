"""The federation's history as the API answers it: a page of changes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.models import FederationChange


class FederationChangeSerializer(serializers.Serializer[Any]):
    # Reads a ``FederationChange`` with ``names`` and ``undoable`` (history selectors).
    id = serializers.IntegerField()
    action = serializers.ChoiceField(choices=FederationChange.Action.choices)
    description = serializers.CharField(source="get_action_display")
    names = serializers.ListField(child=serializers.CharField(), help_text="The names it is about.")
    user_name = serializers.CharField(allow_blank=True, help_text="Who made it (empty: nobody signed in).")
    created_at = serializers.DateTimeField()
    details = serializers.DictField(source="data", help_text="What the change recorded.")
    undone = serializers.BooleanField()
    undoable = serializers.BooleanField(help_text="A merge or an unmerge not undone yet.")
    undoes = serializers.IntegerField(source="undoes_id", allow_null=True)


class FederationHistorySerializer(serializers.Serializer[Any]):
    # Reads a ``HistoryPage``.
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    changes = FederationChangeSerializer(many=True)
