"""A club's seasons (list, create) and a season's settings with one page of its standings (read,
change). Whoever sees the club reads; only its organisers create or change a season."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    conditional_write,
    idempotency_key,
    with_etag,
)
from games.models import Club
from games.web.input import read_int
from tournaments.api import season_schemas as schemas
from tournaments.api.club_lists import ClubList
from tournaments.api.lookups import family_query, visible_season
from tournaments.api.season_serializers import (
    MAX_PAGE,
    SeasonListSerializer,
    SeasonSerializer,
    SeasonSettingsPatchSerializer,
    SeasonSettingsSerializer,
    season_etag,
)
from tournaments.models import Season
from tournaments.selectors import seasons as selectors
from tournaments.services.seasons import SeasonSettings, current_season_settings, season_create, season_update


def _answer(
    request: Request,
    season: Season,
    *,
    family: str = "",
    page: int = 1,
    evening: datetime.date | None = None,
) -> Any:
    """The season's representation, with one page of its standings."""
    found = selectors.season_page(season=season, family=family, page=page, evening=evening)
    return SeasonSerializer(found, context={"request": request}).data


def _evening(request: Request) -> datetime.date | None:
    raw = request.query_params.get("evening", "")
    if not raw:
        return None
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise exceptions.ValidationError({"evening": [_("Not a date (YYYY-MM-DD).")]}) from None


def _page(request: Request) -> int:
    page = read_int(request.query_params.get("page", "1"), lo=1, hi=MAX_PAGE)
    if page is None:
        raise exceptions.ValidationError({"page": [_("A page is a whole number from 1.")]})
    return page


@extend_schema_view(get=schemas.club_seasons_list, post=schemas.club_seasons_create)
class ClubSeasons(ClubList[Season]):
    """A club's seasons (GET), newest first; a new one (POST, organisers)."""

    serializer_class = SeasonListSerializer

    def rows(self, club: Club) -> QuerySet[Season]:
        return selectors.season_rows(club=club)

    def create(self, request: Request, club: Club) -> tuple[Any, str]:
        key = idempotency_key(request)
        form = SeasonSettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        settings = SeasonSettings.from_mapping(form.validated_data)
        season = season_create(club=club, settings=settings, user=request.user, request_id=key)
        return _answer(request, season), season_etag(season)


class SeasonDetail(APIView):
    @schemas.seasons_retrieve
    def get(self, request: Request, public_id: str) -> Response:
        season = visible_season(request, public_id)
        family, page, evening = family_query(request), _page(request), _evening(request)
        return with_etag(
            _answer(request, season, family=family, page=page, evening=evening), season_etag(season)
        )

    @schemas.seasons_partial_update
    def patch(self, request: Request, public_id: str) -> Response:
        season = visible_season(request, public_id, manage=True)
        key = idempotency_key(request)
        form = SeasonSettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        seen = season.version

        def current() -> tuple[str, Any]:
            now = selectors.season_by_public_id(public_id=public_id)
            if now is None:
                raise Http404
            return season_etag(now), _answer(request, now)

        updated = conditional_write(
            request,
            # A resend: the season keeps the request id of its last change.
            replayed=key is not None and season.request_id == key,
            before=lambda: (season_etag(season), _answer(request, season)),
            call=lambda: season_update(
                season=season,
                settings=SeasonSettings.from_mapping(
                    {**current_season_settings(season), **form.validated_data}
                ),
                version=seen,
                user=request.user,
                request_id=key,
            ),
            current=current,
        )
        return with_etag(_answer(request, updated), season_etag(updated))
