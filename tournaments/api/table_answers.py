"""Tables that confirm their own result (``Tournament.table_confirm``) in the API: a player's
own link (no account: its key, signed for this tournament and entry, is the permission; a wrong
one is a 404 that says nothing) reads his table's sheet and confirms or disputes it; the
organisers read every table's state in a round, with each player's own link."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import idempotency_key
from games.web.links import absolute_url
from tournaments.api import table_answers_schemas as schemas
from tournaments.api.lookups import round_view, visible_tournament
from tournaments.api.table_answers_serializers import AnswerSerializer, OwnSerializer, RoundAnswersSerializer
from tournaments.models import Entry, Tournament
from tournaments.selectors import table_answers as answer_selectors
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.services.table_answers import entry_for_link, table_answer
from tournaments.table_answers import Agreement, own_path


def _own(public_id: str, entry_id: int, key: str) -> tuple[Tournament, Entry]:
    tournament = tournament_by_public_id(public_id=public_id)
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

    @schemas.tournament_own_table
    def get(self, request: Request, public_id: str, entry: int, key: str) -> Response:
        tournament, found = _own(public_id, entry, key)
        return Response(_own_json(tournament, found))

    @schemas.tournament_own_table_answer
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


class RoundAnswers(APIView):
    @schemas.tournament_round_answers
    def get(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        played = round_view(tournament, number)
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
