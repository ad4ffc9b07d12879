"""The clubs resources' shapes (games/api/clubs.py): a club, its roster, a player's summary,
and the bodies of a rename, a merge and a join."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Club
from games.services.clubs import MAX_CLUB_NAME, MAX_INACTIVE_DAYS, MAX_PROVISIONAL_GAMES

# The longest part of a name the players' list looks for.
MAX_QUERY = 40


class ClubSerializer(serializers.ModelSerializer[Club]):
    role = serializers.SerializerMethodField(help_text="The caller's role in the club, or null.")

    class Meta:
        model = Club
        fields = ["name", "slug", "visibility", "provisional_games", "inactive_days", "role"]
        read_only_fields = fields
        extra_kwargs = {
            "provisional_games": {
                "help_text": "The rating list marks a rating on fewer rated games provisional."
            },
            "inactive_days": {
                "help_text": "The rating list marks a player with no game for longer inactive."
            },
        }

    def get_role(self, club: Club) -> str | None:
        # One club: the view passes the caller's role; a list: clubs_seen annotates each club.
        role = self.context["role"] if "role" in self.context else getattr(club, "caller_role", None)
        return str(role) if role else None


class ClubSettingsSerializer(serializers.Serializer[Any]):
    """Any of a club's settings; the others stay as they are."""

    name = serializers.CharField(max_length=MAX_CLUB_NAME, required=False)
    slug = serializers.CharField(max_length=50, required=False)
    visibility = serializers.ChoiceField(choices=Club.Visibility.choices, required=False)
    provisional_games = serializers.IntegerField(min_value=0, max_value=MAX_PROVISIONAL_GAMES, required=False)
    inactive_days = serializers.IntegerField(min_value=0, max_value=MAX_INACTIVE_DAYS, required=False)


class RosterRowSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Games the player sat in.")
    last_played = serializers.DateTimeField(allow_null=True)
    claimed = serializers.BooleanField(help_text="Linked to a member's account.")


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class HeadToHeadSerializer(serializers.Serializer[Any]):
    player = PlayerRefSerializer()
    games = serializers.IntegerField(source="record.games")
    ahead = serializers.IntegerField(
        source="record.ahead", help_text="Games in which this player placed better."
    )
    level = serializers.IntegerField(source="record.level")
    behind = serializers.IntegerField(source="record.behind")


class FamilyStatsSerializer(serializers.Serializer[Any]):
    family = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()
    points_per_hand = serializers.FloatField(allow_null=True)


class PlayerResultSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(source="result.game.public_id", help_text="The game's public id.")
    family = serializers.CharField(source="result.game.family")
    created_at = serializers.DateTimeField(source="result.game.created_at")
    played_at = serializers.DateTimeField(
        source="result.game.played_at", help_text="When the game was played."
    )
    players = serializers.IntegerField()
    total = serializers.IntegerField(source="result.total")
    place = serializers.IntegerField(source="result.place")
    winner = serializers.BooleanField(source="result.winner")
    finished = serializers.BooleanField(source="result.finished")


class PlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="club_slug", help_text="The club's slug.")
    version = serializers.IntegerField(source="player.version", help_text="The version in the ETag.")
    claimed = serializers.BooleanField()
    merged_into = serializers.IntegerField(
        source="player.merged_into_id", allow_null=True, help_text="Merged into this player, if so."
    )
    games = serializers.IntegerField(help_text="Finished games.")
    wins = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    families = FamilyStatsSerializer(many=True)
    best = PlayerResultSerializer(source="best_result", allow_null=True)
    worst = PlayerResultSerializer(source="worst_result", allow_null=True)
    opponents = HeadToHeadSerializer(many=True)
    recent = PlayerResultSerializer(
        source="recent_results", many=True, help_text="Newest first, finished or not."
    )


class RenameSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=200, trim_whitespace=False)


class MergeSerializer(serializers.Serializer[Any]):
    into = serializers.IntegerField(min_value=1, help_text="The player kept (of the same club).")


class JoinSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=500, help_text="The invite link, or the token after its #")
