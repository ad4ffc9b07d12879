"""The federation's rating lists as the pages show them (federations.views.ratings), with the
same access: whoever may see the federation reads; a members-only federation answers 404 to
others."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, renderers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations import access, rating_files
from federations.api import rating_schemas as schemas
from federations.api.rating_serializers import (
    MAX_PAGE,
    MAX_QUERY,
    FederationFamiliesSerializer,
    FederationFreshnessSerializer,
    FederationLiveListSerializer,
    FederationReportSerializer,
    PublishedListSerializer,
    PublishedMonthsSerializer,
    freshness_etag,
    published_etag,
)
from federations.models import Federation, PublishedList
from federations.selectors import ratings as selectors
from federations.selectors.federations import federation_by_slug
from games.api.common import unchanged
from games.web.input import read_int
from tournaments.api.exchange import CsvRenderer
from tournaments.api.lookups import visible_tournament


def visible_federation(request: Request, slug: str) -> Federation:
    federation = federation_by_slug(slug=slug)
    if federation is None or not access.can_view(user=request.user, federation=federation):
        raise Http404
    return federation


def rated_family(federation: Federation, family: str) -> str:
    if family not in selectors.rated_families(federation):
        raise Http404
    return family


def _page(request: Request) -> int:
    page = read_int(request.query_params.get("page", "1"), lo=1, hi=MAX_PAGE)
    if page is None:
        raise exceptions.ValidationError({"page": [_("A page is a whole number from 1.")]})
    return page


def _query(request: Request) -> str:
    query = request.query_params.get("q", "")
    if len(query) > MAX_QUERY:
        raise exceptions.ValidationError({"q": [_("At most 40 characters.")]})
    return query


def _published(
    request: Request, slug: str, family: str, month: datetime.date
) -> tuple[Federation, PublishedList]:
    federation = visible_federation(request, slug)
    published = selectors.published_list(federation, family, month)
    if published is None:
        raise Http404
    return federation, published


class Families(APIView):
    @schemas.federation_rating_families
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        found = {
            "federation": federation,
            "families": selectors.rated_families(federation),
            "fresh": selectors.freshness(federation),
        }
        return Response(FederationFamiliesSerializer(found, context={"request": request}).data)


class LiveList(APIView):
    @schemas.federation_rating_list
    def get(self, request: Request, slug: str, family: str) -> Response:
        federation = visible_federation(request, slug)
        page, query = _page(request), _query(request)
        found = selectors.live_list(
            federation=federation, family=rated_family(federation, family), page=page, query=query
        )
        return Response(FederationLiveListSerializer(found, context={"request": request}).data)


class CsvView(APIView):
    # JSON stays for errors; text/csv for a client that asks for the file by its type.
    renderer_classes = [renderers.JSONRenderer, CsvRenderer]


class LiveListCsv(CsvView):
    @schemas.federation_rating_list_csv
    def get(self, request: Request, slug: str, family: str) -> HttpResponse:
        federation = visible_federation(request, slug)
        return rating_files.live_file(federation, rated_family(federation, family))


class PublishedMonths(APIView):
    @schemas.federation_published_months
    def get(self, request: Request, slug: str, family: str) -> Response:
        federation = visible_federation(request, slug)
        months = selectors.published_months(federation, family)
        if not months and family not in selectors.rated_families(federation):
            raise Http404
        found = {"federation": federation.slug, "family": family, "months": months}
        return Response(PublishedMonthsSerializer(found, context={"request": request}).data)


class Published(APIView):
    @schemas.federation_published_list
    def get(self, request: Request, slug: str, family: str, month: datetime.date) -> Response:
        federation, published = _published(request, slug, family, month)
        page = _page(request)
        found = selectors.published_page(federation=federation, published=published, page=page)
        tag = published_etag(published, found.page)
        if unchanged(request, tag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            context = {"request": request, "federation": federation}
            response = Response(PublishedListSerializer(found, context=context).data)
        response["ETag"] = tag
        return response


class PublishedCsv(CsvView):
    @schemas.federation_published_list_csv
    def get(self, request: Request, slug: str, family: str, month: datetime.date) -> HttpResponse:
        federation, published = _published(request, slug, family, month)
        return rating_files.published_file(federation, published)


class Freshness(APIView):
    # Every phone showing the lists polls this while they update: an unchanged answer (304) is
    # given before the throttles, which would cost more than it (as for a club's).
    def check_throttles(self, request: Request) -> None:
        if request.headers.get("If-None-Match"):
            federation = visible_federation(request, self.kwargs["slug"])
            if unchanged(request, freshness_etag(selectors.freshness(federation))):
                return
        super().check_throttles(request)

    @schemas.federation_freshness
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        fresh = selectors.freshness(federation)
        tag = freshness_etag(fresh)
        if unchanged(request, tag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(FederationFreshnessSerializer(fresh, context={"request": request}).data)
        response["ETag"] = tag
        response["Cache-Control"] = "private, no-cache"
        return response


class TournamentReport(APIView):
    @schemas.tournament_federation_report
    def get(self, request: Request, public_id: str, fed_slug: str) -> Response:
        tournament, _role = visible_tournament(request, public_id)
        federation = visible_federation(request, fed_slug)
        found = {
            "tournament": tournament,
            "federation": federation,
            "rows": selectors.tournament_report(federation=federation, tournament=tournament),
            "fresh": selectors.freshness(federation),
        }
        return Response(FederationReportSerializer(found, context={"request": request}).data)
