"""A federation's seasons (a Grand Prix): the list and a new one, a season's settings (read,
change, delete), its standings and a person's league card. Whoever sees the federation reads;
only its organisers write."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import season_schemas as schemas
from federations.api.lookups import page_query, replayed, visible_federation
from federations.api.season_serializers import (
    CardSerializer,
    GrandPrixSerializer,
    GrandPrixSettingsPatchSerializer,
    GrandPrixSettingsSerializer,
    GrandPrixStandingsSerializer,
    grand_prix_etag,
)
from federations.models import Federation, FederationSeason
from federations.selectors import seasons as selectors
from federations.services.seasons import (
    GrandPrixSettings,
    current_settings,
    season_create,
    season_delete,
    season_update,
)
from games.api.common import conditional_write, idempotency_key, with_etag


def _season(federation: Federation, public_id: str) -> FederationSeason:
    found = selectors.season_by_public_id(federation=federation, public_id=public_id)
    if found is None:
        raise Http404
    return found


def _json(season: FederationSeason) -> Any:
    return GrandPrixSerializer(season).data


def _family(request: Request) -> str:
    return request.query_params.get("family", "")[:16]


class Seasons(APIView):
    @schemas.federation_seasons_list
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug)
        return Response(
            GrandPrixSerializer(selectors.federation_seasons(federation=federation), many=True).data
        )

    @schemas.federation_seasons_create
    def post(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        form = GrandPrixSettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        season = season_create(
            federation=federation,
            settings=GrandPrixSettings.from_mapping(form.validated_data),
            user=request.user,
            request_id=idempotency_key(request),
        )
        return with_etag(_json(season), grand_prix_etag(season), status.HTTP_201_CREATED)


class SeasonDetail(APIView):
    @schemas.federation_season_retrieve
    def get(self, request: Request, slug: str, public_id: str) -> Response:
        season = _season(visible_federation(request, slug), public_id)
        return with_etag(_json(season), grand_prix_etag(season))

    @schemas.federation_season_partial_update
    def patch(self, request: Request, slug: str, public_id: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        season = _season(federation, public_id)
        key = idempotency_key(request)
        form = GrandPrixSettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        seen = season.version

        def current() -> tuple[str, Any]:
            now = _season(federation, public_id)
            return grand_prix_etag(now), _json(now)

        updated = conditional_write(
            request,
            replayed=replayed(federation, key, f"season:{season.pk}:edit"),
            before=lambda: (grand_prix_etag(season), _json(season)),
            call=lambda: season_update(
                season=season,
                settings=GrandPrixSettings.from_mapping({**current_settings(season), **form.validated_data}),
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current=current,
        )
        return with_etag(_json(updated), grand_prix_etag(updated))

    @schemas.federation_season_destroy
    def delete(self, request: Request, slug: str, public_id: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        key = idempotency_key(request)
        season = selectors.season_by_public_id(federation=federation, public_id=public_id)
        if season is None:
            raise Http404
        target = f"season:{season.pk}:delete"
        seen = season.version

        def current() -> tuple[str, Any]:
            now = _season(federation, public_id)
            return grand_prix_etag(now), _json(now)

        conditional_write(
            request,
            replayed=replayed(federation, key, target),
            before=lambda: (grand_prix_etag(season), _json(season)),
            call=lambda: season_delete(season=season, version=seen, user=request.user, request_id=key),
            current=current,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class Standings(APIView):
    @schemas.federation_season_standings
    def get(self, request: Request, slug: str, public_id: str) -> Response:
        season = _season(visible_federation(request, slug), public_id)
        view = selectors.season_view(season=season, family=_family(request), page=page_query(request))
        return Response(GrandPrixStandingsSerializer(view).data)


class Card(APIView):
    @schemas.federation_season_card
    def get(self, request: Request, slug: str, public_id: str, number: int) -> Response:
        season = _season(visible_federation(request, slug), public_id)
        person = selectors.season_person(season=season, number=number)
        if person is None:
            raise Http404
        card = selectors.league_card(season=season, person=person, family=_family(request))
        return Response(CardSerializer(card).data)
