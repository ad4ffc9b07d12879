"""A club's tournaments (list, create) and a tournament's settings (read, change)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    idempotency_key,
    with_etag,
)
from games.models import Club
from games.services.errors import ServiceError
from tournaments.access import can_manage
from tournaments.api import tournament_schemas as schemas
from tournaments.api.club_lists import ClubList
from tournaments.api.lookups import visible_tournament
from tournaments.api.tournament_serializers import (
    SettingsPatchSerializer,
    SettingsSerializer,
    TournamentListSerializer,
    TournamentSerializer,
    tournament_etag,
)
from tournaments.api.writes import tournament_write
from tournaments.models import Tournament
from tournaments.selectors.seasons import season_by_public_id
from tournaments.selectors.tournaments import tournaments_of_club
from tournaments.selectors.view import tournament_overview
from tournaments.services.tournament_settings import (
    SETTINGS_TARGET,
    Settings,
    changed_settings,
    tournament_create,
    tournament_update,
)


def with_season_id(club: Club, data: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as the API takes them, ``final_season`` a season's public id, as the service
    takes them (the season's id); a season that is not the club's is refused at the field with
    the service's own code and message."""
    wanted = data.get("final_season")
    if wanted is None:
        return dict(data)
    season = season_by_public_id(public_id=wanted)
    if season is None or season.club_id != club.pk:
        raise ServiceError("final_season", "not a season of the club", field="final_season", season=wanted)
    return {**data, "final_season": season.pk}


def _tournament_json(tournament: Tournament, *, organiser: bool = True) -> Any:
    return TournamentSerializer(tournament_overview(tournament=tournament, organiser=organiser)).data


@extend_schema_view(get=schemas.club_tournaments_list, post=schemas.club_tournaments_create)
class ClubTournaments(ClubList[Tournament]):
    """A club's tournaments (GET), newest first; a new one (POST, organisers)."""

    serializer_class = TournamentListSerializer

    def rows(self, club: Club) -> QuerySet[Tournament]:
        return tournaments_of_club(club=club)

    def create(self, request: Request, club: Club) -> tuple[Any, str]:
        form = SettingsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = tournament_create(
            club=club,
            settings=Settings.from_mapping(with_season_id(club, form.validated_data)),
            user=request.user,
        )
        return _tournament_json(tournament), tournament_etag(tournament)


class TournamentDetail(APIView):
    @schemas.tournaments_retrieve
    def get(self, request: Request, public_id: str) -> Response:
        tournament, role = visible_tournament(request, public_id)
        organiser = can_manage(role=role)
        response = with_etag(_tournament_json(tournament, organiser=organiser), tournament_etag(tournament))
        if organiser:
            response["Cache-Control"] = "private, no-store"
        return response

    @schemas.tournaments_partial_update
    def patch(self, request: Request, public_id: str) -> Response:
        tournament, _role = visible_tournament(request, public_id, manage=True)
        key = idempotency_key(request)
        form = SettingsPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)

        def update(**common: Any) -> Tournament:
            # Read after the If-Match check: a stale request is a 412 before its season is a 400.
            changed = changed_settings(tournament, with_season_id(tournament.club, form.validated_data))
            return tournament_update(settings=changed, **common)

        updated = tournament_write(
            request, tournament, key=key, target=SETTINGS_TARGET, shown=_tournament_json, change=update
        )
        return with_etag(_tournament_json(updated), tournament_etag(updated))
