"""The seasons and ratings resources of the API: a club's seasons (list, create), a season's
settings and one page of its standings (read, change), a player's ratings per rule family with
the history of one, two players head to head, whether the club's ratings and standings are up
to date, and a club game's win chances. Each answer is its serializer over what
``tournaments.selectors.seasons`` returns.

The same rules as the league pages (tournaments.views.seasons): whoever sees the club reads (a
members-only club answers 404 to outsiders); only its organisers create or change a season,
through ``tournaments.services`` (``season_create`` / ``season_update``: the row locked, the
Idempotency-Key as request id, the version from ``If-Match``)."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.rules import FAMILIES
from games.api.common import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ETagField,
    etag,
    guarded,
    idempotency_key,
    if_match,
    problems,
    unchanged,
    with_etag,
)
from games.api.lookups import game_or_404, visible_club
from games.models import Club, Player
from games.web.input import read_int
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LEAGUE_TIEBREAKS
from tournaments.derived import Freshness, freshness
from tournaments.models import Season
from tournaments.selectors import seasons as selectors
from tournaments.services.common import MAX_CUSTOM_POINTS, MAX_EVENTS, MAX_MIN_GAMES, MAX_QUALIFY
from tournaments.services.seasons import SeasonSettings, current_season_settings, season_create, season_update

TAGS = ["seasons"]
SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The club's slug.")
PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The season's id.")
PLAYER = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="A club player's id.")
FAMILY = OpenApiParameter(
    "family", str, OpenApiParameter.QUERY, required=False, enum=list(FAMILIES), description="A rule family."
)


# ---------------------------------------------------------------------- serializers


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


class SeasonSettingsPatchSerializer(SeasonSettingsSerializer):
    """Any of the settings; the others stay as they are."""

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
            field.default = serializers.empty
        return fields


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


def _answer(
    request: Request,
    season: Season,
    *,
    family: str = "",
    page: int = 1,
    evening: datetime.date | None = None,
) -> Any:
    """The season's representation, with one page of its standings."""
    found = selectors.season_page(season=season, family=family, page=page, evening=evening)
    return SeasonSerializer(found, context={"request": request}).data


def _season(request: Request, public_id: str, *, manage: bool = False) -> Season:
    season = selectors.season_by_public_id(public_id=public_id)
    if season is None:
        raise Http404
    visible_club(request, season.club.slug, manage=manage)
    return season


def _evening(request: Request) -> datetime.date | None:
    raw = request.query_params.get("evening", "")
    if not raw:
        return None
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise exceptions.ValidationError({"evening": [_("Not a date (YYYY-MM-DD).")]}) from None


def _family(request: Request) -> str:
    family = request.query_params.get("family", "")
    if family and family not in FAMILIES:
        raise exceptions.ValidationError({"family": [_("No such rule family.")]})
    return family


MAX_PAGE = 100_000


def _page(request: Request) -> int:
    page = read_int(request.query_params.get("page", "1"), lo=1, hi=MAX_PAGE)
    if page is None:
        raise exceptions.ValidationError({"page": [_("A page is a whole number from 1.")]})
    return page


# ---------------------------------------------------------------------- views


class ClubSeasons(generics.ListAPIView[Season]):
    """A club's seasons (GET), newest first; a new one (POST, organisers)."""

    serializer_class = SeasonListSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Season]:
        club, _role = visible_club(self.request, self.kwargs["slug"])
        return selectors.season_rows(club=club)

    @extend_schema(
        operation_id="club_seasons_list",
        summary="A club's seasons",
        tags=TAGS,
        parameters=[SLUG],
        responses={200: SeasonListSerializer(many=True), **problems(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="club_seasons_create",
        summary="Create a season (organisers); its standings are built at once",
        tags=TAGS,
        parameters=[SLUG, IDEMPOTENCY_KEY],
        request=SeasonSettingsSerializer,
        examples=[
            OpenApiExample(
                "A winter league",
                summary="Club games and tournaments of two families, best 10 events",
                value={
                    "name": "Winter league 2026/27",
                    "starts": "2026-12-01",
                    "ends": "2027-02-28",
                    "families": ["zoliky", "rummikub"],
                    "counts": "both",
                    "game_points": "table",
                    "tournament_points": "preset",
                    "best_events": 10,
                    "drop_worst": 0,
                    "min_games": 5,
                    "tiebreaks": ["points", "wins", "average_place", "head_to_head"],
                },
                request_only=True,
            )
        ],
        responses={201: SeasonSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug, manage=True)
        key = idempotency_key(request)
        form = SeasonSettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        settings = SeasonSettings.from_mapping(form.validated_data)
        season = season_create(club=club, settings=settings, user=request.user, request_id=key)
        return with_etag(_answer(request, season), season_etag(season), status.HTTP_201_CREATED)


class SeasonDetail(APIView):
    @extend_schema(
        operation_id="seasons_retrieve",
        summary="A season: its settings and one page of its standings",
        tags=TAGS,
        parameters=[
            PUBLIC_ID,
            FAMILY,
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
                OpenApiParameter.QUERY,
                required=False,
                description="From 1.",
            ),
            OpenApiParameter(
                "evening",
                str,
                OpenApiParameter.QUERY,
                required=False,
                description="YYYY-MM-DD, one of `evenings`: the standings as they stood after it (▲▼ "
                "relative to the evening before). Another day: as they are now.",
            ),
        ],
        responses={200: SeasonSerializer, **problems(400, 404)},
        examples=[
            OpenApiExample(
                "Two rows",
                summary="A season's first page of standings, two players",
                value={
                    "public_id": "s7Hq2LmX",
                    "club": "tuesday-club",
                    "name": "Winter league 2026/27",
                    "starts": "2026-12-01",
                    "ends": "2027-02-28",
                    "families": ["zoliky"],
                    "counts": "both",
                    "game_points": "table",
                    "tournament_points": "preset",
                    "custom_points": "",
                    "best_events": 0,
                    "drop_worst": 0,
                    "min_games": 3,
                    "tiebreaks": ["points", "wins", "average_place", "head_to_head"],
                    "version": 2,
                    "etag": '"season-s7Hq2LmX-v2"',
                    "computed_at": "2026-12-15T21:04:00Z",
                    "standings": {
                        "family": "",
                        "page": 1,
                        "pages": 1,
                        "updating": False,
                        "pending": False,
                        "as_of": "2026-12-15T21:04:00Z",
                        "rows": [
                            {
                                "rank": 1,
                                "previous_rank": 2,
                                "ranked": True,
                                "player_id": 12,
                                "name": "Ann Novak",
                                "points": "41.000",
                                "points_value": 41.0,
                                "games": 6,
                                "wins": 3,
                                "average_place": 1.83,
                                "events": 6,
                                "rating": 1612,
                                "separated_by": "",
                            },
                            {
                                "rank": 2,
                                "previous_rank": 1,
                                "ranked": True,
                                "player_id": 15,
                                "name": "Bob Cerny",
                                "points": "37.500",
                                "points_value": 37.5,
                                "games": 6,
                                "wins": 2,
                                "average_place": 2.17,
                                "events": 6,
                                "rating": 1548,
                                "separated_by": "points",
                            },
                        ],
                    },
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request, public_id: str) -> Response:
        season = _season(request, public_id)
        family, page, evening = _family(request), _page(request), _evening(request)
        return with_etag(
            _answer(request, season, family=family, page=page, evening=evening), season_etag(season)
        )

    @extend_schema(
        operation_id="seasons_partial_update",
        summary="Change a season's settings (organisers); its standings are rebuilt",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=SeasonSettingsPatchSerializer,
        examples=[
            OpenApiExample(
                "Custom tournament points",
                summary="Only the settings sent change",
                value={"tournament_points": "custom", "custom_points": "10 8 6 5 4 3 2 1", "min_games": 3},
                request_only=True,
            )
        ],
        responses={200: SeasonSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def patch(self, request: Request, public_id: str) -> Response:
        season = _season(request, public_id, manage=True)
        key = idempotency_key(request)
        form = SeasonSettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        if key is None or season.request_id != key:
            if_match(request, current=season_etag(season), body=_answer(request, season))
        merged = {**current_season_settings(season), **form.validated_data}
        seen = season.version

        def current() -> tuple[str, Any]:
            now = selectors.season_by_public_id(public_id=public_id)
            if now is None:
                raise Http404
            return season_etag(now), _answer(request, now)

        updated = guarded(
            lambda: season_update(
                season=season,
                settings=SeasonSettings.from_mapping(merged),
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return with_etag(_answer(request, updated), season_etag(updated))


class FamilyRatingSerializer(serializers.Serializer[Any]):
    # Reads a ``FamilyRating``.
    family = serializers.CharField()
    rating = serializers.IntegerField(help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the displayed rating's scale (the ± beside it).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class RatingEventSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingLine``: a rated game of the history.
    game = serializers.CharField(source="event.game.public_id", help_text="The game's public id.")
    game_name = serializers.CharField(
        help_text='The game as the page names it: its tournament table ("Autumn cup, round 2"), else who '
        "else played."
    )
    played_at = serializers.DateTimeField(source="event.played_at")
    place = serializers.IntegerField(source="event.place")
    players = serializers.IntegerField(source="event.players")
    rating = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    mu = serializers.FloatField(source="event.mu")
    sigma = serializers.FloatField(source="event.sigma")


class SeasonLineSerializer(serializers.Serializer[Any]):
    # Reads a ``SeasonStanding``: his line in a season.
    season = serializers.CharField(source="season.public_id", help_text="The season's public id.")
    name = serializers.CharField(source="season.name")
    rank = serializers.IntegerField()
    ranked = serializers.BooleanField()
    points = serializers.CharField()


class RatingsSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingPage``.
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    families = FamilyRatingSerializer(many=True)
    family = serializers.CharField(allow_blank=True, help_text="The family of the history.")
    history = RatingEventSerializer(many=True, source="lines", help_text="Newest first.")
    seasons = SeasonLineSerializer(many=True, source="own_seasons")
    updating = serializers.BooleanField(help_text="The same as pending (the older name).")
    pending = serializers.BooleanField(help_text="A change is not yet in these ratings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete.",
    )


def _club_player(club: Club, pk: int) -> Player:
    player = selectors.club_player(club=club, pk=pk)
    if player is None:
        raise Http404
    return player


class PlayerRatings(APIView):
    @extend_schema(
        operation_id="club_player_ratings",
        summary="A player's ratings per rule family, with the history of one",
        description="The history is of ?family= (else the family he played most).",
        tags=TAGS,
        parameters=[SLUG, PLAYER, FAMILY],
        responses={200: RatingsSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        club, _role = visible_club(request, slug)
        player = _club_player(club, player_id)
        page = selectors.player_rating_page(player=player, family=_family(request))
        return Response(RatingsSerializer(page, context={"request": request}).data)


class RecordSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="Games the first player placed better.")
    level = serializers.IntegerField()
    behind = serializers.IntegerField()


class MeetingSerializer(serializers.Serializer[Any]):
    # Reads a ``MeetingRow``.
    game = serializers.CharField(source="game.public_id", help_text="The game's public id.")
    family = serializers.CharField(source="game.family")
    played_at = serializers.DateTimeField(source="game.played_at")
    place = serializers.IntegerField()
    other_place = serializers.IntegerField()
    total = serializers.IntegerField()
    other_total = serializers.IntegerField()


class RatingPairSerializer(serializers.Serializer[Any]):
    # Reads a ``RatingPair``.
    family = serializers.CharField()
    player = FamilyRatingSerializer(allow_null=True)
    other = FamilyRatingSerializer(allow_null=True)


class VersusSerializer(serializers.Serializer[Any]):
    # Reads a ``HeadToHeadPage`` (``versus_page``).
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    other_id = serializers.IntegerField(source="other.pk")
    other_name = serializers.CharField(source="other.name")
    record = RecordSerializer()
    meetings = MeetingSerializer(many=True, help_text="Newest first.")
    ratings = RatingPairSerializer(many=True, source="rating_pairs")
    pending = serializers.BooleanField(help_text="A change is not yet in these ratings: they are updating.")
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete.",
    )


class Versus(APIView):
    @extend_schema(
        operation_id="club_player_versus",
        summary="Two club players head to head: their record and every game both played",
        tags=TAGS,
        parameters=[
            SLUG,
            PLAYER,
            OpenApiParameter("other_id", int, OpenApiParameter.PATH, description="The other player's id."),
        ],
        responses={200: VersusSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, slug: str, player_id: int, other_id: int) -> Response:
        club, _role = visible_club(request, slug)
        player = _club_player(club, player_id)
        other = _club_player(club, other_id)
        if player.pk == other.pk:
            raise exceptions.ValidationError({"other_id": [_("Choose another player.")]})
        page = selectors.versus_page(player=player, other=other)
        return Response(VersusSerializer(page, context={"request": request}).data)


class FreshnessSerializer(serializers.Serializer[Any]):
    # Reads a ``Freshness``.
    pending = serializers.BooleanField(
        help_text="A recorded change is not yet in the club's ratings and standings: they are updating."
    )
    as_of = serializers.DateTimeField(
        allow_null=True,
        help_text="When the club's ratings and standings were last complete (null: never).",
    )


def freshness_etag(fresh: Freshness) -> str:
    return etag("derived", int(fresh.pending), fresh.as_of.isoformat() if fresh.as_of else "none")


class ClubFreshness(APIView):
    # Every phone showing the club's numbers polls this while they update: an unchanged answer
    # (304) is given before the throttles, which would cost more than it (as for a game).
    def check_throttles(self, request: Request) -> None:
        if request.headers.get("If-None-Match"):
            club, _role = visible_club(request, self.kwargs["slug"])
            if unchanged(request, freshness_etag(freshness(club.pk))):
                return
        super().check_throttles(request)

    @extend_schema(
        operation_id="club_derived_freshness",
        summary="Whether the club's ratings and standings are up to date",
        description="Pages showing ratings or standings poll this while they say 'updating…', with the "
        "ETag as If-None-Match (304 while nothing changed), and reload once pending is false.",
        tags=TAGS,
        parameters=[SLUG],
        responses={
            200: FreshnessSerializer,
            304: OpenApiResponse(description="Not modified."),
            **problems(404),
        },
    )
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


class ChanceSerializer(serializers.Serializer[Any]):
    # Reads a ``Chance``.
    name = serializers.CharField(help_text="The seat's name.")
    player_id = serializers.IntegerField()
    chance = serializers.FloatField(help_text="Of winning the game, 0 to 1; the table's chances sum to 1.")
    rating = serializers.IntegerField(source="displayed", help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the displayed rating's scale.")
    mu = serializers.FloatField(source="rating.mu")
    sigma = serializers.FloatField(source="rating.sigma")


class GameChancesSerializer(serializers.Serializer[Any]):
    # Reads a ``GameChances`` (``game_chances_page``).
    game = serializers.CharField(source="game.public_id", help_text="The game's public id.")
    rated = serializers.BooleanField(
        help_text="Someone at the table has a rating; false: everyone is even (the page shows none)."
    )
    before_game = serializers.BooleanField(
        help_text="The game is rated: these are the ratings it was rated from. False: the players' "
        "current ratings (the game is not rated yet)."
    )
    players = ChanceSerializer(many=True, source="chances", help_text="In seat order.")
    pending = serializers.BooleanField(help_text="A change is not yet in the club's ratings.")
    as_of = serializers.DateTimeField(allow_null=True)


class GameChances(APIView):
    @extend_schema(
        operation_id="game_win_chances",
        summary="Each player's chance to win a club game, by the club's ratings before it",
        description="Exact numbers (not the page's rounded percents). Readable by whoever reads the "
        "game. A private game has no club ratings: 404.",
        tags=TAGS,
        parameters=[OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The game's id.")],
        responses={200: GameChancesSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        if game.club is None:
            raise Http404
        found = selectors.game_chances_page(game=game)
        return Response(GameChancesSerializer(found, context={"request": request}).data)


urlpatterns = [
    path("games/<str:public_id>/chances/", GameChances.as_view(), name="game-chances"),
    path("clubs/<slug:slug>/derived/", ClubFreshness.as_view(), name="club-derived"),
    path("clubs/<slug:slug>/seasons/", ClubSeasons.as_view(), name="club-seasons"),
    path("seasons/<str:public_id>/", SeasonDetail.as_view(), name="season-detail"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/ratings/", PlayerRatings.as_view(), name="player-ratings"
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/versus/<int:other_id>/",
        Versus.as_view(),
        name="player-versus",
    ),
]
