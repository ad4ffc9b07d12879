"""League (season) standings of a club: pure functions, no Django.

A club season counts *events*: each club game that is not part of a tournament, and each
tournament as a whole. Every event gives its players competition places (ties shared,
"1224"), and places earn *league points*:

- a game, by ``game_points``: ``table``, the tournament table points 1 + 6·(n−k)/(n−1)
  (``scoring.standings.table_points``: 7 for first, 1 for last, tied players share the
  average of the places they cover, a game of one is worth the seat average 4); or ``wdl``:
  a sole first place is a win, 3; a shared first place a draw, 1; any other place a loss, 0.
  A game of one is a draw (nobody was beaten, as ``table`` gives it the average);
- a tournament, by its final places: ``PRESET_PLACES`` (25, 18, 15, … 1; places beyond the
  list earn 0) or the organiser's list (``parse_place_points``); tied places share the
  average of the points of the places they cover, like table points.

A player's season points are the sum over his *counted* events. ``drop_worst`` K drops his
K events worth the fewest points, but only when he has more than K events; ``best_events`` N
then keeps his N events worth the most (0: all). Both may be set: dropping comes first, so
"drop 1, best 5" of 7 events keeps the best 5 of his best 6, which is the best 5 (the order
matters only when he has K+1..K+N events: "drop 2, best 5" of 6 events keeps the best 4).

Tie-breaks (``parse_league_tiebreaks``; ``points`` always first), each over *all* his events
of the season, not only the counted ones (which of two events worth the same points is
dropped is arbitrary, and a tie-break must not depend on it):

- ``wins``: first places, sole or shared, in games and tournaments alike (more is better);
- ``average_place``: the mean of his places (lower is better; nobody-played last);
- ``games``: the games he played (more is better; see ``min_games``);
- ``head_to_head``: only for exactly two players still tied who met: whoever placed better
  in more of the events both played (games and tournaments) is ahead.

``min_games`` M: a player with fewer than M games (club games and tournament tables; an
input per player, ``games_played``; by default the game events he played) is listed below
the line, after every ranked player, ordered among themselves by the same keys, with no rank
(``rank`` None: a number would read as a place in the league he has not qualified for).

Trend: ``previous_rank`` is his rank in the standings without the season's latest event
(every event with the greatest ``key``; keys are usually unique), or None when he had no
event before it or was below the line then.

Numbers are exact :class:`fractions.Fraction` (shared places give halves and thirds); sums
are taken in whole units of the common denominator, at the speed of integers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Literal, cast, get_args

from .errors import ScoringError
from .ranking import head_to_head
from .standings import check_places, parse_order, rank_by, table_points

GamePoints = Literal["table", "wdl"]
LeagueTiebreak = Literal["points", "wins", "average_place", "games", "head_to_head"]

GAME_POINTS: tuple[GamePoints, ...] = get_args(GamePoints)
LEAGUE_TIEBREAKS: tuple[LeagueTiebreak, ...] = get_args(LeagueTiebreak)
DEFAULT_LEAGUE_TIEBREAKS: tuple[LeagueTiebreak, ...] = ("points", "wins", "average_place", "head_to_head")

# League points of a tournament's final places 1..10 (index 0 = first); later places earn 0.
PRESET_PLACES: tuple[Fraction, ...] = tuple(Fraction(p) for p in (25, 18, 15, 12, 10, 8, 6, 4, 2, 1))

WDL_WIN = Fraction(3)
WDL_DRAW = Fraction(1)
WDL_LOSS = Fraction(0)


@dataclass(frozen=True, slots=True)
class LeagueEvent[K: Hashable]:
    """One event of the season: a club game or a whole tournament, with its players'
    competition places (ties shared, "1224")."""

    key: object  # orders events in time (comparable); the latest event is the trend's cut
    kind: Literal["game", "tournament"]
    players: tuple[K, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeagueStanding[K: Hashable]:
    player: K
    rank: int | None  # competition rank ("1224"); None below the line (fewer than min_games)
    points: Fraction  # league points of his counted events
    events: int  # events whose points count (after drop_worst and best_events)
    games: int  # games played: the input games_played, or the game events he played
    wins: int  # first places, sole or shared, in all his events
    average_place: Fraction | None  # mean place over all his events; None: no event
    # The first tie-break that puts him below the row above (below the line: the row above
    # among the unranked); None on the first row, the first unranked row and a shared rank.
    separated_by: LeagueTiebreak | None
    previous_rank: int | None  # his rank without the season's latest event (see the module)
    played: int = 0  # all his events, counted or not (what average_place is the mean over)


# --- Points of one event --------------------------------------------------------------------


def game_event_points(places: Sequence[int], scheme: GamePoints) -> tuple[Fraction, ...]:
    """League points of each seat of one club game, in the order of ``places``."""
    if scheme == "table":
        return table_points(places, [0] * len(places), scheme="table", lower_is_better=False)
    if scheme != "wdl":
        raise ValueError(f"no such game points scheme: {scheme}")
    check_places(places)
    firsts = sum(1 for place in places if place == 1)
    if len(places) == 1:
        return (WDL_DRAW,)
    return tuple((WDL_WIN if firsts == 1 else WDL_DRAW) if place == 1 else WDL_LOSS for place in places)


def tournament_event_points(
    places: Sequence[int], place_points: Sequence[Fraction] = PRESET_PLACES
) -> tuple[Fraction, ...]:
    """League points of each player of one tournament by his final place, in the order of
    ``places``: ``place_points[k - 1]`` for place k (0 beyond the list); players tied at
    place k with m−1 others share the average of places k..k+m−1."""
    check_places(places)
    tied: dict[int, int] = defaultdict(int)
    for place in places:
        tied[place] += 1

    def worth(place: int) -> Fraction:
        return place_points[place - 1] if place <= len(place_points) else Fraction(0)

    return tuple(
        sum((worth(k) for k in range(place, place + tied[place])), Fraction(0)) / tied[place]
        for place in places
    )


def check_place_points(values: Iterable[Fraction | int]) -> tuple[Fraction, ...]:
    """A tournament points list by place, checked: not empty, no negative value, never more
    for a worse place. Errors are coded (``league_places_*``)."""
    points = tuple(Fraction(v) for v in values)
    if not points:
        raise ScoringError("league_places_empty")
    for index, value in enumerate(points):
        if value < 0:
            raise ScoringError("league_places_negative", place=index + 1, value=str(value))
        if index and value > points[index - 1]:
            raise ScoringError("league_places_order", place=index + 1)
    return points


def parse_place_points(text: str) -> tuple[Fraction, ...]:
    """An organiser's tournament points by place: ``"10 8 6 5 4 3 2 1"`` (first place first,
    separated by spaces or ``;``). A value may be a decimal with a point or a comma (``2.5``,
    ``2,5``) or a fraction (``5/2``). Places after the list earn 0."""
    values: list[Fraction] = []
    for index, token in enumerate(text.replace(";", " ").split()):
        try:
            values.append(Fraction(token.replace(",", ".")))
        except (ValueError, ZeroDivisionError):
            raise ScoringError("league_places_number", place=index + 1, value=token) from None
    return check_place_points(values)


def parse_league_tiebreaks(keys: Iterable[str]) -> tuple[LeagueTiebreak, ...]:
    """An organiser's league tie-break order, checked (``tiebreak_unknown``,
    ``tiebreak_duplicate``), ``points`` put first."""
    return cast(tuple[LeagueTiebreak, ...], parse_order(keys, LEAGUE_TIEBREAKS))


EventMark = Literal["counted", "dropped_worst", "not_best"]


def event_marks[T: (int, Fraction)](
    points: Sequence[T], *, best_events: int = 0, drop_worst: int = 0
) -> list[EventMark]:
    """Whether each event's points count, in the order of ``points``: the ``drop_worst``
    lowest are dropped when there are more than that many, then only the ``best_events``
    highest of the rest count (0: all). Among equal points the earlier event counts, so a
    player's card names the same events whichever way he reads it."""
    order = sorted(range(len(points)), key=lambda i: (-points[i], i))  # best first, stable
    marks: list[EventMark] = ["counted"] * len(points)
    if drop_worst and len(order) > drop_worst:
        for i in order[-drop_worst:]:
            marks[i] = "dropped_worst"
        order = order[:-drop_worst]
    if best_events:
        for i in order[best_events:]:
            marks[i] = "not_best"
    return marks


def counted_points[T: (int, Fraction)](
    points: Sequence[T], *, best_events: int = 0, drop_worst: int = 0
) -> list[T]:
    """The event points that count (``event_marks``), best first."""
    marks = event_marks(points, best_events=best_events, drop_worst=drop_worst)
    return sorted((p for p, mark in zip(points, marks, strict=True) if mark == "counted"), reverse=True)


# --- Standings ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    """A player's events on one side of the trend's cut."""

    units: list[int] = field(default_factory=list)  # league points of each, in 1/scale
    place_sum: int = 0
    wins: int = 0
    events: int = 0
    games: int = 0

    def joined(self, other: _Tally) -> _Tally:
        return _Tally(
            self.units + other.units,
            self.place_sum + other.place_sum,
            self.wins + other.wins,
            self.events + other.events,
            self.games + other.games,
        )


@dataclass(frozen=True, slots=True)
class LeagueTally:
    """A player's season as the ranking reads it, summed over his events: what one more event
    adds to, so that a season can be brought up to date from its stored lines."""

    points: Fraction  # league points of his counted events
    counted: int  # events whose points count
    wins: int
    place_sum: int  # the sum of his places over all his events
    played: int  # all his events


NO_EVENTS = LeagueTally(Fraction(0), 0, 0, 0, 0)


def tally_with(tally: LeagueTally, place: int, points: Fraction) -> LeagueTally:
    """``tally`` and one more event, all of whose points count (no best-N, no dropping)."""
    return LeagueTally(
        tally.points + points,
        tally.counted + 1,
        tally.wins + (place == 1),
        tally.place_sum + place,
        tally.played + 1,
    )


def league_table[K: Hashable](
    players: Sequence[K],
    now: Mapping[K, LeagueTally],
    before: Mapping[K, LeagueTally],
    *,
    games_now: Callable[[K], int],
    games_then: Callable[[K], int],
    pair_now: Callable[[K, K], int],
    pair_then: Callable[[K, K], int],
    min_games: int = 0,
    tiebreaks: Sequence[str] = DEFAULT_LEAGUE_TIEBREAKS,
) -> tuple[LeagueStanding[K], ...]:
    """The standings from each player's tallies with the latest event (``now``) and without it
    (``before``, for the trend), best first (see the module for the rules). ``pair_*``: the
    head-to-head record of two players in those events (> 0: the first is ahead)."""
    order = parse_league_tiebreaks(tiebreaks)
    now_rows = _ranked(players, now, games_now, pair_now, order, min_games)
    previous: dict[K, int | None] = dict.fromkeys(players)
    for player, rank, _separated in _ranked(players, before, games_then, pair_then, order, min_games):
        if before[player].played:
            previous[player] = rank
    return tuple(
        LeagueStanding(
            player=p,
            rank=rank,
            points=now[p].points,
            events=now[p].counted,
            games=games_now(p),
            wins=now[p].wins,
            average_place=Fraction(now[p].place_sum, now[p].played) if now[p].played else None,
            separated_by=cast(LeagueTiebreak | None, separated),
            previous_rank=previous[p],
            played=now[p].played,
        )
        for p, rank, separated in now_rows
    )


def _keys[K: Hashable](
    tallies: Mapping[K, LeagueTally], games: Callable[[K], int]
) -> Callable[[str, K], tuple[object, ...]]:
    """Each tie-break's key of a player (``rank_by``'s ``key_of``; lower is better)."""
    # Points compared in whole units of their common denominator, at the speed of integers.
    scale = lcm(1, *(t.points.denominator for t in tallies.values()))
    units = {p: t.points.numerator * (scale // t.points.denominator) for p, t in tallies.items()}

    def key_of(key: str, p: K) -> tuple[object, ...]:
        t = tallies[p]
        if key == "points":
            return (-units[p],)
        if key == "wins":
            return (-t.wins,)
        if key == "average_place":
            return (1, Fraction(0)) if not t.played else (0, Fraction(t.place_sum, t.played))
        if key == "games":
            return (-games(p),)
        raise AssertionError(key)  # head_to_head is pairwise: see rank_by

    return key_of


def head_to_head_players[K: Hashable](
    players: Sequence[K],
    tables: Sequence[tuple[Mapping[K, LeagueTally], Callable[[K], int]]],
    *,
    min_games: int = 0,
    tiebreaks: Sequence[str] = DEFAULT_LEAGUE_TIEBREAKS,
) -> set[K]:
    """The players whose head-to-head ``league_table`` may ask for, given each table's tallies
    and games: two level with each other, and only each other, on every tie-break before it
    (on the same side of the line). What a caller reads the records of at once."""
    order = parse_league_tiebreaks(tiebreaks)
    if "head_to_head" not in order:
        return set()
    earlier = order[: order.index("head_to_head")]
    found: set[K] = set()
    for tallies, games in tables:
        key_of = _keys(tallies, games)
        groups: dict[tuple[object, ...], list[K]] = defaultdict(list)
        for p in players:
            groups[(games(p) >= min_games, *(key_of(key, p) for key in earlier))].append(p)
        found |= {p for group in groups.values() if len(group) == 2 for p in group}
    return found


def _ranked[K: Hashable](
    players: Sequence[K],
    tallies: Mapping[K, LeagueTally],
    games: Callable[[K], int],
    pair: Callable[[K, K], int],
    order: Sequence[str],
    min_games: int,
) -> list[tuple[K, int | None, str | None]]:
    """(player, rank, separated_by), best first: the ranked players, then those below the line
    (rank None), each group by the tie-breaks."""
    key_of = _keys(tallies, games)
    result: list[tuple[K, int | None, str | None]] = []
    ranked = [p for p in players if games(p) >= min_games]
    below = [p for p in players if games(p) < min_games]
    for group, is_ranked in ((ranked, True), (below, False)):
        for p, rank, separated_by in rank_by(group, order, key_of, pair):
            result.append((p, rank if is_ranked else None, separated_by))
    return result


def league_standings[K: Hashable](
    players: Sequence[K],
    events: Sequence[LeagueEvent[K]],
    *,
    game_points: GamePoints,
    place_points: Sequence[Fraction | int] | None = None,
    best_events: int = 0,
    drop_worst: int = 0,
    min_games: int = 0,
    games_played: Mapping[K, int] | None = None,
    previous_games_played: Mapping[K, int] | None = None,
    tiebreaks: Sequence[str] = DEFAULT_LEAGUE_TIEBREAKS,
) -> tuple[LeagueStanding[K], ...]:
    """The standings of a season, best first (see the module for the rules).

    ``place_points``: a tournament's points by final place (None: ``PRESET_PLACES``).
    ``games_played``: games per player for ``min_games`` (None: the game events he played;
    a player missing from the mapping played 0). ``previous_games_played``: the same as of
    before the latest event, for the trend; None: ``games_played`` less the latest game
    events he played (a latest tournament's tables are not known here and not taken off).
    Players equal on every tie-break share the rank and keep their order in ``players``.

    Organiser mistakes (a bad points list, an unknown tie-break, a negative option) raise
    ``ScoringError``; inconsistent events (an unknown player, one seated twice, places that
    are not competition places) are programming errors: ``ValueError``.
    """
    order = parse_league_tiebreaks(tiebreaks)
    for option, value in (("best_events", best_events), ("drop_worst", drop_worst), ("min_games", min_games)):
        if value < 0:
            raise ScoringError("league_option_negative", option=option, value=value)
    by_place = PRESET_PLACES if place_points is None else check_place_points(place_points)
    if game_points not in GAME_POINTS:
        raise ValueError(f"no such game points scheme: {game_points}")
    known = set(players)
    if len(known) != len(players):
        raise ValueError("a player is listed twice")

    # Points depend only on an event's kind and places: computed once per distinct pattern.
    worth: dict[tuple[str, tuple[int, ...]], tuple[Fraction, ...]] = {}
    for event in events:
        if not event.players or len(event.players) != len(event.places):
            raise ValueError(f"event {event.key!r} needs one place per player")
        if len(set(event.players)) != len(event.players):
            raise ValueError(f"event {event.key!r} lists a player twice")
        if not known.issuperset(event.players):
            raise ValueError(f"event {event.key!r} has a player who is not in the season")
        pattern = (event.kind, event.places)
        if pattern not in worth:
            if event.kind == "game":
                worth[pattern] = game_event_points(event.places, game_points)
            elif event.kind == "tournament":
                worth[pattern] = tournament_event_points(event.places, by_place)
            else:
                raise ValueError(f"no such event kind: {event.kind}")
    scale = lcm(1, *(f.denominator for row in worth.values() for f in row))
    units_of = {
        pattern: tuple(f.numerator * (scale // f.denominator) for f in row) for pattern, row in worth.items()
    }

    latest_key = max((event.key for event in events), default=None)  # type: ignore[type-var]
    # Per player, his events before the latest and his latest events, tallied apart.
    before = {p: _Tally() for p in players}
    latest = {p: _Tally() for p in players}
    place_in: dict[K, dict[int, int]] = {p: {} for p in players}  # event index -> place
    cut: set[int] = set()  # indexes of the latest events
    for index, event in enumerate(events):
        is_latest = event.key == latest_key
        if is_latest:
            cut.add(index)
        into = latest if is_latest else before
        is_game = event.kind == "game"
        for player, place, units in zip(
            event.players, event.places, units_of[event.kind, event.places], strict=True
        ):
            t = into[player]
            t.units.append(units)
            t.place_sum += place
            t.wins += place == 1
            t.events += 1
            t.games += is_game
            place_in[player][index] = place
    whole = {p: before[p].joined(latest[p]) for p in players}

    def games_now(p: K) -> int:
        return whole[p].games if games_played is None else games_played.get(p, 0)

    def games_then(p: K) -> int:
        if previous_games_played is not None:
            return previous_games_played.get(p, 0)
        if games_played is not None:
            return max(0, games_played.get(p, 0) - latest[p].games)
        return before[p].games

    def summed(t: _Tally) -> LeagueTally:
        kept = counted_points(t.units, best_events=best_events, drop_worst=drop_worst)
        return LeagueTally(Fraction(sum(kept), scale), len(kept), t.wins, t.place_sum, t.events)

    def pair(skip: set[int]) -> Callable[[K, K], int]:
        def record(a: K, b: K) -> int:
            mine, theirs = place_in[a], place_in[b]
            fewer, more = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
            shared = [(mine[i], theirs[i]) for i in fewer if i in more and i not in skip]
            result = head_to_head(shared)
            return result.ahead - result.behind

        return record

    return league_table(
        players,
        {p: summed(t) for p, t in whole.items()},
        {p: summed(t) for p, t in before.items()} if cut else {p: NO_EVENTS for p in players},
        games_now=games_now,
        games_then=games_then,
        pair_now=pair(set()),
        pair_then=pair(cut),
        min_games=min_games,
        tiebreaks=order,
    )
