"""Seating benchmark: time and quality of the balanced and swiss methods (scoring.seating).

    .venv/bin/python bench/bench_seating.py [--runs N] [--seed S]

Goals (tournament issue, CPython, this machine): seat 100 players at 25 tables of 4 for round 5
(after 4 balanced rounds) in under 1 s (aim 0.3 s), the median of several runs; its pair cost
(Σ met², what balanced minimises) within 10% of a search with 20x the restarts; on 12 and 10
players over 3 rounds, the exhaustive optimum every round. Harder cases (later rounds, where
repeats are unavoidable) show, without a goal, the local search's quality and time when the
optimum is not 0; random seating's repeats are the baseline peer. Swiss: the exact search's
slowest round at its limit (16 players; goal < 1 s), the worst gap of the searches used above it
(the local search, and its descent alone past 100 players) to the exact optimum on the same
rounds (repeats, then place gaps), and the time at 100 and 600 players.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scoring.seating as seating_module
from scoring.seating import Method, TableLimits, met_counts, pair_cost, repeats, seat_round, table_sizes

LIMITS = TableLimits(minimum=2, maximum=4, preferred=4)
LONGER = 20


def history_of(players: Sequence[int], rounds: int, seed: int) -> list[tuple[int, ...]]:
    history: list[tuple[int, ...]] = []
    for number in range(rounds):
        seating = seat_round(players, limits=LIMITS, method="balanced", seed=seed + number, history=history)
        history += seating.tables
    return history


def timed(players: Sequence[int], history: Sequence[Sequence[int]], seed: int, runs: int) -> float:
    gc.collect()
    times = []
    for run in range(runs):
        start = time.perf_counter()
        seat_round(players, limits=LIMITS, method="balanced", seed=seed + run, history=history)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def quality(
    label: str, players: Sequence[int], history: Sequence[Sequence[int]], seed: int, seeds: int = 5
) -> tuple[int, int]:
    """Summed over ``seeds`` seeds: the default search's cost and the longer search's."""
    costs = {"random": 0, "balanced": 0, "longer": 0}
    reps = dict.fromkeys(costs, 0)
    longest = slowest = 0.0
    for s in range(seed, seed + seeds):
        for name in costs:
            method: Method = "random" if name == "random" else "balanced"
            start = time.perf_counter()
            seating = seat_round(
                players,
                limits=LIMITS,
                method=method,
                seed=s,
                history=history,
                effort=LONGER if name == "longer" else 1,
            )
            elapsed = time.perf_counter() - start
            if name == "longer":
                longest = max(longest, elapsed)
            elif name == "balanced":
                slowest = max(slowest, elapsed)
            costs[name] += pair_cost(seating.tables, history)
            reps[name] += repeats(seating.tables, history)
    base, long = costs["balanced"], costs["longer"]
    excess = 0.0 if base == long else 100.0 * (base - long) / max(long, 1)
    print(
        f"{label:<36} pair cost {base / seeds:6.1f} ({slowest * 1000:5.1f} ms) vs {long / seeds:6.1f} "
        f"({LONGER}x search, {longest * 1000:6.1f} ms): {excess:+5.1f}%   "
        f"repeats {reps['balanced'] / seeds:5.1f} (random {reps['random'] / seeds:5.1f})"
    )
    return base, long


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [(first, *others), *tail]


def exhaustive(players: Sequence[int], rounds: int, seed: int) -> bool:
    sizes, _ = table_sizes(len(players), LIMITS)
    history: list[tuple[int, ...]] = []
    found, best = [], []
    for number in range(rounds):
        start = time.perf_counter()
        seating = seat_round(players, limits=LIMITS, method="balanced", seed=seed + number, history=history)
        elapsed = time.perf_counter() - start
        met = met_counts(history)
        optimum = min(
            sum(met.get(frozenset(p), 0) ** 2 for g in part for p in itertools.combinations(g, 2))
            for part in partitions(players, sizes)
        )
        found.append(pair_cost(seating.tables, history))
        best.append(optimum)
        history += seating.tables
    equal = found == best
    print(
        f"{len(players)} players x {rounds} rounds (exact search, {elapsed * 1000:.1f} ms/round)"
        f"     pair cost per round {found} vs exhaustive {best}: {'equal' if equal else 'DIFFERENT'}"
    )
    return equal


def swiss_costs(tables: Sequence[Sequence[int]], history: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Swiss's two costs (players are their own places here: standings 1, 2, 3, ...)."""
    met = met_counts(history)
    pairs = [pair for table in tables for pair in itertools.combinations(table, 2)]
    return sum(met.get(frozenset(p), 0) ** 2 for p in pairs), sum(abs(a - b) for a, b in pairs)


def swiss(seed: int) -> bool:
    """Exact at its limit, the heuristic's gap on the same rounds, and its time when large."""
    slowest, rounds = 0.0, 0
    worst, gaps = {"local": 0, "descent": 0}, {"local": 0, "descent": 0}
    for size in (2, 3, 4):
        limits = TableLimits(minimum=2, maximum=size, preferred=size)
        players = list(range(1, seating_module.SWISS_EXACT_LIMIT + 1 - 16 % size))
        for s in range(seed, seed + 4):
            history: list[tuple[int, ...]] = []
            for number in range(4):
                kwargs = {"limits": limits, "method": "swiss", "seed": s + number, "standings": players}
                start = time.perf_counter()
                exact = seat_round(players, history=history, **kwargs)  # type: ignore[arg-type]
                slowest = max(slowest, time.perf_counter() - start)
                best = swiss_costs(exact.tables, history)
                for name, local_limit in (("local", 100), ("descent", 0)):
                    saved = seating_module.SWISS_EXACT_LIMIT, seating_module.SWISS_LOCAL_LIMIT
                    seating_module.SWISS_EXACT_LIMIT, seating_module.SWISS_LOCAL_LIMIT = 0, local_limit
                    try:
                        found = swiss_costs(seat_round(players, history=history, **kwargs).tables, history)  # type: ignore[arg-type]
                    finally:
                        seating_module.SWISS_EXACT_LIMIT, seating_module.SWISS_LOCAL_LIMIT = saved
                    worst[name] = max(worst[name], found[0] - best[0])
                    if found[0] == best[0]:
                        gaps[name] = max(gaps[name], found[1] - best[1])
                rounds += 1
                history += exact.tables
    print(
        f"{'swiss, 15-16 players, tables of 2-4':<36} exact: slowest round {slowest * 1000:7.1f} ms"
        f"   goal < 1000 ms: {'ok' if slowest < 1 else 'MISSED'}"
    )
    for name in worst:
        print(
            f"{'':<36} {name} over the same {rounds} rounds: worst {worst[name]} more Σ met²,"
            f" worst {gaps[name]} more place gaps than the optimum"
        )
    ok = slowest < 1
    for count in (100, 600):
        players = list(range(1, count + 1))
        history = history_of(players, 4, seed)
        start = time.perf_counter()
        seated = seat_round(
            players, limits=LIMITS, method="swiss", seed=seed, history=history, standings=players
        )
        elapsed = time.perf_counter() - start
        shuffled = seat_round(players, limits=LIMITS, method="random", seed=seed, history=history)
        print(
            f"{f'swiss, {count} players, round 5':<36} {elapsed * 1000:7.1f} ms,"
            f" {repeats(seated.tables, history)} repeats (random: {repeats(shuffled.tables, history)})"
        )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    players = list(range(1, 101))
    history = history_of(players, 4, args.seed)
    median = timed(players, history, args.seed, args.runs)
    print(
        f"{'100 players, 25 tables of 4, round 5':<36} median {median * 1000:7.1f} ms over {args.runs} runs"
        f"   goal < 1000 ms (aim 300): {'ok' if median < 1 else 'MISSED'}"
    )
    ok = median < 1
    base, long = quality("100 players, round 5 (5 seeds)", players, history, args.seed)
    ok &= base <= 1.1 * long
    for count, rounds in ((24, 5), (24, 8), (40, 10), (100, 23)):
        hard = list(range(1, count + 1))
        past = history_of(hard, rounds, args.seed)
        quality(f"{count} players, round {rounds + 1} (3 seeds)", hard, past, args.seed, 3)  # shown only
    ok &= exhaustive(list(range(1, 13)), 3, args.seed)
    ok &= exhaustive(list(range(1, 11)), 3, args.seed)
    ok &= swiss(args.seed)
    print("all goals met" if ok else "SOME GOAL MISSED")


if __name__ == "__main__":
    main()
