"""Table points and tournament standings with tie-breaks: pure functions, no Django.

A tournament round seats players at tables; each table is one game whose competition places
(``ranking.competition_places``: ties shared, "1224") earn *table points* by a scheme. A
player's tournament points are his table points plus bye points; the standings order players
by points and then by the organiser's tie-breaks, and say for each row which tie-break put it
below the row above.

Numbers: every point value here is an exact :class:`fractions.Fraction` (table points, bye
points, tournament points, opponents' points, average place). Shared places average points
(7 and 5 → 6; at custom lists thirds and sevenths appear), and a float sum could make two
players who earned the same points compare unequal, so a tie-break would "separate" them by
rounding noise. The web layer formats them (``float(value)``) only for display.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm
from typing import Literal, cast, get_args

from .errors import ScoringError
from .ranking import head_to_head

Scheme = Literal["table", "win", "score", "custom"]
Tiebreak = Literal[
    "points",
    "game_score",
    "average_place",
    "firsts",
    "opponents_points",
    "head_to_head",
    "game_score_average",
]
SharedBy = Literal["knockout", "final"]

SCHEMES: tuple[Scheme, ...] = get_args(Scheme)
TIEBREAKS: tuple[Tiebreak, ...] = get_args(Tiebreak)
# The game score per table, not summed: a player who missed a round (a bye, a late arrival, a
# drop-out) is neither helped nor hurt by the table he did not sit at. Where everyone sat at
# every round it orders players exactly as the sum does.
DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (
    "points",
    "game_score_average",
    "average_place",
    "firsts",
    "opponents_points",
    "head_to_head",
)

# Points by place (index 0 = first) per table size, as ``parse_custom_points`` returns them.
CustomPoints = Mapping[int, Sequence[Fraction | int]]

# The points a seat is worth on average under the default scheme, whatever the table size.
TABLE_AVERAGE = Fraction(4)


# --- Table points ---------------------------------------------------------------------------


def place_points(size: int, *, scheme: Scheme, custom: CustomPoints | None = None) -> tuple[Fraction, ...]:
    """Points for places 1..size at a table of ``size`` players, before ties are shared
    (``score`` has none: it uses the totals).

    ``table``: 1 + 6·(n−k)/(n−1), so 7 for first and 1 for last at every size and an average
    of 4 a seat, which makes tables of different sizes in one round worth the same per seat.
    A table of one (a player left alone) gets that average, 4: there is nobody to beat or lose
    to, and 7 would reward sitting alone. ``win``: 1 for first, else 0 (a lone player wins).
    """
    if size < 1:
        raise ValueError(f"a table needs a player, not {size}")
    if scheme == "table":
        if size == 1:
            return (TABLE_AVERAGE,)
        return tuple(1 + Fraction(6 * (size - k), size - 1) for k in range(1, size + 1))
    if scheme == "win":
        return (Fraction(1),) + (Fraction(0),) * (size - 1)
    if scheme == "custom":
        if custom is None:
            raise ValueError("the custom scheme needs its points list")
        if size not in custom:
            raise ScoringError("points_custom_size", size=size)
        return _checked_row(size, custom[size])
    raise ValueError(f"the {scheme} scheme has no points by place")


def _checked_row(size: int, row: Sequence[Fraction | int]) -> tuple[Fraction, ...]:
    """One custom row: one value per place, never more for a worse place."""
    if len(row) != size:
        raise ScoringError("points_custom_count", size=size, count=len(row))
    points = tuple(Fraction(p) for p in row)
    for place in range(1, size):
        if points[place] > points[place - 1]:
            raise ScoringError("points_custom_order", size=size, place=place + 1)
    return points


def check_custom_points(custom: CustomPoints) -> dict[int, tuple[Fraction, ...]]:
    """Every row of a custom points list checked (see ``_checked_row``), as Fractions."""
    checked: dict[int, tuple[Fraction, ...]] = {}
    for size, row in custom.items():
        if size < 1:
            raise ScoringError("points_custom_bad_size", value=size)
        checked[size] = _checked_row(size, row)
    return checked


def table_points(
    places: Sequence[int],
    totals: Sequence[int],
    *,
    scheme: Scheme = "table",
    lower_is_better: bool,
    custom: CustomPoints | None = None,
) -> tuple[Fraction, ...]:
    """Points each seat of one table earns, in the order of ``places`` (competition places,
    ties shared: [1, 1, 3, 4]).

    Players tied at place k with m-1 others cover places k..k+m-1 and share the average of
    their points, so ties never create or destroy points: a table's points add up to the same
    sum whatever the ties (4·n under ``table``). ``score`` is the family's raw total, negated
    when lower is better, so more points are always better; ties need no sharing there.
    """
    if len(places) != len(totals):
        raise ValueError("a table needs one total per place")
    check_places(places)
    if scheme == "score":
        return tuple(Fraction(-t if lower_is_better else t) for t in totals)
    by_place = (
        _place_points(len(places), scheme)
        if scheme != "custom"
        else place_points(len(places), scheme=scheme, custom=custom)
    )
    if len(set(places)) == len(places):  # no tie: nothing to share (the common case, fast)
        return tuple(by_place[place - 1] for place in places)
    tied: dict[int, int] = defaultdict(int)
    for place in places:
        tied[place] += 1
    return tuple(
        sum(by_place[place - 1 : place - 1 + tied[place]], Fraction(0)) / tied[place] for place in places
    )


@cache
def _place_points(size: int, scheme: Scheme) -> tuple[Fraction, ...]:
    """``place_points`` of the fixed schemes, computed once per table size (standings call it
    for every table of a tournament)."""
    return place_points(size, scheme=scheme)


def check_places(places: Sequence[int]) -> None:
    """Places must be competition places: each is 1 + the number of players placed better
    (a programming error otherwise: ``ValueError``)."""
    for place in places:
        if place != 1 + sum(1 for other in places if other < place):
            raise ValueError(f"not competition places: {list(places)}")


def bye_points(round_points: Iterable[Fraction | int]) -> Fraction:
    """A bye's points: the average of the table points awarded to the seated players of the
    round (4 under ``table``), so a bye neither helps nor hurts on average. 0 in a round where
    nobody was seated (there is nothing to average)."""
    values = [Fraction(p) for p in round_points]
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


_SIZE_RE = re.compile(r"\s*(\d+)\s*$")


def parse_custom_points(text: str) -> dict[int, tuple[Fraction, ...]]:
    """An organiser's custom points list: ``"4: 5 3 2 0; 3: 4 2 0; 2: 3 0"``.

    Rows are separated by ``;`` (or new lines), each ``size: points by place`` separated by
    spaces. A point value may be a decimal with a point or a comma (``2.5``, ``2,5``) or a
    fraction (``5/2``). Errors are coded (``points_custom_*``) for the form to show.
    """
    rows: dict[int, tuple[Fraction, ...]] = {}
    for part in re.split(r"[;\n]", text):
        if not part.strip():
            continue
        size_text, colon, values_text = part.partition(":")
        if not colon:
            raise ScoringError("points_custom_syntax", part=part.strip())
        match = _SIZE_RE.fullmatch(size_text)
        if match is None or int(match.group(1)) < 1:
            raise ScoringError("points_custom_bad_size", value=size_text.strip())
        size = int(match.group(1))
        if size in rows:
            raise ScoringError("points_custom_duplicate", size=size)
        values: list[Fraction] = []
        for token in values_text.split():
            try:
                values.append(Fraction(token.replace(",", ".")))
            except (ValueError, ZeroDivisionError):
                raise ScoringError("points_custom_number", size=size, value=token) from None
        rows[size] = _checked_row(size, values)
    if not rows:
        raise ScoringError("points_custom_empty")
    return rows


# --- Standings ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a counted round: its players with their competition places and totals."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    rank: int  # competition rank ("1224"): shared when every tie-break is equal
    points: Fraction  # tournament points: table points + bye points
    game_score: int  # sum of his table totals, negated when lower is better (higher is better)
    game_score_average: Fraction | None  # game_score per table he sat at; None: no table
    average_place: Fraction | None  # mean of his places at his tables (lower is better); None: no table
    firsts: int  # tables he placed first at, shared firsts included
    opponents_points: Fraction  # each opponent's tournament points, once per table they met at
    tables: int
    byes: int
    # The first tie-break that puts him below the row above; None on row 1 and a shared rank.
    separated_by: Tiebreak | None
    penalty: Fraction = Fraction(0)  # points taken off by the organiser (already out of ``points``)
    # Why a final's players share a place: "knockout" (out in the same round of it), "final"
    # (tied at the final table); None: not a final's shared place (a shared rank of the
    # standings is equal on every tie-break).
    shared_by: SharedBy | None = None


def parse_tiebreaks(keys: Iterable[str]) -> tuple[Tiebreak, ...]:
    """An organiser's tie-break order, checked: known keys, none twice.

    ``points`` is always the first key: it is what the tournament is played for, and a
    tie-break list that ranked by, say, game score first would make the points meaningless.
    It is put first when missing or listed later; the other keys keep the order given.
    """
    return cast(tuple[Tiebreak, ...], parse_order(keys, TIEBREAKS))


def parse_order(keys: Iterable[str], known: Sequence[str]) -> tuple[str, ...]:
    """A tie-break order checked against the ``known`` keys (``known[0]`` is ``points``):
    none unknown (``tiebreak_unknown``) or twice (``tiebreak_duplicate``), ``points`` put
    first. Shared by the tournament standings and the league standings."""
    seen: list[str] = []
    for key in keys:
        if key not in known:
            raise ScoringError("tiebreak_unknown", key=key, known=", ".join(known))
        if key in seen:
            raise ScoringError("tiebreak_duplicate", key=key)
        seen.append(key)
    return ("points", *(key for key in seen if key != "points"))


@dataclass(slots=True)
class _Tally:
    points: Fraction = Fraction(0)
    game_score: int = 0
    places: int = 0
    tables: int = 0
    firsts: int = 0
    byes: int = 0


def standings(
    players: Sequence[int],
    tables: Sequence[TableResult],
    byes: Sequence[tuple[int, int]],
    *,
    lower_is_better: bool,
    scheme: Scheme = "table",
    custom: CustomPoints | None = None,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    penalties: Mapping[int, Fraction | int] | None = None,
) -> tuple[Standing, ...]:
    """The standings of a tournament from the tables of its counted rounds and its byes
    (``(round, player)``), best first.

    ``penalties`` are the points the organiser took off a player (summed per player, not
    negative): out of his tournament points, so of the ``points`` key, and of nothing else. His
    opponents' points count the table points he earned, since the penalty punishes him, not
    those who played him; game score, places and the byes' points are the tables' own.

    Players are ordered by ``tiebreaks`` (see ``parse_tiebreaks``; ``points`` always first)
    one key after another: points, game score (summed, or per table: nobody-played last), firsts
    and opponents' points higher first, average place lower first (nobody-played last).
    ``head_to_head`` applies only to a group
    of exactly two players still tied at that point who met: whoever placed better at more of
    their shared tables is ahead; a larger group or a level record is not separated by it.
    Players equal on every key share the rank; they are listed in the order of ``players``.
    """
    order = parse_tiebreaks(tiebreaks)
    if scheme == "custom":
        if custom is None:
            raise ValueError("the custom scheme needs its points list")
        custom = check_custom_points(custom)
    known = set(players)
    if len(known) != len(players):
        raise ValueError("a player is listed twice")
    tally = {p: _Tally() for p in players}
    seated: dict[int, set[int]] = defaultdict(set)  # round -> players at a table or on a bye
    round_points: dict[int, list[Fraction]] = defaultdict(list)
    shared: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)  # (a, b) -> places

    def take_seat(round_: int, player: int) -> None:
        if player not in known:
            raise ValueError(f"player {player} is not in the tournament")
        if player in seated[round_]:
            raise ValueError(f"player {player} has two seats in round {round_}")
        seated[round_].add(player)

    earned_at: list[tuple[Fraction, ...]] = []
    for table in tables:
        if not (len(table.players) == len(table.places) == len(table.totals)) or not table.players:
            raise ValueError(f"a table of round {table.round} needs one place and total per player")
        for player in table.players:
            take_seat(table.round, player)
        earned = table_points(
            table.places, table.totals, scheme=scheme, lower_is_better=lower_is_better, custom=custom
        )
        earned_at.append(earned)
        round_points[table.round].extend(earned)
        for player, place, total in zip(table.players, table.places, table.totals, strict=True):
            t = tally[player]
            t.game_score += -total if lower_is_better else total
            t.places += place
            t.tables += 1
            t.firsts += place == 1
        for a, place_a in zip(table.players, table.places, strict=True):
            for b, place_b in zip(table.players, table.places, strict=True):
                if a != b:
                    shared[a, b].append((place_a, place_b))
    bye_worth: list[tuple[int, Fraction]] = []
    for round_, player in byes:
        take_seat(round_, player)
        bye_worth.append((player, bye_points(round_points.get(round_, ()))))
        tally[player].byes += 1
    # Points are summed in whole units of 1/scale (the common denominator of every value):
    # exact like Fractions, at the speed of integers (a 100-player, 8-round tournament has
    # thousands of additions).
    taken = {p: Fraction(v) for p, v in (penalties or {}).items() if v}
    for player, value in taken.items():
        if player not in known:
            raise ValueError(f"player {player} is not in the tournament")
        if value < 0:
            raise ValueError(f"a penalty takes points off, not {value}")
    scale = lcm(
        1,
        *(f.denominator for row in earned_at for f in row),
        *(f.denominator for _, f in bye_worth),
        *(f.denominator for f in taken.values()),
    )
    units: dict[int, int] = dict.fromkeys(players, 0)
    for table, earned in zip(tables, earned_at, strict=True):
        for player, got in zip(table.players, earned, strict=True):
            units[player] += got.numerator * (scale // got.denominator)
    for player, worth in bye_worth:
        units[player] += worth.numerator * (scale // worth.denominator)
    # Opponents' points: every table's points sum, less his own, once per table he sat at.
    opponent_units: dict[int, int] = dict.fromkeys(players, 0)
    for table in tables:
        at_table = sum(units[p] for p in table.players)
        for player in table.players:
            opponent_units[player] += at_table - units[player]
    for player, value in taken.items():
        units[player] -= value.numerator * (scale // value.denominator)
    for player in players:
        tally[player].points = Fraction(units[player], scale)
    opponents = {p: Fraction(opponent_units[p], scale) for p in players}
    average = {p: Fraction(tally[p].places, tally[p].tables) if tally[p].tables else None for p in players}
    per_table = {
        p: Fraction(tally[p].game_score, tally[p].tables) if tally[p].tables else None for p in players
    }

    def sort_key(key: str, p: int) -> tuple[object, ...]:
        if key == "points":
            return (-units[p],)
        if key == "game_score":
            return (-tally[p].game_score,)
        if key == "game_score_average":
            score = per_table[p]
            return (1, Fraction(0)) if score is None else (0, -score)
        if key == "average_place":
            mean = average[p]
            return (1, Fraction(0)) if mean is None else (0, mean)
        if key == "firsts":
            return (-tally[p].firsts,)
        if key == "opponents_points":
            return (-opponent_units[p],)
        raise AssertionError(key)  # head_to_head is pairwise: see rank_by

    def pair(a: int, b: int) -> int:
        record = head_to_head(shared.get((a, b), []))
        return record.ahead - record.behind

    rows: list[Standing] = []
    for p, rank, separated_by in rank_by(players, order, sort_key, pair):
        t = tally[p]
        rows.append(
            Standing(
                player=p,
                rank=rank,
                points=t.points,
                game_score=t.game_score,
                game_score_average=per_table[p],
                average_place=average[p],
                firsts=t.firsts,
                opponents_points=opponents[p],
                tables=t.tables,
                byes=t.byes,
                separated_by=cast(Tiebreak | None, separated_by),
                penalty=taken.get(p, Fraction(0)),
            )
        )
    return tuple(rows)


def rank_by[K: Hashable](
    players: Sequence[K],
    order: Sequence[str],
    key_of: Callable[[str, K], tuple[object, ...]],
    head_to_head: Callable[[K, K], int] | None = None,
) -> list[tuple[K, int, str | None]]:
    """Rank ``players`` by the tie-break keys of ``order``: ``(player, rank, separated_by)``,
    best first.

    The whole field is split into groups tied so far, one key at a time: within a group,
    ``key_of(key, player)`` (comparable, lower is better) splits it into parts in ascending
    order. The key ``head_to_head`` is pairwise instead: it applies only to a group of exactly
    two, split when ``head_to_head(a, b)`` is not 0 (> 0: a is ahead); a larger group, or two
    who never met or are level, stay tied. Players equal on every key share the rank
    (competition ranking, "1224") and keep their order in ``players``. ``separated_by`` is the
    key that first put a row in a different group from the row above: None on the first row
    and on a shared rank.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if "head_to_head" in order and head_to_head is None:
        raise ValueError("the head_to_head key needs a head-to-head comparison")
    groups: list[list[K]] = [list(players)]
    path: dict[K, list[int]] = {p: [] for p in players}  # his part's index at each key
    for key in order:
        next_groups: list[list[K]] = []
        for group in groups:
            parts: list[list[K]]
            if len(group) == 1:
                parts = [group]
            elif key == "head_to_head":
                parts = _split_pair(group, cast(Callable[[K, K], int], head_to_head))
            else:
                keys = {p: key_of(key, p) for p in group}
                parts = []
                for p in sorted(group, key=keys.__getitem__):
                    if parts and keys[parts[-1][-1]] == keys[p]:
                        parts[-1].append(p)
                    else:
                        parts.append([p])
            for index, part in enumerate(parts):
                for p in part:
                    path[p].append(index)
            next_groups.extend(parts)
        groups = next_groups

    ranked: list[tuple[K, int, str | None]] = []
    for group in groups:
        rank = len(ranked) + 1
        for index, p in enumerate(group):
            separated_by: str | None = None
            if index == 0 and ranked:
                above = path[ranked[-1][0]]
                separated_by = next(
                    key for key, mine, theirs in zip(order, path[p], above, strict=True) if mine != theirs
                )
            ranked.append((p, rank, separated_by))
    return ranked


def _split_pair[K: Hashable](group: list[K], head_to_head: Callable[[K, K], int]) -> list[list[K]]:
    """A group of exactly two who met and did not level: split, the better first."""
    if len(group) != 2:
        return [group]
    a, b = group
    record = head_to_head(a, b)
    if record > 0:
        return [[a], [b]]
    if record < 0:
        return [[b], [a]]
    return [group]
