"""The club rating list and a player's league card in a season, as the pages show them
(tournaments.views.league), with the same access: whoever sees the club reads; a members-only
club answers 404 to outsiders."""

from __future__ import annotations

from django.http import HttpResponse
from rest_framework import renderers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.lookups import visible_club
from tournaments import league_files
from tournaments.api import league_schemas as schemas
from tournaments.api.exchange import CsvRenderer
from tournaments.api.league_serializers import LeagueCardSerializer, RatingListSerializer
from tournaments.api.lookups import club_player, family_query, visible_season
from tournaments.selectors import league as league_selectors


class RatingList(APIView):
    @schemas.club_rating_list
    def get(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug)
        ratings = league_selectors.rating_list(club=club, family=family_query(request))
        return Response(RatingListSerializer(ratings, context={"request": request}).data)


class LeagueCard(APIView):
    @schemas.season_league_card
    def get(self, request: Request, public_id: str, player_id: int) -> Response:
        season = visible_season(request, public_id)
        player = club_player(season.club, player_id)
        card = league_selectors.league_card(season=season, player=player, family=family_query(request))
        return Response(LeagueCardSerializer(card, context={"request": request}).data)


class CsvView(APIView):
    # JSON stays for errors; text/csv for a client that asks for the file by its type.
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]


class RatingListCsv(CsvView):
    @schemas.club_rating_list_csv
    def get(self, request: Request, slug: str) -> HttpResponse:
        club, _role = visible_club(request, slug)
        return league_files.rating_list_file(
            club, league_selectors.rating_list(club=club, family=family_query(request))
        )


class SeasonCsv(CsvView):
    @schemas.season_standings_csv
    def get(self, request: Request, public_id: str) -> HttpResponse:
        return league_files.season_file(visible_season(request, public_id), family_query(request))


class LeagueCardCsv(CsvView):
    @schemas.season_league_card_csv
    def get(self, request: Request, public_id: str, player_id: int) -> HttpResponse:
        season = visible_season(request, public_id)
        player = club_player(season.club, player_id)
        return league_files.league_card_file(
            league_selectors.league_card(season=season, player=player, family=family_query(request))
        )
