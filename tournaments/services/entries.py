"""Who plays a tournament: registration, check-in (by the organisers or at the door by the
players themselves), dropping out and coming back, a player kept at one table."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Sequence

from django.conf import settings as site_settings
from django.urls import reverse

from games.models import Player
from games.services.errors import ServiceError
from games.services.players import check_name, seat_players
from games.services.rates import Hit, rate_hit
from tournaments.models import Bye, Entry, Round, TableSeat, Tournament, TournamentChange, new_check_in_key
from tournaments.services.common import Actor, check_version
from tournaments.services.writes import entry_target, record_change, write_once

Action = TournamentChange.Action


REGISTER_TARGET = "register"


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
            record_change(
                locked,
                Action.REGISTERED,
                user,
                request_id,
                target=REGISTER_TARGET,
                players=[e.player.name for e in added],
                round=start,
            )
        return added

    result = write_once(tournament, request_id, REGISTER_TARGET, write)
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
        record_change(locked, action, user, request_id, target=target, player=current.player.name, **data)
        return current

    target = entry_target(entry, operation)
    write_once(entry.tournament, request_id, target, write)
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
        record_change(locked, action, user, request_id, target=door_target(opened))
        return locked

    write_once(tournament, request_id, door_target(opened), write)
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


def entry_remove(*, entry: Entry, user: Actor, request_id: uuid.UUID | None = None) -> None:
    """Take a registered player off the tournament before its first round is seated (after
    that he drops out instead, and his results stay). His club player stays."""
    target = entry_target(entry, "remove")

    def write(locked: Tournament) -> None:
        current = Entry.objects.select_related("player").filter(pk=entry.pk, tournament=locked).first()
        if current is None:
            raise ServiceError("entry_gone", "no longer registered")
        if Round.objects.filter(tournament=locked).exists():
            raise ServiceError("entry_remove_seated", "a round is seated", player=current.player.name)
        pairs = [p for p in locked.apart if current.pk not in p]
        if pairs != locked.apart:
            locked.apart = pairs
            locked.version += 1
            locked.save(update_fields=["apart", "version", "updated_at"])
        current.delete()
        record_change(
            locked, Action.UNREGISTERED, user, request_id, target=target, player=current.player.name
        )

    write_once(entry.tournament, request_id, target, write)
