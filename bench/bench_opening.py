"""Rummikub best opening on dense racks: microseconds per rack (median, 99th percentile, max).

    .venv/bin/python bench/bench_opening.py [--racks N] [--seed S] [--best-of K]

A dense rack is 22 tiles drawn from 6-8 neighbouring numbers in every colour (both copies)
plus both jokers: many melds overlap, which is where the opening search is slowest. Goal:
no rack over 50 ms.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engine import measure  # this folder is on the path when run as a script

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.opening import best_opening
from engine.rules import RuleSet, rule_set


def dense_rack(rng: random.Random) -> list[Card]:
    start, width = rng.randint(1, 7), rng.randint(6, 8)
    pool = [Card(rank, colour) for colour in range(4) for rank in range(start, min(14, start + width))] * 2
    rack = [*rng.sample(pool, 22), JOKER, JOKER]
    rng.shuffle(rack)
    return rack


def opening(rack: list[Card], rules: RuleSet) -> object:
    try:
        return best_opening(rack, rules)
    except EngineError:  # no_opening is an answer too
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--best-of", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    racks = [dense_rack(rng) for _ in range(args.racks)]
    print(f"{args.racks} racks, seed {args.seed}, best of {args.best_of}, Python {sys.version.split()[0]}")
    worst = measure(
        "Rummikub best opening, dense 24 tiles", rule_set("rummikub"), racks, opening, args.best_of
    )
    print(f"slowest rack: {worst / 1000:.2f} ms")


if __name__ == "__main__":
    main()
