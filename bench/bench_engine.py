"""Solver benchmark: microseconds per hand on seeded random hands (median, 99th percentile, max).

    .venv/bin/python bench/bench_engine.py [--hands N] [--seed S] [--best-of K]

Each hand is timed once (no result caching across hands; the per-rule-set tables and the
per-suit candidate caches are warm, as in a running site). ``--best-of 3`` keeps each hand's
fastest of three runs, which filters out scheduler noise on a busy machine. Goals (CPython,
this machine): 10-card gin arrange median <= 50 us; 14-card Žolíky with up to 4 jokers
p99 <= 5 ms; no hand over 50 ms.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.arrange import arrange
from engine.cards import JOKER, Card
from engine.gin import knock_check
from engine.rules import RuleSet, rule_set

DECK = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]


def measure(
    name: str,
    rules: RuleSet,
    hands: Sequence[list[Card]],
    solve: Callable[[list[Card], RuleSet], object],
    best_of: int = 1,
) -> float:
    for hand in hands[:100]:  # warm the per-rule-set tables and candidate caches
        solve(hand, rules)
    gc.collect()
    times = []
    for hand in hands:
        fastest = float("inf")
        for _ in range(best_of):
            start = time.perf_counter_ns()
            solve(hand, rules)
            fastest = min(fastest, (time.perf_counter_ns() - start) / 1000)
        times.append(fastest)
    times.sort()
    n = len(times)
    median, p99, worst = times[n // 2], times[min(n - 1, (99 * n) // 100)], times[-1]
    print(f"{name:<44} median {median:9.1f} us   p99 {p99:9.1f} us   max {worst:9.1f} us")
    return worst


def with_jokers(rng: random.Random, pack: list[Card], size: int, most: int) -> list[Card]:
    jokers = rng.randint(0, most)
    hand = rng.sample(pack, size - jokers) + [JOKER] * jokers
    rng.shuffle(hand)
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--best-of", type=int, default=1, help="time each hand K times, keep the fastest")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.hands
    gin, zoliky, rummikub = rule_set("gin"), rule_set("zoliky"), rule_set("rummikub")
    k = args.best_of
    print(f"{n} hands each, seed {args.seed}, best of {k}, Python {sys.version.split()[0]}")
    worst = [
        measure("gin arrange, 10 cards", gin, [rng.sample(DECK, 10) for _ in range(n)], arrange, k),
        measure("gin knock check, 11 cards", gin, [rng.sample(DECK, 11) for _ in range(n)], knock_check, k),
        measure(
            "Žolíky arrange, 14 cards, 0-4 jokers",
            zoliky,
            [with_jokers(rng, DECK * 2, 14, 4) for _ in range(n)],
            arrange,
            k,
        ),
        measure(
            "Žolíky arrange, 14 cards, 4 jokers",
            zoliky,
            [rng.sample(DECK * 2, 10) + [JOKER] * 4 for _ in range(n)],
            arrange,
            k,
        ),
        measure(
            "Rummikub arrange, 14 tiles, 0-2 jokers",
            rummikub,
            [with_jokers(rng, DECK * 2, 14, 2) for _ in range(n)],
            arrange,
            k,
        ),
    ]
    print(f"slowest hand overall: {max(worst) / 1000:.2f} ms")


if __name__ == "__main__":
    main()
