"""Every write to a tournament, on the model of ``games.services.hands``: one transaction with
the tournament's row locked, versions that refuse a stale form, request ids that make a resent
form change nothing twice (the change recorded with the request id is found and returned), and
each change recorded in the tournament's history.

Who may call these is the views' check (``tournaments.access``): only the club's organisers.
What a table scores is written by the games app's own services, through the table's game.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.conf import settings as site_settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from engine.errors import EngineError
from engine.rules import rule_set
from games.models import AuditEntry, Club, Game, Player
from games.services.errors import RequestIdReused, ServiceError
from games.services.games import EventLabel, game_end, game_start
from games.services.players import check_name, seat_players
from games.services.rates import Hit, rate_hit
from scoring import finals
from scoring.errors import ScoringError
from scoring.families import family_info
from scoring.ratings import Rating, display
from scoring.seating import TableLimits, seat_round
from scoring.standings import DEFAULT_TIEBREAKS, parse_custom_points, parse_tiebreaks
from tournaments import derived
from tournaments.models import (
    Bye,
    CurrentRating,
    Entry,
    Round,
    Season,
    SeasonStanding,
    Table,
    TableSeat,
    Tournament,
    TournamentChange,
    new_check_in_key,
)
from tournaments.services.common import Actor, acting_user, check_day, check_version, clean_event_name
from tournaments.table_answers import CONFIRMED, round_agreements
from tournaments.tournament_data import (
    EntryRow,
    TournamentData,
    compute_standings,
    final_rounds,
    knockout_match,
    last_round,
    round_states,
    tournament_data,
    tournament_seating,
)

Action = TournamentChange.Action
AuditAction = AuditEntry.Action
MAX_ROUNDS = 30
MAX_HANDS = 100
MAX_MINUTES = 600  # a round clock of up to ten hours
# Settings that shape the games and the seating: fixed once the first round has started.
PLAY_SETTINGS = ("family", "options", "round_hands", "table_min", "table_max", "table_preferred")


def _record(
    tournament: Tournament,
    action: str,
    user: Actor,
    request_id: uuid.UUID | None,
    *,
    target: str = "",
    **data: object,
) -> TournamentChange:
    return TournamentChange.objects.create(
        tournament=tournament,
        action=action,
        data=data,
        user=acting_user(user),
        request_id=request_id,
        target=target,
    )


def entry_target(entry: Entry | int, operation: str) -> str:
    """What a request id names: one operation on one object (see ``resent``)."""
    return f"entry-{entry if isinstance(entry, int) else entry.pk}:{operation}"[:60]


def round_target(number: int, operation: str) -> str:
    return f"round-{number}:{operation}"[:60]


def move_target(number: int, entry: int, to_table: int) -> str:
    return round_target(number, f"move-{entry}-{to_table}")


SETTINGS_TARGET = "settings"
REGISTER_TARGET = "register"


def _replayed(tournament: Tournament, request_id: uuid.UUID | None, target: str) -> TournamentChange | None:
    """The change recorded with ``request_id``: a resend of the same operation on the same object
    gets it back; the id given to another operation or object is refused, so that a reused id
    can neither pass for a resend nor skip the version check."""
    if request_id is None:
        return None
    change = TournamentChange.objects.filter(tournament=tournament, request_id=request_id).first()
    if change is not None and change.target != target:
        raise RequestIdReused()
    return change


def resent(*, tournament: Tournament, request_id: uuid.UUID | None, target: str) -> bool:
    """Whether this request repeats a change already made (the service will return it and change
    nothing); a request id used for another change is refused (``idempotency_key_reused``)."""
    return _replayed(tournament, request_id, target) is not None


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _once[T](
    tournament: Tournament, request_id: uuid.UUID | None, target: str, write: Callable[[Tournament], T]
) -> T | TournamentChange:
    """Run ``write`` with the tournament locked, once per request id: a resend gets the change
    the first send recorded (and changes nothing); two sends racing each other meet at the
    unique request id, and the second gets the first one's change."""
    replay = _replayed(tournament, request_id, target)
    if replay is not None:
        return replay
    try:
        with transaction.atomic():
            locked = _locked(tournament)
            replay = _replayed(locked, request_id, target)
            if replay is not None:
                return replay
            return write(locked)
    except IntegrityError:
        replay = _replayed(tournament, request_id, target)
        if replay is None:
            raise
        return replay


# ---------------------------------------------------------------------- settings


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
        _record(tournament, Action.CREATED, user, None, name=tournament.name)
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
        if _finished(locked):
            derived.tournament_changed(locked, before=was)
        _record(
            locked,
            Action.SETTINGS,
            user,
            request_id,
            target=SETTINGS_TARGET,
            before=before,
            after={k: _plain(v) for k, v in changed.items()},
        )
        return locked

    result = _once(tournament, request_id, SETTINGS_TARGET, write)
    tournament.refresh_from_db()
    return tournament if isinstance(result, TournamentChange) else result


def _finished(tournament: Tournament) -> bool:
    """Whether the tournament's last round is confirmed (the seasons count it then)."""
    return last_round(tournament_data(tournament)) is not None


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value


# ---------------------------------------------------------------------- registration


def _next_round(tournament: Tournament) -> int:
    """The first round a player registered now can play: the first not yet started."""
    started = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.SEATED)
    last = started.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def entries_add(
    *,
    tournament: Tournament,
    players: Sequence[Player] = (),
    names: Sequence[str] = (),
    checked_in: bool = False,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> list[Entry]:
    """Register club players and new ones by name (a new name becomes a club player). A player
    registered after a round started joins from the next round. Already registered: kept."""
    cleaned = [check_name(name) for name in names if name.strip()]
    for player in players:
        if player.club_id != tournament.club_id or player.merged_into_id is not None:
            raise ServiceError("entry_other_club", "not a player of this club", player=player.name)

    def write(locked: Tournament) -> list[Entry]:
        people = list(players) + seat_players(club=locked.club, owner=user, names=cleaned)
        known = set(Entry.objects.filter(tournament=locked).values_list("player_id", flat=True))
        start = _next_round(locked)
        added: list[Entry] = []
        for player in people:
            if player.pk in known:
                continue
            known.add(player.pk)
            added.append(
                Entry.objects.create(
                    tournament=locked, player=player, checked_in=checked_in, from_round=start
                )
            )
        if added:
            _record(
                locked,
                Action.REGISTERED,
                user,
                request_id,
                target=REGISTER_TARGET,
                players=[e.player.name for e in added],
                round=start,
            )
        return added

    result = _once(tournament, request_id, REGISTER_TARGET, write)
    return [] if isinstance(result, TournamentChange) else result


def _entry_write(
    entry: Entry,
    version: int | None,
    request_id: uuid.UUID | None,
    change: Callable[[Tournament, Entry], tuple[str, dict[str, object]] | None],
    user: Actor,
    operation: str,
    *,
    any_version: bool = False,
) -> Entry:
    """Change one entry under the tournament's lock; ``change`` returns the history's action
    and data, or None when there is nothing to do (the entry already was so). ``any_version``:
    for a change that means the same whatever the entry's version (a player's own check-in)."""

    def write(locked: Tournament) -> Entry:
        current = Entry.objects.select_related("player").get(pk=entry.pk)
        if not any_version:
            check_version("entry", current.version, version)
        done = change(locked, current)
        if done is None:
            return current
        current.version += 1
        current.save()
        action, data = done
        _record(locked, action, user, request_id, target=target, player=current.player.name, **data)
        return current

    target = entry_target(entry, operation)
    _once(entry.tournament, request_id, target, write)
    entry.refresh_from_db()
    return entry


def _arrive(locked: Tournament, current: Entry) -> None:
    current.checked_in = True
    # Arriving after a round started: he plays from the next one.
    current.from_round = max(current.from_round, _next_round(locked))


def entry_check_in(
    *, entry: Entry, checked_in: bool, version: int | None, user: Actor, request_id: uuid.UUID | None = None
) -> Entry:
    def change(locked: Tournament, current: Entry) -> tuple[str, dict[str, object]] | None:
        if current.checked_in == checked_in:
            return None
        if checked_in:
            _arrive(locked, current)
        else:
            current.checked_in = False
        return (Action.CHECKED_IN if checked_in else Action.CHECKED_OUT), {}

    return _entry_write(entry, version, request_id, change, user, "check_in" if checked_in else "check_out")


def door_target(opened: bool) -> str:
    return "door:open" if opened else "door:close"


def check_in_door(
    *,
    tournament: Tournament,
    opened: bool,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Open or close the self check-in at the door (players checking themselves in by its link)."""

    def write(locked: Tournament) -> Tournament:
        check_version("tournament", locked.version, version)
        if locked.check_in_open == opened:
            return locked
        locked.check_in_open = opened
        if opened and not locked.check_in_key:
            locked.check_in_key = new_check_in_key()
        locked.version += 1
        locked.save(update_fields=["check_in_open", "check_in_key", "version", "updated_at"])
        action = Action.DOOR_OPENED if opened else Action.DOOR_CLOSED
        _record(locked, action, user, request_id, target=door_target(opened))
        return locked

    _once(tournament, request_id, door_target(opened), write)
    tournament.refresh_from_db()
    return tournament


def check_in_try(tournament: Tournament, address: str) -> Hit:
    """Counts one search or check-in at the door from ``address`` (see CHECK_IN_TRIES_PER_HOUR)."""
    return rate_hit(
        f"door:{tournament.pk}:{address}", limit=site_settings.CHECK_IN_TRIES_PER_HOUR, seconds=3600
    )


def door_path(tournament: Tournament) -> str | None:
    """The path of the tournament's check-in link, once the door has a key."""
    if not tournament.check_in_key:
        return None
    kwargs = {"public_id": tournament.public_id, "key": tournament.check_in_key}
    return reverse("tournaments:check_in", kwargs=kwargs)


def check_in_key_matches(tournament: Tournament, key: str) -> bool:
    return bool(tournament.check_in_key) and secrets.compare_digest(key, tournament.check_in_key)


def entry_self_check_in(
    *, tournament: Tournament, key: str, entry_id: int, request_id: uuid.UUID | None = None
) -> Entry:
    """A player checks himself in by the door's link. He has no account: the link's key is the
    permission, and only while the organiser keeps the door open."""
    if not check_in_key_matches(tournament, key):
        raise ServiceError("check_in_key", "not this tournament's check-in link")
    entries = Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("player", "tournament")
    entry = entries.first()
    if entry is None:
        raise ServiceError("check_in_unknown", "no such player registered")

    def change(locked: Tournament, current: Entry) -> tuple[str, dict[str, object]] | None:
        if not locked.check_in_open:
            raise ServiceError("check_in_closed", "the self check-in is closed")
        if current.dropped_after is not None:
            raise ServiceError("check_in_dropped", "dropped out", player=current.player.name)
        if current.checked_in:
            return None
        _arrive(locked, current)
        return Action.CHECKED_SELF, {}

    return _entry_write(entry, None, request_id, change, None, "check_in", any_version=True)


def entry_drop(
    *, entry: Entry, dropped: bool, version: int | None, user: Actor, request_id: uuid.UUID | None = None
) -> Entry:
    """Drop out between rounds (his results stay in the standings) or come back (from the next
    round). A player seated in a round not started yet is taken off its table: re-seat it."""

    def change(locked: Tournament, current: Entry) -> tuple[str, dict[str, object]] | None:
        if (current.dropped_after is not None) == dropped:
            return None
        upcoming = _next_round(locked)
        if dropped:
            current.dropped_after = upcoming - 1
            TableSeat.objects.filter(entry=current, table__round__status=Round.Status.SEATED).delete()
            Bye.objects.filter(entry=current, round__status=Round.Status.SEATED).delete()
            return Action.DROPPED, {"after": upcoming - 1}
        current.dropped_after = None
        current.from_round = max(current.from_round, upcoming)
        return Action.REJOINED, {"round": current.from_round}

    return _entry_write(entry, version, request_id, change, user, "drop" if dropped else "rejoin")


def entry_pin(
    *, entry: Entry, table: int | None, version: int | None, user: Actor, request_id: uuid.UUID | None = None
) -> Entry:
    """Keep a player at one table number every round (a player who must not move)."""

    def change(locked: Tournament, current: Entry) -> tuple[str, dict[str, object]] | None:
        if table is not None and not 1 <= table <= 999:
            raise ServiceError("pin_range", "no such table", table=table)
        if current.pinned_table == table:
            return None
        current.pinned_table = table
        return Action.PINNED, {"table": table}

    return _entry_write(entry, version, request_id, change, user, f"pin-{table}")


# ---------------------------------------------------------------------- seating


def eligible(data: TournamentData, number: int) -> list[EntryRow]:
    """Who is seated in round ``number``: checked in, arrived by then, not dropped out."""
    return [
        e
        for e in data.entries.values()
        if e.checked_in and e.from_round <= number and e.dropped_after is None
    ]


def limits(tournament: Tournament) -> TableLimits:
    return TableLimits(tournament.table_min, tournament.table_max, tournament.table_preferred)


def _seat(data: TournamentData, number: int, seed: int) -> tuple[list[list[int]], list[int]]:
    tournament = data.tournament
    players = eligible(data, number)
    earlier = [t for t in data.tables if t.round < number]
    firsts: Counter[int] = Counter()
    for table in earlier:
        firsts[table.entries[0]] += 1
    byes = Counter(e for r, ids in data.byes.items() if r < number for e in ids)
    # Best first; players level on every tie-break (everyone, before round 1) in a seeded
    # random order, so neither a Swiss first round nor the byes follow the alphabet.
    shuffle = random.Random(seed)
    ranked = sorted(compute_standings(data), key=lambda s: (s.rank, shuffle.random()))
    order = [s.player for s in ranked]
    method = tournament.seating if tournament.seating != Tournament.Seating.MANUAL else "balanced"
    if number == 1 and tournament.seed_by_rating:
        method, order = "rating", rating_order(tournament, list(data.entries.values()))
    seating = seat_round(
        [e.pk for e in players],
        limits=limits(tournament),
        method=method,  # type: ignore[arg-type]
        seed=seed,
        history=[t.entries for t in earlier],
        standings=order,
        ranks=[s.rank for s in ranked],
        byes_so_far=byes,
        pinned={e.pk: e.pinned_table for e in players if e.pinned_table},
        first_deals=firsts,
        seat_order=tournament.seat_order,  # type: ignore[arg-type]
        byes_allowed=tournament.byes_allowed,
        apart=apart_pairs(data),
    )
    return [list(t) for t in seating.tables], list(seating.byes)


def apart_pairs(data: TournamentData) -> list[tuple[int, int]]:
    """The tournament's pairs kept apart whose entries are still registered."""
    return [(a, b) for a, b in data.tournament.apart if a in data.entries and b in data.entries]


def rating_order(tournament: Tournament, entries: Sequence[EntryRow]) -> list[int]:
    """Entry ids by the club's rating list of the tournament's family, best first (its shown
    rating, as the list ranks them); players without a rating after them, by name then id."""
    shown = {
        player: display(Rating(mu, sigma))
        for player, mu, sigma in CurrentRating.objects.filter(
            club_id=tournament.club_id,
            family=tournament.family,
            player_id__in=[e.player_id for e in entries],
        ).values_list("player_id", "mu", "sigma")
    }
    rated = sorted(
        (e for e in entries if e.player_id in shown),
        key=lambda e: (-shown[e.player_id], e.player.name.casefold(), e.pk),
    )
    unrated = sorted(
        (e for e in entries if e.player_id not in shown), key=lambda e: (e.player.name.casefold(), e.pk)
    )
    return [e.pk for e in rated + unrated]


def apart_target(first: int, second: int, keep: bool) -> str:
    low, high = sorted((first, second))
    return f"apart-{low}-{high}:{'keep' if keep else 'end'}"


def apart_set(
    *,
    tournament: Tournament,
    first: Entry,
    second: Entry,
    keep: bool,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Keep two registered players at different tables from the next seating on (``keep``), or
    let them meet again. Changes the tournament's version like its settings."""
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise ServiceError("apart_entry", "not a player of this tournament")
    if first.pk == second.pk:
        raise ServiceError("apart_same", "a player with himself", field="second")
    pair = sorted((first.pk, second.pk))
    target = apart_target(first.pk, second.pk, keep)

    def write(locked: Tournament) -> Tournament:
        check_version("tournament", locked.version, version)
        pairs = [sorted(p) for p in locked.apart]
        if (pair in pairs) == keep:
            return locked
        locked.apart = sorted([*pairs, pair]) if keep else [p for p in pairs if p != pair]
        locked.version += 1
        locked.save(update_fields=["apart", "version", "updated_at"])
        _record(
            locked,
            Action.APART if keep else Action.APART_ENDED,
            user,
            request_id,
            target=target,
            players=sorted([first.player.name, second.player.name], key=str.casefold),
            entries=pair,
        )
        return locked

    result = _once(tournament, request_id, target, write)
    tournament.refresh_from_db()
    return tournament if isinstance(result, TournamentChange) else result


def _write_seating(played: Round, tables: Sequence[Sequence[int]], byes: Sequence[int]) -> None:
    Table.objects.filter(round=played).delete()
    Bye.objects.filter(round=played).delete()
    made = Table.objects.bulk_create(Table(round=played, number=i) for i in range(1, len(tables) + 1))
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entry_id=entry, position=position)
        for table, entries in zip(made, tables, strict=True)
        for position, entry in enumerate(entries)
    )
    Bye.objects.bulk_create(Bye(round=played, entry_id=entry) for entry in byes)


def _names(data: TournamentData, ids: Sequence[int]) -> list[str]:
    return [data.entries[i].player.name for i in ids]


def round_seat(
    *,
    tournament: Tournament,
    number: int,
    round_version: int | None = None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Round:
    """Seat round ``number`` (the next one, once the one before is confirmed), or seat again a
    round not started yet (``round_version`` the version the organiser saw). Two organisers
    seating the same round at once: the first wins, the second is refused
    (``round_already_seated``) and sees the first one's tables."""

    def write(locked: Tournament) -> Round:
        if not 1 <= number <= locked.rounds:
            raise ServiceError("round_range", "no such round", rounds=locked.rounds)
        existing = Round.objects.filter(tournament=locked, number=number).first()
        if existing is not None:
            if existing.status != Round.Status.SEATED:
                raise ServiceError("round_started", "the round has started", round=number)
            if round_version is None:
                raise ServiceError("round_already_seated", "someone seated the round", round=number)
            check_version("round", existing.version, round_version)
        elif number > 1:
            before = Round.objects.filter(tournament=locked, number=number - 1).first()
            if before is None or before.status != Round.Status.CONFIRMED:
                raise ServiceError("round_not_confirmed", "confirm the round before", round=number - 1)
        data = tournament_data(locked)
        # Reproducible: the seed is stored with the round; seating again draws a new one from it.
        seed = (locked.seed * 1_000_003 + number * 7_919 + (existing.version if existing else 0)) % 2**31
        tables, byes = _seat(data, number, seed)
        # Seated again, a round is hidden again: its players have not seen these tables.
        published = not locked.hide_seating
        if existing is None:
            played = Round.objects.create(tournament=locked, number=number, seed=seed, published=published)
        else:
            played = existing
            played.seed = seed
            played.published = published
            played.version += 1
            played.save()
        _write_seating(played, tables, byes)
        _record(
            locked,
            Action.SEATED,
            user,
            request_id,
            target=round_target(number, "seat"),
            round=number,
            seed=seed,
            tables=[_names(data, t) for t in tables],
            byes=_names(data, byes),
            again=existing is not None,
        )
        return played

    result = _once(tournament, request_id, round_target(number, "seat"), write)
    if isinstance(result, TournamentChange):
        return Round.objects.get(tournament=tournament, number=result.data["round"])
    return result


def round_move(
    *,
    played: Round,
    entry: Entry,
    to_table: int,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Round:
    """Move a player to another table of a round not started yet (manual seating). Table 0 is
    the bye. Sizes must stay within the tournament's limits; repeated opponents are allowed
    (the page warns of them)."""

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update().get(pk=played.pk)
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        tables = {t.number: t for t in Table.objects.filter(round=current)}
        seat = TableSeat.objects.filter(table__round=current, entry=entry).select_related("table").first()
        bye = Bye.objects.filter(round=current, entry=entry).first()
        if seat is None and bye is None:
            raise ServiceError("entry_not_seated", "not seated in this round", player=entry.player.name)
        source = seat.table.number if seat is not None else 0
        if to_table == source:
            return current
        if to_table and to_table not in tables:
            raise ServiceError("table_missing", "no such table", table=to_table)
        sizes = Counter(
            TableSeat.objects.filter(table__round=current).values_list("table__number", flat=True)
        )
        if to_table and sizes[to_table] >= locked.table_max:
            raise ServiceError("table_full", "the table is full", table=to_table, maximum=locked.table_max)
        if source and sizes[source] <= locked.table_min:
            raise ServiceError(
                "table_too_small", "the table would be too small", table=source, minimum=locked.table_min
            )
        if seat is not None:
            _reseat_table(seat.table, without=entry.pk)
        elif bye is not None:
            bye.delete()
        if to_table:
            TableSeat.objects.create(table=tables[to_table], entry=entry, position=sizes[to_table])
        else:
            Bye.objects.create(round=current, entry=entry)
        current.version += 1
        current.save()
        _record(
            locked,
            Action.MOVED,
            user,
            request_id,
            target=target,
            round=current.number,
            player=entry.player.name,
            source=source,
            to=to_table,
        )
        return current

    target = move_target(played.number, entry.pk, to_table)
    _once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def _reseat_table(table: Table, *, without: int) -> None:
    """Take a player off a table, closing the gap in its seat order."""
    kept = [s.entry_id for s in table.seats.order_by("position") if s.entry_id != without]
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entry_id=entry, position=position) for position, entry in enumerate(kept)
    )


def round_start(
    *,
    played: Round,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
    minutes: int | None = None,
) -> Round:
    """Start a seated round: every table gets its game (the tournament's rules, its own edit
    link for the table's phone), and the seating is locked. The round's clock (``minutes``, else
    the tournament's minutes per round; 0: none) runs from now: its end is stored on the round
    and on every table's game, so each server and screen counts down to the same moment."""
    if minutes is not None:
        check_minutes(minutes, "minutes")

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update().get(pk=played.pk)
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        data = tournament_data(locked)
        path = _event_path(locked)
        now = timezone.now()
        length = locked.round_minutes if minutes is None else minutes
        ends = now + timedelta(minutes=length) if length else None
        for table in Table.objects.filter(round=current).order_by("number"):
            ids = [s.entry_id for s in table.seats.order_by("position")]
            try:
                game = game_start(
                    family=locked.family,
                    options=locked.options,
                    players=_names(data, ids),
                    owner=None,
                    club=locked.club,
                    hand_limit=locked.round_hands,
                    event=EventLabel(locked.name, current.number, table.number, path, ends),
                )
            except EngineError as error:
                raise ServiceError(
                    "table_not_playable", error.message, table=table.number, players=len(ids)
                ) from None
            table.game = game
            table.save(update_fields=["game"])
        # The players sit down as it starts: starting publishes the seating (the history says so).
        shown = {} if current.published else {"published": True}
        current.status = Round.Status.PLAYING
        current.published = True
        current.started_at = now
        current.ends_at = ends
        current.version += 1
        current.save()
        clock = {"minutes": length} if length else {}
        _record(
            locked, Action.STARTED, user, request_id, target=target, round=current.number, **clock, **shown
        )
        return current

    target = round_target(played.number, "start")
    _once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def publish_target(number: int, published: bool) -> str:
    return round_target(number, "publish" if published else "unpublish")


def round_publish(
    *,
    played: Round,
    published: bool,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Round:
    """Publish a round's seating to the players (its tables on the public pages, "where do I
    sit", the projector and the API), or hide it again before it starts (the organisers took
    it back to rearrange). Started rounds are always published."""

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update().get(pk=played.pk)
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        if current.published == published:
            return current
        current.published = published
        current.version += 1
        current.save()
        action = Action.PUBLISHED if published else Action.UNPUBLISHED
        _record(locked, action, user, request_id, target=target, round=current.number)
        return current

    target = publish_target(played.number, published)
    _once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def reveal_target(revealed: bool) -> str:
    return "standings:reveal" if revealed else "standings:freeze"


def standings_reveal(
    *,
    tournament: Tournament,
    revealed: bool,
    version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> Tournament:
    """Reveal the frozen standings to the players (the live standings from now on), or freeze
    them again."""

    def write(locked: Tournament) -> Tournament:
        check_version("tournament", locked.version, version)
        if not revealed and not (locked.freeze_rounds or locked.freeze_final):
            raise ServiceError("freeze_none", "the settings freeze no standings")
        if locked.standings_revealed == revealed:
            return locked
        locked.standings_revealed = revealed
        locked.version += 1
        locked.save(update_fields=["standings_revealed", "version", "updated_at"])
        action = Action.REVEALED if revealed else Action.REFROZEN
        _record(locked, action, user, request_id, target=reveal_target(revealed))
        return locked

    _once(tournament, request_id, reveal_target(revealed), write)
    tournament.refresh_from_db()
    return tournament


def _event_path(tournament: Tournament) -> str:
    return reverse("tournaments:detail", kwargs={"public_id": tournament.public_id})


def unsettled_tables(tournament: Tournament, played: Round) -> list[dict[str, object]]:
    """The round's tables whose players have not all confirmed the result they have now (or
    one of them disputes it), when the tournament asks the tables; else none."""
    if not tournament.table_confirm:
        return []
    states = round_states(tournament, tournament_seating(tournament), played.number)
    found = round_agreements(played, states)
    unsettled: list[dict[str, object]] = []
    for table in states:
        agreed = found[table.table_id]
        if agreed.state != CONFIRMED:
            unsettled.append(
                {
                    "table": table.number,
                    "state": agreed.state,
                    "agreed": agreed.agreed,
                    "players": agreed.players,
                    "words": [word for _entry, word in agreed.disputes],
                }
            )
    return unsettled


def round_confirm(
    *,
    played: Round,
    round_version: int | None,
    user: Actor,
    request_id: uuid.UUID | None = None,
    unsettled_ok: bool = True,
) -> Round:
    """Make a round's results final: the tables still open are ended after their last hand
    (each recorded in its game's history, so it can be reopened there), and the next round can
    be seated. The tables' results are locked for their links (and the club's scorekeepers);
    a correction by an organiser afterwards changes the standings, and the tournament's
    history says so."""

    def write(locked: Tournament) -> Round:
        current = Round.objects.select_for_update().get(pk=played.pk)
        if current.status != Round.Status.PLAYING:
            raise ServiceError("round_not_playing", "the round is not being played", round=current.number)
        check_version("round", current.version, round_version)
        if not unsettled_ok:
            unsettled = unsettled_tables(locked, current)
            if unsettled:
                raise ServiceError(
                    "tables_unconfirmed",
                    "tables have not confirmed their results",
                    tables=unsettled,
                    numbers=", ".join(str(t["table"]) for t in unsettled),
                )
        closed = []
        for table in Table.objects.filter(round=current).select_related("game").order_by("number"):
            game = table.game
            if game is None:
                continue
            if not game.results.filter(finished=True).exists():
                if not game.hands.exists():
                    raise ServiceError("table_no_hands", "a table has no hand", table=table.number)
                game_end(game=game, ended=True, user=user)
                closed.append(table.number)
        # The tables' links write no more: only the organisers correct a confirmed result.
        tables_games = Game.objects.filter(tournament_table__round=current)
        tables_games.update(results_locked=True, updated_at=timezone.now())
        current.status = Round.Status.CONFIRMED
        current.confirmed_at = timezone.now()
        current.version += 1
        current.save()
        _record(
            locked, Action.CONFIRMED, user, request_id, target=target, round=current.number, closed=closed
        )
        if current.number >= locked.rounds:
            # The tournament is over, or its final placed the players: the seasons that count
            # tournaments place them.
            derived.tournament_changed(locked)
        return current

    target = round_target(played.number, "confirm")
    _once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


# ---------------------------------------------------------------------- the final


def final_size(tournament: Tournament) -> int:
    """How many play the final: the setting, else the family's usual table (a knockout: 4)."""
    if tournament.final == Tournament.Final.KNOCKOUT:
        return tournament.final_size or 4
    return tournament.final_size or family_info(tournament.family).table_preferred


def _final_order(data: TournamentData) -> list[int]:
    """Who may play the final, best first: the standings' players still in the tournament, or
    the season's qualifiers (in the season's order) who are registered here and still in."""
    tournament = data.tournament
    still_in = {e for e, entry in data.entries.items() if entry.dropped_after is None and entry.checked_in}
    if tournament.final_season_id is not None:
        season = tournament.final_season
        assert season is not None
        by_player = {entry.player_id: e for e, entry in data.entries.items()}
        line = SeasonStanding.objects.filter(season=season, family="", ranked=True)
        if season.qualify:
            line = line.filter(rank__lte=season.qualify)
        ids = line.order_by("rank", "player__key").values_list("player_id", flat=True)
        return [by_player[p] for p in ids if p in by_player and by_player[p] in still_in]
    return [s.player for s in compute_standings(data) if s.player in still_in]


def _final_tables(data: TournamentData, stage: int) -> list[list[int]]:
    """The tables of the final's ``stage`` (1: from the standings or the season; later: the
    winners of the stage before, in bracket order)."""
    tournament = data.tournament
    size = final_size(tournament)
    try:
        if tournament.final == Tournament.Final.TABLE:
            return [list(finals.qualifiers(_final_order(data), size))]
        if stage == 1:
            return [list(pair) for pair in finals.first_matches(_final_order(data), size)]
    except ScoringError as error:
        raise ServiceError(error.code, error.message, **error.params) from None
    before = final_rounds(data)[-1]
    order = {p: i for i, p in enumerate(_final_order(data))}
    winners = [knockout_match(order, t)[0] for t in data.tables_of(before.number)]
    return [list(pair) for pair in finals.next_matches(winners)]


# One target for every stage: a resend of "seat the final" comes back as the stage it seated.
FINAL_TARGET = "final:seat"


def final_seat(*, tournament: Tournament, user: Actor, request_id: uuid.UUID | None = None) -> Round:
    """Seat the final's next stage once the rounds (and the stage before) are confirmed: a
    final table of the top players, or a knockout's matches seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6
    and then its winners. The stage is a round like any other (links, QR codes, locked once
    confirmed), numbered after the tournament's rounds."""

    def write(locked: Tournament) -> Round:
        if locked.final == Tournament.Final.NONE:
            raise ServiceError("final_none", "the tournament has no final")
        data = tournament_data(locked)
        last = data.round(locked.rounds)
        if last is None or last.status != Round.Status.CONFIRMED:
            raise ServiceError("round_not_confirmed", "confirm the rounds first", round=locked.rounds)
        stages = final_rounds(data)
        if stages:
            if stages[-1].status != Round.Status.CONFIRMED:
                raise ServiceError("round_not_confirmed", "confirm the stage before", round=stages[-1].number)
            if locked.final == Tournament.Final.TABLE or len(data.tables_of(stages[-1].number)) == 1:
                raise ServiceError("final_done", "the final is played")
        stage = len(stages) + 1
        tables = _final_tables(data, stage)
        number = max(r.number for r in data.rounds) + 1
        seed = (locked.seed * 1_000_003 + number * 7_919) % 2**31
        played = Round.objects.create(
            tournament=locked, number=number, seed=seed, final_stage=stage, published=not locked.hide_seating
        )
        _write_seating(played, tables, [])
        _record(
            locked,
            Action.FINAL,
            user,
            request_id,
            target=FINAL_TARGET,
            round=number,
            stage=stage,
            tables=[_names(data, t) for t in tables],
        )
        return played

    result = _once(tournament, request_id, FINAL_TARGET, write)
    if isinstance(result, TournamentChange):
        return Round.objects.get(tournament=tournament, number=result.data["round"])
    return result


def final_undo(
    *, played: Round, round_version: int | None, user: Actor, request_id: uuid.UUID | None = None
) -> Tournament:
    """Take back a stage of the final not started yet (the standings and settings may have
    changed since it was seated); seating it again draws it from the standings as they are."""

    def write(locked: Tournament) -> Tournament:
        current = Round.objects.select_for_update().filter(pk=played.pk).first()
        if current is None or not current.final_stage:
            raise ServiceError("final_none", "not a stage of the final")
        if current.status != Round.Status.SEATED:
            raise ServiceError("round_started", "the round has started", round=current.number)
        check_version("round", current.version, round_version)
        data = tournament_data(locked)
        tables = [_names(data, t.entries) for t in data.tables_of(current.number)]
        number, stage = current.number, current.final_stage
        current.delete()
        _record(
            locked,
            Action.FINAL_UNDONE,
            user,
            request_id,
            target=target,
            round=number,
            stage=stage,
            tables=tables,
        )
        return locked

    target = round_target(played.number, "final-undo")
    _once(played.tournament, request_id, target, write)
    tournament = played.tournament
    tournament.refresh_from_db()
    return tournament
