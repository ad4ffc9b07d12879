"""A federation's seasons (a Grand Prix): created, their settings changed and deleted by the
federation's organisers, each write a recorded change (``FederationChange``) made once per
request id, a stale version refused, and the season marked for the worker in the same
transaction (its standings are derived there, never in the request)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from federations import derived
from federations.models import Federation, FederationChange, FederationSeason
from games.services.errors import ServiceError
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, parse_league_tiebreaks, parse_place_points
from tournaments.services.seasons import checked_span

from .writes import Actor, acting_user, check_version, record, write_once

Action = FederationChange.Action


@dataclass(frozen=True)
class GrandPrixSettings:
    """A federation season's settings as a form or the API gives them."""

    name: str
    starts: date
    ends: date
    families: Sequence[str]
    tournament_points: str = FederationSeason.TournamentPoints.PRESET
    custom_points: str = ""  # by place: "10 8 6 5 4 3 2 1" (custom only)
    best_events: int = 0
    drop_worst: int = 0
    min_events: int = 0
    tiebreaks: Sequence[str] = DEFAULT_LEAGUE_TIEBREAKS
    qualify: int = 0

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> GrandPrixSettings:
        custom = data.get("custom_points") or ""
        return cls(
            name=data["name"],
            starts=data["starts"],
            ends=data["ends"],
            families=data["families"],
            tournament_points=data.get("tournament_points") or FederationSeason.TournamentPoints.PRESET,
            custom_points=custom if isinstance(custom, str) else " ".join(str(p) for p in custom),
            best_events=data.get("best_events") or 0,
            drop_worst=data.get("drop_worst") or 0,
            min_events=data.get("min_events") or 0,
            tiebreaks=data.get("tiebreaks") or DEFAULT_LEAGUE_TIEBREAKS,
            qualify=data.get("qualify") or 0,
        )


def current_settings(season: FederationSeason) -> dict[str, Any]:
    """A season's settings as ``GrandPrixSettings.from_mapping`` takes them."""
    return {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "families": list(season.families),
        "tournament_points": season.tournament_points,
        "custom_points": " ".join(season.custom_points),
        "best_events": season.best_events,
        "drop_worst": season.drop_worst,
        "min_events": season.min_events,
        "tiebreaks": list(season.tiebreaks or DEFAULT_LEAGUE_TIEBREAKS),
        "qualify": season.qualify,
    }


def checked(settings: GrandPrixSettings) -> dict[str, Any]:
    """The model fields for ``settings``, or a coded error naming the field to change."""
    name, families = checked_span(settings.name, settings.starts, settings.ends, settings.families)
    if settings.tournament_points not in FederationSeason.TournamentPoints.values:
        raise ServiceError("grand_prix_points", "no such points", field="tournament_points")
    custom: list[str] = []
    if settings.tournament_points == FederationSeason.TournamentPoints.CUSTOM:
        custom = [str(p) for p in parse_place_points(settings.custom_points)]
    for field, value in (
        ("best_events", settings.best_events),
        ("drop_worst", settings.drop_worst),
        ("min_events", settings.min_events),
        ("qualify", settings.qualify),
    ):
        if not 0 <= value <= 1000:
            raise ServiceError("grand_prix_option", "out of range", field=field, low=0, high=1000)
    tiebreaks = list(parse_league_tiebreaks(list(settings.tiebreaks)))
    if "games" in tiebreaks:
        # A Grand Prix counts tournaments only: its "games" would be the tournaments played.
        raise ServiceError("grand_prix_tiebreak_games", "games is not a tie-break here", field="tiebreaks")
    return {
        "name": name,
        "starts": settings.starts,
        "ends": settings.ends,
        "families": families,
        "tournament_points": settings.tournament_points,
        "custom_points": custom,
        "best_events": settings.best_events,
        "drop_worst": settings.drop_worst,
        "min_events": settings.min_events,
        "tiebreaks": tiebreaks,
        "qualify": settings.qualify,
    }


def season_create(
    *,
    federation: Federation,
    settings: GrandPrixSettings,
    user: Actor = None,
    request_id: uuid.UUID | None = None,
) -> FederationSeason:
    """A new season, marked for the worker. A resend (same request id) returns it."""
    fields = checked(settings)

    def write(locked: Federation) -> FederationSeason:
        season = FederationSeason.objects.create(
            federation=locked, created_by=acting_user(user), request_id=request_id, **fields
        )
        derived.season_changed(locked.pk, season.pk)
        record(
            locked,
            Action.SEASON_CREATED,
            user,
            request_id,
            target="season:new",
            season=season.public_id,
            name=season.name,
        )
        return season

    made = write_once(federation, request_id, "season:new", write)
    if isinstance(made, FederationSeason):
        return made
    found = FederationSeason.objects.filter(public_id=made.data.get("season")).first()
    if found is None:  # created, then deleted: the resend does not create it again
        raise ServiceError("grand_prix_gone", "the season was deleted")
    return found


def season_update(
    *,
    season: FederationSeason,
    settings: GrandPrixSettings,
    version: int | None,
    user: Actor = None,
    request_id: uuid.UUID | None = None,
) -> FederationSeason:
    """Change a season's settings (a stale version refused; a resend changes nothing again);
    marked for the worker in the same transaction."""
    fields = checked(settings)
    target = f"season:{season.pk}:edit"

    def write(locked_federation: Federation) -> FederationSeason:
        locked = FederationSeason.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
        if locked is None:
            raise ServiceError("grand_prix_gone", "the season was deleted")
        check_version(locked.version, version, "stale_grand_prix")
        changed = {k: v for k, v in fields.items() if getattr(locked, k) != v}
        for key, value in fields.items():
            setattr(locked, key, value)
        locked.version += 1
        locked.request_id = request_id
        locked.save()
        derived.season_changed(locked_federation.pk, locked.pk)
        record(
            locked_federation,
            Action.SEASON_EDITED,
            user,
            request_id,
            target=target,
            season=locked.public_id,
            name=locked.name,
            changed=sorted(changed),
        )
        return locked

    done = write_once(season.federation, request_id, target, write)
    if isinstance(done, FederationSeason):
        return done
    found = FederationSeason.objects.filter(pk=season.pk).first()
    if found is None:
        raise ServiceError("grand_prix_gone", "the season was deleted")
    return found


def season_delete(
    *,
    season: FederationSeason,
    version: int | None,
    user: Actor = None,
    request_id: uuid.UUID | None = None,
) -> None:
    """Delete a season and its standings (they are derived: nothing recorded is lost)."""
    target = f"season:{season.pk}:delete"

    def write(locked_federation: Federation) -> None:
        locked = FederationSeason.objects.select_for_update(no_key=True).filter(pk=season.pk).first()
        if locked is None:
            raise ServiceError("grand_prix_gone", "the season was deleted")
        check_version(locked.version, version, "stale_grand_prix")
        record(
            locked_federation,
            Action.SEASON_DELETED,
            user,
            request_id,
            target=target,
            season=locked.public_id,
            name=locked.name,
        )
        locked.delete()

    write_once(season.federation, request_id, target, write)
