"""A tournament as the API takes it (its settings) and answers it (the list's rows, the whole
tournament with its rounds), and its ETag."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.rules import FAMILIES
from games.api.common import (
    ETagField,
    PartialMixin,
    etag,
)
from scoring.standings import DEFAULT_TIEBREAKS, TIEBREAKS
from tournaments.api.round_serializers import RoundSummarySerializer
from tournaments.models import Tournament
from tournaments.services.common import MAX_CUSTOM_POINTS
from tournaments.services.tournament_settings import MAX_HANDS, MAX_MINUTES, MAX_ROUNDS


class SettingsSerializer(serializers.Serializer[Any]):
    """A tournament's settings (the organiser's form). Table sizes default to the family's."""

    name = serializers.CharField(max_length=80)
    date = serializers.DateField()
    family = serializers.ChoiceField(choices=list(FAMILIES))
    options = serializers.DictField(required=False, default=dict, help_text="House rules of the family.")
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=3)
    round_hands = serializers.IntegerField(
        min_value=0, max_value=MAX_HANDS, default=0, help_text="0: a round is played to the family's end."
    )
    round_minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_MINUTES,
        default=0,
        help_text="The round clock's minutes, from each round's start; 0: no clock.",
    )
    table_confirm = serializers.BooleanField(
        default=False,
        help_text="Each player confirms his table's final totals by his own link, or disputes them; "
        "confirming a round then asks about the tables not all confirmed.",
    )
    table_min = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_max = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_preferred = serializers.IntegerField(min_value=1, max_value=20, required=False)
    byes_allowed = serializers.BooleanField(default=True)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, default=Tournament.Seating.BALANCED)
    seed_by_rating = serializers.BooleanField(
        default=False,
        help_text="Round 1 by the club's rating list (a serpentine of the seeds); later rounds by seating.",
    )
    seat_order = serializers.ChoiceField(
        choices=Tournament.SeatOrder.choices, default=Tournament.SeatOrder.RANDOM
    )
    points = serializers.ChoiceField(choices=Tournament.Points.choices, default=Tournament.Points.TABLE)
    custom_points = serializers.CharField(
        allow_blank=True,
        default="",
        max_length=MAX_CUSTOM_POINTS,
        help_text='Custom points per table size: "4: 5 3 2 0; 3: 4 2 0" (custom points only).',
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=20),
        default=list(DEFAULT_TIEBREAKS),
        max_length=10,
        help_text="The tie-break order, points first: " + ", ".join(TIEBREAKS) + ".",
    )
    final = serializers.ChoiceField(choices=Tournament.Final.choices, default=Tournament.Final.NONE)
    final_size = serializers.IntegerField(
        min_value=0,
        max_value=8,
        default=0,
        help_text="Players in the final: 0 for the family's usual table (a knockout: 4); a knockout 4 or 8.",
    )
    final_counts = serializers.ChoiceField(
        choices=Tournament.FinalCounts.choices, default=Tournament.FinalCounts.DECIDES
    )
    final_season = serializers.CharField(
        allow_null=True,
        default=None,
        max_length=16,
        help_text="A season of the club (its `public_id`) whose qualifiers play the final; null: the "
        "standings.",
    )
    hide_seating = serializers.BooleanField(
        default=False,
        help_text="Each round's seating is hidden from players until the organisers publish it.",
    )
    freeze_rounds = serializers.IntegerField(
        min_value=0,
        max_value=MAX_ROUNDS,
        default=0,
        help_text="Freeze the public standings for the last this many rounds (until revealed); 0: none.",
    )
    freeze_final = serializers.BooleanField(
        default=False, help_text="Freeze the public standings before the final too (until revealed)."
    )
    frozen_shows = serializers.ChoiceField(
        choices=Tournament.FrozenShows.choices,
        default=Tournament.FrozenShows.STOOD,
        help_text="While frozen, players see the standings as they stood before the frozen rounds, or none.",
    )


class SettingsPatchSerializer(PartialMixin, SettingsSerializer):
    """Any of the settings; the others stay as they are."""


class SeasonPublicId(serializers.CharField):
    """A season named by its public id, the only name the API gives a season."""

    def to_representation(self, value: Any) -> str:
        return str(value.public_id)


def tournament_etag(tournament: Tournament) -> str:
    return etag("tournament", tournament.public_id, tournament.version)


class TournamentListSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField()
    family = serializers.CharField()
    rounds = serializers.IntegerField()
    version = serializers.IntegerField()


# Reads a ``selectors.TournamentOverview``: the settings as the settings serializer takes them,
# the tournament's state and its rounds.
class TournamentSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField(source="tournament.public_id")
    club = serializers.CharField(source="tournament.club.slug", help_text="The club's slug.")
    name = serializers.CharField(source="settings.name")
    date = serializers.DateField(source="settings.date")
    family = serializers.CharField(source="settings.family")
    options = serializers.DictField(source="settings.options")
    rounds = serializers.IntegerField(source="settings.rounds")
    round_hands = serializers.IntegerField(source="settings.round_hands")
    round_minutes = serializers.IntegerField(
        source="settings.round_minutes", help_text="The round clock's minutes; 0: no clock."
    )
    table_confirm = serializers.BooleanField(
        source="settings.table_confirm",
        help_text="Each player confirms his table's result by his own link (or disputes it).",
    )
    table_min = serializers.IntegerField(source="settings.table_min")
    table_max = serializers.IntegerField(source="settings.table_max")
    table_preferred = serializers.IntegerField(source="settings.table_preferred")
    byes_allowed = serializers.BooleanField(source="settings.byes_allowed")
    seating = serializers.CharField(source="settings.seating")
    seed_by_rating = serializers.BooleanField(source="settings.seed_by_rating")
    seat_order = serializers.CharField(source="settings.seat_order")
    points = serializers.CharField(source="settings.points")
    custom_points = serializers.CharField(source="settings.custom_points", help_text='"4: 5 3 2 0; 3: 4 2 0"')
    tiebreaks = serializers.ListField(child=serializers.CharField(), source="settings.tiebreaks")
    final = serializers.ChoiceField(
        source="settings.final", choices=Tournament.Final.choices, help_text="The final after the rounds."
    )
    final_size = serializers.IntegerField(
        source="settings.final_size", help_text="Players in the final; 0: the family's usual table."
    )
    final_counts = serializers.ChoiceField(
        source="settings.final_counts", choices=Tournament.FinalCounts.choices
    )
    final_season = SeasonPublicId(
        source="tournament.final_season",
        allow_null=True,
        help_text="The season whose qualifiers play the final (its `public_id`); null: the standings.",
    )
    hide_seating = serializers.BooleanField(source="settings.hide_seating")
    freeze_rounds = serializers.IntegerField(source="settings.freeze_rounds")
    freeze_final = serializers.BooleanField(source="settings.freeze_final")
    frozen_shows = serializers.ChoiceField(
        source="settings.frozen_shows", choices=Tournament.FrozenShows.choices
    )
    standings_revealed = serializers.BooleanField(
        source="tournament.standings_revealed", help_text="The organisers revealed the frozen standings."
    )
    version = serializers.IntegerField(source="tournament.version")
    etag = ETagField(tournament_etag, source="tournament")
    entries = serializers.IntegerField(source="view.registered", help_text="Players registered.")
    checked_in = serializers.IntegerField(
        source="view.checked_in", help_text="Players checked in, those who dropped out left aside."
    )
    check_in_open = serializers.BooleanField(
        source="tournament.check_in_open", help_text="Players may check themselves in at the door."
    )
    next_round = serializers.IntegerField(
        source="view.next_round", allow_null=True, help_text="The round that can be seated now."
    )
    played_rounds = RoundSummarySerializer(
        source="view.rounds", many=True, help_text="The rounds seated so far."
    )
