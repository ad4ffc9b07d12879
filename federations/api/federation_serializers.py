"""A federation as the API takes it (a new one, its settings) and answers it (the list's rows,
its page, its organisers, its clubs' memberships), and the ETags of what has a version."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.models import Federation, FederationClub
from federations.services.federations import (
    MAX_INACTIVE_DAYS,
    MAX_NAME,
    MAX_PREFIX,
    MAX_PROVISIONAL_GAMES,
)
from games.api.common import ETagField, PartialMixin, etag


def federation_etag(federation: Federation) -> str:
    return etag("federation", federation.slug, federation.version)


def membership_etag(membership: FederationClub) -> str:
    return etag("membership", membership.pk, membership.version)


class FederationCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=MAX_NAME)
    id_prefix = serializers.CharField(
        max_length=MAX_PREFIX,
        allow_blank=True,
        default="",
        help_text='Up to six capital letters or digits: "CZ" makes register ids like CZ-00042.',
    )


class FederationSettingsSerializer(serializers.Serializer[Any]):
    """The federation's settings; the others stay as they are."""

    name = serializers.CharField(max_length=MAX_NAME)
    slug = serializers.CharField(max_length=50, help_text="The federation's address (/f/<slug>/).")
    visibility = serializers.ChoiceField(choices=Federation.Visibility.choices)
    counts = serializers.ChoiceField(choices=Federation.Counts.choices)
    id_prefix = serializers.CharField(max_length=MAX_PREFIX, allow_blank=True)
    provisional_games = serializers.IntegerField(min_value=0, max_value=MAX_PROVISIONAL_GAMES)
    inactive_days = serializers.IntegerField(min_value=0, max_value=MAX_INACTIVE_DAYS)


class FederationSettingsPatchSerializer(PartialMixin, FederationSettingsSerializer):
    """Any of the federation's settings; the others stay as they are."""


class FederationListSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    visibility = serializers.CharField()
    member_count = serializers.IntegerField(help_text="Its member clubs now.")


class FederationMemberClubSerializer(serializers.Serializer[Any]):
    # Reads a member ``FederationClub`` annotated with ``club_visible``.
    name = serializers.CharField(source="club.name")
    club = serializers.SerializerMethodField(
        help_text="The club's slug; null for a club the caller may not see."
    )
    counts_from = serializers.DateField(allow_null=True)

    def get_club(self, membership: FederationClub) -> str | None:
        return membership.club.slug if getattr(membership, "club_visible", False) else None


class FederationSerializer(serializers.Serializer[Any]):
    # Reads a ``FederationPage``.
    slug = serializers.CharField(source="federation.slug")
    name = serializers.CharField(source="federation.name")
    visibility = serializers.CharField(source="federation.visibility")
    counts = serializers.CharField(source="federation.counts")
    id_prefix = serializers.CharField(source="federation.id_prefix", allow_blank=True)
    provisional_games = serializers.IntegerField(source="federation.provisional_games")
    inactive_days = serializers.IntegerField(source="federation.inactive_days")
    version = serializers.IntegerField(source="federation.version")
    etag = ETagField(federation_etag, source="federation")
    organiser = serializers.BooleanField(help_text="The caller is one of its organisers.")
    register_count = serializers.IntegerField(help_text="Entries in its register (merged ones aside).")
    clubs = FederationMemberClubSerializer(many=True, help_text="Its member clubs, by name.")


class FederationOrganiserSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    since = serializers.DateTimeField(source="created_at")


class FederationOrganiserAddSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, help_text="The account's name.")


class FederationMembershipSerializer(serializers.Serializer[Any]):
    club = serializers.CharField(source="club.slug", help_text="The club's slug.")
    name = serializers.CharField(source="club.name")
    state = serializers.ChoiceField(choices=FederationClub.State.choices)
    counts_from = serializers.DateField(
        allow_null=True, help_text="Its games count from this day (null: from the day it accepts)."
    )
    invited_at = serializers.DateTimeField()
    joined_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    etag = ETagField(membership_etag, source="*")


class FederationClubsSerializer(serializers.Serializer[Any]):
    # Reads a ``ClubsPage``.
    members = FederationMembershipSerializer(many=True)
    invited = FederationMembershipSerializer(
        many=True, help_text="Invitations its clubs have not answered yet."
    )
    past = FederationMembershipSerializer(many=True, help_text="Ended and declined periods.")


class FederationInviteSerializer(serializers.Serializer[Any]):
    club = serializers.CharField(max_length=50, help_text="The club's slug.")
    counts_from = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="Its games count from this day; absent: from the day it accepts.",
    )
