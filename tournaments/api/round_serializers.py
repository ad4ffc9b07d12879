"""A round as the API answers it (its tables, seats, byes and the organisers' seating report),
its ETag, and the requests that seat, move, start, confirm and publish it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField

from games.api.common import (
    ETagField,
    SiteLink,
    etag,
)
from tournaments.models import Round
from tournaments.selectors.rounds import RoundReport
from tournaments.services.tournament_settings import MAX_MINUTES


def round_etag(played: Round) -> str:
    return etag("round", f"{played.tournament_id}.{played.number}", played.version)


class EditLinkField(SiteLink):
    """A table's edit link, at the address the tables' phones reach; left out of the answer
    unless the serializer's context says the caller organises (the link is a credential)."""

    def get_attribute(self, instance: Any) -> Any:
        if not self.context.get("organiser"):
            raise SkipField
        return super().get_attribute(instance)


# Reads a round (``RoundView``).
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


class SeatSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="1-based; seat 1 deals first.")
    total = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    repeat = serializers.BooleanField(help_text="Met someone at this table in an earlier round.")


# Reads a ``TableView``; its seats are ``SeatView``s.
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


# Reads a ``RoundReport``.
class RoundReportSerializer(serializers.Serializer[Any]):
    repeats = serializers.SerializerMethodField()
    smaller_again = serializers.SerializerMethodField()
    bigger_again = serializers.SerializerMethodField()
    apart_met = serializers.SerializerMethodField()

    @extend_schema_field(RepeatSerializer(many=True))
    def get_repeats(self, report: RoundReport) -> Any:
        return RepeatSerializer(
            [{"first": a, "second": b, "times": t} for a, b, t in report.repeats], many=True
        ).data

    @extend_schema_field(AgainSerializer(many=True))
    def get_smaller_again(self, report: RoundReport) -> Any:
        return AgainSerializer([{"name": n, "times": t} for n, t in report.smaller_again], many=True).data

    @extend_schema_field(AgainSerializer(many=True))
    def get_bigger_again(self, report: RoundReport) -> Any:
        return AgainSerializer([{"name": n, "times": t} for n, t in report.bigger_again], many=True).data

    @extend_schema_field(PairSerializer(many=True))
    def get_apart_met(self, report: RoundReport) -> Any:
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


# Reads a ``TournamentView``.
class RoundListSerializer(serializers.Serializer[Any]):
    rounds = RoundSummarySerializer(many=True)
    next_round = serializers.IntegerField(allow_null=True)


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


class MoveSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, help_text="The entry's id.")
    to_table = serializers.IntegerField(min_value=0, max_value=999, help_text="0: the bye.")


class PublishSerializer(serializers.Serializer[Any]):
    published = serializers.BooleanField(
        default=True, help_text="true: publish the seating; false: hide it again (before the round starts)."
    )
