"""A club's rating list and a player's league card, as the API answers them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.selectors import league as league_selectors


class LeagueNumber(serializers.CharField):
    """A league number exactly, to three decimals at most: "12.5", "3.667"."""

    def to_representation(self, value: Any) -> str:
        return league_selectors.exact_text(value)


class RatingListRowSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingListRow``.
    rank = serializers.IntegerField(help_text='Competition rank by the rating shown ("1224").')
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the rating's scale (40 × sigma), shown as ±.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games of the family.")
    last_played = serializers.DateTimeField()
    trend = serializers.IntegerField(
        allow_null=True,
        help_text="The rating's change on the last evening (0: did not play; null: new then).",
    )
    provisional = serializers.BooleanField(help_text="Fewer rated games than the club's provisional_games.")
    inactive = serializers.BooleanField(help_text="No game for more than the club's inactive_days.")


class RatingListSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingList``.
    club = serializers.CharField(source="club.slug", help_text="The club's slug.")
    family = serializers.CharField(allow_blank=True, help_text='The family listed ("": no rated game yet).')
    families = serializers.ListField(
        child=serializers.CharField(), help_text="The families rated in the club."
    )
    evening = serializers.DateField(
        allow_null=True, help_text="The last evening with a rated game of the family."
    )
    provisional_games = serializers.IntegerField(source="club.provisional_games")
    inactive_days = serializers.IntegerField(source="club.inactive_days")
    rows = RatingListRowSerializer(many=True)
    pending = serializers.BooleanField(help_text="A change is not yet in these ratings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True, help_text="When the club's ratings were last complete."
    )


class CardEventSerializer(serializers.Serializer[Any]):
    # Reads a ``CardEvent``.
    kind = serializers.ChoiceField(choices=["game", "tournament"])
    id = serializers.CharField(source="public_id", help_text="The game's or the tournament's public id.")
    name = serializers.CharField(allow_blank=True, help_text='A tournament\'s name ("" for a game).')
    family = serializers.CharField()
    played_at = serializers.DateTimeField(source="when")
    place = serializers.IntegerField()
    players = serializers.IntegerField()
    points = LeagueNumber(help_text='Exact: "3.667" (three decimals).')
    points_value = serializers.FloatField(source="points")
    mark = serializers.ChoiceField(
        choices=["counted", "dropped_worst", "not_best"],
        help_text="counted; dropped_worst: among the drop_worst lowest; not_best: outside the best_events.",
    )


class LeagueCardSerializer(serializers.Serializer[Any]):
    # Reads a ``LeagueCard``.
    season = serializers.CharField(source="season.public_id", help_text="The season's public id.")
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    family = serializers.CharField(allow_blank=True, help_text='"": every family of the season together.')
    best_events = serializers.IntegerField(source="season.best_events")
    drop_worst = serializers.IntegerField(source="season.drop_worst")
    min_games = serializers.IntegerField(source="season.min_games")
    events = CardEventSerializer(many=True, help_text="In the order they were played.")
    total = LeagueNumber(help_text="The sum of the counted events: his points in the standings.")
    counted = serializers.IntegerField(help_text="Events that counted.")
    rank = serializers.IntegerField(allow_null=True, help_text="His rank; null below the line or not in it.")
    below_minimum = serializers.BooleanField(help_text="Fewer games than min_games: below the line.")
    games_missing = serializers.IntegerField(help_text="Games he still needs to be ranked.")
    pending = serializers.BooleanField(help_text="A change is not yet in these numbers: they are updating.")
    as_of = serializers.DateTimeField(allow_null=True)
