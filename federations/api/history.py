"""The federation's history for its organisers: its changes, newest first, a page at a time;
the undo of a merge (or of its undo); the whole log as CSV."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from rest_framework import renderers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import history_schemas as schemas
from federations.api.history_serializers import FederationChangeSerializer, FederationHistorySerializer
from federations.api.lookups import page_query, visible_federation
from federations.exports import history_file
from federations.selectors import history as selectors
from federations.services.register import change_undo
from games.api.common import idempotency_key
from tournaments.api.exchange import CsvRenderer

MAX_CHANGE = 2**63 - 1  # the id column's bound: a larger one is no change's


class History(APIView):
    @schemas.federation_history
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        page = selectors.history_page(federation=federation, page=page_query(request))
        return Response(FederationHistorySerializer(page).data)


class HistoryUndo(APIView):
    @schemas.federation_history_undo
    def post(self, request: Request, slug: str, change: int) -> Response:
        federation = visible_federation(request, slug, manage=True)
        found = selectors.history_change(federation=federation, pk=change) if change <= MAX_CHANGE else None
        if found is None:
            raise Http404
        made = change_undo(change=found, request_id=idempotency_key(request), user=request.user)
        shown = selectors.history_change(federation=federation, pk=made.pk)
        return Response(FederationChangeSerializer(shown).data, status=status.HTTP_201_CREATED)


class HistoryCsv(APIView):
    # JSON stays for errors; text/csv for a client that asks for the file by its type.
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]

    @schemas.federation_history_csv
    def get(self, request: Request, slug: str) -> HttpResponse:
        federation = visible_federation(request, slug, manage=True)
        return history_file(federation)
