"""The register as the API takes it (a new entry, an edit, a merge) and answers it (a page of
entries, one entry), and an entry's ETag."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.models import Person
from games.api.common import ETagField, PartialMixin, etag
from games.api.lookups import MAX_ID
from games.text.names import MAX_NAME


def person_etag(person: Person) -> str:
    return etag("person", person.pk, person.version)


class RegisterRowSerializer(serializers.Serializer[Any]):
    # Reads a ``RegisterRow``.
    number = serializers.IntegerField(source="person.number")
    id = serializers.CharField(source="label", help_text='The federation id: "CZ-00042".')
    name = serializers.CharField(source="person.name")
    home_club_name = serializers.CharField(source="person.home_club.name", allow_null=True, default=None)


class RegisterSerializer(serializers.Serializer[Any]):
    # Reads a ``RegisterPage``.
    query = serializers.CharField(allow_blank=True)
    count = serializers.IntegerField(help_text="Entries found (all of them without ?q=).")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    entries = RegisterRowSerializer(many=True)


class RegisterEntrySerializer(serializers.Serializer[Any]):
    # Reads a ``RegisterRow``.
    number = serializers.IntegerField(source="person.number")
    id = serializers.CharField(source="label", help_text='The federation id: "CZ-00042".')
    name = serializers.CharField(source="person.name")
    home_club = serializers.CharField(
        source="person.home_club.slug", allow_null=True, default=None, help_text="The home club's slug."
    )
    home_club_name = serializers.CharField(source="person.home_club.name", allow_null=True, default=None)
    merged_into = serializers.IntegerField(
        source="person.merged_into.number",
        allow_null=True,
        default=None,
        help_text="The number of the entry it was merged into (null: not merged).",
    )
    version = serializers.IntegerField(source="person.version")
    etag = ETagField(lambda row: person_etag(row.person), source="*")


class RegisterEntryWriteSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=MAX_NAME)
    home_club = serializers.CharField(
        max_length=50, allow_null=True, default=None, help_text="A member club's slug; null: none."
    )


class RegisterEntryPatchSerializer(PartialMixin, RegisterEntryWriteSerializer):
    """The entry's name or home club; what is not sent stays."""


class RegisterMergeSerializer(serializers.Serializer[Any]):
    """Which entry is merged into which, with the version of each as read. (Its members are
    built in ``get_fields``: a member named ``source`` cannot be a class attribute of a
    serializer.)"""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "source": serializers.IntegerField(
                min_value=1, max_value=MAX_ID, help_text="The number of the entry merged away."
            ),
            "into": serializers.IntegerField(
                min_value=1, max_value=MAX_ID, help_text="The number of the entry kept."
            ),
            "source_version": serializers.IntegerField(min_value=0, max_value=MAX_ID),
            "into_version": serializers.IntegerField(min_value=0, max_value=MAX_ID),
        }


class RegisterMergeResultSerializer(serializers.Serializer[Any]):
    """The merge made: its change in the history and both entries as they are now."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "change": serializers.IntegerField(
                source="change.pk", help_text="The history's change (its undo undoes the merge)."
            ),
            "source": RegisterEntrySerializer(),
            "into": RegisterEntrySerializer(),
        }
