"""Tables that confirm their own result (``Tournament.table_confirm``) in the API: a player's
own link (no account: its key, signed for this tournament and entry, is the permission; a wrong
one is a 404 that says nothing) reads his table's sheet and confirms or disputes it; the
organisers read every table's state in a round, with each player's own link."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import IDEMPOTENCY_KEY, idempotency_key, problems
from games.web.links import absolute_url
from tournaments.api.tournaments import NUMBER, PUBLIC_ID, TAGS, _round_view, _tournament
from tournaments.models import Entry, Tournament
from tournaments.selectors import table_answers as answer_selectors
from tournaments.selectors import tournaments as selectors
from tournaments.services.table_answers import MAX_WORD, entry_for_link, table_answer
from tournaments.table_answers import Agreement, own_path

ENTRY = OpenApiParameter("entry", int, OpenApiParameter.PATH, description="The entry's id.")
KEY = OpenApiParameter("key", str, OpenApiParameter.PATH, description="The player's own link's key.")


# Reads a ``selectors.table_answers.SheetSeat``.
class SheetSeatSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField()
    total = serializers.IntegerField(allow_null=True, help_text="His total at the table; null: no hand yet.")
    disputes = serializers.CharField(source="word", help_text="His dispute's word; empty: none.")


# Reads a ``table_answers.Agreement``.
class AgreementSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(
        choices=["confirmed", "waiting", "disputed"],
        help_text="confirmed (by every player, for the sheet as it is now), waiting or disputed.",
    )
    agreed = serializers.IntegerField(help_text="Players whose confirmation counts.")
    players = serializers.IntegerField()


# Reads a ``selectors.table_answers.PlayerAnswer``.
class PlayerAnswerSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    final_stage = serializers.IntegerField()
    table = serializers.IntegerField()
    finished = serializers.BooleanField(help_text="Only a finished table's totals can be confirmed.")
    seen = serializers.CharField(
        source="tag", help_text="The sheet shown (hands and totals): send it back with the answer."
    )
    seats = SheetSeatSerializer(many=True)
    mine = serializers.ChoiceField(
        source="state",
        choices=["none", "confirmed", "disputed", "changed"],
        help_text="His answer to the sheet as it is now; changed: it was given for another sheet.",
    )
    agreement = AgreementSerializer()


class OwnSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    table_confirm = serializers.BooleanField(help_text="Whether the tournament asks the tables.")
    table = PlayerAnswerSerializer(
        allow_null=True, help_text="His table in the round being played; null: none (or not asked)."
    )


class AnswerSerializer(serializers.Serializer[Any]):
    answer = serializers.ChoiceField(choices=["confirm", "dispute"])
    seen = serializers.CharField(max_length=200, help_text="The sheet answered: the GET's table.seen.")
    word = serializers.CharField(
        max_length=MAX_WORD, required=False, default="", allow_blank=True, help_text="A dispute's word."
    )


def _own(public_id: str, entry_id: int, key: str) -> tuple[Tournament, Entry]:
    tournament = selectors.tournament_by_public_id(public_id=public_id)
    entry = entry_for_link(tournament, entry_id, key) if tournament is not None else None
    if tournament is None or entry is None:
        raise Http404
    return tournament, entry


def _own_json(tournament: Tournament, entry: Entry) -> Any:
    found = (
        answer_selectors.player_answer(tournament=tournament, entry=entry)
        if tournament.table_confirm
        else None
    )
    body = {"name": entry.player.name, "table_confirm": tournament.table_confirm, "table": found}
    return OwnSerializer(body).data


class OwnTable(APIView):
    """A player's own link: no account needed, its key is the permission."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="tournament_own_table",
        summary="A player's own link: his table's sheet in the round being played and his answer",
        tags=TAGS,
        auth=[],
        parameters=[PUBLIC_ID, ENTRY, KEY],
        responses={200: OwnSerializer, **problems(404)},
    )
    def get(self, request: Request, public_id: str, entry: int, key: str) -> Response:
        tournament, found = _own(public_id, entry, key)
        return Response(_own_json(tournament, found))

    @extend_schema(
        operation_id="tournament_own_table_answer",
        summary="A player confirms his table's final totals, or disputes them with a word",
        description="Refused (400) when the tournament does not ask the tables (table_confirm_off), "
        "he sits at no table of a round being played (answer_no_table), the table still plays "
        "(answer_playing), the sheet is no longer the one seen (answer_changed) or a dispute has "
        "no word (dispute_word). His latest answer replaces the one before; each is recorded in "
        "the history.",
        tags=TAGS,
        auth=[],
        parameters=[PUBLIC_ID, ENTRY, KEY, IDEMPOTENCY_KEY],
        request=AnswerSerializer,
        responses={200: OwnSerializer, **problems(400, 404)},
    )
    def post(self, request: Request, public_id: str, entry: int, key: str) -> Response:
        tournament, found = _own(public_id, entry, key)
        form = AnswerSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        table_answer(
            tournament=tournament,
            entry_id=found.pk,
            key=key,
            disputed=data["answer"] == "dispute",
            seen=data["seen"],
            word=data["word"],
            request_id=idempotency_key(request),
        )
        return Response(_own_json(tournament, found))


# Reads a (``TableView``, links) pair for the organisers.
class DisputeSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    word = serializers.CharField()


class OwnLinkSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="His own link, to confirm the table's result (a credential).")


class TableAnswersSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["confirmed", "waiting", "disputed"])
    agreed = serializers.IntegerField()
    players = serializers.IntegerField()
    disputes = DisputeSerializer(many=True)
    changed = serializers.ListField(
        child=serializers.CharField(), help_text="Who answered another sheet (changed since)."
    )
    links = OwnLinkSerializer(many=True)


class RoundAnswersSerializer(serializers.Serializer[Any]):
    table_confirm = serializers.BooleanField()
    confirmed = serializers.IntegerField(help_text="Tables confirmed by every player.")
    waiting = serializers.IntegerField()
    disputed = serializers.IntegerField()
    tables = TableAnswersSerializer(many=True)


class RoundAnswers(APIView):
    @extend_schema(
        operation_id="tournament_round_answers",
        summary="Each table's answers to its result: confirmed, waiting or disputed (organisers)",
        description="With each player's own link, to send him. Empty tables when the tournament "
        "does not ask the tables (table_confirm) or the round has not started.",
        tags=TAGS,
        parameters=[PUBLIC_ID, NUMBER],
        responses={200: RoundAnswersSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = _tournament(request, public_id, manage=True)
        played = _round_view(tournament, number)
        tables = []
        for table in played.tables:
            agreed: Agreement | None = table.agreement
            if agreed is None:
                continue
            names = {s.entry_id: s.name for s in table.seats}
            tables.append(
                {
                    "table": table.number,
                    "state": agreed.state,
                    "agreed": agreed.agreed,
                    "players": agreed.players,
                    "disputes": [{"entry": e, "name": names[e], "word": w} for e, w in agreed.disputes],
                    "changed": [names[e] for e in agreed.changed],
                    "links": [
                        {
                            "entry": s.entry_id,
                            "name": s.name,
                            "url": absolute_url(request._request, own_path(tournament, s.entry_id)),
                        }
                        for s in table.seats
                    ],
                }
            )
        counts = played.agreement_counts
        body = {"table_confirm": tournament.table_confirm, **counts, "tables": tables}
        return Response(RoundAnswersSerializer(body).data)


urlpatterns = [
    path(
        "tournaments/<str:public_id>/own/<int:entry>/<str:key>/",
        OwnTable.as_view(),
        name="tournament-own-table",
    ),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/answers/",
        RoundAnswers.as_view(),
        name="tournament-round-answers",
    ),
]
