"""The games resources of the API (see games/api/urls.py): games, their score sheets, hands,
the evening's end and the change history with undo.

Reading: anyone with a game's address reads it (as its page); the list shows only the games the
caller may see (a club's game to whoever sees the club, a private game to its owner, to the
bearer of its edit link, or to the browser session holding that link). Writing: a private
game's owner, a club game's scorekeepers and organisers (its starter among them only while he
is one), a session holding its edit link, or its edit link used as a bearer token (that game
only). A club's organisers also give a club's game another starter and delete it; a deleted
game is gone (404) for everyone else, and its organisers undo the deletion through the
history. Every write goes through games.services.
"""

from __future__ import annotations

from typing import Any

import django_filters  # type: ignore[import-untyped]
from django.db.models import QuerySet
from django.http import Http404
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import authentication, exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.errors import EngineError
from engine.notation import NOTATIONS
from engine.rules import FAMILIES
from games.api.auth import GameLink
from games.api.common import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiError,
    CursorPage,
    SiteLink,
    StrictJSONParser,
    etag,
    idempotency_key,
    if_match,
    problems,
    stale_edit,
    unchanged,
    with_etag,
)
from games.api.lookups import (
    MAX_ID,
    caller,
    game_or_404,
    game_with_deleted,
    managed_game,
    may_manage,
    recording_club,
    refuse,
    seen_games,
    writable_game,
)
from games.families import FAMILY_CHOICES
from games.models import Change, Game, Hand
from games.selectors.games import (
    by_finished,
    change_line,
    change_lines,
    game_change,
    game_changes,
    game_hand,
    game_lines,
    game_view,
    listed_games,
    with_player,
)
from games.selectors.sheets import recent_sheet
from games.selectors.users import user_by_username
from games.services.access import can_rematch, grant_edit
from games.services.errors import HandTaken, ServiceError, StaleEdit
from games.services.games import (
    CLOCK_SLACK,
    game_date_set,
    game_delete,
    game_end,
    game_rematch,
    game_start,
    game_transfer,
)
from games.services.hands import change_undo, hand_delete, hand_edit, hand_find, hand_record
from games.sheets.sheet import game_rules
from games.text.errors import error_message
from scoring import reading
from scoring.errors import ScoringError
from scoring.families import family_info
from scoring.roles import unstated_roles

# Not an enum in the schema: other resources name the same choices differently.
FAMILY_HELP = "The rule family: " + ", ".join(FAMILIES) + "."

# --- serializers: each shape once, over the selectors' GameLine, GameView, SheetRow, ChangeLine


class GameResultSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(source="seat.name", help_text="The seat's name, as the outcomes use it.")
    total = serializers.IntegerField()
    place = serializers.IntegerField(help_text="1 is best; ties share a place.")
    winner = serializers.BooleanField()


class GameItemSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField(source="game.public_id", help_text="The id in the game's address.")
    family = serializers.CharField(source="game.family", help_text=FAMILY_HELP)
    club = serializers.CharField(allow_null=True, help_text="The club's slug; null for a private game.")
    played_at = serializers.DateTimeField(
        source="game.played_at",
        help_text="When the game was played: what ratings, seasons and lists order games by.",
    )
    created_at = serializers.DateTimeField(source="game.created_at")
    updated_at = serializers.DateTimeField(source="game.updated_at")
    ended = serializers.BooleanField(source="game.ended", help_text="The evening was declared over.")
    finished = serializers.BooleanField()
    hands = serializers.IntegerField(help_text="How many hands were recorded.")
    players = GameResultSerializer(many=True, source="results", help_text="In seat order.")


class GameSeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()


class GameHandSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(
        source="hand.number", help_text="The hand's id within the game (never reused)."
    )
    ordinal = serializers.IntegerField(allow_null=True, help_text="Its row on the score sheet (1-based).")
    version = serializers.IntegerField(
        source="hand.version", help_text="Changes with every correction (see ETag)."
    )
    outcome = serializers.JSONField(source="hand.outcome", help_text="The scoring outcome, as recorded.")
    dealer = serializers.CharField(allow_null=True)
    points = serializers.DictField(
        source="points_by_player", child=serializers.IntegerField(), help_text="Points per player."
    )
    totals = serializers.DictField(
        source="totals_by_player", child=serializers.IntegerField(), help_text="Running totals after it."
    )
    missing = serializers.ListField(
        source="missing_players", child=serializers.CharField(), help_text="Players whose count is missing."
    )
    kind = serializers.CharField(
        source="kind.kind",
        allow_null=True,
        help_text="How the hand ended: closed, from_hand, knock, undercut, gin, void, out, stock, pool_dry.",
    )
    ended_by = serializers.CharField(allow_null=True, help_text="Who closed, knocked or went out, if anyone.")
    created_at = serializers.DateTimeField(source="hand.created_at")
    updated_at = serializers.DateTimeField(source="hand.updated_at")


class GameEliminationSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    hand = serializers.IntegerField(help_text="The sheet's hand after which the player dropped out.")
    total = serializers.IntegerField()


class GameBonusSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    kind = serializers.CharField(help_text="game | hands_won")
    points = serializers.IntegerField()
    hands = serializers.IntegerField(required=False)

    def to_representation(self, instance: Any) -> Any:
        # Read as scoring states it: ``hands`` only for a bonus for hands won.
        return super().to_representation(instance.as_dict())


class GamePaymentSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "from" is a keyword: built here.
        return {
            "from": serializers.CharField(source="payer"),
            "to": serializers.CharField(source="payee"),
            "crowns": serializers.IntegerField(),
        }


class GameSettlementSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "style" would shadow Field.style: built here.
        return {"style": serializers.CharField(help_text="pairs | winner"), **super().get_fields()}

    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Penalty points.")
    crowns = serializers.DictField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.CharField())
    debts = GamePaymentSerializer(many=True)
    net = serializers.DictField(child=serializers.IntegerField(), help_text="+ receives, - pays.")
    transfers = GamePaymentSerializer(many=True, help_text="The fewest payments realising net.")


class GameMissingSerializer(serializers.Serializer[Any]):
    hand = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())


class GameChartLineSerializer(serializers.Serializer[Any]):
    option = serializers.CharField(help_text="The house rule the line comes from: elimination | target.")
    value = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=["limit", "target"], help_text="limit: stay under it; target: reach it."
    )


class GameSerializer(GameItemSerializer):
    options = serializers.DictField(source="game.options", help_text="The house rules, as stored.")
    first_dealer = serializers.IntegerField(source="game.first_dealer")
    hand_limit = serializers.IntegerField(source="game.hand_limit")
    seats = GameSeatSerializer(many=True)
    rows = GameHandSerializer(many=True, source="sheet.rows", help_text="The score sheet's hands, in order.")
    totals = serializers.DictField(
        source="sheet.scored.totals", child=serializers.IntegerField(), help_text="With end bonuses."
    )
    eliminated = GameEliminationSerializer(many=True, source="sheet.scored.eliminated")
    finish_reason = serializers.CharField(
        source="sheet.scored.finish_reason",
        allow_null=True,
        help_text="target | last_player | hands | ended",
    )
    leaders = serializers.ListField(source="sheet.scored.leaders", child=serializers.CharField())
    winners = serializers.ListField(source="sheet.scored.winners", child=serializers.CharField())
    bonuses = GameBonusSerializer(many=True, source="sheet.scored.bonuses")
    incomplete = serializers.BooleanField(
        source="sheet.incomplete", help_text="Some count is missing: totals are provisional."
    )
    missing = GameMissingSerializer(many=True, source="sheet.scored.missing")
    next_dealer = serializers.CharField(source="sheet.next_dealer", allow_null=True)
    next_hand_number = serializers.IntegerField(
        source="game.next_hand_number",
        help_text="The number the next hand will be stored under: send it as the new hand's `for_hand`.",
    )
    settlement = GameSettlementSerializer(
        source="sheet.scored.settlement",
        allow_null=True,
        help_text="Žolíky only, once no count is missing.",
    )
    share_url = SiteLink(
        source="share_path",
        help_text="The link to watch the score sheet, at the address other phones reach (the page's "
        "QR code).",
    )
    chart_line = GameChartLineSerializer(
        allow_null=True,
        help_text="The line the running totals head for on the chart of the evening (Žolíky's elimination "
        "limit, the gin and Carousel target); null when the family or an open evening has none.",
    )


class GameCreatedSerializer(GameSerializer):
    edit_url = serializers.CharField(help_text="The path of the game's edit link (keep it secret).")


class GameCreateSerializer(serializers.Serializer[Any]):
    family = serializers.CharField(help_text=FAMILY_HELP)
    options = serializers.DictField(required=False, default=dict, help_text="House rules (see /engine/).")
    players = serializers.ListField(child=serializers.CharField(max_length=40), min_length=1, max_length=20)
    first_dealer = serializers.IntegerField(required=False, default=0, min_value=0)
    club = serializers.SlugField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A club's slug: needs scorekeeper or organiser.",
    )
    played_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the game was played (a score sheet typed in later); default now, never in the "
        "future.",
    )

    def validate_played_at(self, value: Any) -> Any:
        return _not_future(value)

    def validate_family(self, value: str) -> str:
        if value not in FAMILIES:
            raise serializers.ValidationError(_("Unknown rule family."))
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["first_dealer"] >= len(attrs["players"]):
            raise serializers.ValidationError(
                {"first_dealer": [_("The first dealer must be one of the players.")]}
            )
        return attrs


def _not_future(value: Any) -> Any:
    if value is not None and value > timezone.now() + CLOCK_SLACK:
        raise serializers.ValidationError(
            _("A game cannot be played in the future: choose a time before now.")
        )
    return value


class GameDateSerializer(serializers.Serializer[Any]):
    played_at = serializers.DateTimeField(help_text="When the game was played; never in the future.")
    shown = serializers.DateTimeField(
        help_text="The game's `played_at` as you read it: if it changed since, nothing changes and the "
        "answer is 400 `date_changed_since`."
    )

    def validate_played_at(self, value: Any) -> Any:
        return _not_future(value)


class GameChangeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="change.pk")
    action = serializers.CharField(
        source="change.action",
        help_text="added | edited | deleted (a hand) | ended | reopened | new_link | transfer (another "
        "starter; `before` and `after` hold `owner`, a user id) | removed | restored (the game deleted, "
        "brought back) | dated (the date of play changed; `before` and `after` hold `played_at`)",
    )
    hand_number = serializers.IntegerField(source="change.hand_number", allow_null=True)
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand's row on the sheet, as the sheet shows it."
    )
    before = serializers.JSONField(source="change.before", allow_null=True)
    after = serializers.JSONField(source="change.after", allow_null=True)
    created_at = serializers.DateTimeField(source="change.created_at")
    undoes = serializers.IntegerField(
        source="change.undoes_id", allow_null=True, help_text="The change this one undid."
    )
    undone = serializers.BooleanField()
    undoable = serializers.BooleanField()


# --- representations ------------------------------------------------------------------------


def _game_etag(game: Game) -> str:
    return etag("game", game.pk, int(game.updated_at.timestamp() * 1_000_000))


def _game_data(request: Request, game: Game, shape: type[GameSerializer] = GameSerializer) -> Any:
    return shape(game_view(game=game, user=caller(request)), context={"request": request}).data


def _game_response(request: Request, game: Game, code: int = 200) -> Response:
    return with_etag(_game_data(request, game), _game_etag(game), code)


def _find_hand(game: Game, number: int) -> Hand:
    if number > MAX_ID:
        raise Http404
    try:
        hand, _ordinal = hand_find(game=game, number=number)
    except Hand.DoesNotExist:
        raise Http404 from None
    except EngineError as gone:  # deleted since
        raise ApiError(status_code=404, code=gone.code, message=error_message(gone)) from None
    return hand


def _hand_data(game: Game, hand: Hand) -> Any:
    """The hand as the score sheet shows it now (``game`` as read after the last write)."""
    return GameHandSerializer(recent_sheet(game=game).line(hand)).data


def _hand_etag(hand: Hand) -> str:
    return etag("hand", hand.pk, hand.version)


def _fresh(game: Game) -> Game:
    return game_or_404(game.public_id)


# --- views ----------------------------------------------------------------------------------


class GameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", help_text="A club's slug.")
    family = django_filters.ChoiceFilter(choices=FAMILY_CHOICES)
    player = django_filters.NumberFilter(method="by_player", help_text="A player's id: games he sat in.")
    finished = django_filters.BooleanFilter(method="by_finished")
    since = django_filters.DateFilter(
        field_name="played_at", lookup_expr="date__gte", help_text="Played on or after."
    )
    until = django_filters.DateFilter(
        field_name="played_at", lookup_expr="date__lte", help_text="Played on or before."
    )

    class Meta:
        model = Game
        fields = ["club", "family", "player", "finished", "since", "until"]

    def is_valid(self) -> bool:
        # A filter sent empty (``until=``) is not a date, a number or a choice: refused, as the
        # schema says, not read as "no filter". (A club's slug may be anything, "" included.)
        valid = super().is_valid()
        for name in ("family", "player", "finished", "since", "until"):
            if name in self.data and not str(self.data.get(name, "")).strip():
                self.form.add_error(name, _("Give a value, or leave the parameter out."))
                valid = False
        if self.data.get("finished", "true") not in ("true", "false", ""):
            # Django's boolean filter reads anything else as "no filter".
            self.form.add_error("finished", _("Either true or false."))
            valid = False
        return valid

    def by_player(self, queryset: QuerySet[Game], name: str, value: Any) -> QuerySet[Game]:
        if value is None:
            return queryset
        if not 0 < value <= MAX_ID or value != int(value):
            return queryset.none()
        return with_player(queryset, int(value))

    def by_finished(self, queryset: QuerySet[Game], name: str, value: Any) -> QuerySet[Game]:
        return queryset if value is None else by_finished(queryset, bool(value))


class GamePage(CursorPage):
    # Newest by the date of play, which a scorekeeper may set back after the game was entered;
    # the id orders games played at the same moment, so that a cursor never skips nor repeats.
    ordering = ("-played_at", "-pk")


class GameListCreate(generics.ListAPIView[Game]):
    serializer_class = GameItemSerializer
    filterset_class = GameFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]
    pagination_class = GamePage

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):
            return Game.objects.none()  # the schema's generator asks for the model only
        return listed_games(seen=seen_games(self.request), user=caller(self.request))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        data = GameItemSerializer(game_lines(queryset if page is None else page), many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(
        operation_id="games_list",
        summary="The games you may see",
        description="Club games of the clubs you see (public clubs, or yours), your private games, and "
        "the game whose edit link you bear. Newest first by `played_at` (then by id), by cursor.",
        responses={200: GameItemSerializer(many=True), **problems(400)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)

    @extend_schema(
        operation_id="games_create",
        summary="Start a game",
        description="Starts a game, private or (with `club`) in a club where you are a scorekeeper or an "
        "organiser. The answer carries the game's `edit_url` (share it to let others record). "
        "Starting a game is **not idempotent**: a resend starts a second game (an Idempotency-Key "
        "is not honoured here).",
        request=GameCreateSerializer,
        responses={201: GameCreatedSerializer, **problems(400, 401, 403)},
        examples=[
            OpenApiExample(
                "Žolíky for three",
                value={
                    "family": "zoliky",
                    "options": {},
                    "players": ["Ann", "Bob", "Cid"],
                    "first_dealer": 0,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Žolíky for four with a house rule",
                summary="Four players, a joker left in hand costs 30",
                value={
                    "family": "zoliky",
                    "options": {"joker_penalty": 30},
                    "players": ["Ann", "Bob", "Cid", "Dan"],
                    "first_dealer": 1,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if isinstance(request.auth, GameLink):
            raise exceptions.PermissionDenied(_("A game's edit link cannot start other games."))
        form = GameCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        club = recording_club(request, data["club"]) if data["club"] else None
        game = game_start(
            family=data["family"],
            options=data["options"],
            players=data["players"],
            owner=request.user,
            first_dealer=data["first_dealer"],
            club=club,
            played_at=data["played_at"],
        )
        return _created(request, _fresh(game))


def _created(request: Request, game: Game) -> Response:
    response = with_etag(_game_data(request, game, GameCreatedSerializer), _game_etag(game), 201)
    response["Location"] = f"/api/v1/games/{game.public_id}/"
    return response


GAME_EXAMPLE: dict[str, Any] = {
    "public_id": "k3F9xQ2m",
    "family": "zoliky",
    "club": None,
    "played_at": "2026-11-27T19:02:11Z",
    "created_at": "2026-11-27T19:02:11Z",
    "updated_at": "2026-11-27T19:20:45Z",
    "ended": False,
    "finished": False,
    "hands": 1,
    "players": [
        {"name": "Ann", "total": -10, "place": 1, "winner": False},
        {"name": "Bob", "total": 23, "place": 2, "winner": False},
        {"name": "Cid", "total": 30, "place": 3, "winner": False},
    ],
    "options": {},
    "first_dealer": 0,
    "hand_limit": 0,
    "seats": [
        {"position": 0, "name": "Ann", "player_id": 1},
        {"position": 1, "name": "Bob", "player_id": 2},
        {"position": 2, "name": "Cid", "player_id": 3},
    ],
    "rows": [
        {
            "number": 1,
            "ordinal": 1,
            "version": 1,
            "outcome": {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
            "dealer": "Ann",
            "points": {"Ann": -10, "Bob": 23, "Cid": 30},
            "totals": {"Ann": -10, "Bob": 23, "Cid": 30},
            "missing": [],
            "created_at": "2026-11-27T19:20:45Z",
            "updated_at": "2026-11-27T19:20:45Z",
        }
    ],
    "totals": {"Ann": -10, "Bob": 23, "Cid": 30},
    "eliminated": [],
    "finish_reason": None,
    "leaders": ["Ann"],
    "winners": [],
    "bonuses": [],
    "incomplete": False,
    "missing": [],
    "next_dealer": "Bob",
    "settlement": None,
}


class GameDetail(APIView):
    # A scoreboard polls this with If-None-Match. Its 304 costs the game's row, one query;
    # counting it against the throttles would cost more queries (the counts are shared in the
    # database), so an unchanged game is answered before them and only a 200 is counted.
    found: Game | None = None

    def check_throttles(self, request: Request) -> None:
        if request.method in ("GET", "HEAD") and request.headers.get("If-None-Match"):
            self.found = game_or_404(self.kwargs["public_id"])
            if unchanged(request, _game_etag(self.found)):
                return
        super().check_throttles(request)

    @extend_schema(
        operation_id="games_retrieve",
        summary="A game and its score sheet",
        description="Anyone with the game's address reads it. The ETag changes with every write; send it as "
        "If-None-Match to get 304 while nothing changed.",
        responses={200: GameSerializer, 304: OpenApiResponse(description="Not modified."), **problems(404)},
        examples=[
            OpenApiExample(
                "A short sheet",
                summary="Žolíky for three after one hand",
                value=GAME_EXAMPLE,
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = self.found or game_or_404(public_id)
        tag = _game_etag(game)
        if unchanged(request, tag):
            response = Response(status=304)
        else:
            response = _game_response(request, game)
        response["ETag"] = tag
        response["Cache-Control"] = "private, no-cache"
        return response

    @extend_schema(
        operation_id="games_destroy",
        summary="Delete a club's game",
        description="For the club's organisers. The game leaves every list, standing, rating and season and "
        "answers 404 to everyone else; its record is kept. The answer is the deletion, a change in the "
        "game's history: undo it (`POST .../history/{id}/undo/`) to bring the game back. A tournament's "
        "table is refused (400 `event_game`), as is a private game (400 `not_club_game`). With an "
        "Idempotency-Key a resend answers with the first deletion.",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: GameChangeSerializer, **problems(400, 401, 403, 404)},
    )
    def delete(self, request: Request, public_id: str) -> Response:
        game = managed_game(request, public_id)
        change = game_delete(game=game, user=request.user, request_id=idempotency_key(request))
        return Response(_change_data(game, change))


class _GameEnd(APIView):
    ended = True

    def post(self, request: Request, public_id: str) -> Response:
        game = writable_game(request, public_id)
        key = idempotency_key(request)
        game_end(game=game, ended=self.ended, user=request.user, request_id=key)
        return _game_response(request, _fresh(game))


END_SCHEMA: dict[str, Any] = {
    "request": None,
    "parameters": [IDEMPOTENCY_KEY],
    "responses": {200: GameSerializer, **problems(400, 401, 403, 404)},
}


class GameEndView(_GameEnd):
    ended = True

    @extend_schema(operation_id="games_end", summary="End the evening", **END_SCHEMA)
    def post(self, request: Request, public_id: str) -> Response:
        return super().post(request, public_id)


class GameReopenView(_GameEnd):
    ended = False

    @extend_schema(operation_id="games_reopen", summary="Reopen an ended game", **END_SCHEMA)
    def post(self, request: Request, public_id: str) -> Response:
        return super().post(request, public_id)


NOTATION_HELP = (
    "An optional `notation` member next to the outcome names the letters its cards are typed in: "
    "`en` (the default: `KH 5S JK`), `cs`, `sk`, `pl` or `nb`, as the site's pages of that language read "
    'them (Czech `KS` is the king of hearts; docs/RULES.md, "Cards as each language writes them"). The '
    "card symbols read the same in all of them. The hand is recorded in the English codes."
)


OUTCOME_EXAMPLES = [
    OpenApiExample(
        "Žolíky",
        value={"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}},
        request_only=True,
    ),
    OpenApiExample(
        "Žolíky, cards in Czech letters",
        value={"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KS 5P Ž"}, "notation": "cs"},
        request_only=True,
    ),
    OpenApiExample(
        "Gin", value={"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}, request_only=True
    ),
    OpenApiExample(
        "Carousel",
        value={"knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}},
        request_only=True,
    ),
    OpenApiExample(
        "Rummikub", value={"winner": "Ann", "left": {"Bob": 24, "Cid": "R7 B13 JK"}}, request_only=True
    ),
]


def _outcome(request: Request, game: Game) -> dict[str, Any]:
    """The posted outcome. It must say how the hand ended: a role that may name nobody
    (Carousel's ``knocker``/``out``, Rummikub's ``winner``) is given, ``null`` for nobody,
    unless another role names a player — an absent one is refused (``missing_field``), never
    read as nobody (docs/design/table.md, "Hand form and new game")."""
    data = request.data
    if not isinstance(data, dict):
        raise serializers.ValidationError({"non_field_errors": [_("The hand must be a JSON object.")]})
    open_roles = unstated_roles(family_info(game.family), data)
    if open_roles:
        raise ScoringError("missing_field", field=open_roles[0])
    return dict(data)


class HandList(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        operation_id="games_hands_list",
        summary="The game's hands, in score-sheet order",
        responses={200: GameHandSerializer(many=True), **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        rows = recent_sheet(game=game).rows
        return with_etag(GameHandSerializer(rows, many=True).data, _game_etag(game))

    @extend_schema(
        operation_id="games_hands_create",
        summary="Record the next hand",
        description="The body is the hand's scoring outcome, keyed by the players' names, as the hand form "
        "builds it (one shape per family; see the examples and /engine/). It says how the hand ended: a "
        "role that may name nobody (Carousel's `knocker` and `out`, Rummikub's `winner`) is given, `null` "
        "for nobody, unless another role names a player; left out, it is refused (400 `missing_field`). "
        "With an Idempotency-Key a resend records nothing again and answers 200 with the hand recorded "
        "the first time. An optional "
        "`for_hand` member next to the outcome is the game's `next_hand_number` when the client drew its "
        "form: if another client recorded a hand since, nothing is recorded and the answer is 409 "
        "`hand_taken`, naming that hand (`hand`: its row on the sheet, `number`) with it in `current` and "
        "its `etag` (replace it with a PUT and If-Match, or post again with `for_hand` set to "
        "`next_hand_number`). " + NOTATION_HELP,
        request=OpenApiTypes.OBJECT,
        parameters=[IDEMPOTENCY_KEY],
        examples=OUTCOME_EXAMPLES,
        responses={
            201: GameHandSerializer,
            200: OpenApiResponse(
                GameHandSerializer, description="A resend: the hand recorded the first time."
            ),
            **problems(400, 401, 403, 404, 409),
        },
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = writable_game(request, public_id)
        key = idempotency_key(request)
        outcome = _in_codes(_outcome(request, game), game)
        for_hand = _for_hand(outcome.pop("for_hand", None))
        try:
            saved = hand_record(
                game=game, outcome=outcome, request_id=key, user=request.user, for_hand=for_hand
            )
        except HandTaken as taken:
            raise _hand_taken(game, taken) from None
        game = _fresh(game)
        body = _hand_data(game, saved.hand)
        response = Response(body, status=status.HTTP_201_CREATED if saved.created else status.HTTP_200_OK)
        response["ETag"] = etag("hand", saved.hand.pk, body["version"])
        response["Location"] = f"/api/v1/games/{game.public_id}/hands/{saved.hand.number}/"
        return response


def _in_codes(outcome: dict[str, Any], game: Game) -> dict[str, Any]:
    """The outcome without its ``notation`` member, its cards rewritten from those letters."""
    language = outcome.pop("notation", None)
    if language is None:
        return outcome
    if not isinstance(language, str) or language not in NOTATIONS:
        raise serializers.ValidationError(
            {"notation": [_("One of: %(choices)s.") % {"choices": ", ".join(NOTATIONS)}]}
        )
    return reading.in_codes(outcome, game_rules(game=game), NOTATIONS[language])


def _for_hand(value: object) -> int | None:
    """The body's ``for_hand``: the game's ``next_hand_number`` when the client drew its form."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise serializers.ValidationError({"for_hand": [_("A hand number (the game's next_hand_number).")]})
    return value


def _hand_taken(game: Game, error: ServiceError) -> ApiError:
    """409: another client recorded a hand in the place this one was meant for; the body names
    it (``hand``: its row on the sheet, ``number``) and holds it in ``current`` with its ``etag``
    (to replace it with a PUT and If-Match, or post again with the new ``for_hand``)."""
    game = _fresh(game)
    number = error.params.get("number")
    taken = game_hand(game=game, number=number) if isinstance(number, int) else None
    return ApiError(
        status_code=409,
        code="hand_taken",
        message=error_message(error),
        hand=error.params.get("hand"),
        number=number,
        next_hand_number=game.next_hand_number,
        current=_hand_data(game, taken) if taken is not None else None,
        etag=_hand_etag(taken) if taken is not None else None,
    )


class HandDetail(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        operation_id="games_hands_retrieve",
        summary="One hand",
        responses={200: GameHandSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str, number: int) -> Response:
        game = game_or_404(public_id)
        hand = _find_hand(game, number)
        response = Response(_hand_data(game, hand))
        response["ETag"] = _hand_etag(hand)
        return response

    @extend_schema(
        operation_id="games_hands_update",
        summary="Correct a hand",
        description="The body is the corrected outcome. Needs If-Match with the hand's ETag: a stale one "
        "gets 412 with the hand as stored now in `current`. " + NOTATION_HELP,
        request=OpenApiTypes.OBJECT,
        parameters=[IF_MATCH],
        examples=OUTCOME_EXAMPLES,
        responses={200: GameHandSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def put(self, request: Request, public_id: str, number: int) -> Response:
        game = writable_game(request, public_id)
        hand = _find_hand(game, number)
        if_match(request, current=_hand_etag(hand), body=_hand_data(game, hand))
        outcome = _in_codes(_outcome(request, game), game)
        try:
            saved = hand_edit(hand=hand, outcome=outcome, version=hand.version, user=request.user)
        except StaleEdit:
            self._stale(game, number)
        game = _fresh(game)
        response = Response(_hand_data(game, saved))
        response["ETag"] = _hand_etag(saved)
        return response

    @extend_schema(
        operation_id="games_hands_destroy",
        summary="Delete a hand",
        description="Needs If-Match with the hand's ETag. The deletion can be undone in the history.",
        request=None,
        parameters=[IF_MATCH],
        responses={204: OpenApiResponse(description="Deleted."), **problems(400, 401, 403, 404, 412, 428)},
    )
    def delete(self, request: Request, public_id: str, number: int) -> Response:
        game = writable_game(request, public_id)
        hand = _find_hand(game, number)
        if_match(request, current=_hand_etag(hand), body=_hand_data(game, hand))
        try:
            hand_delete(hand=hand, version=hand.version, user=request.user)
        except StaleEdit:
            self._stale(game, number)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _stale(self, game: Game, number: int) -> None:
        """Someone saved the hand between our check and the service's lock: 412 as well."""
        game = _fresh(game)
        current = _find_hand(game, number)
        raise stale_edit(tag=_hand_etag(current), current=_hand_data(game, current))


class HistoryList(generics.ListAPIView[Change]):
    serializer_class = GameChangeSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Change]:
        if getattr(self, "swagger_fake_view", False):
            return Change.objects.none()  # the schema's generator asks for the model only
        self.game, _manage = game_with_deleted(self.request, self.kwargs["public_id"])
        return game_changes(game=self.game)

    @extend_schema(
        operation_id="games_history_list",
        summary="The game's changes, newest first",
        responses={200: GameChangeSerializer(many=True), **problems(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        lines = change_lines(game=self.game, changes=list(page or []))
        return self.get_paginated_response(GameChangeSerializer(lines, many=True).data)


class UndoView(APIView):
    @extend_schema(
        operation_id="games_history_undo",
        summary="Undo a change",
        description="The undo is itself a change (returned). Not keyed by Idempotency-Key: a resend "
        "answers 400 `already_undone` and changes nothing. A new starter or a deletion (`transfer`, "
        "`removed`, `restored`) is undone by the club's organisers only; undoing `removed` brings a "
        "deleted game back (the one write a deleted game takes).",
        request=None,
        responses={201: GameChangeSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str, change_id: int) -> Response:
        game, manage = game_with_deleted(request, public_id)
        change = game_change(game=game, pk=change_id) if change_id <= MAX_ID else None
        if change is not None and change.action in Change.MANAGE_ACTIONS:
            if not (manage or may_manage(request, game)):
                refuse(request, _("Only an organiser of the game's club can do this."))
        elif game.deleted_at is not None:
            raise Http404
        else:
            writable_game(request, public_id)
        if change is None:
            raise Http404
        undo = change_undo(change=change, user=request.user)
        return Response(_change_data(game, undo), status=status.HTTP_201_CREATED)


class GameTransferSerializer(serializers.Serializer[Any]):
    to = serializers.CharField(
        max_length=150, help_text="The username of a scorekeeper or organiser of the game's club."
    )


class GameTransferView(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        operation_id="games_transfer",
        summary="Give a club's game another starter",
        description="For the club's organisers. The new starter must be a scorekeeper or organiser of the "
        "club (400 `starter_not_recorder`); like every starter of a club's game he records it while he "
        "is one. The answer is the change in the game's history (undo gives the game back). With an "
        "Idempotency-Key a resend answers with the first change.",
        request=GameTransferSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: GameChangeSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = managed_game(request, public_id)
        data = GameTransferSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        to = user_by_username(username=data.validated_data["to"])
        if to is None:
            raise serializers.ValidationError({"to": [_("No such user.")]})
        change = game_transfer(game=game, to=to, user=request.user, request_id=idempotency_key(request))
        return Response(_change_data(game, change), status=status.HTTP_201_CREATED)


class GameDateView(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        operation_id="games_date",
        summary="Change when a game was played",
        description="For whoever records the game (a club's scorekeepers and organisers). A club game's "
        "ratings and seasons follow the new date. The answer is the change in the game's history (undo "
        "puts the old date back); 200 with no body change when the date is already this one. A "
        "tournament's table is refused (400 `event_game_dated`). With an Idempotency-Key a resend "
        "answers with the first change.",
        request=GameDateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: GameChangeSerializer, 200: GameSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = writable_game(request, public_id)
        data = GameDateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        change = game_date_set(
            game=game,
            played_at=data.validated_data["played_at"],
            shown=data.validated_data["shown"],
            user=request.user,
            request_id=idempotency_key(request),
        )
        if change is None:
            return _game_response(request, _fresh(game))
        return Response(_change_data(game, change), status=status.HTTP_201_CREATED)


def _change_data(game: Game, change: Change) -> Any:
    return GameChangeSerializer(change_line(game=game, change=change)).data


class GameRematchView(APIView):
    @extend_schema(
        operation_id="games_rematch",
        summary="Start a rematch",
        description="Starts the next game at the same table: the same players, family, house rules and "
        "hand limit, in the same club, the first dealer the seat after the old game's first dealer. "
        "Allowed to whoever could start the game anew: a club's scorekeepers and organisers, a "
        "private game's owner, or (for a game started without an account) the browser session "
        "holding its edit link; not to a bearer of the edit link. With an Idempotency-Key, a "
        "resend answers with the game the first request started.",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: GameCreatedSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        if isinstance(request.auth, GameLink):
            raise exceptions.PermissionDenied(_("A game's edit link cannot start other games."))
        if not can_rematch(request=request._request, game=game):
            refuse(
                request, _("Only its owner, or its club's scorekeepers, can start a rematch of this game.")
            )
        anonymous_session = request.successful_authenticator is None
        if anonymous_session:
            authentication.SessionAuthentication().enforce_csrf(request)
        key = idempotency_key(request)
        new = _fresh(game_rematch(game=game, user=request.user, request_id=key))
        if anonymous_session:
            grant_edit(request=request._request, game=new, started=True)
        return _created(request, new)


urlpatterns: list[URLPattern] = [
    path("games/", GameListCreate.as_view(), name="games"),
    path("games/<str:public_id>/", GameDetail.as_view(), name="game"),
    path("games/<str:public_id>/end/", GameEndView.as_view(), name="game-end"),
    path("games/<str:public_id>/reopen/", GameReopenView.as_view(), name="game-reopen"),
    path("games/<str:public_id>/rematch/", GameRematchView.as_view(), name="game-rematch"),
    path("games/<str:public_id>/transfer/", GameTransferView.as_view(), name="game-transfer"),
    path("games/<str:public_id>/date/", GameDateView.as_view(), name="game-date"),
    path("games/<str:public_id>/hands/", HandList.as_view(), name="game-hands"),
    path("games/<str:public_id>/hands/<int:number>/", HandDetail.as_view(), name="game-hand"),
    path("games/<str:public_id>/history/", HistoryList.as_view(), name="game-history"),
    path("games/<str:public_id>/history/<int:change_id>/undo/", UndoView.as_view(), name="game-undo"),
]
