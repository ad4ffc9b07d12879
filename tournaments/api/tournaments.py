"""The tournaments resources of the API: a club's tournaments, their settings, the players
registered, the rounds (seating, moves, start, confirm), the standings, "where do I sit?" and
the history.

The same rules as the pages (tournaments.views.tournaments, tournaments.views.public): whoever sees the
club reads (a members-only club's tournaments answer 404 to outsiders); only the club's
organisers write. Every write goes through ``tournaments.services`` (one transaction, the
tournament's row locked) with the ``Idempotency-Key`` as the service's request id; a change to
an existing object needs ``If-Match`` with its ETag (``"tournament-…"``, ``"entry-…"``,
``"round-…"``). A resend with the same Idempotency-Key is answered from the current state
without checking If-Match again (the service recognises the request id and changes nothing).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.rules import FAMILIES
from games.api.common import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiError,
    etag,
    guarded,
    idempotency_key,
    if_match,
    problems,
    with_etag,
)
from games.api.lookups import refuse, visible_club
from games.client import client_ip
from games.links import absolute_url
from games.models import Player
from games.names import name_key
from games.services.access import edit_url
from scoring.standings import DEFAULT_TIEBREAKS, TIEBREAKS
from tournaments.access import can_manage, can_view, tournament_role
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournaments as selectors
from tournaments.services.common import MAX_CUSTOM_POINTS
from tournaments.services.tournaments import (
    MAX_HANDS,
    MAX_MINUTES,
    MAX_ROUNDS,
    SETTINGS_TARGET,
    Settings,
    changed_settings,
    check_in_door,
    check_in_key_matches,
    check_in_try,
    current_settings,
    door_path,
    door_target,
    entries_add,
    entry_check_in,
    entry_drop,
    entry_pin,
    entry_self_check_in,
    entry_target,
    final_seat,
    final_undo,
    move_target,
    resent,
    round_confirm,
    round_move,
    round_seat,
    round_start,
    round_target,
    tournament_create,
    tournament_update,
)
from tournaments.tournament_data import tiebreaks as tournament_tiebreaks

# ---------------------------------------------------------------------- access


def _tournament(request: Request, public_id: str, *, manage: bool = False) -> tuple[Tournament, str | None]:
    tournament = selectors.tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = tournament_role(user=request.user, tournament=tournament)
    if not can_view(tournament=tournament, role=role):
        raise Http404
    if manage and not can_manage(role=role):
        refuse(request, _("Only the club's organisers can do this."))
    return tournament, role


def _replayed(tournament: Tournament, key: uuid.UUID | None, target: str) -> bool:
    """A resend of a change already made (the service will return it and change nothing); the
    key of another operation or object is refused (422)."""
    return resent(tournament=tournament, request_id=key, target=target)


# ---------------------------------------------------------------------- serializers


class SettingsSerializer(serializers.Serializer[Any]):
    """A tournament's settings (the organiser's form). Table sizes default to the family's."""

    name = serializers.CharField(max_length=80)
    date = serializers.DateField()
    family = serializers.ChoiceField(choices=list(FAMILIES))
    options = serializers.DictField(required=False, default=dict, help_text="House rules of the family.")
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=3)
    round_hands = serializers.IntegerField(
        min_value=0, max_value=MAX_HANDS, default=0, help_text="0: a round is played to the family's end."
    )
    round_minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_MINUTES,
        default=0,
        help_text="The round clock's minutes, from each round's start; 0: no clock.",
    )
    table_min = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_max = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_preferred = serializers.IntegerField(min_value=1, max_value=20, required=False)
    byes_allowed = serializers.BooleanField(default=True)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, default=Tournament.Seating.BALANCED)
    seat_order = serializers.ChoiceField(
        choices=Tournament.SeatOrder.choices, default=Tournament.SeatOrder.RANDOM
    )
    points = serializers.ChoiceField(choices=Tournament.Points.choices, default=Tournament.Points.TABLE)
    custom_points = serializers.CharField(
        allow_blank=True,
        default="",
        max_length=MAX_CUSTOM_POINTS,
        help_text='Custom points per table size: "4: 5 3 2 0; 3: 4 2 0" (custom points only).',
    )
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=20),
        default=list(DEFAULT_TIEBREAKS),
        max_length=10,
        help_text="The tie-break order, points first: " + ", ".join(TIEBREAKS) + ".",
    )
    final = serializers.ChoiceField(choices=Tournament.Final.choices, default=Tournament.Final.NONE)
    final_size = serializers.IntegerField(
        min_value=0,
        max_value=8,
        default=0,
        help_text="Players in the final: 0 for the family's usual table (a knockout: 4); a knockout 4 or 8.",
    )
    final_counts = serializers.ChoiceField(
        choices=Tournament.FinalCounts.choices, default=Tournament.FinalCounts.DECIDES
    )
    final_season = serializers.IntegerField(
        allow_null=True,
        default=None,
        min_value=1,
        help_text="A season of the club (its id) whose qualifiers play the final; null: the standings.",
    )


class SettingsPatchSerializer(SettingsSerializer):
    """Any of the settings; the others stay as they are."""

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
            field.default = serializers.empty
        return fields


class RoundSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="seated, playing or confirmed.")
    final_stage = serializers.IntegerField(help_text="0: a round; 1, 2, …: a stage of the final.")
    version = serializers.IntegerField()
    etag = serializers.CharField()
    table_count = serializers.IntegerField()
    finished_tables = serializers.IntegerField()
    byes = serializers.ListField(child=serializers.CharField())
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the round's clock runs out (the hand in play is the last); null: no clock.",
    )
    confirmed_at = serializers.DateTimeField(allow_null=True)


class TournamentListSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField()
    family = serializers.CharField()
    rounds = serializers.IntegerField()
    version = serializers.IntegerField()


class TournamentSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField()
    club = serializers.CharField(help_text="The club's slug.")
    name = serializers.CharField()
    date = serializers.DateField()
    family = serializers.CharField()
    options = serializers.DictField()
    rounds = serializers.IntegerField()
    round_hands = serializers.IntegerField()
    round_minutes = serializers.IntegerField(help_text="The round clock's minutes; 0: no clock.")
    table_min = serializers.IntegerField()
    table_max = serializers.IntegerField()
    table_preferred = serializers.IntegerField()
    byes_allowed = serializers.BooleanField()
    seating = serializers.CharField()
    seat_order = serializers.CharField()
    points = serializers.CharField()
    custom_points = serializers.CharField(help_text='"4: 5 3 2 0; 3: 4 2 0"')
    tiebreaks = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    etag = serializers.CharField()
    entries = serializers.IntegerField(help_text="Players registered.")
    checked_in = serializers.IntegerField()
    check_in_open = serializers.BooleanField(help_text="Players may check themselves in at the door.")
    next_round = serializers.IntegerField(allow_null=True, help_text="The round that can be seated now.")
    played_rounds = RoundSummarySerializer(many=True, help_text="The rounds seated so far.")


def round_etag(played: Round) -> str:
    return etag("round", f"{played.tournament_id}.{played.number}", played.version)


def tournament_etag(tournament: Tournament) -> str:
    return etag("tournament", tournament.public_id, tournament.version)


def entry_etag(entry: Entry) -> str:
    return etag("entry", entry.pk, entry.version)


def _round_summary(view: selectors.RoundView) -> dict[str, Any]:
    played = view.round
    return {
        "number": played.number,
        "status": played.status,
        "final_stage": played.final_stage,
        "version": played.version,
        "etag": round_etag(played),
        "table_count": len(view.tables),
        "finished_tables": view.finished_tables,
        "byes": view.byes,
        "started_at": played.started_at,
        "ends_at": played.ends_at,
        "confirmed_at": played.confirmed_at,
    }


def tournament_body(tournament: Tournament) -> dict[str, Any]:
    view = selectors.tournament_view(tournament=tournament)
    return {
        **current_settings(tournament),
        "public_id": tournament.public_id,
        "club": tournament.club.slug,
        "version": tournament.version,
        "etag": tournament_etag(tournament),
        "entries": len(view.data.entries),
        "checked_in": view.checked_in,
        "check_in_open": tournament.check_in_open,
        "next_round": view.next_round,
        "played_rounds": [_round_summary(r) for r in view.rounds],
    }


class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="registered, checked_in or dropped.")
    checked_in = serializers.BooleanField()
    from_round = serializers.IntegerField()
    dropped_after = serializers.IntegerField(allow_null=True)
    pinned_table = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    etag = serializers.CharField()


def entry_body(entry: Entry) -> dict[str, Any]:
    if entry.dropped_after is not None:
        state = "dropped"
    elif entry.checked_in:
        state = "checked_in"
    else:
        state = "registered"
    return {
        "id": entry.pk,
        "player_id": entry.player_id,
        "name": entry.player.name,
        "status": state,
        "checked_in": entry.checked_in,
        "from_round": entry.from_round,
        "dropped_after": entry.dropped_after,
        "pinned_table": entry.pinned_table,
        "version": entry.version,
        "etag": entry_etag(entry),
    }


class EntriesAddSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        max_length=500,
        help_text="Ids of the club's players.",
    )
    names = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        default=list,
        max_length=500,
        help_text="New names (a new name becomes a club player; a known one is that player).",
    )
    checked_in = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["players"] and not [n for n in attrs["names"] if n.strip()]:
            raise serializers.ValidationError(_("Give player ids or names to register."))
        return attrs


class EntryListSerializer(serializers.Serializer[Any]):
    entries = EntrySerializer(many=True)


class SeatSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="1-based; seat 1 deals first.")
    total = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    repeat = serializers.BooleanField(help_text="Met someone at this table in an earlier round.")


class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.CharField(allow_null=True, help_text="The table game's public id (once started).")
    players = SeatSerializer(many=True)
    hands = serializers.IntegerField()
    finished = serializers.BooleanField()
    leaders = serializers.ListField(child=serializers.CharField())
    edit_url = serializers.CharField(
        required=False, allow_null=True, help_text="The table's edit link (organisers only)."
    )


class RoundSerializer(RoundSummarySerializer):
    tables = TableSerializer(many=True)


class RoundListSerializer(serializers.Serializer[Any]):
    rounds = RoundSummarySerializer(many=True)
    next_round = serializers.IntegerField(allow_null=True)


def round_body(request: Request, view: selectors.RoundView, *, organiser: bool) -> dict[str, Any]:
    tables = []
    for table in view.tables:
        row: dict[str, Any] = {
            "number": table.number,
            "game": table.game.public_id if table.game is not None else None,
            "players": [
                {
                    "entry": s.entry_id,
                    "name": s.name,
                    "seat": i + 1,
                    "total": s.total,
                    "place": s.place,
                    "repeat": s.repeat,
                }
                for i, s in enumerate(table.seats)
            ],
            "hands": table.hands,
            "finished": table.finished,
            "leaders": table.leaders,
        }
        if organiser:
            row["edit_url"] = (
                request.build_absolute_uri(edit_url(table.game)) if table.game is not None else None
            )
        tables.append(row)
    return {**_round_summary(view), "tables": tables}


def _round_view(tournament: Tournament, number: int) -> selectors.RoundView:
    found = selectors.tournament_view(tournament=tournament).round(number)
    if found is None:
        raise Http404
    return found


class IfMatchRoundSerializer(serializers.Serializer[Any]):
    """No body."""


class RoundStartSerializer(serializers.Serializer[Any]):
    minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_MINUTES,
        required=False,
        allow_null=True,
        help_text="This round's clock in minutes (0: none); absent: the tournament's round_minutes.",
    )


class MoveSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, help_text="The entry's id.")
    to_table = serializers.IntegerField(min_value=0, max_value=999, help_text="0: the bye.")


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    points = serializers.CharField(help_text='Exact, as a fraction: "7", "9/2".')
    points_value = serializers.FloatField()
    game_score = serializers.IntegerField()
    game_score_average = serializers.CharField(
        allow_null=True, help_text='The game score per table he sat at, exact: "-21", "59/2"; null: none.'
    )
    average_place = serializers.CharField(allow_null=True)
    average_place_value = serializers.FloatField(allow_null=True)
    firsts = serializers.IntegerField()
    opponents_points = serializers.CharField()
    opponents_points_value = serializers.FloatField()
    tables = serializers.IntegerField()
    byes = serializers.IntegerField()
    separated_by = serializers.CharField(
        allow_null=True, help_text="The tie-break that puts him below the row above."
    )


class StandingsSerializer(serializers.Serializer[Any]):
    provisional = serializers.BooleanField(help_text="Counts a table of a round not confirmed yet.")
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingSerializer(many=True)


class FoundSeatSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(allow_null=True)
    bye = serializers.BooleanField()
    dropped_after = serializers.IntegerField(
        allow_null=True, help_text="The round after which the player dropped out; null while he plays."
    )


class FoundSeatsSerializer(serializers.Serializer[Any]):
    query = serializers.CharField()
    results = FoundSeatSerializer(many=True)


class PlayerRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    final_stage = serializers.IntegerField(help_text="0: a round of the tournament; else the final's stage.")
    status = serializers.CharField(help_text="The round's status: seated, playing or confirmed.")
    table = serializers.IntegerField(allow_null=True, help_text="null: a bye, or not seated this round.")
    seat = serializers.IntegerField(allow_null=True, help_text="1-based; seat 1 deals first.")
    game = serializers.CharField(allow_null=True, help_text="The public id of the table's game.")
    bye = serializers.BooleanField()
    counted = serializers.BooleanField(help_text="The table (or bye) counts for the standings yet.")
    place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(
        allow_null=True, help_text="His total at the table, as the game counts it."
    )
    points = serializers.CharField(allow_null=True, help_text='The table points earned, exact: "7", "9/2".')
    rank = serializers.IntegerField(allow_null=True, help_text="His rank in the standings after this round.")


class PlayerRoundsSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    dropped_after = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="His rank in the standings now.")
    points = serializers.CharField(allow_null=True, help_text="His tournament points now, exact.")
    rounds = PlayerRoundSerializer(many=True)


class HistoryItemSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        help_text="change (the organiser's) or correction (at a table after its round was confirmed)."
    )
    action = serializers.CharField()
    title = serializers.CharField(help_text="What happened, in the caller's language.")
    details = serializers.DictField()
    user = serializers.CharField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class HistorySerializer(serializers.Serializer[Any]):
    items = HistoryItemSerializer(many=True)


# ---------------------------------------------------------------------- views

PUBLIC_ID = OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The tournament's id.")
SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The club's slug.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number.")
ENTRY = OpenApiParameter("entry_id", int, OpenApiParameter.PATH, description="The entry's id.")
TAGS = ["tournaments"]


class ClubTournaments(generics.ListAPIView[Tournament]):
    """A club's tournaments (GET), newest first; a new one (POST, organisers)."""

    serializer_class = TournamentListSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Tournament]:
        club, _role = visible_club(self.request, self.kwargs["slug"])
        return Tournament.objects.filter(club=club)

    @extend_schema(
        operation_id="club_tournaments_list",
        summary="A club's tournaments",
        tags=TAGS,
        parameters=[SLUG],
        responses={200: TournamentListSerializer(many=True), **problems(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="club_tournaments_create",
        summary="Create a tournament (organisers)",
        description="No Idempotency-Key: the service has no request id for a new tournament.",
        tags=TAGS,
        parameters=[SLUG],
        request=SettingsSerializer,
        responses={201: TournamentSerializer, **problems(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "A Žolíky evening",
                summary="Three rounds of Žolíky at tables of four, balanced seating",
                value={
                    "name": "Winter cup",
                    "date": "2026-12-12",
                    "family": "zoliky",
                    "options": {"joker_penalty": 30},
                    "rounds": 3,
                    "round_hands": 0,
                    "table_preferred": 4,
                    "byes_allowed": True,
                    "seating": "balanced",
                    "seat_order": "rotating",
                    "points": "table",
                    "tiebreaks": ["points", "game_score", "average_place", "firsts"],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        club, _role = visible_club(request, slug, manage=True)
        form = SettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = tournament_create(
            club=club, settings=Settings.from_mapping(form.validated_data), user=request.user
        )
        return with_etag(tournament_body(tournament), tournament_etag(tournament), status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament: its settings and rounds",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: TournamentSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        return with_etag(tournament_body(tournament), tournament_etag(tournament))

    @extend_schema(
        operation_id="tournaments_partial_update",
        summary="Change a tournament's settings (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=SettingsPatchSerializer,
        examples=[
            OpenApiExample(
                "Four rounds with custom points",
                summary="Only the settings sent change",
                value={"rounds": 4, "points": "custom", "custom_points": "4: 5 3 2 0; 3: 4 2 0"},
                request_only=True,
            )
        ],
        responses={200: TournamentSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def patch(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        form = SettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        if not _replayed(tournament, key, SETTINGS_TARGET):
            if_match(request, current=tournament_etag(tournament), body=tournament_body(tournament))
        changed = changed_settings(tournament, form.validated_data)
        seen = tournament.version

        def current() -> tuple[str, Any]:
            tournament.refresh_from_db()
            return tournament_etag(tournament), tournament_body(tournament)

        updated = guarded(
            lambda: tournament_update(
                tournament=tournament,
                settings=changed,
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return with_etag(tournament_body(updated), tournament_etag(updated))


def _entries(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__key")


class Entries(APIView):
    @extend_schema(
        operation_id="tournament_entries_list",
        summary="The players registered, with their status",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: EntryListSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        return Response({"entries": [entry_body(e) for e in _entries(tournament)]})

    @extend_schema(
        operation_id="tournament_entries_create",
        summary="Register players by id and/or by name (organisers)",
        description="Answers the entries of the players asked for (those already registered "
        "included), so a resend with the same Idempotency-Key gets the same answer.",
        tags=TAGS,
        parameters=[PUBLIC_ID, IDEMPOTENCY_KEY],
        request=EntriesAddSerializer,
        examples=[
            OpenApiExample(
                "Known players and new names",
                summary="Players 12 and 15 of the club, and two new names, checked in at once",
                value={"players": [12, 15], "names": ["Ann Novak", "Bob Cerny"], "checked_in": True},
                request_only=True,
            )
        ],
        responses={201: EntryListSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        form = EntriesAddSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        ids = list(dict.fromkeys(form.validated_data["players"]))
        players = list(Player.objects.filter(club_id=tournament.club_id, merged_into=None, pk__in=ids))
        missing = sorted(set(ids) - {p.pk for p in players})
        if missing:
            raise exceptions.ValidationError(
                {"players": [_("No player of this club has the id %(id)s.") % {"id": missing[0]}]}
            )
        names = [n for n in form.validated_data["names"] if n.strip()]
        entries_add(
            tournament=tournament,
            players=players,
            names=names,
            checked_in=form.validated_data["checked_in"],
            user=request.user,
            request_id=key,
        )
        keys = [name_key(n) for n in names]
        asked = _entries(tournament).filter(Q(player_id__in=ids) | Q(player__key__in=keys))
        return Response({"entries": [entry_body(e) for e in asked]}, status=status.HTTP_201_CREATED)


ENTRY_ACTIONS: dict[str, tuple[str, str]] = {
    "check-in": ("check_in", "Check a player in"),
    "check-out": ("check_out", "Undo a check-in"),
    "drop": ("drop", "A player drops out (his results stay)"),
    "rejoin": ("rejoin", "A player comes back (from the next round)"),
}


def _entry_action_view(action: str) -> type[APIView]:
    operation, summary = ENTRY_ACTIONS[action]

    class EntryAction(APIView):
        @extend_schema(
            operation_id=f"tournament_entry_{operation}",
            summary=f"{summary} (organisers)",
            tags=TAGS,
            parameters=[PUBLIC_ID, ENTRY, IF_MATCH, IDEMPOTENCY_KEY],
            request=None,
            responses={200: EntrySerializer, **problems(400, 401, 403, 404, 412, 428)},
        )
        def post(self, request: Request, public_id: str, entry_id: int) -> Response:
            tournament, _role = _tournament(request, public_id, manage=True)
            entry = _entries(tournament).select_related("tournament").filter(pk=entry_id).first()
            if entry is None:
                raise Http404
            key = idempotency_key(request)
            if not _replayed(tournament, key, entry_target(entry, operation)):
                if_match(request, current=entry_etag(entry), body=entry_body(entry))
            seen = entry.version
            common: dict[str, Any] = {
                "entry": entry,
                "version": seen,
                "user": request.user,
                "request_id": key,
            }

            def current() -> tuple[str, Any]:
                entry.refresh_from_db()
                return entry_etag(entry), entry_body(entry)

            if operation in ("check_in", "check_out"):
                done = guarded(lambda: entry_check_in(checked_in=operation == "check_in", **common), current)
            else:
                done = guarded(lambda: entry_drop(dropped=operation == "drop", **common), current)
            return with_etag(entry_body(done), entry_etag(done))

    EntryAction.__name__ = EntryAction.__qualname__ = f"Entry{operation.title().replace('_', '')}"
    return EntryAction


class PinSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(
        min_value=1,
        max_value=999,
        allow_null=True,
        help_text="The table number he always sits at; null: none.",
    )


class EntryPin(APIView):
    @extend_schema(
        operation_id="tournament_entry_pin",
        summary="Keep a player at one table every round, or let him move again (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, ENTRY, IF_MATCH, IDEMPOTENCY_KEY],
        request=PinSerializer,
        examples=[
            OpenApiExample("Pin to table 2", value={"table": 2}, request_only=True),
            OpenApiExample("Unpin", summary="Let him move again", value={"table": None}, request_only=True),
        ],
        responses={200: EntrySerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, entry_id: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        entry = _entries(tournament).select_related("tournament").filter(pk=entry_id).first()
        if entry is None:
            raise Http404
        body = PinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        key = idempotency_key(request)
        if not _replayed(tournament, key, entry_target(entry, f"pin-{body.validated_data['table']}")):
            if_match(request, current=entry_etag(entry), body=entry_body(entry))

        def current() -> tuple[str, Any]:
            entry.refresh_from_db()
            return entry_etag(entry), entry_body(entry)

        done = guarded(
            lambda: entry_pin(
                entry=entry,
                table=body.validated_data["table"],
                version=entry.version,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return with_etag(entry_body(done), entry_etag(done))


class Rounds(APIView):
    @extend_schema(
        operation_id="tournament_rounds_list",
        summary="The rounds seated so far",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: RoundListSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        view = selectors.tournament_view(tournament=tournament)
        return Response({"rounds": [_round_summary(r) for r in view.rounds], "next_round": view.next_round})


class RoundDetail(APIView):
    @extend_schema(
        operation_id="tournament_rounds_retrieve",
        summary="A round: its tables (players, game, hands, leaders) and byes",
        description="The organisers' view also has each table's edit link (edit_url).",
        tags=TAGS,
        parameters=[PUBLIC_ID, NUMBER],
        responses={200: RoundSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str, number: int) -> Response:
        tournament, role = _tournament(request, public_id)
        view = _round_view(tournament, number)
        response = with_etag(
            round_body(request, view, organiser=can_manage(role=role)), round_etag(view.round)
        )
        if can_manage(role=role):
            response["Cache-Control"] = "private, no-store"
        return response


def _round_or_404(tournament: Tournament, number: int) -> Round:
    played = Round.objects.filter(tournament=tournament, number=number).select_related("tournament").first()
    if played is None:
        raise Http404
    return played


def _round_current(request: Request, tournament: Tournament, number: int) -> Callable[[], tuple[str, Any]]:
    def current() -> tuple[str, Any]:
        view = _round_view(tournament, number)
        return round_etag(view.round), round_body(request, view, organiser=True)

    return current


def _round_answer(request: Request, tournament: Tournament, number: int, code: int = 200) -> Response:
    view = _round_view(tournament, number)
    response = with_etag(round_body(request, view, organiser=True), round_etag(view.round), code)
    response["Cache-Control"] = "private, no-store"
    return response


class RoundSeat(APIView):
    @extend_schema(
        operation_id="tournament_round_seat",
        summary="Seat a round, or seat it again (organisers)",
        description="A new round (the next one, once the one before is confirmed): no If-Match. "
        "Seating again a round not started yet: If-Match with the round's ETag.",
        tags=TAGS,
        parameters=[
            PUBLIC_ID,
            NUMBER,
            OpenApiParameter(
                "If-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="The round's ETag, to seat an existing round again (412 if stale).",
            ),
            IDEMPOTENCY_KEY,
        ],
        request=None,
        responses={200: RoundSerializer, 201: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        if _replayed(tournament, key, round_target(number, "seat")):
            round_seat(tournament=tournament, number=number, user=request.user, request_id=key)
            return _round_answer(request, tournament, number)
        existing = Round.objects.filter(tournament=tournament, number=number).first()
        version = None
        current = _round_current(request, tournament, number)
        if existing is not None:
            tag, body = current()
            if_match(request, current=tag, body=body)
            version = existing.version
        guarded(
            lambda: round_seat(
                tournament=tournament, number=number, round_version=version, user=request.user, request_id=key
            ),
            current,
        )
        return _round_answer(request, tournament, number, 200 if existing is not None else 201)


class RoundMove(APIView):
    @extend_schema(
        operation_id="tournament_round_move",
        summary="Move a player to another table of a seated round (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
        request=MoveSerializer,
        examples=[
            OpenApiExample("Move to table 3", value={"entry": 41, "to_table": 3}, request_only=True),
            OpenApiExample(
                "Give the bye",
                summary="Table 0 is the bye",
                value={"entry": 41, "to_table": 0},
                request_only=True,
            ),
        ],
        responses={200: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        played = _round_or_404(tournament, number)
        key = idempotency_key(request)
        form = MoveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        entry = _entries(tournament).filter(pk=form.validated_data["entry"]).first()
        if entry is None:
            raise exceptions.ValidationError(
                {"entry": [_("No player of this tournament has this entry id.")]}
            )
        current = _round_current(request, tournament, number)
        target = move_target(number, entry.pk, form.validated_data["to_table"])
        if not _replayed(tournament, key, target):
            if_match(request, current=round_etag(played), body=current()[1])
        seen = played.version
        guarded(
            lambda: round_move(
                played=played,
                entry=entry,
                to_table=form.validated_data["to_table"],
                round_version=seen,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return _round_answer(request, tournament, number)


def _round_step_view(step: str) -> type[APIView]:
    summaries = {
        "start": "Start a seated round: each table gets its game (organisers)",
        "confirm": "Confirm a round's results: open tables are ended (organisers)",
    }

    class RoundStep(APIView):
        @extend_schema(
            operation_id=f"tournament_round_{step}",
            summary=summaries[step],
            tags=TAGS,
            parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
            request=RoundStartSerializer if step == "start" else None,
            responses={200: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
        )
        def post(self, request: Request, public_id: str, number: int) -> Response:
            tournament, _role = _tournament(request, public_id, manage=True)
            played = _round_or_404(tournament, number)
            extra: dict[str, Any] = {}
            # A start without a JSON body (as before the clock) keeps the tournament's minutes.
            if step == "start" and request.content_type.startswith("application/json"):
                form = RoundStartSerializer(data=request.data or {})
                form.is_valid(raise_exception=True)
                extra["minutes"] = form.validated_data.get("minutes")
            key = idempotency_key(request)
            current = _round_current(request, tournament, number)
            if not _replayed(tournament, key, round_target(number, step)):
                if_match(request, current=round_etag(played), body=current()[1])
            service = round_start if step == "start" else round_confirm
            seen = played.version
            guarded(
                lambda: service(
                    played=played, round_version=seen, user=request.user, request_id=key, **extra
                ),
                current,
            )
            return _round_answer(request, tournament, number)

    RoundStep.__name__ = RoundStep.__qualname__ = f"Round{step.title()}"
    return RoundStep


class FinalSeat(APIView):
    @extend_schema(
        operation_id="tournament_final_seat",
        summary="Seat the final's next stage (organisers)",
        description="Once the rounds (and the stage before) are confirmed: a final table of the top "
        "players, or a knockout's matches seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6, then their winners. "
        "The stage is a round numbered after the tournament's rounds: start and confirm it as one.",
        tags=TAGS,
        parameters=[PUBLIC_ID, IDEMPOTENCY_KEY],
        request=None,
        responses={201: RoundSerializer, **problems(400, 401, 403, 404)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        played = final_seat(tournament=tournament, user=request.user, request_id=key)
        return _round_answer(request, tournament, played.number, 201)


class FinalUndo(APIView):
    @extend_schema(
        operation_id="tournament_final_undo",
        summary="Take back a stage of the final not started yet (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
        request=None,
        responses={204: None, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        target = round_target(number, "final-undo")
        if not _replayed(tournament, key, target):
            played = _round_or_404(tournament, number)
            current = _round_current(request, tournament, number)
            if_match(request, current=round_etag(played), body=current()[1])
            seen = played.version
            guarded(
                lambda: final_undo(played=played, round_version=seen, user=request.user, request_id=key),
                current,
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _fraction(value: Any) -> str:
    return str(value)


class Standings(APIView):
    @extend_schema(
        operation_id="tournament_standings",
        summary="The standings (derived from the tables' games on every read)",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: StandingsSerializer, **problems(404)},
        examples=[
            OpenApiExample(
                "Two players after two rounds",
                value={
                    "provisional": False,
                    "tiebreaks": ["points", "game_score", "average_place", "firsts", "opponents_points"],
                    "rows": [
                        {
                            "rank": 1,
                            "entry": 41,
                            "player_id": 12,
                            "name": "Ann Novak",
                            "dropped": False,
                            "points": "13",
                            "points_value": 13.0,
                            "game_score": -42,
                            "game_score_average": "-21",
                            "average_place": "1",
                            "average_place_value": 1.0,
                            "firsts": 2,
                            "opponents_points": "17/2",
                            "opponents_points_value": 8.5,
                            "tables": 2,
                            "byes": 0,
                            "separated_by": None,
                        },
                        {
                            "rank": 2,
                            "entry": 42,
                            "player_id": 15,
                            "name": "Bob Cerny",
                            "dropped": False,
                            "points": "9/2",
                            "points_value": 4.5,
                            "game_score": 118,
                            "game_score_average": "59",
                            "average_place": "5/2",
                            "average_place_value": 2.5,
                            "firsts": 0,
                            "opponents_points": "29/2",
                            "opponents_points_value": 14.5,
                            "tables": 2,
                            "byes": 0,
                            "separated_by": "points",
                        },
                    ],
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        view = selectors.tournament_view(tournament=tournament)
        rows = []
        for row in view.standings:
            s = row.standing
            rows.append(
                {
                    "rank": s.rank,
                    "entry": s.player,
                    "player_id": row.player_id,
                    "name": row.name,
                    "dropped": row.dropped,
                    "points": _fraction(s.points),
                    "points_value": float(s.points),
                    "game_score": s.game_score,
                    "game_score_average": (
                        _fraction(s.game_score_average) if s.game_score_average is not None else None
                    ),
                    "average_place": _fraction(s.average_place) if s.average_place is not None else None,
                    "average_place_value": float(s.average_place) if s.average_place is not None else None,
                    "firsts": s.firsts,
                    "opponents_points": _fraction(s.opponents_points),
                    "opponents_points_value": float(s.opponents_points),
                    "tables": s.tables,
                    "byes": s.byes,
                    "separated_by": s.separated_by,
                }
            )
        body = {
            "provisional": view.provisional,
            "tiebreaks": list(tournament_tiebreaks(tournament)),
            "rows": rows,
        }
        return Response(body)


NAME_QUERY = OpenApiParameter(
    "q",
    # Blank is refused (nothing to look for): the schema says so.
    {"type": "string", "minLength": 1, "pattern": r"\S"},
    OpenApiParameter.QUERY,
    required=True,
    description="A name or part (not blank); accents and case aside.",
)


def _name_query(request: Request) -> str:
    query = request.query_params.get("q", "").strip()
    if not query:
        raise exceptions.ValidationError({"q": [_("Type a name (or a part of it).")]})
    return query[:80]


class FindSeat(APIView):
    @extend_schema(
        operation_id="tournament_find_seat",
        summary="Where do I sit? Players matching a name, with their table this round",
        tags=TAGS,
        parameters=[
            PUBLIC_ID,
            NAME_QUERY,
        ],
        responses={200: FoundSeatsSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        query = _name_query(request)
        view = selectors.tournament_view(tournament=tournament)
        found = selectors.find_seat(view=view, query=query)
        results = [
            {
                "name": f.name,
                "round": f.round,
                "table": f.table,
                "seat": f.seat,
                "game": f.game.public_id if f.game is not None else None,
                "bye": f.bye,
                "dropped_after": f.dropped_after,
            }
            for f in found
        ]
        return Response({"query": query, "results": results})


# ---------------------------------------------------------------------- self check-in


class DoorSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField(help_text="Players may check themselves in by the link.")
    url = serializers.CharField(
        allow_null=True, help_text="The check-in link for the door's QR code (null until first opened)."
    )
    entries = serializers.IntegerField()
    checked_in = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The tournament's version.")
    etag = serializers.CharField(help_text="The tournament's ETag.")


class DoorSetSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField()


def _door_body(request: Request, tournament: Tournament) -> dict[str, Any]:
    path_ = door_path(tournament)
    url = absolute_url(request._request, path_) if path_ is not None else None
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        entries=Count("pk"), checked_in=Count("pk", filter=Q(checked_in=True))
    )
    return {
        "open": tournament.check_in_open,
        "url": url,
        **counts,
        "version": tournament.version,
        "etag": tournament_etag(tournament),
    }


class Door(APIView):
    @extend_schema(
        operation_id="tournament_door_retrieve",
        summary="The self check-in at the door: open or closed, its link (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: DoorSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        return with_etag(_door_body(request, tournament), tournament_etag(tournament))

    @extend_schema(
        operation_id="tournament_door_set",
        summary="Open or close the self check-in at the door (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=DoorSetSerializer,
        responses={200: DoorSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        form = DoorSetSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        opened = form.validated_data["open"]
        key = idempotency_key(request)
        if not _replayed(tournament, key, door_target(opened)):
            if_match(request, current=tournament_etag(tournament), body=_door_body(request, tournament))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            tournament.refresh_from_db()
            return tournament_etag(tournament), _door_body(request, tournament)

        done = guarded(
            lambda: check_in_door(
                tournament=tournament, opened=opened, version=seen, user=request.user, request_id=key
            ),
            current,
        )
        return with_etag(_door_body(request, done), tournament_etag(done))


class DoorEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The entry's id, to check in.")
    name = serializers.CharField()
    checked_in = serializers.BooleanField()


class DoorFoundSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField()
    results = DoorEntrySerializer(many=True)


class SelfCheckInSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="The entry's id.")


DOOR_KEY = OpenApiParameter("key", str, OpenApiParameter.PATH, description="The check-in link's key.")


def _door(request: Request, public_id: str, key: str) -> Tournament:
    """The tournament whose check-in link this is (404 for a wrong key), one try counted for
    the caller's address (429 once too many)."""
    tournament = selectors.tournament_by_public_id(public_id=public_id)
    if tournament is None or not check_in_key_matches(tournament, key):
        raise Http404
    hit = check_in_try(tournament, client_ip(request._request) or "unknown")
    if not hit.allowed:
        raise ApiError(
            status_code=429,
            code="check_in_limit",
            message=_(
                "Too many tries from this network: wait a while, or ask the organiser to check you in."
            ),
            params={"wait": max(1, int(hit.wait))},
        )
    return tournament


def _door_entry(entry: Entry) -> dict[str, Any]:
    return {"id": entry.pk, "name": entry.player.name, "checked_in": entry.checked_in}


class SelfCheckIn(APIView):
    """The door's link: no account needed, its key is the permission."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="tournament_self_check_in_find",
        summary="Self check-in: the registered players matching a name (with the door's link)",
        tags=TAGS,
        auth=[],
        parameters=[
            PUBLIC_ID,
            DOOR_KEY,
            NAME_QUERY,
        ],
        responses={200: DoorFoundSerializer, **problems(400, 404, 429)},
    )
    def get(self, request: Request, public_id: str, key: str) -> Response:
        query = _name_query(request)
        tournament = _door(request, public_id, key)
        found = selectors.check_in_matches(tournament=tournament, query=query)
        return Response({"open": tournament.check_in_open, "results": [_door_entry(e) for e in found]})

    @extend_schema(
        operation_id="tournament_self_check_in",
        summary="Self check-in: check a registered player in (with the door's link, while it is open)",
        description="Refused (400) when the check-in is closed (check_in_closed), the entry is not "
        "this tournament's (check_in_unknown) or has dropped out (check_in_dropped). Checking in "
        "twice is checking in once.",
        tags=TAGS,
        auth=[],
        parameters=[PUBLIC_ID, DOOR_KEY, IDEMPOTENCY_KEY],
        request=SelfCheckInSerializer,
        responses={200: DoorEntrySerializer, **problems(400, 404, 429)},
    )
    def post(self, request: Request, public_id: str, key: str) -> Response:
        form = SelfCheckInSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = _door(request, public_id, key)
        entry = entry_self_check_in(
            tournament=tournament,
            key=key,
            entry_id=form.validated_data["entry"],
            request_id=idempotency_key(request),
        )
        return Response(_door_entry(entry))


class PlayerRounds(APIView):
    @extend_schema(
        operation_id="tournament_player",
        summary="One player's tournament round by round: table, seat, place, table points, rank",
        tags=TAGS,
        parameters=[
            PUBLIC_ID,
            OpenApiParameter("entry", int, OpenApiParameter.PATH, description="The entry's id."),
        ],
        responses={200: PlayerRoundsSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str, entry: int) -> Response:
        tournament, _role = _tournament(request, public_id)
        found = selectors.player_rounds(tournament=tournament, entry_id=entry)
        if found is None:
            raise Http404
        standing = found.standing
        body = {
            "entry": found.entry.pk,
            "player_id": found.entry.player_id,
            "name": found.entry.player.name,
            "dropped_after": found.entry.dropped_after,
            "rank": standing.rank if standing is not None else None,
            "points": _fraction(standing.points) if standing is not None else None,
            "rounds": [
                {
                    "round": r.round,
                    "final_stage": r.final_stage,
                    "status": r.status,
                    "table": r.table,
                    "seat": r.seat,
                    "game": r.game,
                    "bye": r.bye,
                    "counted": r.counted,
                    "place": r.place,
                    "total": r.total,
                    "points": _fraction(r.points) if r.points is not None else None,
                    "rank": r.rank,
                }
                for r in found.rounds
            ],
        }
        return Response(body)


class History(APIView):
    @extend_schema(
        operation_id="tournament_history",
        summary="The tournament's changes and later corrections at its tables, newest first",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: HistorySerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id)
        items = []
        for item in selectors.tournament_history(tournament=tournament):
            if item.change is not None:
                change = item.change
                items.append(
                    {
                        "kind": "change",
                        "action": change.action,
                        "title": str(change.get_action_display()),
                        "details": change.data,
                        "user": change.user.get_username() if change.user is not None else None,
                        "round": change.data.get("round") if isinstance(change.data, dict) else None,
                        "table": None,
                        "game": None,
                        "created_at": change.created_at,
                    }
                )
            elif item.correction is not None:
                fix = item.correction
                items.append(
                    {
                        "kind": "correction",
                        "action": fix.action,
                        "title": str(fix.get_action_display()),
                        "details": {"hand": fix.hand_number},
                        "user": fix.user.get_username() if fix.user is not None else None,
                        "round": item.round,
                        "table": item.table,
                        "game": fix.game.public_id,
                        "created_at": fix.created_at,
                    }
                )
        return Response({"items": items})


urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", ClubTournaments.as_view(), name="club-tournaments"),
    path("tournaments/<str:public_id>/", TournamentDetail.as_view(), name="tournament-detail"),
    path("tournaments/<str:public_id>/entries/", Entries.as_view(), name="tournament-entries"),
    *[
        path(
            f"tournaments/<str:public_id>/entries/<int:entry_id>/{action}/",
            _entry_action_view(action).as_view(),
            name=f"tournament-entry-{action}",
        )
        for action in ENTRY_ACTIONS
    ],
    path(
        "tournaments/<str:public_id>/entries/<int:entry_id>/pin/",
        EntryPin.as_view(),
        name="tournament-entry-pin",
    ),
    path("tournaments/<str:public_id>/rounds/", Rounds.as_view(), name="tournament-rounds"),
    path("tournaments/<str:public_id>/rounds/<int:number>/", RoundDetail.as_view(), name="tournament-round"),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/seat/",
        RoundSeat.as_view(),
        name="tournament-round-seat",
    ),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/move/",
        RoundMove.as_view(),
        name="tournament-round-move",
    ),
    *[
        path(
            f"tournaments/<str:public_id>/rounds/<int:number>/{step}/",
            _round_step_view(step).as_view(),
            name=f"tournament-round-{step}",
        )
        for step in ("start", "confirm")
    ],
    path("tournaments/<str:public_id>/final/", FinalSeat.as_view(), name="tournament-final-seat"),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/final-undo/",
        FinalUndo.as_view(),
        name="tournament-final-undo",
    ),
    path("tournaments/<str:public_id>/standings/", Standings.as_view(), name="tournament-standings"),
    path("tournaments/<str:public_id>/seat/", FindSeat.as_view(), name="tournament-find-seat"),
    path("tournaments/<str:public_id>/door/", Door.as_view(), name="tournament-door"),
    path(
        "tournaments/<str:public_id>/check-in/<str:key>/",
        SelfCheckIn.as_view(),
        name="tournament-self-check-in",
    ),
    path(
        "tournaments/<str:public_id>/players/<int:entry>/", PlayerRounds.as_view(), name="tournament-player"
    ),
    path("tournaments/<str:public_id>/history/", History.as_view(), name="tournament-history"),
]
