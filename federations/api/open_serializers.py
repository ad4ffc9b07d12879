"""The opens as the API answers them (a federation's opens, one open with its entries) and
takes them (a tournament hosted, a person entered)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.link_forms import MAX_ID


class OpenSerializer(serializers.Serializer[Any]):
    # Reads an ``OpenRow``.
    tournament = serializers.CharField(source="open.tournament.public_id", help_text="The tournament's id.")
    name = serializers.CharField(source="open.tournament.name")
    date = serializers.DateField(source="open.tournament.date")
    family = serializers.CharField(source="open.tournament.family")
    club = serializers.CharField(source="open.tournament.club.slug", help_text="The host club's slug.")
    club_name = serializers.CharField(source="open.tournament.club.name")
    self_entry = serializers.BooleanField(source="open.self_entry", help_text="Players may enter themselves.")
    entries_close = serializers.DateTimeField(source="open.entries_close", allow_null=True)
    entries = serializers.IntegerField(help_text="Players entered.")


class OpenEntrySerializer(serializers.Serializer[Any]):
    # Reads an ``OpenEntry``.
    entry = serializers.IntegerField(help_text="The tournament's entry id.")
    player = serializers.CharField(
        allow_blank=True, help_text="The player's name in the host club (blank: a members-only club's)."
    )
    number = serializers.IntegerField(
        source="person.number", allow_null=True, default=None, help_text="The register entry's number."
    )
    id = serializers.CharField(source="label", allow_blank=True, help_text='The federation id: "CZ-00042".')
    name = serializers.CharField(source="person.name", allow_null=True, default=None)
    home_club_name = serializers.CharField(source="person.home_club.name", allow_null=True, default=None)
    rating = serializers.IntegerField(
        allow_null=True, help_text="On the federation's live list of the tournament's family."
    )
    may_withdraw = serializers.BooleanField(help_text="The caller may withdraw him.")


class OpenDetailSerializer(serializers.Serializer[Any]):
    """Reads an ``OpenPage``: the open, whether its entries are closed, what the caller may do
    and its entries, best on the federation's list first. (Built in ``get_fields``: a member
    named ``open`` shadows nothing, but the row is shared with ``OpenSerializer``.)"""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "open": OpenSerializer(source="row"),
            "closed": serializers.BooleanField(help_text="Round 1 is seated or the closing time passed."),
            "can_enter_self": serializers.BooleanField(),
            "can_enter_anyone": serializers.BooleanField(),
            "entries": OpenEntrySerializer(many=True),
        }


class OpenHostSerializer(serializers.Serializer[Any]):
    tournament = serializers.CharField(max_length=16, help_text="The id of one of the club's tournaments.")
    self_entry = serializers.BooleanField(default=True)
    entries_close = serializers.DateTimeField(allow_null=True, default=None)


class OpenEntryWriteSerializer(serializers.Serializer[Any]):
    person = serializers.CharField(max_length=MAX_ID, help_text='A federation id: "CZ-00042" or "42".')
