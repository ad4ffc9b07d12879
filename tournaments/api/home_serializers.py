"""The signed-in user's home page as the API answers it: his clubs, tournaments, games, seasons
and ratings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.common import SiteLink
from tournaments.api.league_serializers import LeagueNumber


class HomeClubSerializer(serializers.Serializer[Any]):
    # Reads a ``HomeClub``.
    slug = serializers.CharField(source="club.slug")
    name = serializers.CharField(source="club.name")
    role = serializers.ChoiceField(choices=["organiser", "scorekeeper", "member"])
    player_id = serializers.IntegerField(
        source="player.pk",
        allow_null=True,
        default=None,
        help_text="The player he claimed there; null: none.",
    )
    player_name = serializers.CharField(source="player.name", allow_null=True, default=None)


class HomeTournamentSerializer(serializers.Serializer[Any]):
    # Reads a ``HomeTournament``.
    id = serializers.CharField(source="tournament.public_id", help_text="The tournament's public id.")
    name = serializers.CharField(source="tournament.name")
    club = serializers.CharField(source="tournament.club.slug", help_text="The club's slug.")
    url = SiteLink(source="path")
    entry_id = serializers.IntegerField(allow_null=True, help_text="His entry; null: he is not registered.")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    round = serializers.IntegerField(
        allow_null=True,
        help_text="The round being seated or played, else the last one; null: none seated yet.",
    )
    round_status = serializers.ChoiceField(choices=["seated", "playing", "confirmed"], allow_null=True)
    table = serializers.IntegerField(allow_null=True, help_text="His table in that round; null: not seated.")
    seat = serializers.IntegerField(allow_null=True, help_text="1-based; seat 1 deals first.")
    game = serializers.CharField(
        source="game.public_id",
        allow_null=True,
        default=None,
        help_text="His table's game, once the round started.",
    )
    table_url = SiteLink(
        source="table_path",
        allow_null=True,
        help_text="His table's page (the game's sheet once started, else his rounds); null: not seated.",
    )
    bye = serializers.BooleanField(help_text="He sits this round out.")
    published = serializers.BooleanField(
        help_text="The round's seating is published; false: not yet, so no table, seat or bye is given."
    )
    check_in_url = SiteLink(
        source="door",
        allow_null=True,
        help_text="The self check-in link, while the door is open and he is not checked in.",
    )


class HomeGameSerializer(serializers.Serializer[Any]):
    # Reads a ``HomeGame``.
    id = serializers.CharField(source="game.public_id")
    family = serializers.CharField(source="game.family")
    club = serializers.CharField(source="game.club.slug", allow_null=True, default=None)
    event_name = serializers.CharField(source="game.event_name", allow_blank=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="The seats' names in order.")
    hands = serializers.IntegerField(help_text="Hands recorded so far.")
    updated_at = serializers.DateTimeField(source="game.updated_at")
    url = SiteLink(source="path")


class HomeLineSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonStanding``.
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    rank = serializers.IntegerField(allow_null=True, help_text="null below the line (too few games).")
    points = LeagueNumber(help_text='Exact: "3.667" (three decimals).')
    games = serializers.IntegerField()

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        if not instance.ranked:
            data["rank"] = None
        return data


class HomeSeasonSerializer(serializers.Serializer[Any]):
    # Reads a ``HomeSeason``.
    id = serializers.CharField(source="season.public_id", help_text="The season's public id.")
    name = serializers.CharField(source="season.name")
    club = serializers.CharField(source="season.club.slug")
    starts = serializers.DateField(source="season.starts")
    ends = serializers.DateField(source="season.ends")
    top = HomeLineSerializer(many=True, help_text="The first lines of the standings (all families together).")
    mine = HomeLineSerializer(allow_null=True, help_text="His line; null: he has none.")
    url = SiteLink(source="path", help_text="The full standings.")


class HomeRatingSerializer(serializers.Serializer[Any]):
    # Reads a ``HomeRating``.
    club = serializers.CharField(source="club.slug")
    player_id = serializers.IntegerField()
    family = serializers.CharField()
    rating = serializers.IntegerField(help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the rating's scale, shown as ±.")
    games = serializers.IntegerField(help_text="Rated games of the family.")
    trend = serializers.IntegerField(
        allow_null=True,
        help_text="The change on the club's last evening of the family (0: did not play; null: new then).",
    )
    evening = serializers.DateField(help_text="That evening.")
    provisional = serializers.BooleanField()
    url = SiteLink(source="path", help_text="His rating history in the family.")


class HomeSerializer(serializers.Serializer[Any]):
    # Reads a ``Home``.
    clubs = HomeClubSerializer(many=True, help_text="His clubs, by name.")
    tournaments = HomeTournamentSerializer(many=True, help_text="Today's tournaments of his clubs.")
    games = HomeGameSerializer(many=True, help_text="Games in progress he may record, latest changed first.")
    seasons = HomeSeasonSerializer(many=True, help_text="His clubs' current seasons.")
    ratings = HomeRatingSerializer(many=True, help_text="His rating in each family of each club.")
