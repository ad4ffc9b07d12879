"""RLCard's gin-rummy melding as the engine benchmark's peer; runs in bench/.peer-venv only.

    bench/.peer-venv/bin/python bench/peer_rlcard.py time  < hands.txt   # per-hand µs, JSON
    bench/.peer-venv/bin/python bench/peer_rlcard.py cli   < hands.txt   # one JSON line per hand

Hands are lines of 10 two-letter cards (``AS TH 7C ...``, RLCard's own text form).
``time`` reads every hand first, then times ``get_best_meld_clusters`` on each (the in-process
peer of the engine's ``arrange`` on parsed cards) and prints the times and the best deadwood
values as one JSON object. ``cli`` is the peer of ``python -m engine arrange --rules gin``:
for each line it reads the cards, finds the best melds and writes the melds, the deadwood and
its value as one JSON line. Not imported by the project (it needs rlcard and numpy).
"""

from __future__ import annotations

import gc
import json
import sys
import time

# rlcard is installed in bench/.peer-venv only, never where mypy runs.
from rlcard.games.gin_rummy.utils import utils  # type: ignore[import-not-found]
from rlcard.games.gin_rummy.utils.melding import get_best_meld_clusters  # type: ignore[import-not-found]


def read(line: str) -> list[object]:
    return [utils.card_from_text(token) for token in line.split()]


def best(hand: list[object]) -> tuple[list[list[object]], list[object], int]:
    clusters = get_best_meld_clusters(hand)
    melds = clusters[0] if clusters else []
    deadwood = utils.get_deadwood(hand, melds)
    return melds, deadwood, sum(utils.get_deadwood_value(card) for card in deadwood)


def main() -> None:
    mode = sys.argv[1]
    if mode == "cli":
        for line in sys.stdin:
            melds, deadwood, value = best(read(line))
            result = {
                "ok": True,
                "melds": [[str(card) for card in meld] for meld in melds],
                "deadwood": [str(card) for card in deadwood],
                "deadwood_points": value,
            }
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
        return
    hands = [read(line) for line in sys.stdin if line.strip()]
    for hand in hands[:100]:  # warm up, as the engine side does
        get_best_meld_clusters(hand)
    gc.collect()
    times: list[float] = []
    points: list[int] = []
    for hand in hands:
        start = time.perf_counter_ns()
        get_best_meld_clusters(hand)
        times.append((time.perf_counter_ns() - start) / 1000)
        points.append(best(hand)[2])
    json.dump({"us": times, "deadwood_points": points, "python": sys.version.split()[0]}, sys.stdout)


if __name__ == "__main__":
    main()
