"""Tournament seating: table sizes and byes, the three methods, pins, seat order, and the balanced
method checked against an exhaustive search written independently here."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, get_args

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.seating import (
    Method,
    Seating,
    TableLimits,
    met_counts,
    pair_cost,
    repeated_pairs,
    repeats,
    seat_round,
    table_sizes,
)

Draw = Callable[..., Any]

RUMMIKUB = TableLimits(minimum=2, maximum=4, preferred=4)
GIN = TableLimits(minimum=2, maximum=2, preferred=2)
CAROUSEL = TableLimits(minimum=2, maximum=5, preferred=4)
ZOLIKY = TableLimits(minimum=2, maximum=6, preferred=4)
METHODS: tuple[Method, ...] = get_args(Method)


# --- table sizes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "limits", "expected"),
    [
        (18, RUMMIKUB, ((4, 4, 4, 3, 3), 0)),
        (12, RUMMIKUB, ((4, 4, 4), 0)),
        (13, RUMMIKUB, ((4, 3, 3, 3), 0)),
        (5, RUMMIKUB, ((3, 2), 0)),
        (7, GIN, ((2, 2, 2), 1)),
        (3, GIN, ((2,), 1)),
        (2, GIN, ((2,), 0)),
        (5, ZOLIKY, ((3, 2), 0)),  # two tables of the preferred count, not one of five
        (6, ZOLIKY, ((3, 3), 0)),
        (9, CAROUSEL, ((3, 3, 3), 0)),
        (7, TableLimits(3, 3, 3), ((3, 3), 1)),
        (8, TableLimits(3, 3, 3), ((3, 3), 2)),
        (7, TableLimits(4, 5, 4), ((5,), 2)),
        (11, TableLimits(4, 6, 6), ((6, 5), 0)),
        (7, TableLimits(4, 6, 6), ((6,), 1)),
    ],
)
def test_table_sizes_examples(
    players: int, limits: TableLimits, expected: tuple[tuple[int, ...], int]
) -> None:
    assert table_sizes(players, limits) == expected


def test_no_fit_without_byes_says_what_would_fit() -> None:
    with pytest.raises(ScoringError) as caught:
        table_sizes(7, GIN, byes_allowed=False)
    assert caught.value.code == "seating_no_fit"
    assert caught.value.params == {"players": 7, "minimum": 2, "maximum": 2, "fewer": 6, "more": 8}
    assert "7 players" in caught.value.message
    with pytest.raises(ScoringError) as caught:
        table_sizes(7, TableLimits(4, 5, 4), byes_allowed=False)
    assert caught.value.params["fewer"] == 5 and caught.value.params["more"] == 8
    assert table_sizes(18, RUMMIKUB, byes_allowed=False) == ((4, 4, 4, 3, 3), 0)


def test_too_few_players() -> None:
    with pytest.raises(ScoringError) as caught:
        table_sizes(1, RUMMIKUB)
    assert caught.value.code == "seating_too_few"
    assert caught.value.params == {"players": 1, "minimum": 2}
    with pytest.raises(ScoringError) as caught:
        seat_round([1, 2], limits=TableLimits(3, 4, 4), method="random", seed=0)
    assert caught.value.code == "seating_too_few"


@pytest.mark.parametrize(("minimum", "maximum", "preferred"), [(1, 4, 4), (3, 2, 2), (2, 4, 5), (3, 4, 2)])
def test_bad_limits(minimum: int, maximum: int, preferred: int) -> None:
    with pytest.raises(ScoringError) as caught:
        TableLimits(minimum, maximum, preferred)
    assert caught.value.code == "seating_limits"


@st.composite
def limits(draw: Draw) -> TableLimits:
    minimum = draw(st.integers(2, 6))
    maximum = draw(st.integers(minimum, 8))
    return TableLimits(minimum, maximum, draw(st.integers(minimum, maximum)))


def fits_brute(players: int, minimum: int, maximum: int) -> bool:
    """Whether some multiset of table sizes in [minimum, maximum] sums to ``players``."""
    reachable = {0}
    for total in range(1, players + 1):
        if any(total - size in reachable for size in range(minimum, maximum + 1)):
            reachable.add(total)
    return players in reachable


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 80), limits(), st.booleans())
def test_table_sizes_property(players: int, lim: TableLimits, byes_allowed: bool) -> None:
    if players < lim.minimum:
        with pytest.raises(ScoringError):
            table_sizes(players, lim, byes_allowed=byes_allowed)
        return
    fits = fits_brute(players, lim.minimum, lim.maximum)
    if not byes_allowed and not fits:
        with pytest.raises(ScoringError) as caught:
            table_sizes(players, lim, byes_allowed=False)
        fewer, more = caught.value.params["fewer"], caught.value.params["more"]
        assert isinstance(fewer, int) and isinstance(more, int)
        assert fits_brute(fewer, lim.minimum, lim.maximum) and fits_brute(more, lim.minimum, lim.maximum)
        assert not any(fits_brute(m, lim.minimum, lim.maximum) for m in range(fewer + 1, more))
        return
    sizes, byes = table_sizes(players, lim, byes_allowed=byes_allowed)
    assert sum(sizes) + byes == players
    assert all(lim.minimum <= s <= lim.maximum for s in sizes)
    assert list(sizes) == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    assert (byes == 0) == fits
    # Fewest byes: nobody more sits out than needed.
    assert not any(fits_brute(m, lim.minimum, lim.maximum) for m in range(players - byes + 1, players + 1))
    if byes == 0 and fits_brute(players, lim.preferred, lim.preferred):
        assert sizes == (lim.preferred,) * (players // lim.preferred)


# --- counting repeats --------------------------------------------------------------------------


def test_pair_cost_and_repeats() -> None:
    history = [[1, 2, 3], [4, 5], [1, 2], [3, 4]]
    assert met_counts(history) == {
        frozenset((1, 2)): 2,
        frozenset((1, 3)): 1,
        frozenset((2, 3)): 1,
        frozenset((4, 5)): 1,
        frozenset((3, 4)): 1,
    }
    tables = [[2, 1, 5], [3, 4]]
    assert pair_cost(tables, history) == 4 + 0 + 0 + 1
    assert repeats(tables, history) == 2
    assert repeated_pairs([3, 2, 1, 6], history) == [(1, 2), (1, 3), (2, 3)]
    assert repeated_pairs([6, 7], history) == []


# --- seat_round properties ---------------------------------------------------------------------


@st.composite
def rounds(draw: Draw) -> dict[str, Any]:
    lim = draw(limits())
    n = draw(st.integers(lim.minimum, 30))
    players = draw(st.lists(st.integers(1, 200), min_size=n, max_size=n, unique=True))
    rng = random.Random(draw(st.integers(0, 1000)))
    history: list[list[int]] = []
    for _ in range(draw(st.integers(0, 3))):
        shuffled = rng.sample(players, len(players))
        while shuffled:
            size = rng.randint(2, 5)
            history.append(shuffled[:size])
            shuffled = shuffled[size:]
    sizes, _ = table_sizes(n, lim)
    pinned: dict[int, int] = {}
    room = list(sizes)
    for player in draw(st.lists(st.sampled_from(players), max_size=4, unique=True)):
        table = draw(st.integers(1, len(sizes)))
        if room[table - 1]:
            room[table - 1] -= 1
            pinned[player] = table
    return {
        "players": players,
        "limits": lim,
        "method": draw(st.sampled_from(METHODS)),
        "seed": draw(st.integers(0, 2**32)),
        "history": history,
        "standings": draw(st.permutations(players)),
        "byes_so_far": {p: draw(st.integers(0, 2)) for p in players},
        "pinned": pinned,
        "first_deals": {p: draw(st.integers(0, 3)) for p in players},
        "seat_order": draw(st.sampled_from(["random", "rotating"])),
    }


@settings(max_examples=300, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_seat_round_properties(kwargs: dict[str, Any], shuffler: random.Random) -> None:
    seating = seat_round(**kwargs)
    players = kwargs["players"]
    seated = [p for table in seating.tables for p in table]
    assert sorted(seated + list(seating.byes)) == sorted(players)
    assert tuple(len(t) for t in seating.tables) == table_sizes(len(players), kwargs["limits"])[0]
    for player, table in kwargs["pinned"].items():
        assert player in seating.tables[table - 1]
    assert seat_round(**kwargs) == seating
    # The order players are listed in does not matter (standings keep their order).
    assert seat_round(**{**kwargs, "players": shuffler.sample(players, len(players))}) == seating


def test_byes_go_to_lowest_ranked_with_fewest_byes() -> None:
    players = list(range(1, 8))
    kwargs: dict[str, Any] = {"limits": GIN, "method": "random", "seed": 3, "standings": players}
    assert seat_round(players, **kwargs).byes == (7,)
    assert seat_round(players, **kwargs, byes_so_far={7: 1}).byes == (6,)
    assert seat_round(players, **kwargs, byes_so_far={7: 1, 6: 1}, pinned={5: 1}).byes == (4,)
    # Players missing from the standings rank last, in id order.
    assert seat_round(players, **{**kwargs, "standings": [7, 6, 5]}).byes == (4,)
    with pytest.raises(ScoringError) as caught:
        seat_round(players, **kwargs, byes_allowed=False)
    assert caught.value.code == "seating_no_fit"
    two_byes = seat_round(players, limits=TableLimits(4, 5, 4), method="balanced", seed=1, standings=players)
    assert two_byes.byes == (6, 7)


def test_pin_errors() -> None:
    players = list(range(1, 11))  # tables 4, 3, 3
    with pytest.raises(ScoringError) as caught:
        seat_round(players, limits=RUMMIKUB, method="balanced", seed=0, pinned={5: 4})
    assert caught.value.code == "seating_pin_table"
    assert caught.value.params == {"player": 5, "table": 4, "tables": 3}
    with pytest.raises(ScoringError) as caught:
        seat_round(players, limits=RUMMIKUB, method="swiss", seed=0, pinned={1: 2, 2: 2, 3: 2, 4: 2})
    assert caught.value.code == "seating_pin_full"
    assert caught.value.params == {"table": 2, "pinned": 4, "size": 3}
    # Pins of players not checked in are ignored.
    seat_round(players, limits=RUMMIKUB, method="random", seed=0, pinned={99: 7})


# --- balanced against an exhaustive search -----------------------------------------------------


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every partition of ``players`` into groups of ``sizes`` (a multiset), each once: the first
    remaining player opens a group of each distinct remaining size."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left_sizes):
                yield [(first, *others), *tail]


def optimum(players: Sequence[int], sizes: Sequence[int], history: Sequence[Sequence[int]]) -> int:
    met = met_counts(history)
    return min(
        sum(
            met.get(frozenset(pair), 0) ** 2
            for group in partition
            for pair in itertools.combinations(group, 2)
        )
        for partition in partitions(players, sizes)
    )


def test_partitions_count() -> None:
    assert sum(1 for _ in partitions(list(range(12)), [4, 4, 4])) == 5775
    assert sum(1 for _ in partitions(list(range(10)), [4, 3, 3])) == 2100


@pytest.mark.parametrize(
    ("count", "lim", "seed"),
    [(12, RUMMIKUB, 1), (12, RUMMIKUB, 2), (10, RUMMIKUB, 3), (9, RUMMIKUB, 4), (8, GIN, 5), (11, ZOLIKY, 6)],
)
def test_balanced_is_optimal_each_round(count: int, lim: TableLimits, seed: int) -> None:
    players = [3 * p + 7 for p in range(count)]
    sizes, _ = table_sizes(count, lim)
    history: list[tuple[int, ...]] = []
    for number in range(4):
        method: Method = "random" if number == 0 else "balanced"
        seating = seat_round(players, limits=lim, method=method, seed=seed * 10 + number, history=history)
        if method == "balanced":
            assert pair_cost(seating.tables, history) == optimum(players, sizes, history)
        history += seating.tables


@settings(max_examples=100, deadline=None)
@given(st.integers(4, 10), limits(), st.integers(0, 2**16), st.integers(1, 3))
def test_balanced_is_optimal_after_random_rounds(count: int, lim: TableLimits, seed: int, past: int) -> None:
    assume(count >= lim.minimum)
    players = list(range(count))
    history: list[tuple[int, ...]] = []
    for number in range(past):
        history += seat_round(
            players, limits=lim, method="random", seed=seed + number, history=history
        ).tables
    seating = seat_round(players, limits=lim, method="balanced", seed=seed, history=history)
    seated = sorted(p for table in seating.tables for p in table)
    sizes = [len(table) for table in seating.tables]
    assert pair_cost(seating.tables, history) == optimum(seated, sizes, history)


def test_duplicate_players_are_a_bug() -> None:
    with pytest.raises(ValueError, match="twice"):
        seat_round([1, 2, 2], limits=GIN, method="random", seed=0)


def test_balanced_large_beats_random() -> None:
    players = list(range(1, 41))
    history: list[tuple[int, ...]] = []
    for number in range(6):
        seating = seat_round(players, limits=RUMMIKUB, method="balanced", seed=number, history=history)
        shuffled = seat_round(players, limits=RUMMIKUB, method="random", seed=number, history=history)
        assert pair_cost(seating.tables, history) <= pair_cost(shuffled.tables, history)
        if number < 4:  # 40 players, tables of 4: four rounds without a repeat are easy to find
            assert repeats(seating.tables, history) == 0
        history += seating.tables


def test_balanced_respects_pins() -> None:
    players = list(range(1, 13))
    history = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]
    seating = seat_round(players, limits=RUMMIKUB, method="balanced", seed=0, history=history, pinned={1: 2})
    assert 1 in seating.tables[1]
    assert pair_cost(seating.tables, history) == 3


# --- swiss -------------------------------------------------------------------------------------


def as_sets(seating: Seating) -> list[set[int]]:
    return [set(t) for t in seating.tables]


def test_swiss_puts_the_top_group_together() -> None:
    players = list(range(1, 17))
    history = [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]
    seating = seat_round(players, limits=RUMMIKUB, method="swiss", seed=0, history=history, standings=players)
    assert as_sets(seating) == [{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}]


def test_swiss_avoids_a_repeat_when_as_good_a_group_is_just_below() -> None:
    players = list(range(1, 17))
    history = [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]
    standings = [1, 5, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    seating = seat_round(
        players, limits=RUMMIKUB, method="swiss", seed=0, history=history, standings=standings
    )
    assert as_sets(seating)[0] == {1, 2, 3, 4}  # 5 met 1, so 4 (fifth) takes the seat
    assert 5 in seating.tables[1]
    assert repeats(seating.tables, history) == 0


def test_swiss_takes_no_repeat_anywhere_when_a_seating_avoids_them() -> None:
    players = list(range(1, 17))
    history = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)]
    seating = seat_round(players, limits=RUMMIKUB, method="swiss", seed=0, history=history, standings=players)
    assert repeats(seating.tables, history) == 0
    assert 1 in seating.tables[0]  # the leader is still at table 1


def test_swiss_does_not_leave_an_avoidable_repeat_to_the_last_table() -> None:
    # Gin, 6 players, 2 rounds played: filling tables top-down paired Milan and Katarina again at
    # the last table, although Kari-Katarina, Milan-Petr, Ola-Zuzana repeats nobody.
    milan, katarina, ola, kari, petr, zuzana = 1, 2, 3, 4, 5, 6
    history = [(ola, kari), (zuzana, milan), (petr, katarina), (milan, katarina), (ola, petr), (zuzana, kari)]
    standings = [ola, zuzana, petr, kari, milan, katarina]
    seating = seat_round(
        [milan, katarina, kari, petr, ola, zuzana],
        limits=GIN,
        method="swiss",
        seed=0,
        history=history,
        standings=standings,
    )
    assert repeats(seating.tables, history) == 0
    assert {frozenset(t) for t in seating.tables} == {
        frozenset({kari, katarina}),
        frozenset({milan, petr}),
        frozenset({ola, zuzana}),
    }
    assert set(seating.tables[0]) == {ola, zuzana}  # the leaders' table first


def swiss_costs(
    tables: Sequence[Sequence[int]],
    history: Sequence[Sequence[int]],
    standings: Sequence[int],
    ranks: Sequence[int] | None = None,
) -> tuple[int, int]:
    """What swiss minimises, written out: repeats (Σ met²) first, then Σ of place gaps. A place
    is how many seated players rank strictly better (``ranks`` beside ``standings``; without
    them every player his own rank)."""
    seated = [p for p in standings if any(p in t for t in tables)]
    rank = dict(zip(standings, ranks if ranks is not None else range(len(standings)), strict=True))
    place = {p: sum(1 for q in seated if rank[q] < rank[p]) for p in seated}
    met = met_counts(history)
    pairs = [pair for table in tables for pair in itertools.combinations(table, 2)]
    return (
        sum(met.get(frozenset(pair), 0) ** 2 for pair in pairs),
        sum(abs(place[a] - place[b]) for a, b in pairs),
    )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(4, 10), limits(), st.integers(0, 2**16), st.integers(1, 3), st.randoms(use_true_random=False)
)
def test_swiss_is_optimal_against_every_seating(
    count: int, lim: TableLimits, seed: int, past: int, shuffler: random.Random
) -> None:
    assume(count >= lim.minimum)
    players = list(range(count))
    history: list[tuple[int, ...]] = []
    for number in range(past):
        history += seat_round(
            players, limits=lim, method="random", seed=seed + number, history=history
        ).tables
    standings = shuffler.sample(players, count)
    seating = seat_round(players, limits=lim, method="swiss", seed=seed, history=history, standings=standings)
    seated = sorted(p for table in seating.tables for p in table)
    sizes = [len(table) for table in seating.tables]
    best = min(swiss_costs(partition, history, standings) for partition in partitions(seated, sizes))
    assert swiss_costs(seating.tables, history, standings) == best


# --- seat order --------------------------------------------------------------------------------


def test_rotating_gives_the_first_deal_to_who_had_it_least() -> None:
    players = [10, 20, 30, 40]
    first = seat_round(
        players,
        limits=RUMMIKUB,
        method="random",
        seed=5,
        seat_order="rotating",
        first_deals={10: 2, 20: 0, 30: 1, 40: 1},
    )
    assert first.tables[0][0] == 20 and first.tables[0][3] == 10
    deals: dict[int, int] = {}
    dealers = []
    for number in range(8):
        seating = seat_round(
            players, limits=RUMMIKUB, method="random", seed=number, seat_order="rotating", first_deals=deals
        )
        dealer = seating.tables[0][0]
        assert deals.get(dealer, 0) == min(deals.get(p, 0) for p in players)
        deals[dealer] = deals.get(dealer, 0) + 1
        dealers.append(dealer)
    assert sorted(dealers) == sorted(players * 2)


def test_random_seat_order_depends_on_the_seed() -> None:
    players = list(range(1, 5))
    orders = {
        seat_round(players, limits=RUMMIKUB, method="random", seed=seed).tables[0] for seed in range(20)
    }
    assert len(orders) > 5


def competition_ranks(levels: Sequence[int]) -> list[int]:
    """Competition ranks ("1224") for players whose standing is ``levels`` (best first, equal
    levels sharing a rank)."""
    return [1 + sum(1 for other in levels if other < level) for level in levels]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(4, 10),
    limits(),
    st.integers(0, 2**16),
    st.integers(0, 3),
    st.randoms(use_true_random=False),
    st.data(),
)
def test_swiss_gives_players_who_share_a_rank_its_place(
    count: int, lim: TableLimits, seed: int, past: int, shuffler: random.Random, data: st.DataObject
) -> None:
    """Players level in the standings are equally close to everyone: no gap between them, and
    the gap to others counted from their shared place; the seating is the best by that measure."""
    assume(count >= lim.minimum)
    players = list(range(count))
    history: list[tuple[int, ...]] = []
    for number in range(past):
        history += seat_round(
            players, limits=lim, method="random", seed=seed + number, history=history
        ).tables
    standings = shuffler.sample(players, count)
    levels = sorted(data.draw(st.lists(st.integers(0, 3), min_size=count, max_size=count)))
    ranks = competition_ranks(levels)
    seating = seat_round(
        players, limits=lim, method="swiss", seed=seed, history=history, standings=standings, ranks=ranks
    )
    seated = sorted(p for table in seating.tables for p in table)
    sizes = [len(table) for table in seating.tables]
    best = min(swiss_costs(partition, history, standings, ranks) for partition in partitions(seated, sizes))
    assert swiss_costs(seating.tables, history, standings, ranks) == best
    again = seat_round(
        players, limits=lim, method="swiss", seed=seed, history=history, standings=standings, ranks=ranks
    )
    assert again == seating  # the same round seated again: the same tables
