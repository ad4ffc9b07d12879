"""A person's claim and his page as the API answers and takes them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.api.club_serializers import CLAIM_STATES
from federations.link_forms import MAX_ID
from games.text.names import MAX_NAME


class ClubNameSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField(source="club.slug")
    name = serializers.CharField(source="club.name")


# Reads a ``selectors.links.ClaimRow``.
class ClaimRowSerializer(serializers.Serializer[Any]):
    """One of the caller's players in the federation's member clubs, and where it stands."""

    player = serializers.IntegerField(source="player.pk", help_text="The player's id in its club.")
    player_name = serializers.CharField(source="player.name")
    club = ClubNameSerializer(source="*")
    state = serializers.ChoiceField(
        choices=CLAIM_STATES,
        help_text="linked (to ``person``), claimed (waiting for the club) or none (not linked).",
    )
    person = serializers.CharField(source="label", help_text="The entry's federation id; empty when none.")
    person_name = serializers.CharField()


class ClaimListSerializer(serializers.Serializer[Any]):
    """The caller's players in the federation's member clubs."""

    players = ClaimRowSerializer(many=True, source="*")


class ClaimRequestSerializer(serializers.Serializer[Any]):
    person = serializers.CharField(max_length=MAX_ID, help_text='Your federation id: "CZ-00042".')
    name = serializers.CharField(max_length=MAX_NAME, help_text="Your name as the register has it.")


# Reads a ``selectors.person.PersonClub``.
class PersonClubSerializer(serializers.Serializer[Any]):
    """A linked player: the club's name always; its address and own player only to a reader
    who sees the club."""

    club_name = serializers.CharField()
    club_slug = serializers.CharField(allow_null=True)
    player_name = serializers.CharField(allow_null=True)
    player_id = serializers.IntegerField(allow_null=True)


# Reads a ``selectors.person.PersonResult``.
class PersonResultSerializer(serializers.Serializer[Any]):
    played_at = serializers.DateTimeField()
    club_name = serializers.CharField()
    family = serializers.CharField()
    family_name = serializers.CharField()
    place = serializers.IntegerField()
    players = serializers.IntegerField(help_text="How many played the game.")


# Reads a ``selectors.person.PersonPage``.
class PersonSerializer(serializers.Serializer[Any]):
    """A register entry: its federation id, name, home club, linked players and latest finished
    games (30, newest first)."""

    person = serializers.CharField(source="label", help_text='The federation id: "CZ-00042".')
    number = serializers.IntegerField(source="person.number")
    name = serializers.CharField(source="person.name")
    home_club = serializers.CharField(source="person.home_club.name", allow_null=True, default=None)
    is_me = serializers.BooleanField(help_text="The entry is the caller's own.")
    clubs = PersonClubSerializer(many=True)
    results = PersonResultSerializer(many=True)
