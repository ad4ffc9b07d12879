"""A tournament's players: register, check in and out, drop and rejoin, pin to a table, keep apart."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    conditional_write,
    idempotency_key,
    with_etag,
)
from games.text.names import name_key
from tournaments.api import entry_schemas as schemas
from tournaments.api.entry_serializers import (
    ApartChangeSerializer,
    ApartListSerializer,
    EntriesAddSerializer,
    EntryListSerializer,
    EntrySerializer,
    PinSerializer,
    entry_etag,
)
from tournaments.api.lookups import replayed, stored_entry, visible_tournament
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.api.writes import tournament_write
from tournaments.models import Entry, Tournament
from tournaments.selectors.entries import (
    apart_pairs,
    entries_of,
    players_to_register,
    tournament_entries,
    tournament_entry,
)
from tournaments.selectors.view import tournament_view
from tournaments.services.entries import entries_add, entry_check_in, entry_drop, entry_pin
from tournaments.services.round_seating import apart_set, apart_target
from tournaments.services.writes import entry_target


def _entry_json(entry: Entry) -> Any:
    return EntrySerializer(entry).data


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = tournament_entry(tournament=tournament, entry_id=entry_id)
    if entry is None:
        raise Http404
    return entry


def _entry_write(
    request: Request,
    tournament: Tournament,
    entry: Entry,
    *,
    key: uuid.UUID | None,
    target: str,
    change: Callable[..., Entry],
    **changes: Any,
) -> Entry:
    """Make the service's ``change`` (with ``changes``, and the entry, the version read, the
    user and the request id) under the entry's If-Match; ``target`` names the operation on it
    for the resend check."""
    seen = entry.version

    def current() -> tuple[str, Any]:
        now = stored_entry(tournament, entry)
        return entry_etag(now), _entry_json(now)

    return conditional_write(
        request,
        replayed=replayed(tournament, key, entry_target(entry, target)),
        before=lambda: (entry_etag(entry), _entry_json(entry)),
        call=lambda: change(entry=entry, version=seen, user=request.user, request_id=key, **changes),
        current=current,
    )


class Entries(APIView):
    @schemas.tournament_entries_list
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id)
        return Response(EntryListSerializer(tournament_entries(tournament=tournament)).data)

    @schemas.tournament_entries_create
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        form = EntriesAddSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        ids = list(dict.fromkeys(form.validated_data["players"]))
        players = players_to_register(tournament=tournament, ids=ids)
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
        asked = entries_of(tournament=tournament, player_ids=ids, keys=[name_key(n) for n in names])
        return Response(EntryListSerializer(asked).data, status=status.HTTP_201_CREATED)


# An action's path word and the operation it names (in its operationId and its resend target).
ENTRY_ACTIONS: dict[str, str] = {
    "check-in": "check_in",
    "check-out": "check_out",
    "drop": "drop",
    "rejoin": "rejoin",
}


def entry_action_view(action: str) -> type[APIView]:
    operation = ENTRY_ACTIONS[action]

    class EntryAction(APIView):
        @schemas.entry_action(operation)
        def post(self, request: Request, public_id: str, entry_id: int) -> Response:
            tournament, _role = visible_tournament(request, public_id, manage=True)
            entry = _entry(tournament, entry_id)
            key = idempotency_key(request)
            change: Callable[..., Entry]
            if operation in ("check_in", "check_out"):
                change, changes = entry_check_in, {"checked_in": operation == "check_in"}
            else:
                change, changes = entry_drop, {"dropped": operation == "drop"}
            done = _entry_write(
                request, tournament, entry, key=key, target=operation, change=change, **changes
            )
            return with_etag(_entry_json(done), entry_etag(done))

    EntryAction.__name__ = EntryAction.__qualname__ = f"Entry{operation.title().replace('_', '')}"
    return EntryAction


class EntryPin(APIView):
    @schemas.tournament_entry_pin
    def post(self, request: Request, public_id: str, entry_id: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        entry = _entry(tournament, entry_id)
        body = PinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = body.validated_data["table"]
        key = idempotency_key(request)
        done = _entry_write(
            request, tournament, entry, key=key, target=f"pin-{table}", change=entry_pin, table=table
        )
        return with_etag(_entry_json(done), entry_etag(done))


def _apart_json(tournament: Tournament) -> Any:
    view = tournament_view(tournament=tournament)
    return ApartListSerializer({"tournament": tournament, "pairs": apart_pairs(view=view)}).data


class Apart(APIView):
    @schemas.tournament_apart_list
    def get(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        response = with_etag(_apart_json(tournament), tournament_etag(tournament))
        response["Cache-Control"] = "private, no-store"
        return response

    @schemas.tournament_apart_change
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        body = ApartChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        entries = {
            e.pk: e
            for e in tournament_entries(tournament=tournament).entries
            if e.pk in (data["first"], data["second"])
        }
        if data["first"] not in entries or data["second"] not in entries:
            raise Http404
        key = idempotency_key(request)
        done = tournament_write(
            request,
            tournament,
            key=key,
            target=apart_target(data["first"], data["second"], data["keep"]),
            shown=_apart_json,
            change=apart_set,
            first=entries[data["first"]],
            second=entries[data["second"]],
            keep=data["keep"],
        )
        return with_etag(_apart_json(done), tournament_etag(done))
