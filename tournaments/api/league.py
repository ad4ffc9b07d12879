"""The club rating list and a player's league card in a season, as the pages show them
(tournaments.views.league), with the same access: whoever sees the club reads; a members-only
club answers 404 to outsiders."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import problems
from games.api.lookups import visible_club
from tournaments import league_files
from tournaments.api.exchange import CsvRenderer
from tournaments.api.seasons import FAMILY, PLAYER, PUBLIC_ID, SLUG, _family, _season
from tournaments.selectors import league as league_selectors
from tournaments.selectors import seasons as selectors

TAGS = ["seasons"]


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


class RatingList(APIView):
    @extend_schema(
        operation_id="club_rating_list",
        summary="The club's rating list of one rule family",
        description="Every player with a rated game of ?family= (else the first family rated), by rating.",
        tags=TAGS,
        parameters=[SLUG, FAMILY],
        responses={200: RatingListSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug)
        ratings = league_selectors.rating_list(club=club, family=_family(request))
        return Response(RatingListSerializer(ratings, context={"request": request}).data)


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


class LeagueCard(APIView):
    @extend_schema(
        operation_id="season_league_card",
        summary="A player's league card: every event of the season, its points and whether it counted",
        tags=TAGS,
        parameters=[PUBLIC_ID, PLAYER, FAMILY],
        responses={200: LeagueCardSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, public_id: str, player_id: int) -> Response:
        season = _season(request, public_id)
        player = selectors.club_player(club=season.club, pk=player_id)
        if player is None:
            raise Http404
        card = league_selectors.league_card(season=season, player=player, family=_family(request))
        return Response(LeagueCardSerializer(card, context={"request": request}).data)


def _csv_schema(operation_id: str, summary: str, parameters: list[Any]) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description="The page's CSV download: UTF-8 with a byte-order mark, the header row in the "
        "request's language.",
        tags=TAGS,
        parameters=parameters,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV file."),
            **problems(404),
        },
    )


class CsvView(APIView):
    # JSON stays for errors; text/csv for a client that asks for the file by its type.
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]


class RatingListCsv(CsvView):
    @_csv_schema("club_rating_list_csv", "The club's rating list of one rule family as CSV", [SLUG, FAMILY])
    def get(self, request: Request, slug: str) -> HttpResponse:
        club, _role = visible_club(request, slug)
        return league_files.rating_list_file(
            club, league_selectors.rating_list(club=club, family=_family(request))
        )


class SeasonCsv(CsvView):
    @_csv_schema("season_standings_csv", "Every row of the season's standings as CSV", [PUBLIC_ID, FAMILY])
    def get(self, request: Request, public_id: str) -> HttpResponse:
        return league_files.season_file(_season(request, public_id), _family(request))


class LeagueCardCsv(CsvView):
    @_csv_schema("season_league_card_csv", "A player's league card as CSV", [PUBLIC_ID, PLAYER, FAMILY])
    def get(self, request: Request, public_id: str, player_id: int) -> HttpResponse:
        season = _season(request, public_id)
        player = selectors.club_player(club=season.club, pk=player_id)
        if player is None:
            raise Http404
        return league_files.league_card_file(
            league_selectors.league_card(season=season, player=player, family=_family(request))
        )


urlpatterns = [
    path("clubs/<slug:slug>/ratings/csv/", RatingListCsv.as_view(), name="club-rating-list-csv"),
    path("seasons/<str:public_id>/csv/", SeasonCsv.as_view(), name="season-standings-csv"),
    path(
        "seasons/<str:public_id>/players/<int:player_id>/csv/",
        LeagueCardCsv.as_view(),
        name="season-league-card-csv",
    ),
    path("clubs/<slug:slug>/ratings/", RatingList.as_view(), name="club-rating-list"),
    path("seasons/<str:public_id>/players/<int:player_id>/", LeagueCard.as_view(), name="season-league-card"),
]
