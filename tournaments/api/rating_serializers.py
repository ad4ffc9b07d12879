"""A player's ratings and their history, two players head to head, the club's freshness and a
game's win chances, as the API answers them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.common import (
    etag,
)
from tournaments.derived import Freshness


class FamilyRatingSerializer(serializers.Serializer[Any]):
    # Reads a ``FamilyRating``.
    family = serializers.CharField()
    rating = serializers.IntegerField(help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the displayed rating's scale (the ± beside it).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class RatingEventSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingLine``: a rated game of the history.
    game = serializers.CharField(source="event.game.public_id", help_text="The game's public id.")
    game_name = serializers.CharField(
        help_text='The game as the page names it: its tournament table ("Autumn cup, round 2"), else who '
        "else played."
    )
    played_at = serializers.DateTimeField(source="event.played_at")
    place = serializers.IntegerField(source="event.place")
    players = serializers.IntegerField(source="event.players")
    rating = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    mu = serializers.FloatField(source="event.mu")
    sigma = serializers.FloatField(source="event.sigma")


class SeasonLineSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonStanding``: his line in a season.
    season = serializers.CharField(source="season.public_id", help_text="The season's public id.")
    name = serializers.CharField(source="season.name")
    rank = serializers.IntegerField()
    ranked = serializers.BooleanField()
    points = serializers.CharField()


class RatingsSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingPage``.
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    families = FamilyRatingSerializer(many=True)
    family = serializers.CharField(allow_blank=True, help_text="The family of the history.")
    history = RatingEventSerializer(many=True, source="lines", help_text="Newest first.")
    seasons = SeasonLineSerializer(many=True, source="own_seasons")
    updating = serializers.BooleanField(help_text="The same as pending (the older name).")
    pending = serializers.BooleanField(help_text="A change is not yet in these ratings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete.",
    )


class RecordSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="Games the first player placed better.")
    level = serializers.IntegerField()
    behind = serializers.IntegerField()


class MeetingSerializer(serializers.Serializer[Any]):
    # Reads a ``MeetingRow``.
    game = serializers.CharField(source="game.public_id", help_text="The game's public id.")
    family = serializers.CharField(source="game.family")
    played_at = serializers.DateTimeField(source="game.played_at")
    place = serializers.IntegerField()
    other_place = serializers.IntegerField()
    total = serializers.IntegerField()
    other_total = serializers.IntegerField()


class RatingPairSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingPair``.
    family = serializers.CharField()
    player = FamilyRatingSerializer(allow_null=True)
    other = FamilyRatingSerializer(allow_null=True)


class VersusSerializer(serializers.Serializer[Any]):
    # Reads a ``HeadToHeadPage`` (``versus_page``).
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    other_id = serializers.IntegerField(source="other.pk")
    other_name = serializers.CharField(source="other.name")
    record = RecordSerializer()
    meetings = MeetingSerializer(many=True, help_text="Newest first.")
    ratings = RatingPairSerializer(many=True, source="rating_pairs")
    pending = serializers.BooleanField(help_text="A change is not yet in these ratings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete.",
    )


class FreshnessSerializer(serializers.Serializer[Any]):
    # Reads a ``Freshness``.
    pending = serializers.BooleanField(
        help_text="A recorded change is not yet in the club's ratings and standings: they are updating."
    )
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete (null: never).",
    )


def freshness_etag(fresh: Freshness) -> str:
    return etag("derived", int(fresh.pending), fresh.as_of.isoformat() if fresh.as_of else "none")


class ChanceSerializer(serializers.Serializer[Any]):
    # Reads a ``Chance``.
    name = serializers.CharField(help_text="The seat's name.")
    player_id = serializers.IntegerField()
    chance = serializers.FloatField(help_text="Of winning the game, 0 to 1; the table's chances sum to 1.")
    rating = serializers.IntegerField(source="displayed", help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the displayed rating's scale.")
    mu = serializers.FloatField(source="rating.mu")
    sigma = serializers.FloatField(source="rating.sigma")


class GameChancesSerializer(serializers.Serializer[Any]):
    # Reads a ``GameChances`` (``game_chances_page``).
    game = serializers.CharField(source="game.public_id", help_text="The game's public id.")
    rated = serializers.BooleanField(
        help_text="Someone at the table has a rating; false: everyone is even (the page shows none)."
    )
    before_game = serializers.BooleanField(
        help_text="The game is rated: these are the ratings it was rated from. False: the players' "
        "current ratings (the game is not rated yet)."
    )
    players = ChanceSerializer(many=True, source="chances", help_text="In seat order.")
    pending = serializers.BooleanField(help_text="A change is not yet in the club's ratings.")
    as_of = serializers.DateTimeField(allow_null=True)
