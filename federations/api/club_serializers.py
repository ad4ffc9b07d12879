"""A club's side of its federations as the API answers and takes it: its invitations and
memberships, its players' links and the claims waiting for it, and their ETags."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.link_forms import MAX_ID
from federations.models import FederationClub, PersonLink
from games.api.common import ETagField, etag

MAX_ID_NUMBER = 2**31 - 1
# The states the API answers.
MEMBERSHIP_STATES = [FederationClub.State.INVITED.value, FederationClub.State.MEMBER.value]
LINK_STATES = [PersonLink.State.LINKED.value, PersonLink.State.CLAIMED.value]
CLAIM_STATES = ["linked", "claimed", "none"]


def membership_etag(membership: FederationClub) -> str:
    return etag("membership", membership.pk, membership.version)


def link_etag(link: PersonLink) -> str:
    return etag("link", link.pk, link.version)


class FederationNameSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField(help_text="The federation's address (its id in the API).")
    name = serializers.CharField()


# Reads a ``FederationClub``.
class MembershipSerializer(serializers.Serializer[Any]):
    """The club's invitation to a federation, or its membership."""

    federation = FederationNameSerializer()
    state = serializers.ChoiceField(
        choices=MEMBERSHIP_STATES,
        help_text="invited: waiting for the club's answer; member: the club belongs to it.",
    )
    counts_from = serializers.DateField(
        allow_null=True, help_text="The day from which the club's games count (null: the day it accepts)."
    )
    joined_at = serializers.DateTimeField(allow_null=True, help_text="When the club accepted.")
    version = serializers.IntegerField()
    etag = ETagField(membership_etag, source="*", help_text="Its ETag, for If-Match.")


# Reads a ``selectors.links.ClubFederations``.
class ClubFederationsSerializer(serializers.Serializer[Any]):
    """The invitations waiting for the club and its memberships."""

    invitations = MembershipSerializer(many=True)
    memberships = MembershipSerializer(many=True)


class PlayerNameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


# Reads a ``selectors.links.LinkRow``.
class LinkSerializer(serializers.Serializer[Any]):
    """A club's player linked (or claimed) to a register entry."""

    id = serializers.IntegerField(source="pk")
    player = PlayerNameSerializer()
    person = serializers.CharField(source="label", help_text='The entry\'s federation id ("CZ-00042").')
    person_number = serializers.IntegerField(source="link.person.number")
    person_name = serializers.CharField()
    state = serializers.ChoiceField(
        choices=LINK_STATES, help_text="linked, or claimed: waiting for the club's answer."
    )
    claimant = serializers.CharField(help_text="The account that claimed it (a claim only), else empty.")
    version = serializers.IntegerField()
    etag = ETagField(lambda row: link_etag(row.link), source="*", help_text="Its ETag, for If-Match.")


# Reads a ``selectors.links.FederationSide``.
class ClubLinksSerializer(serializers.Serializer[Any]):
    """The club's players linked in one federation, the claims waiting, the players not linked."""

    links = LinkSerializer(many=True)
    claims = LinkSerializer(many=True)
    unlinked = PlayerNameSerializer(many=True, help_text="The club's players not linked yet.")


class LinkRequestSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID_NUMBER, help_text="The id of one of the club's players."
    )
    person = serializers.CharField(max_length=MAX_ID, help_text='The federation id: "CZ-00042", "42".')


# Reads a ``selectors.links.RatedRow``.
class RatedTournamentSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField(source="tournament.public_id")
    name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="tournament.date")
    rated = serializers.BooleanField(help_text="Whether the tournament counts for the federation.")


class RateRequestSerializer(serializers.Serializer[Any]):
    rated = serializers.BooleanField(
        help_text="True: the tournament counts for the federation; false: no longer."
    )
