"""A federation's opens: the list and a hosted tournament (its club's organisers); one open
with its entries, ended before round 1; a person entered (by himself, his club's organiser or
the federation's and the host's organisers) and withdrawn. Whoever sees the federation reads
them; the services say who may write (403 otherwise) and refuse the rest with a code (400, at
the field)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import open_schemas as schemas
from federations.api.lookups import visible_federation
from federations.api.open_serializers import (
    OpenDetailSerializer,
    OpenEntrySerializer,
    OpenEntryWriteSerializer,
    OpenHostSerializer,
    OpenSerializer,
)
from federations.models import Federation, FederationOpen
from federations.selectors import opens as selectors
from federations.services.opens import open_end, open_enter, open_host, open_withdraw
from games.api.common import idempotency_key
from games.api.lookups import caller, refuse
from games.services.errors import NotAllowed
from games.text.errors import error_message
from tournaments import access as tournament_access
from tournaments.selectors.tournaments import tournament_by_public_id


def _allowed[T](request: Request, call: Callable[[], T]) -> T:
    """A refusal of who the caller is (not of what he sent) is a 403 with its message."""
    try:
        return call()
    except NotAllowed as error:
        refuse(request, error_message(error))


def _signed_in(request: Request) -> None:
    """Every write on opens needs a credential: refused before anything is looked up, so an
    anonymous write learns nothing of what exists (the open may be gone: still a 401)."""
    if request.successful_authenticator is None:
        raise exceptions.NotAuthenticated()


def _open(request: Request, slug: str, public_id: str) -> tuple[Federation, FederationOpen]:
    federation = visible_federation(request, slug)
    found = selectors.open_of(federation=federation, public_id=public_id)
    if found is None:
        raise Http404
    return federation, found


def _detail(request: Request, open_: FederationOpen) -> Any:
    return OpenDetailSerializer(selectors.open_page(open_=open_, user=caller(request))).data


class Opens(APIView):
    @schemas.federation_opens_list
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        return Response(OpenSerializer(selectors.opens_of(federation=federation), many=True).data)

    @schemas.federation_opens_host
    def post(self, request: Request, slug: str) -> Response:
        _signed_in(request)
        federation = visible_federation(request, slug)
        form = OpenHostSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        tournament = tournament_by_public_id(public_id=data["tournament"])
        if tournament is None or not tournament_access.can_view(
            tournament=tournament,
            role=tournament_access.tournament_role(user=caller(request), tournament=tournament),
        ):
            raise Http404
        made = _allowed(
            request,
            lambda: open_host(
                federation=federation,
                tournament=tournament,
                self_entry=data["self_entry"],
                entries_close=data["entries_close"],
                user=caller(request),
                request_id=idempotency_key(request),
            ),
        )
        found = selectors.open_of(federation=federation, public_id=made.tournament.public_id)
        assert found is not None
        return Response(_detail(request, found), status=status.HTTP_201_CREATED)


class OpenDetail(APIView):
    @schemas.federation_open_retrieve
    def get(self, request: Request, slug: str, public_id: str) -> Response:
        _federation, open_ = _open(request, slug, public_id)
        return Response(_detail(request, open_))

    @schemas.federation_open_end
    def delete(self, request: Request, slug: str, public_id: str) -> Response:
        _signed_in(request)
        _federation, open_ = _open(request, slug, public_id)
        key = idempotency_key(request)
        _allowed(request, lambda: open_end(open_=open_, user=caller(request), request_id=key))
        return Response(status=status.HTTP_204_NO_CONTENT)


class OpenEntries(APIView):
    @schemas.federation_open_entries
    def get(self, request: Request, slug: str, public_id: str) -> Response:
        _federation, open_ = _open(request, slug, public_id)
        page = selectors.open_page(open_=open_, user=caller(request))
        return Response(OpenEntrySerializer(page.entries, many=True).data)

    @schemas.federation_open_enter
    def post(self, request: Request, slug: str, public_id: str) -> Response:
        _signed_in(request)
        _federation, open_ = _open(request, slug, public_id)
        form = OpenEntryWriteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        key = idempotency_key(request)
        _allowed(
            request,
            lambda: open_enter(
                open_=open_, person_id=form.validated_data["person"], user=caller(request), request_id=key
            ),
        )
        return Response(_detail(request, open_), status=status.HTTP_201_CREATED)


class OpenEntry(APIView):
    @schemas.federation_open_withdraw
    def delete(self, request: Request, slug: str, public_id: str, number: int) -> Response:
        _signed_in(request)
        _federation, open_ = _open(request, slug, public_id)
        key = idempotency_key(request)
        _allowed(
            request,
            lambda: open_withdraw(open_=open_, person_id=str(number), user=caller(request), request_id=key),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
