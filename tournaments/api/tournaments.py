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
from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers, status
from rest_framework.fields import SkipField
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.rules import FAMILIES
from games.api.common import (
    IDEMPOTENCY_KEY,
    IF_MATCH,
    ApiError,
    ETagField,
    SiteLink,
    etag,
    guarded,
    idempotency_key,
    if_match,
    problems,
    with_etag,
)
from games.api.lookups import refuse, visible_club
from games.models import Club
from games.services.errors import ServiceError
from games.text.errors import error_message
from games.text.names import name_key
from games.web.client import client_ip
from scoring.standings import DEFAULT_TIEBREAKS, TIEBREAKS
from tournaments.access import can_manage, can_view, tournament_role
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournaments as selectors
from tournaments.selectors.seasons import season_by_public_id
from tournaments.services.common import MAX_CUSTOM_POINTS
from tournaments.services.penalties import (
    MAX_PENALTY,
    MAX_REASON,
    PENALTY_KINDS,
    penalty_give,
    penalty_target,
    penalty_undo,
    penalty_undo_target,
)
from tournaments.services.tournaments import (
    MAX_HANDS,
    MAX_MINUTES,
    MAX_ROUNDS,
    SETTINGS_TARGET,
    Settings,
    apart_set,
    apart_target,
    changed_settings,
    check_in_door,
    check_in_key_matches,
    check_in_try,
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
    publish_target,
    resent,
    reveal_target,
    round_confirm,
    round_move,
    round_publish,
    round_seat,
    round_start,
    round_target,
    standings_reveal,
    tournament_create,
    tournament_update,
)

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


def _stored(tournament: Tournament) -> Tournament:
    """The tournament as stored now (after someone else's change)."""
    found = selectors.tournament_by_public_id(public_id=tournament.public_id)
    if found is None:
        raise Http404
    return found


def _stored_entry(tournament: Tournament, entry: Entry) -> Entry:
    found = selectors.tournament_entry(tournament=tournament, entry_id=entry.pk)
    if found is None:
        raise Http404
    return found


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
    table_confirm = serializers.BooleanField(
        default=False,
        help_text="Each player confirms his table's final totals by his own link, or disputes them; "
        "confirming a round then asks about the tables not all confirmed.",
    )
    table_min = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_max = serializers.IntegerField(min_value=1, max_value=20, required=False)
    table_preferred = serializers.IntegerField(min_value=1, max_value=20, required=False)
    byes_allowed = serializers.BooleanField(default=True)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, default=Tournament.Seating.BALANCED)
    seed_by_rating = serializers.BooleanField(
        default=False,
        help_text="Round 1 by the club's rating list (a serpentine of the seeds); later rounds by seating.",
    )
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
    final_season = serializers.CharField(
        allow_null=True,
        default=None,
        max_length=16,
        help_text="A season of the club (its `public_id`) whose qualifiers play the final; null: the "
        "standings.",
    )
    hide_seating = serializers.BooleanField(
        default=False,
        help_text="Each round's seating is hidden from players until the organisers publish it.",
    )
    freeze_rounds = serializers.IntegerField(
        min_value=0,
        max_value=MAX_ROUNDS,
        default=0,
        help_text="Freeze the public standings for the last this many rounds (until revealed); 0: none.",
    )
    freeze_final = serializers.BooleanField(
        default=False, help_text="Freeze the public standings before the final too (until revealed)."
    )
    frozen_shows = serializers.ChoiceField(
        choices=Tournament.FrozenShows.choices,
        default=Tournament.FrozenShows.STOOD,
        help_text="While frozen, players see the standings as they stood before the frozen rounds, or none.",
    )


class SettingsPatchSerializer(SettingsSerializer):
    """Any of the settings; the others stay as they are."""

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
            field.default = serializers.empty
        return fields


class SeasonPublicId(serializers.CharField):
    """A season named by its public id, the only name the API gives a season."""

    def to_representation(self, value: Any) -> str:
        return str(value.public_id)


def with_season_id(club: Club, data: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as the API takes them, ``final_season`` a season's public id, as the service
    takes them (the season's id); a season that is not the club's is refused at the field with
    the service's own code and message."""
    wanted = data.get("final_season")
    if wanted is None:
        return dict(data)
    season = season_by_public_id(public_id=wanted)
    if season is None or season.club_id != club.pk:
        raise ServiceError("final_season", "not a season of the club", field="final_season", season=wanted)
    return {**data, "final_season": season.pk}


def round_etag(played: Round) -> str:
    return etag("round", f"{played.tournament_id}.{played.number}", played.version)


def tournament_etag(tournament: Tournament) -> str:
    return etag("tournament", tournament.public_id, tournament.version)


def entry_etag(entry: Entry) -> str:
    return etag("entry", entry.pk, entry.version)


class EditLinkField(SiteLink):
    """A table's edit link, at the address the tables' phones reach; left out of the answer
    unless the serializer's context says the caller organises (the link is a credential)."""

    def get_attribute(self, instance: Any) -> Any:
        if not self.context.get("organiser"):
            raise SkipField
        return super().get_attribute(instance)


class OrganisersSee(serializers.CharField):
    """A user's name, shown to the club's organisers only (others get null), as on the page."""

    def get_attribute(self, instance: Any) -> Any:
        return super().get_attribute(instance) if self.context.get("organiser") else None


class HistoryDetails(serializers.DictField):
    """A change's data; a dispute's word only for the club's organisers, as on the page."""

    def get_attribute(self, instance: Any) -> Any:
        details = super().get_attribute(instance)
        if not self.context.get("organiser") and isinstance(details, dict) and "word" in details:
            return {k: v for k, v in details.items() if k != "word"}
        return details


# Reads a round (``selectors.RoundView``).
class RoundSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status", help_text="seated, playing or confirmed.")
    final_stage = serializers.IntegerField(
        source="round.final_stage", help_text="0: a round; 1, 2, …: a stage of the final."
    )
    version = serializers.IntegerField(source="round.version")
    etag = ETagField(round_etag, source="round")
    table_count = serializers.IntegerField()
    finished_tables = serializers.IntegerField()
    byes = serializers.ListField(child=serializers.CharField())
    started_at = serializers.DateTimeField(source="round.started_at", allow_null=True)
    ends_at = serializers.DateTimeField(
        source="round.ends_at",
        allow_null=True,
        help_text="When the round's clock runs out (the hand in play is the last); null: no clock.",
    )
    confirmed_at = serializers.DateTimeField(source="round.confirmed_at", allow_null=True)
    published = serializers.BooleanField(
        help_text="Players see the round's seating; false: only the organisers see its tables and byes."
    )


class TournamentListSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField()
    name = serializers.CharField()
    date = serializers.DateField()
    family = serializers.CharField()
    rounds = serializers.IntegerField()
    version = serializers.IntegerField()


# Reads a ``selectors.TournamentOverview``: the settings as the settings serializer takes them,
# the tournament's state and its rounds.
class TournamentSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField(source="tournament.public_id")
    club = serializers.CharField(source="tournament.club.slug", help_text="The club's slug.")
    name = serializers.CharField(source="settings.name")
    date = serializers.DateField(source="settings.date")
    family = serializers.CharField(source="settings.family")
    options = serializers.DictField(source="settings.options")
    rounds = serializers.IntegerField(source="settings.rounds")
    round_hands = serializers.IntegerField(source="settings.round_hands")
    round_minutes = serializers.IntegerField(
        source="settings.round_minutes", help_text="The round clock's minutes; 0: no clock."
    )
    table_confirm = serializers.BooleanField(
        source="settings.table_confirm",
        help_text="Each player confirms his table's result by his own link (or disputes it).",
    )
    table_min = serializers.IntegerField(source="settings.table_min")
    table_max = serializers.IntegerField(source="settings.table_max")
    table_preferred = serializers.IntegerField(source="settings.table_preferred")
    byes_allowed = serializers.BooleanField(source="settings.byes_allowed")
    seating = serializers.CharField(source="settings.seating")
    seed_by_rating = serializers.BooleanField(source="settings.seed_by_rating")
    seat_order = serializers.CharField(source="settings.seat_order")
    points = serializers.CharField(source="settings.points")
    custom_points = serializers.CharField(source="settings.custom_points", help_text='"4: 5 3 2 0; 3: 4 2 0"')
    tiebreaks = serializers.ListField(child=serializers.CharField(), source="settings.tiebreaks")
    final = serializers.ChoiceField(
        source="settings.final", choices=Tournament.Final.choices, help_text="The final after the rounds."
    )
    final_size = serializers.IntegerField(
        source="settings.final_size", help_text="Players in the final; 0: the family's usual table."
    )
    final_counts = serializers.ChoiceField(
        source="settings.final_counts", choices=Tournament.FinalCounts.choices
    )
    final_season = SeasonPublicId(
        source="tournament.final_season",
        allow_null=True,
        help_text="The season whose qualifiers play the final (its `public_id`); null: the standings.",
    )
    hide_seating = serializers.BooleanField(source="settings.hide_seating")
    freeze_rounds = serializers.IntegerField(source="settings.freeze_rounds")
    freeze_final = serializers.BooleanField(source="settings.freeze_final")
    frozen_shows = serializers.ChoiceField(
        source="settings.frozen_shows", choices=Tournament.FrozenShows.choices
    )
    standings_revealed = serializers.BooleanField(
        source="tournament.standings_revealed", help_text="The organisers revealed the frozen standings."
    )
    version = serializers.IntegerField(source="tournament.version")
    etag = ETagField(tournament_etag, source="tournament")
    entries = serializers.IntegerField(source="view.registered", help_text="Players registered.")
    checked_in = serializers.IntegerField(
        source="view.checked_in", help_text="Players checked in, those who dropped out left aside."
    )
    check_in_open = serializers.BooleanField(
        source="tournament.check_in_open", help_text="Players may check themselves in at the door."
    )
    next_round = serializers.IntegerField(
        source="view.next_round", allow_null=True, help_text="The round that can be seated now."
    )
    played_rounds = RoundSummarySerializer(
        source="view.rounds", many=True, help_text="The rounds seated so far."
    )


def _tournament_json(tournament: Tournament, *, organiser: bool = True) -> Any:
    return TournamentSerializer(
        selectors.tournament_overview(tournament=tournament, organiser=organiser)
    ).data


# Reads an ``Entry`` (its player read with it).
class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    status = serializers.CharField(help_text="registered, checked_in or dropped.")
    checked_in = serializers.BooleanField()
    from_round = serializers.IntegerField()
    dropped_after = serializers.IntegerField(allow_null=True)
    pinned_table = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    etag = ETagField(entry_etag, source="*")


def _entry_json(entry: Entry) -> Any:
    return EntrySerializer(entry).data


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


# Reads a ``selectors.EntryList``.
class EntryListSerializer(serializers.Serializer[Any]):
    entries = EntrySerializer(many=True)


class SeatSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="1-based; seat 1 deals first.")
    total = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    repeat = serializers.BooleanField(help_text="Met someone at this table in an earlier round.")


# Reads a ``selectors.TableView``; its seats are ``SeatView``s.
class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.CharField(
        source="game.public_id", allow_null=True, help_text="The table game's public id (once started)."
    )
    players = SeatSerializer(source="seats", many=True)
    hands = serializers.IntegerField()
    finished = serializers.BooleanField()
    leaders = serializers.ListField(child=serializers.CharField())
    edit_url = EditLinkField(
        source="edit_path",
        required=False,
        allow_null=True,
        help_text="The table's edit link (organisers only).",
    )


class PairSerializer(serializers.Serializer[Any]):
    first = serializers.CharField()
    second = serializers.CharField()


class RepeatSerializer(PairSerializer):
    times = serializers.IntegerField(help_text="How often they met before.")


class AgainSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    times = serializers.IntegerField(help_text="How often before.")


# Reads a ``selectors.RoundReport``.
class RoundReportSerializer(serializers.Serializer[Any]):
    repeats = serializers.SerializerMethodField()
    smaller_again = serializers.SerializerMethodField()
    bigger_again = serializers.SerializerMethodField()
    apart_met = serializers.SerializerMethodField()

    @extend_schema_field(RepeatSerializer(many=True))
    def get_repeats(self, report: selectors.RoundReport) -> Any:
        return RepeatSerializer(
            [{"first": a, "second": b, "times": t} for a, b, t in report.repeats], many=True
        ).data

    @extend_schema_field(AgainSerializer(many=True))
    def get_smaller_again(self, report: selectors.RoundReport) -> Any:
        return AgainSerializer([{"name": n, "times": t} for n, t in report.smaller_again], many=True).data

    @extend_schema_field(AgainSerializer(many=True))
    def get_bigger_again(self, report: selectors.RoundReport) -> Any:
        return AgainSerializer([{"name": n, "times": t} for n, t in report.bigger_again], many=True).data

    @extend_schema_field(PairSerializer(many=True))
    def get_apart_met(self, report: selectors.RoundReport) -> Any:
        return PairSerializer([{"first": a, "second": b} for a, b in report.apart_met], many=True).data


class OrganisersReport(RoundReportSerializer):
    """The seating report, for the club's organisers only (left out for others): it names who
    must not meet."""

    def get_attribute(self, instance: Any) -> Any:
        if not self.context.get("organiser"):
            raise SkipField
        return super().get_attribute(instance)


class RoundSerializer(RoundSummarySerializer):
    tables = TableSerializer(many=True)
    report = OrganisersReport(
        allow_null=True,
        required=False,
        help_text="Organisers only, while the round is seated and not started (else null): pairs who "
        "met before, players at a smaller or a bigger table again, pairs who must not meet at one table.",
    )


# Reads a ``selectors.TournamentView``.
class RoundListSerializer(serializers.Serializer[Any]):
    rounds = RoundSummarySerializer(many=True)
    next_round = serializers.IntegerField(allow_null=True)


def _round_json(request: Request, view: selectors.RoundView, *, organiser: bool) -> Any:
    return RoundSerializer(view, context={"request": request, "organiser": organiser}).data


def _round_view(tournament: Tournament, number: int, *, organiser: bool = True) -> selectors.RoundView:
    found = selectors.tournament_view(tournament=tournament, organiser=organiser).round(number)
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


class RoundConfirmSerializer(serializers.Serializer[Any]):
    force = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Confirm even though some tables' players have not all confirmed their result (or "
        "dispute it); without it such a round is refused with 409 tables_unconfirmed.",
    )


FORCE = OpenApiParameter(
    "force",
    bool,
    OpenApiParameter.QUERY,
    required=False,
    description="As the body's force: confirm although some tables have not confirmed their results.",
)


class MoveSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, help_text="The entry's id.")
    to_table = serializers.IntegerField(min_value=0, max_value=999, help_text="0: the bye.")


# Reads a ``tournament_data.Penalty``.
class PenaltySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entry = serializers.IntegerField(help_text="The entry's id.")
    player = serializers.CharField(help_text="The player's name when it was given.")
    kind = serializers.ChoiceField(choices=list(PENALTY_KINDS), help_text="warning or points.")
    points = serializers.CharField(
        help_text='The points taken off, exact as a fraction: "2", "1/2"; 0: a warning.'
    )
    round = serializers.IntegerField(
        allow_null=True, help_text="The round it is for; null: the tournament's total."
    )
    reason = serializers.CharField()
    undone = serializers.BooleanField(help_text="Taken back: it no longer counts.")


# Reads a ``selectors.StandingRow``.
class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="standing.player")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    points = serializers.CharField(source="standing.points", help_text='Exact, as a fraction: "7", "9/2".')
    points_value = serializers.FloatField(source="standing.points")
    game_score = serializers.IntegerField(source="standing.game_score")
    game_score_average = serializers.CharField(
        source="standing.game_score_average",
        allow_null=True,
        help_text='The game score per table he sat at, exact: "-21", "59/2"; null: none.',
    )
    average_place = serializers.CharField(source="standing.average_place", allow_null=True)
    average_place_value = serializers.FloatField(source="standing.average_place", allow_null=True)
    firsts = serializers.IntegerField(source="standing.firsts")
    opponents_points = serializers.CharField(source="standing.opponents_points")
    opponents_points_value = serializers.FloatField(source="standing.opponents_points")
    tables = serializers.IntegerField(source="standing.tables")
    byes = serializers.IntegerField(source="standing.byes")
    separated_by = serializers.CharField(
        source="standing.separated_by",
        allow_null=True,
        help_text="The tie-break that puts him below the row above.",
    )
    penalty = serializers.CharField(
        source="standing.penalty",
        help_text='Points taken off by penalties (already out of "points"): "0", "2".',
    )
    penalties = PenaltySerializer(many=True, help_text="His warnings and penalties in force.")
    shared_by = serializers.ChoiceField(
        source="standing.shared_by",
        choices=["knockout", "final"],
        allow_null=True,
        help_text="Why a final's players share a place: knockout (out in the same round of it), "
        "final (tied at the final table); null: a shared rank is equal on every tie-break.",
    )


# Reads a ``selectors.TournamentView``.
class StandingsSerializer(serializers.Serializer[Any]):
    provisional = serializers.BooleanField(help_text="Counts a table of a round not confirmed yet.")
    public = serializers.BooleanField(
        help_text="The players see these standings; false: the organisers' live standings while frozen."
    )
    hidden = serializers.BooleanField(
        source="standings_hidden", help_text="Frozen: the players see no standings until revealed."
    )
    stood_after = serializers.IntegerField(
        allow_null=True,
        help_text="Frozen: the players' standings as they stood after this round (0: none played).",
    )
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingSerializer(source="standings", many=True)


# Reads a ``selectors.SeatFound``.
class FoundSeatSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(source="game.public_id", allow_null=True)
    bye = serializers.BooleanField()
    dropped_after = serializers.IntegerField(
        allow_null=True, help_text="The round after which the player dropped out; null while he plays."
    )
    published = serializers.BooleanField(help_text="false: the round's seating is not published yet.")


# Reads a ``selectors.SeatSearch``.
class FoundSeatsSerializer(serializers.Serializer[Any]):
    query = serializers.CharField()
    results = FoundSeatSerializer(many=True)


# Reads a ``selectors.PlayerRound``.
class PlayerRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    final_stage = serializers.IntegerField(help_text="0: a round of the tournament; else the final's stage.")
    status = serializers.CharField(help_text="The round's status: seated, playing or confirmed.")
    table = serializers.IntegerField(allow_null=True, help_text="null: a bye, or not seated this round.")
    seat = serializers.IntegerField(allow_null=True, help_text="1-based; seat 1 deals first.")
    game = serializers.CharField(allow_null=True, help_text="The public id of the table's game.")
    bye = serializers.BooleanField()
    counted = serializers.BooleanField(help_text="The table (or bye) counts for the standings yet.")
    published = serializers.BooleanField(help_text="false: the round's seating is not published yet.")
    place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(
        allow_null=True, help_text="His total at the table, as the game counts it."
    )
    points = serializers.CharField(allow_null=True, help_text='The table points earned, exact: "7", "9/2".')
    rank = serializers.IntegerField(allow_null=True, help_text="His rank in the standings after this round.")
    final_result = serializers.ChoiceField(
        choices=["place", "through", "out"],
        allow_null=True,
        help_text="What a stage of a final that decides the top places did (its table points count "
        "for nothing, so points is null): place (it decided his place, final_place), through (won, "
        "plays the next stage), out (lost; his place waits for the knockout's end). null: not such a stage.",
    )
    final_place = serializers.IntegerField(allow_null=True, help_text="The place the final decided.")


# Reads a ``selectors.PlayerView``; without a standing yet, rank and points are null.
class PlayerRoundsSerializer(serializers.Serializer[Any]):
    penalties = PenaltySerializer(many=True, help_text="His warnings and penalties in force.")
    entry = serializers.IntegerField(source="entry.pk")
    player_id = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    dropped_after = serializers.IntegerField(source="entry.dropped_after", allow_null=True)
    rank = serializers.IntegerField(
        source="standing.rank", allow_null=True, help_text="His rank in the standings now."
    )
    points = serializers.CharField(
        source="standing.points", allow_null=True, help_text="His tournament points now, exact."
    )
    rounds = PlayerRoundSerializer(many=True)


# Reads a ``selectors.HistoryItem``: an organiser's change, or a correction at a table.
class HistoryItemSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(
        help_text="change (the organiser's) or correction (at a table after its round was confirmed)."
    )
    action = serializers.CharField()
    title = serializers.CharField(help_text="What happened, in the caller's language.")
    details = HistoryDetails(help_text="What the change did; a dispute's word for the organisers only.")
    user = OrganisersSee(
        source="username", allow_null=True, help_text="Who did it; null but for the club's organisers."
    )
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(source="correction.game.public_id", allow_null=True)
    created_at = serializers.DateTimeField()


# Reads a ``selectors.TournamentHistory``.
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
        return selectors.tournaments_of_club(club=club)

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
            club=club,
            settings=Settings.from_mapping(with_season_id(club, form.validated_data)),
            user=request.user,
        )
        return with_etag(_tournament_json(tournament), tournament_etag(tournament), status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament: its settings and rounds",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: TournamentSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = _tournament(request, public_id)
        organiser = can_manage(role=role)
        response = with_etag(_tournament_json(tournament, organiser=organiser), tournament_etag(tournament))
        if organiser:
            response["Cache-Control"] = "private, no-store"
        return response

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
            if_match(request, current=tournament_etag(tournament), body=_tournament_json(tournament))
        changed = changed_settings(tournament, with_season_id(tournament.club, form.validated_data))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _tournament_json(now)

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
        return with_etag(_tournament_json(updated), tournament_etag(updated))


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
        return Response(EntryListSerializer(selectors.tournament_entries(tournament=tournament)).data)

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
        players = selectors.players_to_register(tournament=tournament, ids=ids)
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
        asked = selectors.entries_of(tournament=tournament, player_ids=ids, keys=[name_key(n) for n in names])
        return Response(EntryListSerializer(asked).data, status=status.HTTP_201_CREATED)


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
            entry = selectors.tournament_entry(tournament=tournament, entry_id=entry_id)
            if entry is None:
                raise Http404
            key = idempotency_key(request)
            if not _replayed(tournament, key, entry_target(entry, operation)):
                if_match(request, current=entry_etag(entry), body=_entry_json(entry))
            seen = entry.version
            common: dict[str, Any] = {
                "entry": entry,
                "version": seen,
                "user": request.user,
                "request_id": key,
            }

            def current() -> tuple[str, Any]:
                now = _stored_entry(tournament, entry)
                return entry_etag(now), _entry_json(now)

            if operation in ("check_in", "check_out"):
                done = guarded(lambda: entry_check_in(checked_in=operation == "check_in", **common), current)
            else:
                done = guarded(lambda: entry_drop(dropped=operation == "drop", **common), current)
            return with_etag(_entry_json(done), entry_etag(done))

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
        entry = selectors.tournament_entry(tournament=tournament, entry_id=entry_id)
        if entry is None:
            raise Http404
        body = PinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        key = idempotency_key(request)
        if not _replayed(tournament, key, entry_target(entry, f"pin-{body.validated_data['table']}")):
            if_match(request, current=entry_etag(entry), body=_entry_json(entry))

        def current() -> tuple[str, Any]:
            now = _stored_entry(tournament, entry)
            return entry_etag(now), _entry_json(now)

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
        return with_etag(_entry_json(done), entry_etag(done))


class ApartEntrySerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="player.name")


class ApartPairSerializer(serializers.Serializer[Any]):
    first = ApartEntrySerializer()
    second = ApartEntrySerializer()


# Reads ``{"tournament": Tournament, "pairs": [selectors.ApartPair]}``.
class ApartListSerializer(serializers.Serializer[Any]):
    pairs = ApartPairSerializer(many=True)
    version = serializers.IntegerField(source="tournament.version")
    etag = ETagField(tournament_etag, source="tournament")


class ApartChangeSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField(min_value=1, help_text="An entry's id.")
    second = serializers.IntegerField(min_value=1, help_text="Another entry's id.")
    keep = serializers.BooleanField(
        default=True, help_text="true: keep them at different tables; false: they may meet again."
    )


def _apart_json(tournament: Tournament) -> Any:
    view = selectors.tournament_view(tournament=tournament)
    return ApartListSerializer({"tournament": tournament, "pairs": selectors.apart_pairs(view=view)}).data


class Apart(APIView):
    @extend_schema(
        operation_id="tournament_apart_list",
        summary="Who must not meet: pairs kept at different tables (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: ApartListSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        response = with_etag(_apart_json(tournament), tournament_etag(tournament))
        response["Cache-Control"] = "private, no-store"
        return response

    @extend_schema(
        operation_id="tournament_apart_change",
        summary="Keep two players apart, or let them meet again (organisers)",
        description="Every seating keeps such a pair at different tables when any seating can, "
        "before it avoids repeats; the round's report names a pair it could not. If-Match: the "
        "tournament's ETag (the change is a new version of the tournament).",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=ApartChangeSerializer,
        examples=[
            OpenApiExample("Keep apart", value={"first": 12, "second": 15}, request_only=True),
            OpenApiExample(
                "Let them meet", value={"first": 12, "second": 15, "keep": False}, request_only=True
            ),
        ],
        responses={200: ApartListSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        body = ApartChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        entries = {
            e.pk: e
            for e in selectors.tournament_entries(tournament=tournament).entries
            if e.pk in (data["first"], data["second"])
        }
        if data["first"] not in entries or data["second"] not in entries:
            raise Http404
        key = idempotency_key(request)
        if not _replayed(tournament, key, apart_target(data["first"], data["second"], data["keep"])):
            if_match(request, current=tournament_etag(tournament), body=_apart_json(tournament))

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _apart_json(now)

        seen = tournament.version
        done = guarded(
            lambda: apart_set(
                tournament=tournament,
                first=entries[data["first"]],
                second=entries[data["second"]],
                keep=data["keep"],
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return with_etag(_apart_json(done), tournament_etag(done))


class Rounds(APIView):
    @extend_schema(
        operation_id="tournament_rounds_list",
        summary="The rounds seated so far",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: RoundListSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = _tournament(request, public_id)
        view = selectors.tournament_view(tournament=tournament, organiser=can_manage(role=role))
        return Response(RoundListSerializer(view).data)


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
        view = _round_view(tournament, number, organiser=can_manage(role=role))
        response = with_etag(
            _round_json(request, view, organiser=can_manage(role=role)), round_etag(view.round)
        )
        if can_manage(role=role):
            response["Cache-Control"] = "private, no-store"
        return response


def _round_or_404(tournament: Tournament, number: int) -> Round:
    played = selectors.tournament_round(tournament=tournament, number=number)
    if played is None:
        raise Http404
    return played


def _round_current(request: Request, tournament: Tournament, number: int) -> Callable[[], tuple[str, Any]]:
    def current() -> tuple[str, Any]:
        view = _round_view(tournament, number)
        return round_etag(view.round), _round_json(request, view, organiser=True)

    return current


def _round_answer(request: Request, tournament: Tournament, number: int, code: int = 200) -> Response:
    view = _round_view(tournament, number)
    response = with_etag(_round_json(request, view, organiser=True), round_etag(view.round), code)
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
        existing = selectors.tournament_round(tournament=tournament, number=number)
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
        entry = selectors.tournament_entry(tournament=tournament, entry_id=form.validated_data["entry"])
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
            description=""
            if step == "start"
            else "When the tournament asks the tables to confirm their results (table_confirm), a round "
            "with a table not confirmed by all its players, or disputed, is refused with 409 "
            "tables_unconfirmed listing them (tables: table, state, agreed, players, words), unless "
            "force is true.",
            parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY, *([] if step == "start" else [FORCE])],
            request=RoundStartSerializer if step == "start" else RoundConfirmSerializer,
            responses={
                200: RoundSerializer,
                **problems(400, 401, 403, 404, 412, 428, *([] if step == "start" else [409])),
            },
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
            if step == "confirm":
                body = request.data if request.content_type.startswith("application/json") else {}
                confirm_form = RoundConfirmSerializer(data=body or {})
                confirm_form.is_valid(raise_exception=True)
                flag = request.query_params.get("force", "").lower() in ("1", "true", "yes")
                extra["unsettled_ok"] = flag or confirm_form.validated_data["force"]
            key = idempotency_key(request)
            current = _round_current(request, tournament, number)
            if not _replayed(tournament, key, round_target(number, step)):
                if_match(request, current=round_etag(played), body=current()[1])
            service = round_start if step == "start" else round_confirm
            seen = played.version
            try:
                guarded(
                    lambda: service(
                        played=played, round_version=seen, user=request.user, request_id=key, **extra
                    ),
                    current,
                )
            except ServiceError as error:
                if error.code != "tables_unconfirmed":
                    raise
                raise ApiError(
                    status_code=409,
                    code=error.code,
                    message=error_message(error),
                    tables=error.params.get("tables", []),
                ) from None
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


class PublishSerializer(serializers.Serializer[Any]):
    published = serializers.BooleanField(
        default=True, help_text="true: publish the seating; false: hide it again (before the round starts)."
    )


class RoundPublish(APIView):
    @extend_schema(
        operation_id="tournament_round_publish",
        summary="Publish a round's seating to the players, or hide it again (organisers)",
        description="With hide_seating, a round is seated hidden: only the organisers see its tables "
        "until they publish it. Starting a round publishes it.",
        tags=TAGS,
        parameters=[PUBLIC_ID, NUMBER, IF_MATCH, IDEMPOTENCY_KEY],
        request=PublishSerializer,
        responses={200: RoundSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        played = _round_or_404(tournament, number)
        form = PublishSerializer(data=request.data or {})
        form.is_valid(raise_exception=True)
        published = form.validated_data["published"]
        key = idempotency_key(request)
        current = _round_current(request, tournament, number)
        if not _replayed(tournament, key, publish_target(number, published)):
            if_match(request, current=round_etag(played), body=current()[1])
        seen = played.version
        guarded(
            lambda: round_publish(
                played=played, published=published, round_version=seen, user=request.user, request_id=key
            ),
            current,
        )
        return _round_answer(request, tournament, number)


class RevealSerializer(serializers.Serializer[Any]):
    revealed = serializers.BooleanField(
        default=True, help_text="true: reveal the frozen standings; false: freeze them again."
    )


def _standings_json(tournament: Tournament) -> Any:
    return StandingsSerializer(selectors.tournament_view(tournament=tournament, organiser=True)).data


class StandingsReveal(APIView):
    @extend_schema(
        operation_id="tournament_standings_reveal",
        summary="Reveal the frozen standings to the players, or freeze them again (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=RevealSerializer,
        responses={200: StandingsSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        form = RevealSerializer(data=request.data or {})
        form.is_valid(raise_exception=True)
        revealed = form.validated_data["revealed"]
        key = idempotency_key(request)
        if not _replayed(tournament, key, reveal_target(revealed)):
            if_match(request, current=tournament_etag(tournament), body=_standings_json(tournament))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _standings_json(now)

        done = guarded(
            lambda: standings_reveal(
                tournament=tournament, revealed=revealed, version=seen, user=request.user, request_id=key
            ),
            current,
        )
        response = with_etag(_standings_json(done), tournament_etag(done))
        response["Cache-Control"] = "private, no-store"
        return response


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
                            "shared_by": None,
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
                            "shared_by": None,
                        },
                    ],
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = _tournament(request, public_id)
        view = selectors.tournament_view(tournament=tournament, organiser=can_manage(role=role))
        return Response(StandingsSerializer(view).data)


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
        tournament, role = _tournament(request, public_id)
        query = _name_query(request)
        found = selectors.seat_search(tournament=tournament, query=query, organiser=can_manage(role=role))
        return Response(FoundSeatsSerializer(found).data)


# ---------------------------------------------------------------------- self check-in


# Reads a ``selectors.DoorView``.
class DoorSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField(help_text="Players may check themselves in by the link.")
    url = SiteLink(
        source="path",
        allow_null=True,
        help_text="The check-in link for the door's QR code (null until first opened).",
    )
    entries = serializers.IntegerField()
    checked_in = serializers.IntegerField()
    version = serializers.IntegerField(source="tournament.version", help_text="The tournament's version.")
    etag = ETagField(tournament_etag, source="tournament", help_text="The tournament's ETag.")


class DoorSetSerializer(serializers.Serializer[Any]):
    open = serializers.BooleanField()


def _door_json(request: Request, tournament: Tournament) -> Any:
    return DoorSerializer(selectors.door_view(tournament=tournament), context={"request": request}).data


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
        return with_etag(_door_json(request, tournament), tournament_etag(tournament))

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
            if_match(request, current=tournament_etag(tournament), body=_door_json(request, tournament))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _door_json(request, now)

        done = guarded(
            lambda: check_in_door(
                tournament=tournament, opened=opened, version=seen, user=request.user, request_id=key
            ),
            current,
        )
        return with_etag(_door_json(request, done), tournament_etag(done))


# Reads an ``Entry`` (its player read with it).
class DoorEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The entry's id, to check in.")
    name = serializers.CharField(source="player.name")
    checked_in = serializers.BooleanField()


# Reads a ``selectors.DoorSearch``.
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
        found = selectors.door_search(tournament=tournament, query=query)
        return Response(DoorFoundSerializer(found).data)

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
        return Response(DoorEntrySerializer(entry).data)


# ---------------------------------------------------------------------- penalties and warnings


# Reads a ``selectors.PenaltiesView``.
class PenaltiesSerializer(serializers.Serializer[Any]):
    penalties = PenaltySerializer(many=True, help_text="Newest first, taken back ones too.")
    version = serializers.IntegerField(source="tournament.version", help_text="The tournament's version.")
    etag = ETagField(tournament_etag, source="tournament", help_text="The tournament's ETag.")


class PenaltyGiveSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="The entry's id.")
    kind = serializers.ChoiceField(choices=list(PENALTY_KINDS))
    points = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        required=False,
        allow_null=True,
        help_text=f"Points taken off: more than 0, at most {MAX_PENALTY}; none for a warning.",
    )
    round = serializers.IntegerField(
        min_value=1,
        max_value=2**15,
        required=False,
        allow_null=True,
        help_text="The round whose points it is taken off; null: the tournament's total.",
    )
    reason = serializers.CharField(max_length=MAX_REASON, allow_blank=True)


def _penalties_json(tournament: Tournament) -> Any:
    return PenaltiesSerializer(selectors.penalties_view(tournament=tournament)).data


class Penalties(APIView):
    @extend_schema(
        operation_id="tournament_penalties",
        summary="The warnings and point penalties given, newest first (organisers)",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: PenaltiesSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        return with_etag(_penalties_json(tournament), tournament_etag(tournament))

    @extend_schema(
        operation_id="tournament_penalty_give",
        summary="Give a player a warning or a point penalty with a reason (organisers)",
        description="Refused (400, at its field) without a reason (penalty_reason), with points out "
        "of range or points on a warning (penalty_points_range, penalty_warning_points), for a round "
        "not seated (penalty_round) or an entry not registered (penalty_entry).",
        tags=TAGS,
        parameters=[PUBLIC_ID, IF_MATCH, IDEMPOTENCY_KEY],
        request=PenaltyGiveSerializer,
        responses={201: PenaltiesSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        form = PenaltyGiveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        key = idempotency_key(request)
        if not _replayed(tournament, key, penalty_target(data["entry"])):
            if_match(request, current=tournament_etag(tournament), body=_penalties_json(tournament))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _penalties_json(now)

        done = guarded(
            lambda: penalty_give(
                tournament=tournament,
                entry_id=data["entry"],
                kind=data["kind"],
                points=data.get("points"),
                round_number=data.get("round"),
                reason=data["reason"],
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current,
        )
        return with_etag(_penalties_json(done), tournament_etag(done), status=status.HTTP_201_CREATED)


class PenaltyUndo(APIView):
    @extend_schema(
        operation_id="tournament_penalty_undo",
        summary="Take back a warning or a penalty (organisers); taking it back twice changes nothing",
        tags=TAGS,
        parameters=[
            PUBLIC_ID,
            OpenApiParameter("penalty", int, OpenApiParameter.PATH, description="The penalty's id."),
            IF_MATCH,
            IDEMPOTENCY_KEY,
        ],
        request=None,
        responses={200: PenaltiesSerializer, **problems(400, 401, 403, 404, 412, 428)},
    )
    def post(self, request: Request, public_id: str, penalty: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        if not any(int(p.get("id", 0)) == penalty for p in tournament.penalties or []):
            raise Http404
        key = idempotency_key(request)
        if not _replayed(tournament, key, penalty_undo_target(penalty)):
            if_match(request, current=tournament_etag(tournament), body=_penalties_json(tournament))
        seen = tournament.version

        def current() -> tuple[str, Any]:
            now = _stored(tournament)
            return tournament_etag(now), _penalties_json(now)

        done = guarded(
            lambda: penalty_undo(
                tournament=tournament, penalty_id=penalty, version=seen, user=request.user, request_id=key
            ),
            current,
        )
        return with_etag(_penalties_json(done), tournament_etag(done))


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
        tournament, role = _tournament(request, public_id)
        found = selectors.player_rounds(
            tournament=tournament, entry_id=entry, organiser=can_manage(role=role)
        )
        if found is None:
            raise Http404
        return Response(PlayerRoundsSerializer(found).data)


class History(APIView):
    @extend_schema(
        operation_id="tournament_history",
        summary="The tournament's changes and later corrections at its tables, newest first",
        tags=TAGS,
        parameters=[PUBLIC_ID],
        responses={200: HistorySerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = _tournament(request, public_id)
        found = selectors.history_of(tournament=tournament, organiser=can_manage(role=role))
        return Response(HistorySerializer(found, context={"organiser": can_manage(role=role)}).data)


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
    path("tournaments/<str:public_id>/apart/", Apart.as_view(), name="tournament-apart"),
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
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/publish/",
        RoundPublish.as_view(),
        name="tournament-round-publish",
    ),
    path("tournaments/<str:public_id>/standings/", Standings.as_view(), name="tournament-standings"),
    path(
        "tournaments/<str:public_id>/standings/reveal/",
        StandingsReveal.as_view(),
        name="tournament-standings-reveal",
    ),
    path("tournaments/<str:public_id>/seat/", FindSeat.as_view(), name="tournament-find-seat"),
    path("tournaments/<str:public_id>/door/", Door.as_view(), name="tournament-door"),
    path("tournaments/<str:public_id>/penalties/", Penalties.as_view(), name="tournament-penalties"),
    path(
        "tournaments/<str:public_id>/penalties/<int:penalty>/undo/",
        PenaltyUndo.as_view(),
        name="tournament-penalty-undo",
    ),
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
