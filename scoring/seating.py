"""Seating for club tournaments: who sits at which table in a round, and in which seat.

Pure Python (no Django): players are opaque ids (ints in practice; they must sort), and every
choice is made by ``random.Random(seed)`` over a sorted copy of the input, so the same inputs and
seed always give the same seating, whatever order the players were listed in. There is no time
budget anywhere: the searches stop on iteration counts, so results never depend on the machine.

Table sizes (``table_sizes``). For ``m`` players take ``t = ceil(m / preferred)`` tables with
balanced sizes (``m // t`` and ``m // t + 1``, largest first); if those leave the limits, try the
other numbers of tables, nearest to ``t`` first (fewer before more on a tie). Balanced sizes fit
for some ``t`` exactly when any arrangement within the limits exists, so a bye is given only when
nothing fits all ``n`` players: then ``m = n - 1, n - 2, ...`` until one fits, and the rest sit out.
With byes switched off that is the error ``seating_no_fit``, whose params name the nearest player
counts that fit (``fewer``, ``more``).

Byes go to the players with the fewest byes so far, of those the lowest-ranked (``standings``
best first; players missing from it rank after it, in id order), and never to a pinned player
unless there are more byes than unpinned players.

Methods (the ``pinned`` players always sit at their 1-based table number, whatever the method):

- ``random``: a seeded shuffle into the tables.
- ``balanced``: fewest repeated opponents. A round costs ``Σ met²`` over the pairs at the same
  table, ``met`` being how often the pair sat together in earlier rounds; minimising it round by
  round keeps the tournament's ``Σ (times met)²`` low. Up to ``EXACT_LIMIT`` seated players the
  search is exact (branch and bound over the partitions into the sizes, in a seeded player order,
  so ties between optimal seatings fall to the seed); above it a local search: a greedy start,
  then the best improving swap of two players at different tables until none is left, then
  seeded random kicks (a few swaps, then the same descent, kept when not worse), over several
  seeded restarts, all with fixed iteration counts.
- ``swiss``: by standings, fewest repeats first. A round costs ``Σ met²`` as for ``balanced``,
  and of the seatings with the least of it the one whose tables are closest in the standings:
  the least ``Σ |a - b|`` over the pairs at the same table, ``a`` and ``b`` being the players'
  places among those seated (a place is how many seated players rank strictly better, so
  players who share a rank share its place and no gap separates them). So the top group sits
  together unless that repeats opponents, and a repeat is taken only where no seating avoids
  it, at the top or the bottom alike. Up to
  ``SWISS_EXACT_LIMIT`` seated players the search is exact (the branch and bound of
  ``balanced`` over both costs at once, one repeat outweighing any spread of places); above it
  the local search of ``balanced`` over both costs, its first start the tables filled top-down
  (table 1 takes the best unseated player and the rest of its seats from the next ones, within
  a window of twice the free seats, fewest repeats first); above ``SWISS_LOCAL_LIMIT`` only its
  descent from that start. Unpinned tables of one size are numbered best group first.

Pairs kept apart (``apart``: couples, a parent and child) come before everything else. Every
method seats as few of them together as any seating could, and only then looks at its own aim:
``balanced`` and ``swiss`` weigh one such pair above every repeat (a repeat still outweighs
every spread of places), ``random`` keeps its shuffle when it meets none and otherwise searches
the seatings for the fewest (the exact search up to ``EXACT_LIMIT`` seated players, in the
shuffled order, else the local search from the shuffle), and ``rating`` keeps its serpentine
when it meets none. A pair that cannot be kept apart (too few tables, or both pinned to one
table) is seated together; ``seating_report`` names it for the organiser.

- ``rating`` (a first round seeded by the club's rating list, ``standings`` giving it best
  first): a serpentine over the tables, 1, 2, … n, n, … 2, 1, 1, 2, …, a full table skipped,
  so the top seeds are at different tables and every table gets one player of each band of
  ``n``. When that seats a pair kept apart: the seating with the fewest of them, then the
  fewest players of one band at one table (the same searches).

Seat order (position 0 deals first): ``random`` is a seeded shuffle of each table; ``rotating``
sorts each table by how often the player dealt first so far (``first_deals``), fewest first,
ties in a seeded random order, so over the rounds the first deal passes to who had it least.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from .errors import ScoringError

Method = Literal["random", "balanced", "swiss", "rating"]
SeatOrder = Literal["random", "rotating"]

# Seated players up to which ``balanced`` searches exhaustively (12 into 4,4,4: 5775 partitions).
EXACT_LIMIT = 12
# The same for ``swiss``: its place gaps let the branch and bound prune enough to go further.
SWISS_EXACT_LIMIT = 16
# Seated players up to which ``swiss`` runs the whole local search of ``balanced``.
SWISS_LOCAL_LIMIT = 100
# The local search's effort above EXACT_LIMIT: restarts, and kicks (perturbation + descent) each.
RESTARTS = 5
KICKS = 25
KICK_SWAPS = 3

_EMPTY: Mapping[int, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class TableLimits:
    """How many players a table holds, and the size a tournament prefers (``table_preferred``
    of the family, or the organiser's choice)."""

    minimum: int
    maximum: int
    preferred: int

    def __post_init__(self) -> None:
        if not 2 <= self.minimum <= self.preferred <= self.maximum:
            raise ScoringError(
                "seating_limits", minimum=self.minimum, maximum=self.maximum, preferred=self.preferred
            )


@dataclass(frozen=True, slots=True)
class Seating:
    """One round: ``tables[i]`` is table number ``i + 1``, its players in seat order (position 0
    deals first); ``byes`` sit this round out (sorted)."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def _balanced_sizes(players: int, limits: TableLimits) -> tuple[int, ...] | None:
    """Balanced sizes for ``players`` within the limits, the table count nearest to the preferred
    one first; None when no count fits."""
    first = math.ceil(players / limits.preferred)
    for distance in range(players + 1):
        for tables in (first - distance, first + distance) if distance else (first,):
            if not 1 <= tables <= players:
                continue
            small, big = divmod(players, tables)
            if small >= limits.minimum and small + (big > 0) <= limits.maximum:
                return (small + 1,) * big + (small,) * (tables - big)
    return None


def table_sizes(
    players: int, limits: TableLimits, *, byes_allowed: bool = True
) -> tuple[tuple[int, ...], int]:
    """(table sizes, largest first; number of byes) for ``players`` checked-in players, by the
    rule in the module docstring."""
    if players < limits.minimum:
        raise ScoringError("seating_too_few", players=players, minimum=limits.minimum)
    sizes = _balanced_sizes(players, limits)
    if sizes is not None:
        return sizes, 0
    if not byes_allowed:
        fewer = next(m for m in range(players - 1, 0, -1) if _balanced_sizes(m, limits) is not None)
        more = next(m for m in itertools.count(players + 1) if _balanced_sizes(m, limits) is not None)
        raise ScoringError(
            "seating_no_fit",
            players=players,
            minimum=limits.minimum,
            maximum=limits.maximum,
            fewer=fewer,
            more=more,
        )
    for seated in range(players - 1, limits.minimum - 1, -1):
        sizes = _balanced_sizes(seated, limits)
        if sizes is not None:
            return sizes, players - seated
    raise AssertionError("a single table of the minimum size always fits")  # pragma: no cover


def _pairs(tables: Iterable[Sequence[int]]) -> Iterable[frozenset[int]]:
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            yield frozenset((a, b))


def met_counts(history: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """How often each pair of players sat at the same table in ``history`` (one entry per table
    of every earlier round)."""
    met: dict[frozenset[int], int] = {}
    for pair in _pairs(history):
        met[pair] = met.get(pair, 0) + 1
    return met


def pair_cost(tables: Iterable[Sequence[int]], history: Iterable[Sequence[int]]) -> int:
    """``Σ met²`` over the pairs sharing a table in ``tables``: what ``balanced`` minimises."""
    met = met_counts(history)
    return sum(met.get(pair, 0) ** 2 for pair in _pairs(tables))


def repeats(tables: Iterable[Sequence[int]], history: Iterable[Sequence[int]]) -> int:
    """How many pairs sharing a table in ``tables`` already met in ``history``."""
    met = met_counts(history)
    return sum(1 for pair in _pairs(tables) if pair in met)


def repeated_pairs(table: Sequence[int], history: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
    """The pairs at ``table`` who already met (each sorted, in sorted order): for warning an
    organiser who moves players by hand."""
    met = met_counts(history)
    found = {tuple(sorted(pair)) for pair in _pairs([table]) if pair in met}
    return sorted((a, b) for a, b in found)


# --- the searches, over player indices 0..n-1 and a weight matrix w[a][b] = met² -------------------


def _exact(
    order: Sequence[int], sizes: Sequence[int], fixed: Sequence[Sequence[int]], w: Sequence[Sequence[int]]
) -> list[list[int]]:
    """The cheapest partition of ``order`` (plus ``fixed[t]`` at table t) into ``sizes``; of
    equally cheap ones the first in ``order``'s branching order. Empty unpinned tables of the same
    size are interchangeable, so a player opens at most one of them."""
    tables = [list(f) for f in fixed]
    cost = sum(w[a][b] for f in fixed for a, b in itertools.combinations(f, 2))
    best_cost = math.inf
    best: list[list[int]] = []
    count = len(order)

    def place(k: int, cost: int) -> None:
        nonlocal best_cost, best
        if k == count:
            best_cost = cost
            best = [list(t) for t in tables]
            return
        player = order[k]
        row = w[player]
        opened: set[int] = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            if not table:
                if sizes[t] in opened:
                    continue
                opened.add(sizes[t])
            added = cost + sum(row[x] for x in table)
            if added < best_cost:
                table.append(player)
                place(k + 1, added)
                table.pop()

    place(0, cost)
    return best


class _Partition:
    """A partition being improved by swaps: each player's table, what he would pay at every
    table (``at[p][t]``, his weights to its players) and the cost, kept up to date per swap."""

    __slots__ = ("at", "cost", "log", "movable", "seat", "w")

    def __init__(
        self, tables: Sequence[Sequence[int]], w: Sequence[Sequence[int]], movable: Sequence[int]
    ) -> None:
        n = len(w)
        self.w = w
        self.movable = movable
        self.seat = [0] * n
        for t, table in enumerate(tables):
            for p in table:
                self.seat[p] = t
        self.at = [[sum(w[p][x] for x in table) for table in tables] for p in range(n)]
        self.cost = sum(self.at[p][self.seat[p]] for p in range(n)) // 2
        self.log: list[tuple[int, int]] = []

    def delta(self, a: int, b: int) -> int:
        """The change in cost if ``a`` and ``b`` (at different tables) swapped seats."""
        ta, tb = self.seat[a], self.seat[b]
        at_a, at_b, wab = self.at[a], self.at[b], self.w[a][b]
        return at_a[tb] - wab - at_a[ta] + at_b[ta] - wab - at_b[tb]

    def swap(self, a: int, b: int) -> None:
        self.cost += self.delta(a, b)
        self.log.append((a, b))
        seat, at = self.seat, self.at
        ta, tb = seat[a], seat[b]
        row_a, row_b = self.w[a], self.w[b]
        for p in range(len(seat)):
            shift = row_a[p] - row_b[p]
            if shift:
                at[p][ta] -= shift
                at[p][tb] += shift
        seat[a], seat[b] = tb, ta

    def descend(self) -> None:
        """Each paying player, in turn, takes his best improving swap, until none is left."""
        seat, at, w, movable = self.seat, self.at, self.w, self.movable
        improved = True
        while improved:
            improved = False
            for a in movable:
                ta = seat[a]
                at_a, wa = at[a], w[a]
                here = at_a[ta]
                if here == 0:
                    continue
                best_delta, partner = 0, -1
                for b in movable:
                    tb = seat[b]
                    if tb != ta:
                        at_b = at[b]
                        delta = at_a[tb] - 2 * wa[b] - here + at_b[ta] - at_b[tb]
                        if delta < best_delta:
                            best_delta, partner = delta, b
                if partner >= 0:
                    self.swap(a, partner)
                    improved = True

    def tables(self, count: int) -> list[list[int]]:
        tables: list[list[int]] = [[] for _ in range(count)]
        for p, t in enumerate(self.seat):
            tables[t].append(p)
        return tables


def _local(
    movable: Sequence[int],
    sizes: Sequence[int],
    fixed: Sequence[Sequence[int]],
    w: Sequence[Sequence[int]],
    rng: random.Random,
    restarts: int,
    kicks: int,
    start: Sequence[Sequence[int]] = (),
) -> list[list[int]]:
    """A cheap partition by local search (see the module docstring); deterministic in ``rng``.
    ``start``, when given, replaces the first restart's greedy start."""
    best: _Partition | None = None
    for restart in range(restarts):
        # Greedy start: players in a seeded order, each to the table where he adds least.
        tables = [list(f) for f in fixed]
        order = list(movable)
        rng.shuffle(order)
        for player in order:
            row = w[player]
            target = min(
                (t for t in range(len(sizes)) if len(tables[t]) < sizes[t]),
                key=lambda t: (sum(row[x] for x in tables[t]), len(tables[t]), t),
            )
            tables[target].append(player)
        if restart == 0 and start:
            tables = [list(t) for t in start]
        part = _Partition(tables, w, movable)
        part.descend()
        for _ in range(kicks if len(movable) > 1 else 0):
            if part.cost == 0:
                break
            part.log.clear()
            saved = part.cost
            for _ in range(KICK_SWAPS):
                a, b = rng.sample(movable, 2)
                if part.seat[a] != part.seat[b]:
                    part.swap(a, b)
            part.descend()
            if part.cost > saved:  # undo the kick and its descent: a swap is its own inverse
                for a, b in reversed(part.log[:]):
                    part.swap(a, b)
        if best is None or part.cost < best.cost:
            best = part
        if best.cost == 0:
            break
    assert best is not None
    return best.tables(len(sizes))


def _top_down(
    ranked: Sequence[int], sizes: Sequence[int], fixed: Sequence[Sequence[int]], w: Sequence[Sequence[int]]
) -> list[list[int]]:
    """Tables filled top-down over ``ranked`` (unpinned, best first): the local search's start."""
    left = list(ranked)
    tables: list[list[int]] = []
    for size, pins in zip(sizes, fixed, strict=True):
        free = size - len(pins)
        if free == 0:
            tables.append(list(pins))
            continue
        anchor, window = left[0], left[1 : 2 * free]
        base = [*pins, anchor]
        choice = min(
            itertools.combinations(range(len(window)), free - 1),
            key=lambda picked: (
                sum(w[a][b] for a, b in itertools.combinations(base + [window[i] for i in picked], 2)),
                sum(picked),
            ),
        )
        chosen = [anchor] + [window[i] for i in choice]
        tables.append([*pins, *chosen])
        taken = set(chosen)
        left = [p for p in left if p not in taken]
    return tables


def _swiss(
    ranked: Sequence[int],
    sizes: Sequence[int],
    fixed: Sequence[Sequence[int]],
    w: Sequence[Sequence[int]],
    place: Sequence[int],
    rng: random.Random,
    effort: int,
) -> list[list[int]]:
    """Swiss tables over ``ranked`` (unpinned, best first); ``place[p]`` is player p's place
    among the seated (0 best). See the module docstring."""
    n = len(w)
    # More than any sum of place gaps: one repeat weighs more than every spread of places.
    repeat = n**3
    cost = [[w[a][b] * repeat + abs(place[a] - place[b]) for b in range(n)] for a in range(n)]
    if n <= SWISS_EXACT_LIMIT:
        tables = _exact(ranked, sizes, fixed, cost)
    else:
        # Past a club's size the kicks and restarts would take seconds: one descent only.
        restarts, kicks = (RESTARTS * effort, KICKS) if n <= SWISS_LOCAL_LIMIT else (1, 0)
        start = _top_down(ranked, sizes, fixed, w)
        tables = _local(ranked, sizes, fixed, cost, rng, restarts, kicks, start=start)
    # Tables without pins are interchangeable within a size: the best group gets the lowest number.
    for size in set(sizes):
        slots = [t for t, table in enumerate(fixed) if not table and sizes[t] == size]
        groups = sorted((tables[t] for t in slots), key=lambda table: min(place[p] for p in table))
        for t, group in zip(slots, groups, strict=True):
            tables[t] = sorted(group, key=lambda p: place[p])
    return tables


def seat_round(
    players: Sequence[int],
    *,
    limits: TableLimits,
    method: Method,
    seed: int,
    history: Sequence[Sequence[int]] = (),
    standings: Sequence[int] = (),
    ranks: Sequence[int] = (),
    byes_so_far: Mapping[int, int] = _EMPTY,
    pinned: Mapping[int, int] = _EMPTY,
    first_deals: Mapping[int, int] = _EMPTY,
    seat_order: SeatOrder = "random",
    byes_allowed: bool = True,
    effort: int = 1,
    apart: Iterable[Sequence[int]] = (),
) -> Seating:
    """Seat this round's checked-in ``players``.

    ``history`` holds every table of the earlier rounds (player lists); ``standings`` the players
    best first (swiss, and who gets a bye); ``ranks`` their ranks beside them (players who share a
    rank share its place for swiss; without ranks every place differs); ``byes_so_far`` and
    ``first_deals`` count per player;
    ``pinned`` maps a player to his 1-based table number (entries for players not checked in are
    ignored). Raises ``ScoringError`` (``seating_too_few``, ``seating_no_fit``,
    ``seating_pin_table``, ``seating_pin_full``) for arrangements the organiser must change.
    ``effort`` multiplies the local search's restarts (the benchmark's longer search).
    ``apart`` lists pairs to keep at different tables whenever a seating can (see above).
    """
    ids = sorted(set(players))
    if len(ids) != len(players):
        raise ValueError("a player is listed twice")
    sizes, bye_count = table_sizes(len(ids), limits, byes_allowed=byes_allowed)
    present = set(ids)
    ranked = list(dict.fromkeys(p for p in standings if p in present))
    listed = set(ranked)
    ranked += [p for p in ids if p not in listed]
    position = {p: i for i, p in enumerate(ranked)}
    pins = {p: t for p, t in pinned.items() if p in present}

    by_bye = sorted(ids, key=lambda p: (p in pins, byes_so_far.get(p, 0), -position[p]))
    byes = sorted(by_bye[:bye_count])
    seated = sorted(by_bye[bye_count:])

    fixed: list[list[int]] = [[] for _ in sizes]
    for player in sorted(p for p in pins if p not in byes):
        table = pins[player]
        if not 1 <= table <= len(sizes):
            raise ScoringError("seating_pin_table", player=player, table=table, tables=len(sizes))
        fixed[table - 1].append(player)
    for number, (size, pins_here) in enumerate(zip(sizes, fixed, strict=True), 1):
        if len(pins_here) > size:
            raise ScoringError("seating_pin_full", table=number, pinned=len(pins_here), size=size)

    rng = random.Random(seed)
    index = {p: i for i, p in enumerate(seated)}
    fixed_idx = [[index[p] for p in f] for f in fixed]
    free = [index[p] for p in seated if p not in pins]
    kept = _apart_matrix(index, apart)
    if method == "random":
        rng.shuffle(free)
        tables_idx = [list(f) for f in fixed_idx]
        for t, size in enumerate(sizes):
            while len(tables_idx[t]) < size:
                tables_idx[t].append(free.pop())
        if kept is not None and _cost(tables_idx, kept):
            tables_idx = _fewest(_free_order(tables_idx, fixed_idx), sizes, fixed_idx, kept, rng, tables_idx)
    elif method == "rating":
        by_place = sorted(range(len(seated)), key=lambda i: position[seated[i]])
        unpinned = set(free)
        order = [i for i in by_place if i in unpinned]
        tables_idx = _serpentine(order, sizes, fixed_idx)
        if kept is not None and _cost(tables_idx, kept):
            band = {p: k // len(sizes) for k, p in enumerate(order)}
            heavy = 1 + len(seated) ** 2  # more than every band clash together
            w = [
                [
                    kept[a][b] * heavy + (a != b and a in band and band.get(b) == band[a])
                    for b in range(len(seated))
                ]
                for a in range(len(seated))
            ]
            tables_idx = _fewest(order, sizes, fixed_idx, w, rng, tables_idx)
    else:
        w = _weights(seated, index, history)
        if kept is not None:
            heavy = 1 + sum(map(sum, w)) // 2  # more than every repeat together
            w = [
                [x + k * heavy for x, k in zip(row, kept_row, strict=True)]
                for row, kept_row in zip(w, kept, strict=True)
            ]
        if method == "swiss":
            by_place = sorted(range(len(seated)), key=lambda i: position[seated[i]])
            place = _places(seated, position, dict(zip(standings, ranks, strict=True)) if ranks else {})
            unpinned = set(free)
            order = [i for i in by_place if i in unpinned]
            tables_idx = _swiss(order, sizes, fixed_idx, w, place, rng, effort)
        elif len(seated) <= EXACT_LIMIT:
            rng.shuffle(free)
            tables_idx = _exact(free, sizes, fixed_idx, w)
        else:
            tables_idx = _local(free, sizes, fixed_idx, w, rng, RESTARTS * effort, KICKS)
    tables = [[seated[i] for i in table] for table in tables_idx]
    return Seating(
        tables=tuple(_seat_order(t, seat_order, first_deals, rng) for t in tables), byes=tuple(byes)
    )


def _free_order(tables: Sequence[Sequence[int]], fixed: Sequence[Sequence[int]]) -> list[int]:
    """The unpinned players of ``tables`` in table order (a seating's own order, for a search
    that should break its ties the same way)."""
    pinned = {p for f in fixed for p in f}
    return [p for table in tables for p in table if p not in pinned]


def _apart_matrix(index: Mapping[int, int], apart: Iterable[Sequence[int]]) -> list[list[int]] | None:
    """``kept[a][b] = 1`` for the seated pairs kept apart (by index); None when there are none."""
    n = len(index)
    kept = [[0] * n for _ in range(n)]
    found = False
    for pair in apart:
        a, b = pair
        if a != b and a in index and b in index:
            kept[index[a]][index[b]] = kept[index[b]][index[a]] = 1
            found = True
    return kept if found else None


def _cost(tables: Iterable[Sequence[int]], w: Sequence[Sequence[int]]) -> int:
    return sum(w[a][b] for table in tables for a, b in itertools.combinations(table, 2))


def _fewest(
    order: Sequence[int],
    sizes: Sequence[int],
    fixed: Sequence[Sequence[int]],
    w: Sequence[Sequence[int]],
    rng: random.Random,
    start: Sequence[Sequence[int]],
) -> list[list[int]]:
    """The cheapest seating by ``w`` (the exact search up to ``EXACT_LIMIT`` players, branching
    in ``order``; else the local search from ``start``)."""
    if len(w) <= EXACT_LIMIT:
        return _exact(order, sizes, fixed, w)
    return _local(order, sizes, fixed, w, rng, RESTARTS, KICKS, start=start)


def _serpentine(
    order: Sequence[int], sizes: Sequence[int], fixed: Sequence[Sequence[int]]
) -> list[list[int]]:
    """``order`` (best first) dealt over the tables 1 … n, n … 1, 1 …, a full table skipped."""
    tables = [list(f) for f in fixed]
    count = len(sizes)
    lanes = list(range(count)) + list(range(count - 1, -1, -1))
    step = 0
    for player in order:
        while len(tables[lanes[step % len(lanes)]]) >= sizes[lanes[step % len(lanes)]]:
            step += 1
        tables[lanes[step % len(lanes)]].append(player)
        step += 1
    return tables


def _places(seated: Sequence[int], position: Mapping[int, int], rank: Mapping[int, int]) -> list[int]:
    """Each seated player's place among the seated (0 best): how many seated players rank
    strictly better. Players sharing a rank share its place; a player without a rank (not in
    the standings) ranks below everyone listed, by ``position``."""
    below = max(rank.values(), default=0) + 1
    keys = [rank.get(p, below + position[p]) if rank else position[p] for p in seated]
    ordered = sorted(keys)
    return [bisect.bisect_left(ordered, key) for key in keys]


def _weights(
    seated: Sequence[int], index: Mapping[int, int], history: Iterable[Sequence[int]]
) -> list[list[int]]:
    """``w[a][b] = met²`` between the seated players (by index)."""
    n = len(seated)
    w = [[0] * n for _ in range(n)]
    for pair, times in met_counts(history).items():
        a, b = pair
        if a in index and b in index:
            w[index[a]][index[b]] = w[index[b]][index[a]] = times * times
    return w


def _seat_order(
    table: list[int], seat_order: SeatOrder, first_deals: Mapping[int, int], rng: random.Random
) -> tuple[int, ...]:
    ordered = sorted(table)
    rng.shuffle(ordered)
    if seat_order == "rotating":
        ordered.sort(key=lambda p: first_deals.get(p, 0))
    return tuple(ordered)


@dataclass(frozen=True, slots=True)
class SeatingReport:
    """What an organiser checks before publishing a round's seating.

    ``repeats``: pairs at one table who met before, with how often (``(a, b, times)``, a < b).
    ``size_again``: when the round's tables differ in size, the players at a smaller table who
    sat at a smaller table of an earlier round with tables of different sizes, and likewise the
    bigger ones (``(player, "smaller" | "bigger", times before)``). ``apart_met``: pairs kept
    apart who share a table (a < b). Each sorted."""

    repeats: tuple[tuple[int, int, int], ...]
    size_again: tuple[tuple[int, str, int], ...]
    apart_met: tuple[tuple[int, int], ...]

    def __bool__(self) -> bool:
        return bool(self.repeats or self.size_again or self.apart_met)


def _size_kinds(tables: Sequence[Sequence[int]]) -> dict[int, str]:
    """Each player's table kind in a round whose tables differ in size ("smaller" below the
    largest size, "bigger" above the smallest; one of them for two sizes)."""
    sizes = [len(t) for t in tables if t]
    if not sizes or min(sizes) == max(sizes):
        return {}
    low, high = min(sizes), max(sizes)
    kinds: dict[int, str] = {}
    for table in tables:
        kind = "smaller" if len(table) < high else "bigger" if len(table) > low else ""
        for p in table:
            if kind:
                kinds[p] = kind
    return kinds


def seating_report(
    tables: Sequence[Sequence[int]],
    earlier: Sequence[Sequence[Sequence[int]]],
    apart: Iterable[Sequence[int]] = (),
) -> SeatingReport:
    """The report on a round's ``tables`` after the ``earlier`` rounds (each a list of tables)
    for the pairs kept ``apart``."""
    met = met_counts(table for round_tables in earlier for table in round_tables)
    pairs = {tuple(sorted(pair)) for pair in _pairs(tables)}
    found = sorted((a, b, met[frozenset((a, b))]) for a, b in pairs if frozenset((a, b)) in met)
    kept = {frozenset(p) for p in apart if len(set(p)) == 2}
    apart_met = sorted((a, b) for a, b in pairs if frozenset((a, b)) in kept)
    before: dict[tuple[int, str], int] = {}
    for round_tables in earlier:
        for player, kind in _size_kinds(round_tables).items():
            before[player, kind] = before.get((player, kind), 0) + 1
    again = sorted(
        (player, kind, before[player, kind])
        for player, kind in _size_kinds(tables).items()
        if (player, kind) in before
    )
    return SeatingReport(repeats=tuple(found), size_again=tuple(again), apart_met=tuple(apart_met))
