"""The clubs resources of the API (see games/api/urls.py): clubs, their rosters, a player's
summary, the organisers' rename and merge, and joining a club with an invite link.

Access is the pages' (games/views/clubs.py, games/services/access.py): a members-only club
answers 404 to everyone outside it; members read; organisers (and site admins) rename and
merge. A club's games are the games list filtered by club (``games/?club=``), not here.
Renames and merges go through games.services.players: one transaction, the Idempotency-Key
as the change's request id (a resend returns the first answer), and the player's version in
``If-Match`` (ETag ``"player-<id>-v<version>"``), checked under the row lock.
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
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions, generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiError,
    CursorPage,
    etag,
    idempotency_key,
    if_match,
    problems,
    stale_edit,
)
from games.api.lookups import caller, organiser_only, visible_club
from games.models import Club, Membership, Player
from games.selectors.clubs import club_by_pk, clubs_seen
from games.selectors.players import player_by_pk, player_summary, roster_players
from games.services.access import can_view_player, club_role
from games.services.clubs import (
    MAX_CLUB_NAME,
    MAX_INACTIVE_DAYS,
    MAX_PROVISIONAL_GAMES,
    club_join,
    club_update,
)
from games.services.errors import ServiceError, StalePlayer, StaleVersion
from games.services.players import player_merge, player_rename
from games.services.rates import invite_lookup_allowed
from games.text.errors import error_message
from games.web.links import token_from

Role = Membership.Role
MAX_QUERY = 40


def _player(request: Request, slug: str, pk: int) -> tuple[Player, str | None]:
    """The club's player (even one merged since) and the caller's role; 404 when he may not see it."""
    player = player_by_pk(pk=pk)
    if player is None or player.club is None or player.club.slug != slug:
        raise Http404
    role = club_role(user=caller(request), club=player.club)
    if not can_view_player(player=player, user=caller(request), role=role):
        raise Http404
    return player, role


# ---------------------------------------------------------------------- serializers


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

SLUG_PARAM = OpenApiParameter(
    "slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's address."
)
# Anonymous callers read public clubs (TokenScope lets every read through); spectacular cannot
# tell from that permission, so the security requirements are given (a list of requirement
# objects, though the stubs type `auth` as strings).
READ_AUTH: Any = [{"bearer": []}, {"cookieAuth": []}, {}]
ID_PARAM = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The player's id.")


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

    @extend_schema(
        operation_id="clubs_list",
        auth=READ_AUTH,
        summary="Clubs",
        description="The public clubs and the caller's own clubs (members-only ones included), "
        "by address, with the caller's role in each.",
        responses={200: ClubSerializer(many=True), **problems(400, 401, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ClubDetail(APIView):
    @extend_schema(
        operation_id="clubs_retrieve",
        auth=READ_AUTH,
        summary="A club",
        description="A members-only club answers 404 to everyone outside it.",
        parameters=[SLUG_PARAM],
        responses={200: ClubSerializer, **problems(401, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, slug: str) -> Response:
        club, role = visible_club(request, slug)
        data = ClubSerializer(club, context={"role": role}).data
        return Response(data, headers={"ETag": etag("club", club.pk, club.version)})

    @extend_schema(
        operation_id="clubs_partial_update",
        summary="Change a club's settings (organisers)",
        description="Only the settings sent change. If-Match is the club's ETag.",
        parameters=[SLUG_PARAM, IF_MATCH],
        request=ClubSettingsSerializer,
        examples=[
            OpenApiExample(
                "The rating list",
                value={"provisional_games": 10, "inactive_days": 90},
                request_only=True,
            )
        ],
        responses={200: ClubSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
        tags=["clubs"],
    )
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

    @extend_schema(
        operation_id="clubs_players_list",
        auth=READ_AUTH,
        summary="A club's players",
        description="The club's current players (merged ones left out) by name, with the games "
        "each sat in. `q` finds names containing it (accents and case aside).",
        parameters=[
            SLUG_PARAM,
            OpenApiParameter(
                "q", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, description="Part of a name."
            ),
        ],
        responses={200: RosterRowSerializer(many=True), **problems(400, 401, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerDetail(APIView):
    @extend_schema(
        operation_id="clubs_players_retrieve",
        auth=READ_AUTH,
        summary="A player's summary",
        description="The player's statistics (finished games), results and frequent opponents; "
        "the ETag is the player's version (send it as If-Match to rename or merge). A merged "
        "player still answers, with `merged_into`.",
        parameters=[SLUG_PARAM, ID_PARAM],
        responses={200: PlayerSerializer, **problems(401, 404, 429)},
        tags=["clubs"],
    )
    def get(self, request: Request, slug: str, pk: int) -> Response:
        player, _role = _player(request, slug, pk)
        return _player_response(player)

    @extend_schema(
        operation_id="clubs_players_rename",
        summary="Rename a player (organisers)",
        description="Old score sheets keep the names they were played under. Recorded in the "
        "club's history (undoable there).",
        parameters=[SLUG_PARAM, ID_PARAM, IF_MATCH, IDEMPOTENCY_KEY],
        request=RenameSerializer,
        examples=[OpenApiExample("Rename", value={"name": "Ann Novak"}, request_only=True)],
        responses={200: PlayerSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
        tags=["clubs"],
    )
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


class JoinSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=500, help_text="The invite link, or the token after its #")


class ClubJoin(APIView):
    @extend_schema(
        operation_id="clubs_join",
        summary="Join a club with an invite link",
        description="The caller (logged in, or with a read-write token) joins the invite's club as "
        "a member; joining twice changes nothing. Answers the club. Invite look-ups are limited "
        "per address and hour: over the limit every one is refused (429), the right one too.",
        request=JoinSerializer,
        examples=[
            OpenApiExample(
                "An invite link",
                value={"token": "https://rummy.example.org/clubs/join/#Zq8…"},
                request_only=True,
            )
        ],
        responses={200: ClubSerializer, **problems(400, 401, 404, 429)},
        tags=["clubs"],
    )
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
    @extend_schema(
        operation_id="clubs_players_merge",
        summary="Merge a player into another (organisers)",
        description="One person recorded under two names: every seat of this player moves to "
        "`into` with its results, and this player is hidden. If-Match is this (dropped) "
        "player's ETag. Undoable in the club's history. Answers the kept player.",
        parameters=[SLUG_PARAM, ID_PARAM, IF_MATCH, IDEMPOTENCY_KEY],
        request=MergeSerializer,
        examples=[
            OpenApiExample(
                "Merge into player 12",
                summary="Keep player 12, drop this one",
                value={"into": 12},
                request_only=True,
            )
        ],
        responses={200: PlayerSerializer, **problems(400, 401, 403, 404, 412, 428, 429)},
        tags=["clubs"],
    )
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
