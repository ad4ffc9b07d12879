"""Pairs kept apart (couples, a parent and child), a first round seeded by rating, and the
seating report: each method checked against an exhaustive search written independently here."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.seating import Method, TableLimits, met_counts, seat_round, seating_report, table_sizes
from tests.scoring.test_seating import RUMMIKUB, ZOLIKY, limits, partitions, swiss_costs


def apart_met(tables: Sequence[Sequence[int]], apart: Sequence[tuple[int, int]]) -> int:
    kept = {frozenset(pair) for pair in apart}
    return sum(1 for t in tables for pair in itertools.combinations(t, 2) if frozenset(pair) in kept)


def repeat_cost(tables: Sequence[Sequence[int]], history: Sequence[Sequence[int]]) -> int:
    met = met_counts(history)
    return sum(met.get(frozenset(pair), 0) ** 2 for t in tables for pair in itertools.combinations(t, 2))


@st.composite
def evenings(
    draw: st.DrawFn,
) -> tuple[list[int], TableLimits, list[tuple[int, ...]], list[tuple[int, int]], int]:
    lim = draw(limits())
    count = draw(st.integers(max(4, lim.minimum), 12))
    players = list(range(count))
    seed = draw(st.integers(0, 2**16))
    history: list[tuple[int, ...]] = []
    for number in range(draw(st.integers(0, 2))):
        history += seat_round(
            players, limits=lim, method="random", seed=seed + number, history=history
        ).tables
    pairs = list(itertools.combinations(players, 2))
    apart = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=6, unique=True))
    return players, lim, history, apart, seed


@settings(max_examples=60, deadline=None)
@given(
    evenings(), st.sampled_from(["random", "balanced", "swiss", "rating"]), st.randoms(use_true_random=False)
)
def test_fewest_pairs_kept_apart_meet_against_every_seating(
    evening: tuple[list[int], TableLimits, list[tuple[int, ...]], list[tuple[int, int]], int],
    method: Method,
    shuffler: random.Random,
) -> None:
    """No pair kept apart meets when a seating avoids them all; otherwise as few as any
    seating; and after that each method's own aim is still the best it can be."""
    players, lim, history, apart, seed = evening
    standings = shuffler.sample(players, len(players))
    seating = seat_round(
        players, limits=lim, method=method, seed=seed, history=history, standings=standings, apart=apart
    )
    seated = sorted(p for t in seating.tables for p in t)
    sizes = [len(t) for t in seating.tables]
    every = list(partitions(seated, sizes))
    fewest = min(apart_met(p, apart) for p in every)
    assert apart_met(seating.tables, apart) == fewest
    if method == "balanced":
        best = min(repeat_cost(p, history) for p in every if apart_met(p, apart) == fewest)
        assert repeat_cost(seating.tables, history) == best
    if method == "swiss":
        swiss_best = min(swiss_costs(p, history, standings) for p in every if apart_met(p, apart) == fewest)
        assert swiss_costs(seating.tables, history, standings) == swiss_best


def test_a_couple_is_parted_even_at_the_price_of_a_repeat() -> None:
    # 8 players, two tables of 4. Round 1 sat 0-3 and 4-7; 0 and 4 are a couple.
    history = [(0, 1, 2, 3), (4, 5, 6, 7)]
    for method in ("random", "balanced", "swiss"):
        seating = seat_round(
            list(range(8)),
            limits=RUMMIKUB,
            method=method,
            seed=3,
            history=history,
            standings=list(range(8)),
            apart=[(0, 4)],
        )
        assert not any({0, 4} <= set(t) for t in seating.tables), method


def test_an_unavoidable_pair_is_seated_and_reported() -> None:
    # Three players at one table: no seating parts anyone.
    seating = seat_round([1, 2, 3], limits=ZOLIKY, method="balanced", seed=0, apart=[(1, 2)])
    assert len(seating.tables) == 1
    assert seating_report(seating.tables, [], [(2, 1)]).apart_met == ((1, 2),)


def test_pinned_pair_is_unavoidable() -> None:
    players = list(range(8))
    seating = seat_round(
        players, limits=RUMMIKUB, method="random", seed=5, pinned={0: 1, 1: 1}, apart=[(0, 1), (2, 3)]
    )
    assert {0, 1} <= set(seating.tables[0])
    assert not any({2, 3} <= set(t) for t in seating.tables)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 40), st.integers(0, 1000))
def test_random_without_pairs_met_keeps_its_shuffle(count: int, seed: int) -> None:
    """Pairs kept apart that the shuffle already parts change nothing."""
    players = list(range(count))
    plain = seat_round(players, limits=RUMMIKUB, method="random", seed=seed)
    sat = {p: t for t, table in enumerate(plain.tables) for p in table}
    parted = [(a, b) for a, b in itertools.combinations(players, 2) if sat.get(a, -1) != sat.get(b, -2)][:5]
    assert seat_round(players, limits=RUMMIKUB, method="random", seed=seed, apart=parted) == plain


def test_large_random_and_swiss_part_couples() -> None:
    players = list(range(40))
    couples = [(p, p + 1) for p in range(0, 40, 2)]
    for method in ("random", "balanced", "swiss", "rating"):
        seating = seat_round(
            players, limits=RUMMIKUB, method=method, seed=1, standings=players, apart=couples
        )
        assert seating_report(seating.tables, [], couples).apart_met == (), method


# --- seeded by rating --------------------------------------------------------------------------


def test_rating_seeds_a_serpentine() -> None:
    # 12 players rated best first 100, 101, … at three tables of 4: 1 2 3 / 3 2 1 / 1 2 3 / 3 2 1.
    ranked = list(range(100, 112))
    seating = seat_round(
        sorted(ranked, reverse=True), limits=RUMMIKUB, method="rating", seed=9, standings=ranked
    )
    assert [sorted(t) for t in seating.tables] == [
        [100, 105, 106, 111],
        [101, 104, 107, 110],
        [102, 103, 108, 109],
    ]


def test_rating_serpentine_with_uneven_tables_and_byes() -> None:
    # 10 players: 4, 3, 3 — the last player goes on round the snake to the one table with room.
    ranked = list(range(10))
    seating = seat_round(ranked, limits=RUMMIKUB, method="rating", seed=0, standings=ranked)
    assert [sorted(t) for t in seating.tables] == [[0, 5, 6, 9], [1, 4, 7], [2, 3, 8]]
    # Byes go to the lowest rated.
    gin = seat_round(list(range(5)), limits=TableLimits(2, 2, 2), method="rating", seed=0, standings=ranked)
    assert gin.byes == (4,)
    assert [sorted(t) for t in gin.tables] == [[0, 3], [1, 2]]


def test_rating_parts_a_couple_among_the_seeds() -> None:
    ranked = list(range(12))
    seating = seat_round(ranked, limits=RUMMIKUB, method="rating", seed=0, standings=ranked, apart=[(0, 5)])
    tops = [min(t) for t in seating.tables]
    assert sorted(tops) == [0, 1, 2]  # the top three seeds still at different tables
    assert not any({0, 5} <= set(t) for t in seating.tables)


# --- the report --------------------------------------------------------------------------------


def test_report_names_repeats_sizes_again_and_pairs_met() -> None:
    earlier = [
        [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)],
        [(1, 5, 8, 9), (2, 6, 10), (3, 4, 7)],
    ]
    tables = [(1, 2, 6, 7), (3, 5, 9), (4, 8, 10)]
    report = seating_report(tables, earlier, apart=[(3, 9), (1, 10)])
    # 1-2 met in round 1; 2-6 in round 2; 6-7 in round 1; 3-... 5-9 in round 2; 8-10 in round 1.
    assert report.repeats == ((1, 2, 1), (2, 6, 1), (5, 9, 1), (6, 7, 1), (8, 10, 1))
    # Bigger table again: 1 (rounds 1 and 2), 2 (round 1); smaller again: 3 (round 2), 5 (round 1),
    # 9 (round 1), 4 (round 2), 8 (round 1), 10 (rounds 1 and 2); 6 and 7 sat at a smaller one before.
    assert report.size_again == (
        (1, "bigger", 2),
        (2, "bigger", 1),
        (3, "smaller", 1),
        (4, "smaller", 1),
        (5, "smaller", 1),
        (8, "smaller", 1),
        (9, "smaller", 1),
        (10, "smaller", 2),
    )
    assert report.apart_met == ((3, 9),)
    assert report


def test_report_of_equal_tables_has_no_sizes_and_an_empty_one_is_false() -> None:
    report = seating_report([(1, 2, 3), (4, 5, 6)], [[(1, 2, 3, 4), (5, 6)]])
    assert report.size_again == ()
    assert report.repeats == ((1, 2, 1), (1, 3, 1), (2, 3, 1), (5, 6, 1))
    assert not seating_report([(1, 2), (3, 4)], [[(1, 3), (2, 4)]])


@settings(max_examples=100, deadline=None)
@given(st.integers(4, 14), st.integers(0, 999), st.integers(1, 3))
def test_report_matches_a_count_by_hand(count: int, seed: int, past: int) -> None:
    players = list(range(count))
    rounds: list[list[tuple[int, ...]]] = []
    for number in range(past + 1):
        rounds.append(list(seat_round(players, limits=RUMMIKUB, method="random", seed=seed + number).tables))
    *earlier, now = rounds
    report = seating_report(now, earlier)
    flat = [t for r in earlier for t in r]
    expected = []
    for table in now:
        for a, b in itertools.combinations(sorted(table), 2):
            times = sum(1 for t in flat if a in t and b in t)
            if times:
                expected.append((a, b, times))
    assert report.repeats == tuple(sorted(expected))
    sizes, _ = table_sizes(count, RUMMIKUB)
    assume(len(set(sizes)) > 1)
    small = min(sizes)
    for player, kind, times in report.size_again:
        mine = next(t for t in now if player in t)
        assert (len(mine) == small) == (kind == "smaller")
        assert times == sum(
            1 for r in earlier if any(player in t and (len(t) == small) == (kind == "smaller") for t in r)
        )
