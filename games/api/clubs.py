"""The clubs resources of the API (see games/api/urls.py): clubs, their rosters, a player's
summary, the organisers' rename and merge, and joining a club with an invite link.

Access is the pages' (games/views/clubs.py, games/services/access.py): a members-only club
answers 404 to everyone outside it; members read; organisers (and site admins) rename and
merge. A club's games are the games list filtered by club (``games/?club=``), not here.
Renames and merges go through games.services.players: one transaction, the Idempotency-Key
as the change's request id (a resend returns the first answer), and the player's version in
``If-Match`` (ETag ``"player-<id>-v<version>"``), checked under the row lock.

The shapes are games/api/club_serializers.py; what the schema says of each operation,
games/api/club_schemas.py.
"""

from __future__ import annotations

import re
from typing import Any

from axes.helpers import get_client_ip_address
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from rest_framework import exceptions, generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import club_schemas as schemas
from games.api.club_serializers import (
    MAX_QUERY,
    ClubSerializer,
    ClubSettingsSerializer,
    JoinSerializer,
    MergeSerializer,
    PlayerSerializer,
    RenameSerializer,
    RosterRowSerializer,
)
from games.api.common import ApiError, CursorPage, etag, idempotency_key, if_match, stale_edit
from games.api.lookups import caller, organiser_only, visible_club
from games.models import Club, Membership, Player
from games.selectors.clubs import club_by_pk, clubs_seen
from games.selectors.players import player_by_pk, player_summary, roster_players
from games.services.access import can_view_player, club_role
from games.services.clubs import club_join, club_update
from games.services.errors import ServiceError, StalePlayer, StaleVersion
from games.services.players import player_merge, player_rename
from games.services.rates import invite_lookup_allowed
from games.text.errors import error_message
from games.web.links import token_from

Role = Membership.Role


def _player(request: Request, slug: str, pk: int) -> tuple[Player, str | None]:
    """The club's player (even one merged since) and the caller's role; 404 when he may not see it."""
    player = player_by_pk(pk=pk)
    if player is None or player.club is None or player.club.slug != slug:
        raise Http404
    role = club_role(user=caller(request), club=player.club)
    if not can_view_player(player=player, user=caller(request), role=role):
        raise Http404
    return player, role


def _player_data(player: Player) -> Any:
    return PlayerSerializer(player_summary(player=player)).data


def _player_response(player: Player) -> Response:
    return Response(_player_data(player), headers={"ETag": etag("player", player.pk, player.version)})


def _fresh(player: Player) -> Player:
    """The player as stored now (after a change made by us or by someone else)."""
    found = player_by_pk(pk=player.pk)
    if found is None:
        raise Http404
    return found


_ETAG = re.compile(r'^"player-(\d+)-v(\d+)"$')


def _version(request: Request, player: Player) -> int | None:
    """The version ``If-Match`` names (None for ``*``): 428 without it, 412 for another player
    or a malformed tag. Whether it is current is checked by the service under its row lock."""
    current = etag("player", player.pk, player.version)
    given = (request.headers.get("If-Match") or "").strip()
    if given == "*":
        return None
    match = _ETAG.match(given)
    if match is None or int(match.group(1)) != player.pk:
        if_match(request, current=current, body=_player_data(player))  # 428, or 412 with the current
        return None  # a malformed tag equal to the current one cannot happen
    return int(match.group(2))


def _stale(player: Player) -> ApiError:
    player = _fresh(player)
    return stale_edit(tag=etag("player", player.pk, player.version), current=_player_data(player))


# ---------------------------------------------------------------------- views


class ClubPage(CursorPage):
    ordering = "slug"


class RosterPage(CursorPage):
    ordering = "key"  # unique among a club's current players


class ClubList(generics.ListAPIView[Club]):
    serializer_class = ClubSerializer
    filter_backends: list[Any] = []
    pagination_class = ClubPage

    def get_queryset(self) -> QuerySet[Club]:
        return clubs_seen(user=caller(self.request))

    @schemas.clubs_list
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ClubDetail(APIView):
    @schemas.clubs_retrieve
    def get(self, request: Request, slug: str) -> Response:
        club, role = visible_club(request, slug)
        data = ClubSerializer(club, context={"role": role}).data
        return Response(data, headers={"ETag": etag("club", club.pk, club.version)})

    @schemas.clubs_partial_update
    def patch(self, request: Request, slug: str) -> Response:
        club, role = visible_club(request, slug, manage=True)
        form = ClubSettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        current = etag("club", club.pk, club.version)
        if_match(request, current=current, body=ClubSerializer(club, context={"role": role}).data)
        data = form.validated_data
        try:
            club = club_update(
                club=club,
                name=data.get("name", club.name),
                slug=data.get("slug", club.slug),
                visibility=data.get("visibility", club.visibility),
                version=club.version,
                provisional_games=data.get("provisional_games"),
                inactive_days=data.get("inactive_days"),
            )
        except StaleVersion:
            now = club_by_pk(pk=club.pk)
            if now is None:
                raise Http404 from None
            raise stale_edit(
                tag=etag("club", now.pk, now.version),
                current=ClubSerializer(now, context={"role": role}).data,
            ) from None
        data = ClubSerializer(club, context={"role": role}).data
        return Response(data, headers={"ETag": etag("club", club.pk, club.version)})


class PlayerList(generics.ListAPIView[Player]):
    serializer_class = RosterRowSerializer
    filter_backends: list[Any] = []
    pagination_class = RosterPage

    def get_queryset(self) -> QuerySet[Player]:
        club, _role = visible_club(self.request, self.kwargs["slug"])
        q = self.request.query_params.get("q", "").strip()
        if len(q) > MAX_QUERY:
            raise exceptions.ValidationError(
                {"q": [_("At most %(maximum)d characters.") % {"maximum": MAX_QUERY}]}
            )
        return roster_players(club=club, q=q)

    @schemas.clubs_players_list
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerDetail(APIView):
    @schemas.clubs_players_retrieve
    def get(self, request: Request, slug: str, pk: int) -> Response:
        player, _role = _player(request, slug, pk)
        return _player_response(player)

    @schemas.clubs_players_rename
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        player, role = _player(request, slug, pk)
        organiser_only(request, role)
        request_id = idempotency_key(request)
        # A PATCH: the fields sent change; none sent, nothing changes (If-Match still checked).
        serializer = RenameSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        version = _version(request, player)
        if "name" not in serializer.validated_data:
            if version is not None and version != player.version:
                raise _stale(player)
            return _player_response(player)
        try:
            player_rename(
                player=player,
                name=serializer.validated_data["name"],
                version=version,
                request_id=request_id,
                user=caller(request),
            )
        except StalePlayer:
            raise _stale(player) from None
        return _player_response(_fresh(player))


class ClubJoin(APIView):
    @schemas.clubs_join
    def post(self, request: Request) -> Response:
        user = caller(request)
        if not isinstance(user, User):
            raise exceptions.NotAuthenticated()
        if not invite_lookup_allowed(get_client_ip_address(request._request) or "unknown"):
            raise exceptions.Throttled(
                wait=3600, detail=_("Too many invite links tried from this address: try again in an hour.")
            )
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            membership = club_join(token=token_from(serializer.validated_data["token"]), user=user)
        except ServiceError as error:
            raise ApiError(status_code=404, code=error.code, message=error_message(error)) from None
        return Response(ClubSerializer(membership.club, context={"role": membership.role}).data)


class PlayerMerge(APIView):
    @schemas.clubs_players_merge
    def post(self, request: Request, slug: str, pk: int) -> Response:
        drop, role = _player(request, slug, pk)
        organiser_only(request, role)
        request_id = idempotency_key(request)
        serializer = MergeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        keep = player_by_pk(pk=serializer.validated_data["into"])
        if keep is None or keep.club_id != drop.club_id:
            raise exceptions.ValidationError({"into": [_("Choose a player of this club.")]})
        version = _version(request, drop)
        try:
            player_merge(
                keep=keep,
                drop=drop,
                keep_version=None,
                drop_version=version,
                request_id=request_id,
                user=caller(request),
            )
        except StalePlayer:
            raise _stale(drop) from None
        return _player_response(_fresh(keep))


urlpatterns = [
    path("clubs/", ClubList.as_view(), name="api-clubs"),
    path("clubs/join/", ClubJoin.as_view(), name="api-club-join"),
    path("clubs/<slug:slug>/", ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/players/", PlayerList.as_view(), name="api-club-players"),
    path("clubs/<slug:slug>/players/<int:pk>/", PlayerDetail.as_view(), name="api-club-player"),
    path("clubs/<slug:slug>/players/<int:pk>/merge/", PlayerMerge.as_view(), name="api-club-player-merge"),
]
