"""Rummikub best opening on dense racks: milliseconds per rack (median, slowest), beside a peer.

    .venv/bin/python bench/bench_opening.py [--racks N] [--seed S] [--best-of K]
        [--peer-site DIR | --no-peer]

A dense rack is 22 tiles drawn from 4-8 neighbouring numbers in every colour (both copies)
plus both jokers: many melds overlap, which is where the opening search is slowest. The racks
are the same on every run (seeded). Goal: no rack over 50 ms.

The same racks are timed with the ``rummikub-solver`` package (an ILP model, Martijn Pieters;
MIT) when it can be imported, and printed beside; otherwise the bench says the peer is absent.
It is no dependency of the site, not even a dev one: it lives in a venv of its own, outside the
project's lock files (bench/README.md),

    python3.12 -m venv /tmp/rummikub-peer && /tmp/rummikub-peer/bin/pip install rummikub-solver==1.0.0

and is found through ``--peer-site /tmp/rummikub-peer/lib/python3.12/site-packages`` (the same
Python minor version as the project's venv: the peer ships compiled modules).

The peer's initial mode places the most tiles worth at least 30 points, where ours lays the
most points: the laydowns differ, but whether an opening exists must not, and is checked.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.opening import best_opening
from engine.rules import rule_set

RUMMIKUB = rule_set("rummikub")


def dense_rack(rng: random.Random) -> list[Card]:
    width = rng.randint(4, 8)
    start = rng.randint(1, 14 - width)
    pool = [Card(rank, colour) for colour in range(4) for rank in range(start, start + width)] * 2
    rack = [*rng.sample(pool, 22), JOKER, JOKER]
    rng.shuffle(rack)
    return rack


def opening(rack: list[Card]) -> bool:
    """Whether the rack has an opening (the search runs in full either way)."""
    try:
        best_opening(rack, RUMMIKUB)
    except EngineError:  # no_opening is an answer too
        return False
    return True


def timed(
    racks: Sequence[list[Card]], solve: Callable[[list[Card]], bool], best_of: int
) -> tuple[list[float], list[bool]]:
    """Milliseconds per rack (each rack's fastest of ``best_of``) and each rack's answer."""
    for rack in racks[:20]:  # warm the rule set's tables and caches, as in a running site
        solve(rack)
    gc.collect()
    times, answers = [], []
    for rack in racks:
        fastest = float("inf")
        for _ in range(best_of):
            start = time.perf_counter_ns()
            answer = solve(rack)
            fastest = min(fastest, (time.perf_counter_ns() - start) / 1e6)
        times.append(fastest)
        answers.append(answer)
    return times, answers


def peer_solver(site: str) -> Callable[[list[Card]], bool] | None:
    """rummikub-solver's initial meld (from the rack alone, at least 30 points), or None if the
    package cannot be imported."""
    if site:
        sys.path.append(site)
    try:
        import rummikub_solver as peer  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    ruleset = peer.RuleSet()
    joker = int(ruleset.tiles[-1])

    def solve(rack: list[Card]) -> bool:
        # The peer numbers tiles colour by colour, 1-13 each, the joker last.
        state = ruleset.new_game()
        state.add_rack(*(joker if c.is_joker else c.suit * 13 + c.rank for c in rack))
        # Its model itself, not RuleSet.solve: that first refuses a rack whose distinct numbers
        # (each counted once) sum below 30, so it answers "none" at once for openings that exist.
        return bool(ruleset._solver(peer.SolverMode.INITIAL, state).tiles)

    return solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--best-of", type=int, default=1)
    parser.add_argument("--peer-site", default="", help="the site-packages rummikub-solver is in")
    parser.add_argument("--no-peer", action="store_true", help="time the engine only")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    racks = [dense_rack(rng) for _ in range(args.racks)]
    print(f"{args.racks} dense 24-tile racks, 2 jokers, seed {args.seed}, best of {args.best_of}, ", end="")
    print(f"Python {sys.version.split()[0]}")
    rows = [("engine best_opening", *timed(racks, opening, args.best_of))]
    peer = None if args.no_peer else peer_solver(args.peer_site)
    if peer is not None:
        rows.append(("rummikub-solver 1.0.0 (ILP)", *timed(racks, peer, args.best_of)))
    print(f"{'':<30}{'median ms':>12}{'slowest ms':>12}")
    for name, times, _answers in rows:
        print(f"{name:<30}{statistics.median(times):>12.2f}{max(times):>12.2f}")
    if peer is None:
        print("rummikub-solver: " + ("not timed (--no-peer)" if args.no_peer else "absent (see --peer-site)"))
    else:
        disagree = sum(a != b for a, b in zip(rows[0][2], rows[1][2], strict=True))
        print(f"racks with an opening: {sum(rows[0][2])}; the peer disagrees on {disagree}")
        if disagree:
            sys.exit(1)
    worst = max(rows[0][1])
    print(f"goal: no rack over 50 ms: {'MET' if worst <= 50 else 'NOT MET'} (slowest {worst:.2f} ms)")


if __name__ == "__main__":
    main()
