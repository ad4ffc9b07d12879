"""The standings, "where do I sit?", one player's rounds and the history, as the API answers them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.api.penalty_serializers import PenaltySerializer


class OrganisersSee(serializers.CharField):
    """A user's name, shown to the club's organisers only (others get null), as on the page."""

    def get_attribute(self, instance: Any) -> Any:
        return super().get_attribute(instance) if self.context.get("organiser") else None


class HistoryDetails(serializers.DictField):
    """A change's data; a dispute's word only for the club's organisers, as on the page."""

    def get_attribute(self, instance: Any) -> Any:
        details = super().get_attribute(instance)
        if not self.context.get("organiser") and isinstance(details, dict) and "word" in details:
            return {k: v for k, v in details.items() if k != "word"}
        return details


# Reads a ``selectors.StandingRow``.
class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="standing.player")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    points = serializers.CharField(source="standing.points", help_text='Exact, as a fraction: "7", "9/2".')
    points_value = serializers.FloatField(source="standing.points")
    game_score = serializers.IntegerField(source="standing.game_score")
    game_score_average = serializers.CharField(
        source="standing.game_score_average",
        allow_null=True,
        help_text='The game score per table he sat at, exact: "-21", "59/2"; null: none.',
    )
    average_place = serializers.CharField(source="standing.average_place", allow_null=True)
    average_place_value = serializers.FloatField(source="standing.average_place", allow_null=True)
    firsts = serializers.IntegerField(source="standing.firsts")
    opponents_points = serializers.CharField(source="standing.opponents_points")
    opponents_points_value = serializers.FloatField(source="standing.opponents_points")
    tables = serializers.IntegerField(source="standing.tables")
    byes = serializers.IntegerField(source="standing.byes")
    separated_by = serializers.CharField(
        source="standing.separated_by",
        allow_null=True,
        help_text="The tie-break that puts him below the row above.",
    )
    penalty = serializers.CharField(
        source="standing.penalty",
        help_text='Points taken off by penalties (already out of "points"): "0", "2".',
    )
    penalties = PenaltySerializer(many=True, help_text="His warnings and penalties in force.")
    shared_by = serializers.ChoiceField(
        source="standing.shared_by",
        choices=["knockout", "final"],
        allow_null=True,
        help_text="Why a final's players share a place: knockout (out in the same round of it), "
        "final (tied at the final table); null: a shared rank is equal on every tie-break.",
    )


# Reads a ``selectors.TournamentView``.
class StandingsSerializer(serializers.Serializer[Any]):
    provisional = serializers.BooleanField(help_text="Counts a table of a round not confirmed yet.")
    public = serializers.BooleanField(
        help_text="The players see these standings; false: the organisers' live standings while frozen."
    )
    hidden = serializers.BooleanField(
        source="standings_hidden", help_text="Frozen: the players see no standings until revealed."
    )
    stood_after = serializers.IntegerField(
        allow_null=True,
        help_text="Frozen: the players' standings as they stood after this round (0: none played).",
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingSerializer(source="standings", many=True)


# Reads a ``selectors.SeatFound``.
class FoundSeatSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(source="game.public_id", allow_null=True)
    bye = serializers.BooleanField()
    dropped_after = serializers.IntegerField(
        allow_null=True, help_text="The round after which the player dropped out; null while he plays."
    )
    published = serializers.BooleanField(help_text="false: the round's seating is not published yet.")


# Reads a ``selectors.SeatSearch``.
class FoundSeatsSerializer(serializers.Serializer[Any]):
    query = serializers.CharField()
    results = FoundSeatSerializer(many=True)


# Reads a ``selectors.PlayerRound``.
class PlayerRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    final_stage = serializers.IntegerField(help_text="0: a round of the tournament; else the final's stage.")
    status = serializers.CharField(help_text="The round's status: seated, playing or confirmed.")
    table = serializers.IntegerField(allow_null=True, help_text="null: a bye, or not seated this round.")
    seat = serializers.IntegerField(allow_null=True, help_text="1-based; seat 1 deals first.")
    game = serializers.CharField(allow_null=True, help_text="The public id of the table's game.")
    bye = serializers.BooleanField()
    counted = serializers.BooleanField(help_text="The table (or bye) counts for the standings yet.")
    published = serializers.BooleanField(help_text="false: the round's seating is not published yet.")
    place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(
        allow_null=True, help_text="His total at the table, as the game counts it."
    )
    points = serializers.CharField(allow_null=True, help_text='The table points earned, exact: "7", "9/2".')
    rank = serializers.IntegerField(allow_null=True, help_text="His rank in the standings after this round.")
    final_result = serializers.ChoiceField(
        choices=["place", "through", "out"],
        allow_null=True,
        help_text="What a stage of a final that decides the top places did (its table points count "
        "for nothing, so points is null): place (it decided his place, final_place), through (won, "
        "plays the next stage), out (lost; his place waits for the knockout's end). null: not such a stage.",
    )
    final_place = serializers.IntegerField(allow_null=True, help_text="The place the final decided.")


# Reads a ``selectors.PlayerView``; without a standing yet, rank and points are null.
class PlayerRoundsSerializer(serializers.Serializer[Any]):
    penalties = PenaltySerializer(many=True, help_text="His warnings and penalties in force.")
    entry = serializers.IntegerField(source="entry.pk")
    player_id = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    dropped_after = serializers.IntegerField(source="entry.dropped_after", allow_null=True)
    rank = serializers.IntegerField(
        source="standing.rank", allow_null=True, help_text="His rank in the standings now."
    )
    points = serializers.CharField(
        source="standing.points", allow_null=True, help_text="His tournament points now, exact."
    )
    rounds = PlayerRoundSerializer(many=True)


# Reads a ``selectors.HistoryItem``: an organiser's change, or a correction at a table.
class HistoryItemSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        help_text="change (the organiser's) or correction (at a table after its round was confirmed)."
    )
    action = serializers.CharField()
    title = serializers.CharField(help_text="What happened, in the caller's language.")
    details = HistoryDetails(help_text="What the change did; a dispute's word for the organisers only.")
    user = OrganisersSee(
        source="username", allow_null=True, help_text="Who did it; null but for the club's organisers."
    )
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(source="correction.game.public_id", allow_null=True)
    created_at = serializers.DateTimeField()


# Reads a ``selectors.TournamentHistory``.
class HistorySerializer(serializers.Serializer[Any]):
    items = HistoryItemSerializer(many=True)


class RevealSerializer(serializers.Serializer[Any]):
    revealed = serializers.BooleanField(
        default=True, help_text="true: reveal the frozen standings; false: freeze them again."
    )
