"""Every write to a season, on the model of ``games.services.hands``: the season's row locked,
a stale version refused, a resend changing nothing again, and its standings marked for the
worker in the same transaction."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction

from engine.rules import FAMILIES
from games.models import Club
from games.services.errors import ServiceError
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, parse_league_tiebreaks, parse_place_points
from tournaments import derived
from tournaments.models import Season
from tournaments.services.common import Actor, acting_user, check_day, check_version, clean_event_name


@dataclass(frozen=True)
class SeasonSettings:
    """A season's settings as an organiser's form gives them."""

    name: str
    starts: date
    ends: date
    families: Sequence[str]
    counts: str
    game_points: str
    tournament_points: str
    custom_points: str  # by final place: "10 8 6 5 4 3 2 1" (custom only)
    best_events: int
    drop_worst: int
    min_games: int
    tiebreaks: Sequence[str]
    qualify: int = 0  # the top N qualify; 0: nobody is marked

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SeasonSettings:
        """The settings a form, the API or a club file gives as fields: what is left out or
        empty takes its default (no options that drop events, nobody qualifies), and custom
        points come as typed or as stored (a list, by final place)."""
        custom = data.get("custom_points") or ""
        return cls(
            name=data["name"],
            starts=data["starts"],
            ends=data["ends"],
            families=data["families"],
            counts=data["counts"],
            game_points=data["game_points"],
            tournament_points=data["tournament_points"],
            custom_points=custom if isinstance(custom, str) else " ".join(str(p) for p in custom),
            best_events=data.get("best_events") or 0,
            drop_worst=data.get("drop_worst") or 0,
            min_games=data.get("min_games") or 0,
            tiebreaks=data.get("tiebreaks", DEFAULT_LEAGUE_TIEBREAKS),
            qualify=data.get("qualify") or 0,
        )


def current_season_settings(season: Season) -> dict[str, Any]:
    """A season's settings as ``SeasonSettings.from_mapping`` takes them (a form's first
    values, the API's representation and the base a partial change is made on)."""
    return {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "families": list(season.families),
        "counts": season.counts,
        "game_points": season.game_points,
        "tournament_points": season.tournament_points,
        "custom_points": " ".join(season.custom_points),
        "best_events": season.best_events,
        "drop_worst": season.drop_worst,
        "min_games": season.min_games,
        "tiebreaks": list(season.tiebreaks or DEFAULT_LEAGUE_TIEBREAKS),
        "qualify": season.qualify,
    }


def checked_span(name: str, starts: date, ends: date, families: Iterable[str]) -> tuple[str, list[str]]:
    """A season's name, days and games checked (a coded error naming the field to change):
    its cleaned name and its families in the registry's order. A club's and a federation's
    seasons alike."""
    cleaned = clean_event_name(name)
    if not cleaned:
        raise ServiceError("season_name", "a season needs a name", field="name")
    check_day(starts, "starts")
    check_day(ends, "ends")
    if ends < starts:
        raise ServiceError("season_dates", "the last day is before the first", field="ends")
    chosen = [f for f in FAMILIES if f in set(families)]
    if not chosen:
        raise ServiceError("season_families", "choose at least one game", field="families")
    return cleaned[:80], chosen


def checked_season(settings: SeasonSettings) -> dict[str, Any]:
    """The model fields for ``settings``, or a coded error naming what to change."""
    name, families = checked_span(settings.name, settings.starts, settings.ends, settings.families)
    custom: list[str] = []
    if settings.tournament_points == Season.TournamentPoints.CUSTOM:
        custom = [str(p) for p in parse_place_points(settings.custom_points)]
    return {
        "name": name,
        "starts": settings.starts,
        "ends": settings.ends,
        "families": families,
        "counts": settings.counts,
        "game_points": settings.game_points,
        "tournament_points": settings.tournament_points,
        "custom_points": custom,
        "best_events": settings.best_events,
        "drop_worst": settings.drop_worst,
        "min_games": settings.min_games,
        "tiebreaks": list(parse_league_tiebreaks(list(settings.tiebreaks))),
        "qualify": settings.qualify,
    }


def season_create(
    *, club: Club, settings: SeasonSettings, user: Actor, request_id: uuid.UUID | None = None
) -> Season:
    """A new season, its standings marked for the worker. A resend (same request id) returns
    it."""
    fields = checked_season(settings)
    if request_id is not None:
        resent = Season.objects.filter(club=club, request_id=request_id).first()
        if resent is not None:
            return resent
    with transaction.atomic():
        season = Season.objects.create(
            club=club, created_by=acting_user(user), request_id=request_id, **fields
        )
        derived.season_changed(season)
    return season


def season_update(
    *,
    season: Season,
    settings: SeasonSettings,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Season:
    """Change a season's settings (the season row locked; a stale version refused; a resend
    changes nothing again); its standings are marked for the worker in the same transaction."""
    fields = checked_season(settings)
    with transaction.atomic():
        locked = Season.objects.select_for_update(no_key=True).get(pk=season.pk)
        if request_id is not None and locked.request_id == request_id:
            return locked
        check_version("season", locked.version, version)
        for key, value in fields.items():
            setattr(locked, key, value)
        locked.version += 1
        locked.request_id = request_id
        locked.save()
        derived.season_changed(locked)
    return locked
