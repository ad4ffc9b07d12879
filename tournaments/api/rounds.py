"""A tournament's rounds: list, read, seat, move a player, start, confirm, publish, and the final's stages."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    ApiError,
    conditional_write,
    guarded,
    idempotency_key,
    with_etag,
)
from games.services.errors import ServiceError
from games.text.errors import error_message
from tournaments.access import can_manage
from tournaments.api import round_schemas as schemas
from tournaments.api.lookups import replayed, round_or_404, round_view, visible_tournament
from tournaments.api.round_serializers import (
    MoveSerializer,
    PublishSerializer,
    RoundConfirmSerializer,
    RoundListSerializer,
    RoundSerializer,
    RoundStartSerializer,
    round_etag,
)
from tournaments.models import Round, Tournament
from tournaments.selectors.entries import tournament_entry
from tournaments.selectors.rounds import tournament_round
from tournaments.selectors.view import RoundView, tournament_view
from tournaments.services.final_stages import final_seat, final_undo
from tournaments.services.round_seating import move_target, round_move, round_seat
from tournaments.services.rounds import publish_target, round_confirm, round_publish, round_start
from tournaments.services.writes import round_target


def _round_json(request: Request, view: RoundView, *, organiser: bool) -> Any:
    return RoundSerializer(view, context={"request": request, "organiser": organiser}).data


class Rounds(APIView):
    @schemas.tournament_rounds_list
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = visible_tournament(request, public_id)
        view = tournament_view(tournament=tournament, organiser=can_manage(role=role))
        return Response(RoundListSerializer(view).data)


class RoundDetail(APIView):
    @schemas.tournament_rounds_retrieve
    def get(self, request: Request, public_id: str, number: int) -> Response:
        tournament, role = visible_tournament(request, public_id)
        view = round_view(tournament, number, organiser=can_manage(role=role))
        response = with_etag(
            _round_json(request, view, organiser=can_manage(role=role)), round_etag(view.round)
        )
        if can_manage(role=role):
            response["Cache-Control"] = "private, no-store"
        return response


def _round_current(request: Request, tournament: Tournament, number: int) -> Callable[[], tuple[str, Any]]:
    def current() -> tuple[str, Any]:
        view = round_view(tournament, number)
        return round_etag(view.round), _round_json(request, view, organiser=True)

    return current


def _round_write(
    request: Request,
    tournament: Tournament,
    played: Round,
    *,
    key: uuid.UUID | None,
    replayed: bool,
    change: Callable[..., Any],
    **changes: Any,
) -> None:
    """Make the service's ``change`` (with ``changes``, and the round, the version read, the
    user and the request id) under the round's If-Match."""
    current = _round_current(request, tournament, played.number)
    seen = played.version
    conditional_write(
        request,
        replayed=replayed,
        before=lambda: (round_etag(played), current()[1]),
        call=lambda: change(played=played, round_version=seen, user=request.user, request_id=key, **changes),
        current=current,
    )


def _round_answer(request: Request, tournament: Tournament, number: int, code: int = 200) -> Response:
    view = round_view(tournament, number)
    response = with_etag(_round_json(request, view, organiser=True), round_etag(view.round), code)
    response["Cache-Control"] = "private, no-store"
    return response


class RoundSeat(APIView):
    @schemas.tournament_round_seat
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        if replayed(tournament, key, round_target(number, "seat")):
            round_seat(tournament=tournament, number=number, user=request.user, request_id=key)
            return _round_answer(request, tournament, number)
        existing = tournament_round(tournament=tournament, number=number)
        if existing is None:
            guarded(
                lambda: round_seat(
                    tournament=tournament,
                    number=number,
                    round_version=None,
                    user=request.user,
                    request_id=key,
                ),
                _round_current(request, tournament, number),
            )
        else:

            def seat_again(*, played: Round, **common: Any) -> Any:
                return round_seat(tournament=tournament, number=number, **common)

            _round_write(request, tournament, existing, key=key, replayed=False, change=seat_again)
        return _round_answer(request, tournament, number, 200 if existing is not None else 201)


class RoundMove(APIView):
    @schemas.tournament_round_move
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        played = round_or_404(tournament, number)
        key = idempotency_key(request)
        form = MoveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        entry = tournament_entry(tournament=tournament, entry_id=form.validated_data["entry"])
        if entry is None:
            raise exceptions.ValidationError(
                {"entry": [_("No player of this tournament has this entry id.")]}
            )
        to_table = form.validated_data["to_table"]
        _round_write(
            request,
            tournament,
            played,
            key=key,
            replayed=replayed(tournament, key, move_target(number, entry.pk, to_table)),
            change=round_move,
            entry=entry,
            to_table=to_table,
        )
        return _round_answer(request, tournament, number)


def round_step_view(step: str) -> type[APIView]:
    class RoundStep(APIView):
        @schemas.round_step(step)
        def post(self, request: Request, public_id: str, number: int) -> Response:
            tournament, _role = visible_tournament(request, public_id, manage=True)
            played = round_or_404(tournament, number)
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
            service = round_start if step == "start" else round_confirm
            try:
                _round_write(
                    request,
                    tournament,
                    played,
                    key=key,
                    replayed=replayed(tournament, key, round_target(number, step)),
                    change=service,
                    **extra,
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
    @schemas.tournament_final_seat
    def post(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        played = final_seat(tournament=tournament, user=request.user, request_id=key)
        return _round_answer(request, tournament, played.number, 201)


class FinalUndo(APIView):
    @schemas.tournament_final_undo
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        target = round_target(number, "final-undo")
        if not replayed(tournament, key, target):
            played = round_or_404(tournament, number)
            _round_write(request, tournament, played, key=key, replayed=False, change=final_undo)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundPublish(APIView):
    @schemas.tournament_round_publish
    def post(self, request: Request, public_id: str, number: int) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        played = round_or_404(tournament, number)
        form = PublishSerializer(data=request.data or {})
        form.is_valid(raise_exception=True)
        published = form.validated_data["published"]
        key = idempotency_key(request)
        _round_write(
            request,
            tournament,
            played,
            key=key,
            replayed=replayed(tournament, key, publish_target(number, published)),
            change=round_publish,
            published=published,
        )
        return _round_answer(request, tournament, number)
