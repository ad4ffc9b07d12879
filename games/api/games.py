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

The answers' and bodies' shapes are games/api/game_serializers.py; what the schema says of each
operation, games/api/game_schemas.py.
"""

from __future__ import annotations

from typing import Any

import django_filters  # type: ignore[import-untyped]
from django.db.models import QuerySet
from django.http import Http404
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.errors import EngineError
from engine.notation import NOTATIONS
from games.api import game_schemas as schemas
from games.api.auth import GameLink
from games.api.common import (
    ApiError,
    CursorPage,
    StrictJSONParser,
    etag,
    idempotency_key,
    if_match,
    stale_edit,
    unchanged,
    with_etag,
)
from games.api.game_serializers import (
    GameChangeSerializer,
    GameCreatedSerializer,
    GameCreateSerializer,
    GameDateSerializer,
    GameHandSerializer,
    GameItemSerializer,
    GameSerializer,
    GameTransferSerializer,
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
from games.services.games import game_date_set, game_delete, game_end, game_rematch, game_start, game_transfer
from games.services.hands import change_undo, hand_delete, hand_edit, hand_find, hand_record
from games.sheets.sheet import game_rules
from games.text.errors import error_message
from scoring import reading
from scoring.errors import ScoringError
from scoring.families import family_info
from scoring.roles import unstated_roles

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

    @schemas.games_list
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)

    @schemas.games_create
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

    @schemas.games_retrieve
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

    @schemas.games_destroy
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


class GameEndView(_GameEnd):
    ended = True

    @schemas.games_end
    def post(self, request: Request, public_id: str) -> Response:
        return super().post(request, public_id)


class GameReopenView(_GameEnd):
    ended = False

    @schemas.games_reopen
    def post(self, request: Request, public_id: str) -> Response:
        return super().post(request, public_id)


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

    @schemas.games_hands_list
    def get(self, request: Request, public_id: str) -> Response:
        game = game_or_404(public_id)
        rows = recent_sheet(game=game).rows
        return with_etag(GameHandSerializer(rows, many=True).data, _game_etag(game))

    @schemas.games_hands_create
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

    @schemas.games_hands_retrieve
    def get(self, request: Request, public_id: str, number: int) -> Response:
        game = game_or_404(public_id)
        hand = _find_hand(game, number)
        response = Response(_hand_data(game, hand))
        response["ETag"] = _hand_etag(hand)
        return response

    @schemas.games_hands_update
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

    @schemas.games_hands_destroy
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

    @schemas.games_history_list
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        lines = change_lines(game=self.game, changes=list(page or []))
        return self.get_paginated_response(GameChangeSerializer(lines, many=True).data)


class UndoView(APIView):
    @schemas.games_history_undo
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


class GameTransferView(APIView):
    parser_classes = [StrictJSONParser]

    @schemas.games_transfer
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

    @schemas.games_date
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
    @schemas.games_rematch
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
