"""Each round's seating: seated (and seated again before it starts), a player moved by hand,
two players kept apart."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Sequence

from games.services.errors import ServiceError
from scoring.ratings import Rating, display
from scoring.seating import TableLimits, seat_round
from tournaments import seeding
from tournaments.models import (
    Bye,
    CurrentRating,
    Entry,
    Round,
    Table,
    TableSeat,
    Tournament,
    TournamentChange,
)
from tournaments.services.common import Actor, check_version
from tournaments.services.writes import record_change, round_target, write_once
from tournaments.tournament_data import EntryRow, TournamentData, compute_standings, tournament_data

Action = TournamentChange.Action


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
    rating, as the list ranks them); players without a rating after them, by name then id. A
    source registered in ``tournaments.seeding`` (a federation open's list) comes first."""
    shown = seeding.ratings(tournament, entries)
    if shown is None:
        shown = _club_ratings(tournament, entries)
    rated = sorted(
        (e for e in entries if e.player_id in shown),
        key=lambda e: (-shown[e.player_id], e.player.name.casefold(), e.pk),
    )
    unrated = sorted(
        (e for e in entries if e.player_id not in shown), key=lambda e: (e.player.name.casefold(), e.pk)
    )
    return [e.pk for e in rated + unrated]


def _club_ratings(tournament: Tournament, entries: Sequence[EntryRow]) -> dict[int, int]:
    """The shown rating of each entry's player on the club's list of the family (one query)."""
    return {
        player: display(Rating(mu, sigma))
        for player, mu, sigma in CurrentRating.objects.filter(
            club_id=tournament.club_id,
            family=tournament.family,
            player_id__in=[e.player_id for e in entries],
        ).values_list("player_id", "mu", "sigma")
    }


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
        record_change(
            locked,
            Action.APART if keep else Action.APART_ENDED,
            user,
            request_id,
            target=target,
            players=sorted([first.player.name, second.player.name], key=str.casefold),
            entries=pair,
        )
        return locked

    result = write_once(tournament, request_id, target, write)
    tournament.refresh_from_db()
    return tournament if isinstance(result, TournamentChange) else result


def write_seating(played: Round, tables: Sequence[Sequence[int]], byes: Sequence[int]) -> None:
    Table.objects.filter(round=played).delete()
    Bye.objects.filter(round=played).delete()
    made = Table.objects.bulk_create(Table(round=played, number=i) for i in range(1, len(tables) + 1))
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entry_id=entry, position=position)
        for table, entries in zip(made, tables, strict=True)
        for position, entry in enumerate(entries)
    )
    Bye.objects.bulk_create(Bye(round=played, entry_id=entry) for entry in byes)


def player_names(data: TournamentData, ids: Sequence[int]) -> list[str]:
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
        write_seating(played, tables, byes)
        record_change(
            locked,
            Action.SEATED,
            user,
            request_id,
            target=round_target(number, "seat"),
            round=number,
            seed=seed,
            tables=[player_names(data, t) for t in tables],
            byes=player_names(data, byes),
            again=existing is not None,
        )
        return played

    result = write_once(tournament, request_id, round_target(number, "seat"), write)
    if isinstance(result, TournamentChange):
        return Round.objects.get(tournament=tournament, number=result.data["round"])
    return result


def move_target(number: int, entry: int, to_table: int) -> str:
    return round_target(number, f"move-{entry}-{to_table}")


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
        current = Round.objects.select_for_update(no_key=True).get(pk=played.pk)
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
        record_change(
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
    write_once(played.tournament, request_id, target, write)
    played.refresh_from_db()
    return played


def _reseat_table(table: Table, *, without: int) -> None:
    """Take a player off a table, closing the gap in its seat order."""
    kept = [s.entry_id for s in table.seats.order_by("position") if s.entry_id != without]
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entry_id=entry, position=position) for position, entry in enumerate(kept)
    )
