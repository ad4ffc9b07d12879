"""A tournament's settings: made, checked and changed (``tournament_create``,
``tournament_update``), and given back as a form or the API takes them."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction

from engine.rules import rule_set
from games.models import Club
from games.services.errors import ServiceError
from scoring import finals
from scoring.families import family_info
from scoring.standings import DEFAULT_TIEBREAKS, parse_custom_points, parse_tiebreaks
from tournaments import derived
from tournaments.models import Round, Season, Tournament, TournamentChange
from tournaments.services.common import Actor, acting_user, check_day, check_version, clean_event_name
from tournaments.services.writes import finished, record_change, write_once

Action = TournamentChange.Action


MAX_ROUNDS = 30
MAX_HANDS = 100
MAX_MINUTES = 600  # a round clock of up to ten hours
# Settings that shape the games and the seating: fixed once the first round has started.
PLAY_SETTINGS = ("family", "options", "round_hands", "table_min", "table_max", "table_preferred")
SETTINGS_TARGET = "settings"


@dataclass(frozen=True)
class Settings:
    """A tournament's settings as an organiser's form gives them."""

    name: str
    date: date
    family: str
    options: Mapping[str, object]
    rounds: int
    round_hands: int
    table_min: int
    table_max: int
    table_preferred: int
    byes_allowed: bool
    seating: str
    seat_order: str
    points: str
    custom_points: str  # "4: 5 3 2 0; 3: 4 2 0; 2: 3 0" (custom scheme only)
    tiebreaks: Sequence[str]
    final: str = "none"
    final_size: int = 0  # 0: the family's usual table (a knockout: 4)
    final_counts: str = "decides"
    final_season: int | None = None  # seed the final from this season's qualifiers (its id)
    round_minutes: int = 0  # the round clock; 0: none
    table_confirm: bool = False  # each player confirms his table's result from his phone
    seed_by_rating: bool = False  # round 1 by the club's rating list
    hide_seating: bool = False  # each round's seating is published by the organisers
    freeze_rounds: int = 0  # the public standings stop before the last this many rounds
    freeze_final: bool = False  # ... and before the final
    frozen_shows: str = "stood"  # while frozen: the standings as they stood, or none

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Settings:
        """The settings a form, the API or a club file gives as fields: what is left out or
        empty takes its default (the family's table sizes, no options, no clock, no final), and
        custom points come as typed or as stored (``custom_points_text``)."""
        info = family_info(data["family"])
        custom = data.get("custom_points") or ""
        return cls(
            name=data["name"],
            date=data["date"],
            family=data["family"],
            options=data.get("options") or {},
            rounds=data["rounds"],
            round_hands=data["round_hands"],
            table_min=data.get("table_min") or info.min_players,
            table_max=data.get("table_max") or info.max_players,
            table_preferred=data.get("table_preferred") or info.table_preferred,
            byes_allowed=data.get("byes_allowed", True),
            seating=data["seating"],
            seat_order=data["seat_order"],
            points=data["points"],
            custom_points=custom if isinstance(custom, str) else custom_points_text(custom),
            tiebreaks=data.get("tiebreaks", DEFAULT_TIEBREAKS),
            final=data.get("final") or Tournament.Final.NONE,
            final_size=data.get("final_size") or 0,
            final_counts=data.get("final_counts") or Tournament.FinalCounts.DECIDES,
            final_season=data.get("final_season"),
            round_minutes=data.get("round_minutes") or 0,
            table_confirm=bool(data.get("table_confirm", False)),
            seed_by_rating=bool(data.get("seed_by_rating", False)),
            hide_seating=bool(data.get("hide_seating", False)),
            freeze_rounds=data.get("freeze_rounds") or 0,
            freeze_final=bool(data.get("freeze_final", False)),
            frozen_shows=data.get("frozen_shows") or Tournament.FrozenShows.STOOD,
        )


def custom_points_text(stored: Mapping[str, Sequence[object]]) -> str:
    """Stored custom points (per table size, by place) as an organiser types them, for a form
    or the API to show and ``Settings.from_mapping`` to take back."""
    return "; ".join(f"{size}: {' '.join(str(p) for p in points)}" for size, points in stored.items())


def changed_settings(tournament: Tournament, changes: Mapping[str, Any]) -> Settings:
    """The tournament's settings with ``changes`` made: another family brings its own table
    sizes, unless the change gives them too."""
    merged = {**current_settings(tournament), **changes}
    if merged["family"] != tournament.family:
        for name in ("table_min", "table_max", "table_preferred"):
            merged[name] = changes.get(name)  # left out: the family's (from_mapping)
    return Settings.from_mapping(merged)


def current_settings(tournament: Tournament) -> dict[str, Any]:
    """A tournament's settings as ``Settings.from_mapping`` takes them (a form's first values,
    the API's representation and the base a partial change is made on)."""
    return {
        "name": tournament.name,
        "date": tournament.date,
        "family": tournament.family,
        "options": dict(tournament.options),
        "rounds": tournament.rounds,
        "round_hands": tournament.round_hands,
        "round_minutes": tournament.round_minutes,
        "table_min": tournament.table_min,
        "table_max": tournament.table_max,
        "table_preferred": tournament.table_preferred,
        "byes_allowed": tournament.byes_allowed,
        "seating": tournament.seating,
        "seat_order": tournament.seat_order,
        "seed_by_rating": tournament.seed_by_rating,
        "points": tournament.points,
        "custom_points": custom_points_text(tournament.custom_points),
        "tiebreaks": list(tournament.tiebreaks or DEFAULT_TIEBREAKS),
        "final": tournament.final,
        "final_size": tournament.final_size,
        "final_counts": tournament.final_counts,
        "final_season": tournament.final_season_id,
        "table_confirm": tournament.table_confirm,
        "hide_seating": tournament.hide_seating,
        "freeze_rounds": tournament.freeze_rounds,
        "freeze_final": tournament.freeze_final,
        "frozen_shows": tournament.frozen_shows,
    }


def checked_settings(settings: Settings) -> dict[str, Any]:
    """The model fields for ``settings``, or a coded error naming what to change."""
    name = clean_event_name(settings.name)
    if not name:
        raise ServiceError("tournament_name", "a tournament needs a name", field="name")
    info = family_info(settings.family)
    rules = rule_set(settings.family, dict(settings.options))  # EngineError for a bad option
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise ServiceError("rounds_range", "rounds out of range", field="rounds", maximum=MAX_ROUNDS)
    if not 0 <= settings.round_hands <= MAX_HANDS:
        raise ServiceError(
            "round_hands_range", "hands per round out of range", field="round_hands", maximum=MAX_HANDS
        )
    check_minutes(settings.round_minutes)
    low, high = info.min_players, info.max_players
    if not (low <= settings.table_min <= settings.table_preferred <= settings.table_max <= high):
        raise ServiceError(
            "table_limits",
            "table sizes out of order or range",
            field="table_preferred",
            minimum=low,
            maximum=high,
            family=settings.family,
        )
    custom: dict[str, list[str]] = {}
    if settings.points == Tournament.Points.CUSTOM:
        parsed = parse_custom_points(settings.custom_points)
        missing = [size for size in range(settings.table_min, settings.table_max + 1) if size not in parsed]
        if missing:
            raise ServiceError(
                "points_custom_missing",
                "custom points miss a table size",
                field="custom_points",
                size=missing[0],
            )
        custom = {str(size): [str(p) for p in points] for size, points in parsed.items()}
    final = _checked_final(settings, low, high)
    check_day(settings.date, "date")
    if not 0 <= settings.freeze_rounds <= settings.rounds:
        raise ServiceError(
            "freeze_rounds_range",
            "more frozen rounds than rounds",
            field="freeze_rounds",
            rounds=settings.rounds,
        )
    if settings.frozen_shows not in Tournament.FrozenShows.values:
        raise ServiceError(
            "frozen_shows", "no such choice", field="frozen_shows", value=settings.frozen_shows
        )
    return {
        **final,
        "hide_seating": settings.hide_seating,
        "freeze_rounds": settings.freeze_rounds,
        "freeze_final": settings.freeze_final,
        "frozen_shows": settings.frozen_shows,
        "name": name[:80],
        "date": settings.date,
        "family": settings.family,
        "options": dict(rules.options),
        "rounds": settings.rounds,
        "round_hands": settings.round_hands,
        "round_minutes": settings.round_minutes,
        "table_min": settings.table_min,
        "table_max": settings.table_max,
        "table_preferred": settings.table_preferred,
        "byes_allowed": settings.byes_allowed,
        "seating": settings.seating,
        "seat_order": settings.seat_order,
        "seed_by_rating": settings.seed_by_rating,
        "points": settings.points,
        "custom_points": custom,
        "tiebreaks": list(parse_tiebreaks(list(settings.tiebreaks))),
        "table_confirm": settings.table_confirm,
    }


def check_minutes(minutes: int, field: str = "round_minutes") -> None:
    if not 0 <= minutes <= MAX_MINUTES:
        raise ServiceError(
            "round_minutes_range", "minutes per round out of range", field=field, maximum=MAX_MINUTES
        )


def _checked_final(settings: Settings, low: int, high: int) -> dict[str, Any]:
    """The final's fields: a knockout of 4 or 8 in a two-player family, a final table of a size
    the family can seat, a season of the same club's family to seed it from."""
    if settings.final not in Tournament.Final.values:
        raise ServiceError("final_kind", "no such final", field="final", final=settings.final)
    if settings.final_counts not in Tournament.FinalCounts.values:
        raise ServiceError(
            "final_counts", "no such choice", field="final_counts", value=settings.final_counts
        )
    size = settings.final_size
    if settings.final == Tournament.Final.KNOCKOUT:
        if high != 2:
            raise ServiceError("final_knockout_family", "a knockout needs a two-player family", field="final")
        if size not in (0, *finals.KNOCKOUT_SIZES):
            raise ServiceError("final_knockout_size", "a knockout of 4 or 8", field="final_size", size=size)
    elif settings.final == Tournament.Final.TABLE and size and not low <= size <= high:
        raise ServiceError(
            "final_table_size", "the family cannot seat it", field="final_size", minimum=low, maximum=high
        )
    return {
        "final": settings.final,
        "final_size": size if settings.final != Tournament.Final.NONE else 0,
        "final_counts": settings.final_counts,
        "final_season_id": settings.final_season if settings.final != Tournament.Final.NONE else None,
    }


def _check_season(club_id: int, fields: Mapping[str, Any]) -> None:
    season = fields.get("final_season_id")
    if season is not None and not Season.objects.filter(pk=season, club_id=club_id).exists():
        raise ServiceError("final_season", "not a season of the club", field="final_season", season=season)


def tournament_create(*, club: Club, settings: Settings, user: Actor) -> Tournament:
    fields = checked_settings(settings)
    _check_season(club.pk, fields)
    with transaction.atomic():
        tournament = Tournament.objects.create(club=club, created_by=acting_user(user), **fields)
        record_change(tournament, Action.CREATED, user, None, name=tournament.name)
    return tournament


def tournament_update(
    *,
    tournament: Tournament,
    settings: Settings,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Change the settings. The family, house rules, hands per round and table sizes are fixed
    once a round has started (the games are made with them); points and tie-breaks may change
    at any time, and the standings follow at once (they are derived on every read)."""
    fields = checked_settings(settings)

    def write(locked: Tournament) -> Tournament:
        check_version("tournament", locked.version, version)
        _check_season(locked.club_id, fields)
        started = Round.objects.filter(tournament=locked).exclude(status=Round.Status.SEATED).exists()
        changed = {k: v for k, v in fields.items() if getattr(locked, k) != v}
        if started and any(k in PLAY_SETTINGS for k in changed):
            raise ServiceError("settings_locked", "the games are made; these settings are fixed")
        # The final's stages are numbered after the rounds but are not rounds of the settings.
        seated = Round.objects.filter(tournament=locked, final_stage=0).count()
        if fields["rounds"] < seated:
            raise ServiceError(
                "rounds_below_seated", "fewer rounds than seated", field="rounds", rounds=seated
            )
        if "rounds" in changed and Round.objects.filter(tournament=locked, final_stage__gt=0).exists():
            # The final is numbered after the rounds: more rounds would play after it.
            raise ServiceError("rounds_after_final", "the final is seated", field="rounds")
        if not changed:
            return locked
        before = {k: _plain(getattr(locked, k)) for k in changed}
        was = Tournament(club_id=locked.club_id, family=locked.family, date=locked.date)
        for key, value in changed.items():
            setattr(locked, key, value)
        locked.version += 1
        locked.save()
        if finished(locked):
            derived.tournament_changed(locked, before=was)
        record_change(
            locked,
            Action.SETTINGS,
            user,
            request_id,
            target=SETTINGS_TARGET,
            before=before,
            after={k: _plain(v) for k, v in changed.items()},
        )
        return locked

    result = write_once(tournament, request_id, SETTINGS_TARGET, write)
    tournament.refresh_from_db()
    return tournament if isinstance(result, TournamentChange) else result


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value
