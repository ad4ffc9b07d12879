"""A season as the API takes it (its settings) and answers it (the list's rows, its settings
with one page of its standings), and its ETag."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema_field,
)
from rest_framework import serializers

from engine.rules import FAMILIES
from games.api.common import (
    ETagField,
    PartialMixin,
    etag,
)
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LEAGUE_TIEBREAKS
from tournaments.models import Season
from tournaments.services.common import MAX_CUSTOM_POINTS, MAX_EVENTS, MAX_MIN_GAMES, MAX_QUALIFY


@extend_schema_field({"type": "string", "enum": list(FAMILIES)})
class FamilyName(serializers.CharField):
    """A rule family's name: the schema lists them."""


class SeasonSettingsSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    starts = serializers.DateField()
    ends = serializers.DateField()
    families = serializers.ListField(
        # The schema lists the families (a client learns them there); an unknown one is still
        # refused with its name by ``validate_families``.
        child=FamilyName(max_length=16),
        min_length=1,
        max_length=len(FAMILIES),
        help_text="The rule families counted: " + ", ".join(FAMILIES) + ".",
    )
    counts = serializers.ChoiceField(choices=Season.Counts.choices, default=Season.Counts.BOTH)
    game_points = serializers.ChoiceField(choices=Season.GamePoints.choices, default=Season.GamePoints.TABLE)
    tournament_points = serializers.ChoiceField(
        choices=Season.TournamentPoints.choices, default=Season.TournamentPoints.PRESET
    )
    custom_points = serializers.CharField(
        allow_blank=True,
        default="",
        max_length=MAX_CUSTOM_POINTS,
        help_text='League points by final place: "10 8 6 5 4 3 2 1" (custom only).',
    )
    best_events = serializers.IntegerField(min_value=0, max_value=MAX_EVENTS, default=0)
    drop_worst = serializers.IntegerField(min_value=0, max_value=MAX_EVENTS, default=0)
    min_games = serializers.IntegerField(min_value=0, max_value=MAX_MIN_GAMES, default=0)
    qualify = serializers.IntegerField(
        min_value=0,
        max_value=MAX_QUALIFY,
        default=0,
        help_text="The top this many ranked players qualify (the standings draw the line); 0: none.",
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=20),
        help_text="The tie-break order, points first: " + ", ".join(LEAGUE_TIEBREAKS) + ".",
        default=list(DEFAULT_LEAGUE_TIEBREAKS),
        max_length=10,
    )

    def validate_families(self, value: list[str]) -> list[str]:
        unknown = [f for f in value if f not in FAMILIES]
        if unknown:
            raise serializers.ValidationError(_("No such rule family: %(family)s.") % {"family": unknown[0]})
        return value


class SeasonSettingsPatchSerializer(PartialMixin, SeasonSettingsSerializer):
    """Any of the settings; the others stay as they are."""


class SeasonListSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField()
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField()
    families = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()


class SeasonRowSerializer(serializers.Serializer[Any]):
    # Reads a ``StandingLine``: a row of the standings and whether it qualifies.
    rank = serializers.IntegerField(source="row.rank")
    previous_rank = serializers.IntegerField(source="row.previous_rank", allow_null=True)
    ranked = serializers.BooleanField(source="row.ranked", help_text="Played the minimum number of games.")
    player_id = serializers.IntegerField(source="row.player_id")
    name = serializers.CharField(source="row.player.name")
    points = serializers.CharField(source="row.points", help_text='Exact: "12.500".')
    points_value = serializers.FloatField(source="row.points")
    games = serializers.IntegerField(source="row.games")
    wins = serializers.IntegerField(source="row.wins")
    average_place = serializers.FloatField(source="row.average_place", allow_null=True)
    events = serializers.IntegerField(source="row.events")
    rating = serializers.IntegerField(source="row.rating", allow_null=True)
    separated_by = serializers.CharField(source="row.separated_by", allow_blank=True)
    qualifies = serializers.BooleanField(help_text="Among the season's top `qualify` ranked players.")


class SeasonStandingsSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonView``.
    family = serializers.CharField(allow_blank=True, help_text='"": every family of the season together.')
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    updating = serializers.BooleanField(help_text="The same as pending (the older name).")
    pending = serializers.BooleanField(help_text="A change is not yet in these standings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete.",
    )
    evening = serializers.DateField(
        allow_null=True,
        help_text="The standings as they stood after this evening (`?evening=`), `previous_rank` then "
        "being the rank after the evening before; null: as they are now.",
    )
    rows = SeasonRowSerializer(many=True, source="lines")


def season_etag(season: Season) -> str:
    return etag("season", season.public_id, season.version)


class SeasonSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonPage``: the season, its settings and one page of its standings.
    public_id = serializers.CharField(source="season.public_id")
    club = serializers.CharField(source="season.club.slug", help_text="The club's slug.")
    name = serializers.CharField(source="settings.name")
    starts = serializers.DateField(source="settings.starts")
    ends = serializers.DateField(source="settings.ends")
    families = serializers.ListField(source="settings.families", child=serializers.CharField())
    counts = serializers.CharField(source="settings.counts")
    game_points = serializers.CharField(source="settings.game_points")
    tournament_points = serializers.CharField(source="settings.tournament_points")
    custom_points = serializers.CharField(source="settings.custom_points", allow_blank=True)
    best_events = serializers.IntegerField(source="settings.best_events")
    drop_worst = serializers.IntegerField(source="settings.drop_worst")
    min_games = serializers.IntegerField(source="settings.min_games")
    tiebreaks = serializers.ListField(source="settings.tiebreaks", child=serializers.CharField())
    qualify = serializers.IntegerField(
        source="settings.qualify", help_text="The top this many ranked players qualify; 0: none."
    )
    version = serializers.IntegerField(source="season.version")
    etag = ETagField(season_etag, source="season")
    computed_at = serializers.DateTimeField(source="season.computed_at", allow_null=True)
    evenings = serializers.ListField(
        source="view.evenings",
        child=serializers.DateField(),
        help_text="The season's evenings: days with a counted game or tournament.",
    )
    standings = SeasonStandingsSerializer(source="view")


MAX_PAGE = 100_000
