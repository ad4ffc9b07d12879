"""A federation season (a Grand Prix) as the API takes it (its settings) and answers it (the
list's rows, its settings, one page of its standings, a person's league card), and its ETag."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from engine.rules import FAMILIES
from federations.models import FederationSeason
from games.api.common import ETagField, PartialMixin, etag
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LEAGUE_TIEBREAKS
from tournaments.api.season_serializers import FamilyName
from tournaments.services.common import MAX_CUSTOM_POINTS, MAX_EVENTS, MAX_QUALIFY


def grand_prix_etag(season: FederationSeason) -> str:
    return etag("federation-season", season.public_id, season.version)


class GrandPrixSettingsSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    starts = serializers.DateField()
    ends = serializers.DateField()
    families = serializers.ListField(
        child=FamilyName(max_length=16),
        min_length=1,
        max_length=len(FAMILIES),
        help_text="The rule families counted: " + ", ".join(FAMILIES) + ".",
    )
    tournament_points = serializers.ChoiceField(
        choices=FederationSeason.TournamentPoints.choices, default=FederationSeason.TournamentPoints.PRESET
    )
    custom_points = serializers.CharField(
        allow_blank=True,
        default="",
        max_length=MAX_CUSTOM_POINTS,
        help_text='Points by place among the register\'s people: "10 8 6 5 4 3 2 1" (custom only).',
    )
    best_events = serializers.IntegerField(
        min_value=0,
        max_value=MAX_EVENTS,
        default=0,
        help_text="Count only each one's best tournaments; 0: all.",
    )
    drop_worst = serializers.IntegerField(min_value=0, max_value=MAX_EVENTS, default=0)
    min_events = serializers.IntegerField(
        min_value=0, max_value=MAX_EVENTS, default=0, help_text="Tournaments needed to be ranked."
    )
    qualify = serializers.IntegerField(
        min_value=0,
        max_value=MAX_QUALIFY,
        default=0,
        help_text="The top this many ranked people qualify (the standings draw the line); 0: none.",
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=20),
        help_text="The tie-break order, points first: "
        + ", ".join(k for k in LEAGUE_TIEBREAKS if k != "games")
        + ' ("games" is refused: a season counts tournaments).',
        default=list(DEFAULT_LEAGUE_TIEBREAKS),
        max_length=10,
    )

    def validate_families(self, value: list[str]) -> list[str]:
        unknown = [f for f in value if f not in FAMILIES]
        if unknown:
            raise serializers.ValidationError(_("No such rule family: %(family)s.") % {"family": unknown[0]})
        return value


class GrandPrixSettingsPatchSerializer(PartialMixin, GrandPrixSettingsSerializer):
    """Any of the settings; the others stay as they are."""


class GrandPrixSerializer(serializers.Serializer[Any]):
    # Reads a ``FederationSeason``.
    public_id = serializers.CharField()
    federation = serializers.CharField(source="federation.slug", help_text="The federation's slug.")
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField()
    families = serializers.ListField(child=serializers.CharField())
    tournament_points = serializers.CharField()
    custom_points = serializers.SerializerMethodField()
    best_events = serializers.IntegerField()
    drop_worst = serializers.IntegerField()
    min_events = serializers.IntegerField()
    tiebreaks = serializers.SerializerMethodField()
    qualify = serializers.IntegerField()
    computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the standings were last derived."
    )
    version = serializers.IntegerField()
    etag = ETagField(grand_prix_etag, source="*")

    def get_custom_points(self, season: FederationSeason) -> str:
        return " ".join(season.custom_points)

    def get_tiebreaks(self, season: FederationSeason) -> list[str]:
        return list(season.tiebreaks or DEFAULT_LEAGUE_TIEBREAKS)


class GrandPrixRowSerializer(serializers.Serializer[Any]):
    # Reads a ``StandingLine``.
    rank = serializers.IntegerField(source="row.rank")
    previous_rank = serializers.IntegerField(source="row.previous_rank", allow_null=True)
    ranked = serializers.BooleanField(source="row.ranked", help_text="Played the minimum of tournaments.")
    number = serializers.IntegerField(source="row.person.number", help_text="The register entry's number.")
    federation_id = serializers.CharField(source="label", help_text='The federation id ("CZ-00042").')
    name = serializers.CharField(source="row.person.name")
    points = serializers.CharField(source="row.points", help_text='Exact to three decimals: "12.500".')
    events = serializers.IntegerField(source="row.events", help_text="Tournaments whose points count.")
    played = serializers.IntegerField(source="row.played", help_text="Tournaments played in the season.")
    wins = serializers.IntegerField(source="row.wins")
    average_place = serializers.FloatField(source="row.average_place", allow_null=True)
    separated_by = serializers.CharField(source="row.separated_by", allow_blank=True)
    qualifies = serializers.BooleanField(help_text="Among the season's top `qualify` ranked people.")


class GrandPrixStandingsSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonView``.
    family = serializers.CharField(allow_blank=True, help_text='"": every family of the season together.')
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    pending = serializers.BooleanField(help_text="A change is not yet in these standings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True, help_text="When the federation's derived numbers were last complete."
    )
    rows = GrandPrixRowSerializer(many=True, source="lines")


class CardLineSerializer(serializers.Serializer[Any]):
    # Reads a ``CardLine``.
    tournament = serializers.CharField(source="result.tournament.public_id", help_text="The tournament's id.")
    tournament_name = serializers.CharField(source="result.tournament.name")
    club = serializers.CharField(source="result.tournament.club.name")
    date = serializers.DateField(source="result.date")
    family = serializers.CharField(source="result.family")
    place = serializers.IntegerField(source="result.place", help_text="Among the register's people in it.")
    finished = serializers.IntegerField(source="result.finished", help_text="In the tournament's standings.")
    players = serializers.IntegerField(source="result.players", help_text="The register's people in it.")
    points = serializers.CharField(help_text='Exact: a fraction, "37/3".')
    mark = serializers.ChoiceField(choices=["counted", "dropped_worst", "not_best"])


class CardSerializer(serializers.Serializer[Any]):
    # Reads a ``Card``.
    number = serializers.IntegerField(source="person.number")
    federation_id = serializers.CharField(source="label")
    name = serializers.CharField(source="person.name")
    family = serializers.CharField(allow_blank=True)
    rank = serializers.SerializerMethodField()
    ranked = serializers.SerializerMethodField()
    total = serializers.CharField(help_text='The counted tournaments\' points, exact: "37/3".')
    counted = serializers.IntegerField()
    pending = serializers.BooleanField()
    as_of = serializers.DateTimeField(allow_null=True)
    lines = CardLineSerializer(many=True)

    def get_rank(self, card: Any) -> int | None:
        return card.standing.rank if card.standing is not None and card.standing.ranked else None

    def get_ranked(self, card: Any) -> bool:
        return card.standing is not None and card.standing.ranked
