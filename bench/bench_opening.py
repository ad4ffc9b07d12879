"""Rummikub best opening on dense racks: microseconds per rack (median, 99th percentile, max).

    .venv/bin/python bench/bench_opening.py [--racks N] [--seed S] [--best-of K]

A dense rack is 22 tiles drawn from 6-8 neighbouring numbers in every colour (both copies)
plus both jokers: many melds overlap, which is where the opening search is slowest. Goal:
no rack over 50 ms.

    .venv/bin/python bench/bench_opening.py --peer

also times the same racks with the ``rummikub-solver`` package (an ILP model, Martijn
Pieters; MIT) as a peer, printed beside. It is no dependency of the site, not even a dev one:
the bench installs it on demand into a venv of its own, outside the project's lock files,

    python3 -m venv /tmp/rummikub-peer && /tmp/rummikub-peer/bin/pip install rummikub-solver==1.0.0

and finds it through ``--peer-site /tmp/rummikub-peer/lib/python3.X/site-packages``.
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
    parser.add_argument("--peer", action="store_true", help="time rummikub-solver beside")
    parser.add_argument("--peer-site", default="", help="the site-packages rummikub-solver is in")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    racks = [dense_rack(rng) for _ in range(args.racks)]
    print(f"{args.racks} racks, seed {args.seed}, best of {args.best_of}, Python {sys.version.split()[0]}")
    worst = measure(
        "Rummikub best opening, dense 24 tiles", rule_set("rummikub"), racks, opening, args.best_of
    )
    print(f"slowest rack: {worst / 1000:.2f} ms")
    if args.peer:
        peer_worst = measure_peer(racks, args.best_of, args.peer_site)
        print(f"slowest rack, rummikub-solver: {peer_worst / 1000:.2f} ms")


def measure_peer(racks: list[list[Card]], best_of: int, site: str) -> float:
    """The same racks' initial meld by rummikub-solver (its INITIAL mode: the opening from the
    rack alone, at least 30 points), timed by the same measure."""
    if site:
        sys.path.append(site)
    try:
        import rummikub_solver as peer  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("rummikub-solver is not installed: see this script's docstring")
    ruleset = peer.RuleSet()
    tiles = ruleset.tiles

    def solve(rack: list[Card], _rules: RuleSet) -> object:
        # The peer numbers tiles colour by colour, 1-13 each, the joker last.
        numbers = [int(tiles[-1]) if c.is_joker else c.suit * 13 + c.rank for c in rack]
        state = ruleset.new_game()
        state.add_rack(*numbers)
        return ruleset.solve(state, peer.SolverMode.INITIAL)

    return measure("rummikub-solver (ILP), dense 24 tiles", rule_set("rummikub"), racks, solve, best_of)


if __name__ == "__main__":
    main()
