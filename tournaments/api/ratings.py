"""A player's ratings per rule family with the history of one, two players head to head, whether
the club's ratings and standings are up to date, and a club game's win chances."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    unchanged,
)
from games.api.lookups import game_or_404, visible_club
from tournaments.api import rating_schemas as schemas
from tournaments.api.lookups import club_player, family_query
from tournaments.api.rating_serializers import (
    FreshnessSerializer,
    GameChancesSerializer,
    RatingsSerializer,
    VersusSerializer,
    freshness_etag,
)
from tournaments.derived import freshness
from tournaments.selectors import seasons as selectors


class PlayerRatings(APIView):
    @schemas.club_player_ratings
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        club, _role = visible_club(request, slug)
        player = club_player(club, player_id)
        page = selectors.player_rating_page(player=player, family=family_query(request))
        return Response(RatingsSerializer(page, context={"request": request}).data)


class Versus(APIView):
    @schemas.club_player_versus
    def get(self, request: Request, slug: str, player_id: int, other_id: int) -> Response:
        club, _role = visible_club(request, slug)
        player = club_player(club, player_id)
        other = club_player(club, other_id)
        if player.pk == other.pk:
            raise exceptions.ValidationError({"other_id": [_("Choose another player.")]})
        page = selectors.versus_page(player=player, other=other)
        return Response(VersusSerializer(page, context={"request": request}).data)


class ClubFreshness(APIView):
    # Every phone showing the club's numbers polls this while they update: an unchanged answer
    # (304) is given before the throttles, which would cost more than it (as for a game).
    def check_throttles(self, request: Request) -> None:
        if request.headers.get("If-None-Match"):
            club, _role = visible_club(request, self.kwargs["slug"])
            if unchanged(request, freshness_etag(freshness(club.pk))):
                return
        super().check_throttles(request)

    @schemas.club_derived_freshness
    def get(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug)
        fresh = freshness(club.pk)
        tag = freshness_etag(fresh)
        if unchanged(request, tag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(FreshnessSerializer(fresh, context={"request": request}).data)
        response["ETag"] = tag
        response["Cache-Control"] = "private, no-cache"
        return response


class GameChances(APIView):
    @schemas.game_win_chances
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        if game.club is None:
            raise Http404
        found = selectors.game_chances_page(game=game)
        return Response(GameChancesSerializer(found, context={"request": request}).data)
