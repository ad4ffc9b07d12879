"""Engine against its peer: parse_hand, in-process arrange and the CLI, beside RLCard's gin melding.

    .venv/bin/python bench/bench_parse.py [--hands N] [--seed S] [--cli-runs K] [--no-peer]

Every figure is printed beside its goal or its peer and the ratio (see bench/README.md).

- ``parse_hand``: µs per hand text (median, p99), one call per hand, against the goal
  (≤ 10 µs for 10 cards, ≤ 15 µs for 14).
- in-process: the engine's ``arrange`` on parsed cards against RLCard's
  ``get_best_meld_clusters`` on its own parsed cards, the same seeded hands, each hand timed
  once with ``perf_counter_ns`` inside its own process after the same warm-up.
- CLI: whole-process wall time of ``python -m engine arrange --rules gin`` against
  ``bench/peer_rlcard.py cli`` (read the line, best melds, JSON line out), both fed the same
  hands on standard input: one hand per process (start-up included, as a script calling the
  CLI per hand would see it) and all the hands through one process. Runs alternate A B A B,
  the median is quoted, and every output line's deadwood value is checked against the peer's.

RLCard (and numpy) live in ``bench/.peer-venv`` (git-ignored), created with pinned versions on
the first run from this interpreter; they are never installed into the project's venv.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.arrange import arrange
from engine.cards import JOKER, Card
from engine.notation import codes, parse_hand
from engine.rules import RuleSet, rule_set

ROOT = Path(__file__).resolve().parents[1]
PEER_VENV = ROOT / "bench" / ".peer-venv"
PEER_PYTHON = PEER_VENV / "bin" / "python"
PEER_SCRIPT = ROOT / "bench" / "peer_rlcard.py"
PEER_PINS = ("rlcard==1.2.0", "numpy==2.4.6", "termcolor==3.3.0")
DECK = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
GIN, ZOLIKY, RUMMIKUB = rule_set("gin"), rule_set("zoliky"), rule_set("rummikub")


def random_gin(rng: random.Random) -> list[Card]:
    return rng.sample(DECK, 10)


def dense_gin(rng: random.Random) -> list[Card]:
    """10 cards from 5 consecutive ranks: many overlapping runs and groups."""
    low = rng.randint(1, 9)
    return rng.sample([c for c in DECK if low <= c.rank < low + 5], 10)


def zoliky_jokers(rng: random.Random) -> list[Card]:
    """14 Žolíky cards with 4 jokers (two decks)."""
    hand = rng.sample(DECK * 2, 10) + [JOKER] * 4
    rng.shuffle(hand)
    return hand


def stats(times: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(times)
    n = len(ordered)
    return ordered[n // 2], ordered[min(n - 1, (99 * n) // 100)]


def per_hand(items: Sequence[object], call: Callable[[object], object]) -> list[float]:
    for item in items[:100]:
        call(item)
    gc.collect()
    times = []
    for item in items:
        start = time.perf_counter_ns()
        call(item)
        times.append((time.perf_counter_ns() - start) / 1000)
    return times


def parse_text(text: object, rules: RuleSet) -> list[Card]:
    return parse_hand(str(text), rules)


def row(name: str, figure: str, against: str, ratio: str) -> None:
    print(f"  {name:<34} {figure:<30} {against:<30} {ratio}")


def peer_ready() -> bool:
    """Create bench/.peer-venv with the pinned RLCard on first use; False if that cannot be done."""
    check = [str(PEER_PYTHON), "-c", "import rlcard.games.gin_rummy.utils.melding"]
    if PEER_PYTHON.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return True
    print(f"creating {PEER_VENV.relative_to(ROOT)} with {', '.join(PEER_PINS)} (first run only)...")
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(PEER_VENV)],
        [str(PEER_PYTHON), "-m", "pip", "install", "--quiet", *PEER_PINS],
    ]
    for step in steps:
        if subprocess.run(step).returncode != 0:
            return False
    return subprocess.run(check, capture_output=True).returncode == 0


def peer_times(texts: Sequence[str]) -> tuple[list[float], list[int]]:
    done = subprocess.run(
        [str(PEER_PYTHON), str(PEER_SCRIPT), "time"],
        input="\n".join(texts) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    return data["us"], data["deadwood_points"]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def whole_process(command: Sequence[str], stdin_path: str) -> tuple[float, float, list[int]]:
    """CPU seconds (user + system) and wall seconds of one run of ``command`` reading
    ``stdin_path``, and each output line's deadwood value."""
    with open(stdin_path, encoding="utf-8") as source:
        cpu, start = child_cpu(), time.perf_counter()
        done = subprocess.run(command, stdin=source, capture_output=True, text=True, check=True)
        seconds, cpu = time.perf_counter() - start, child_cpu() - cpu
    return cpu, seconds, [json.loads(line)["deadwood_points"] for line in done.stdout.splitlines()]


def cli_pair(texts: Sequence[str], runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (CPU, wall) seconds of the engine's CLI and of the peer's, alternating, on ``texts``."""
    engine = [sys.executable, "-m", "engine", "arrange", "--rules", "gin"]
    peer = [str(PEER_PYTHON), str(PEER_SCRIPT), "cli"]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
        handle.write("\n".join(texts) + "\n")
    a_runs, b_runs = [], []
    try:
        for run in range(runs + 1):  # the first pair warms the disk cache and is not counted
            a_cpu, a_wall, a_points = whole_process(engine, handle.name)
            b_cpu, b_wall, b_points = whole_process(peer, handle.name)
            if a_points != b_points:
                raise SystemExit("CLI: the engine and RLCard disagree on a hand's deadwood")
            if run:
                a_runs.append((a_cpu, a_wall))
                b_runs.append((b_cpu, b_wall))
    finally:
        os.unlink(handle.name)
    medians = [
        (statistics.median(r[0] for r in side), statistics.median(r[1] for r in side))
        for side in (a_runs, b_runs)
    ]
    return medians[0], medians[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--cli-runs", type=int, default=5, help="alternating runs per CLI figure")
    parser.add_argument("--no-peer", action="store_true", help="engine figures only")
    args = parser.parse_args()
    os.chdir(ROOT)  # python -m engine
    rng = random.Random(args.seed)
    n = args.hands
    hands = {
        "random gin": [random_gin(rng) for _ in range(n)],
        "meld-dense gin": [dense_gin(rng) for _ in range(n)],
    }
    gin_texts = {kind: [" ".join(codes(h, GIN)) for h in hs] for kind, hs in hands.items()}
    print(f"{n} hands each, seed {args.seed}, Python {sys.version.split()[0]}")

    print("parse_hand (µs per hand: median / p99)")
    parse_cases: list[tuple[str, RuleSet, list[str], float]] = [
        ("gin, 10 cards, random", GIN, gin_texts["random gin"], 10),
        ("gin, 10 cards, meld-dense", GIN, gin_texts["meld-dense gin"], 10),
        (
            "Žolíky, 14 cards, 4 jokers",
            ZOLIKY,
            [" ".join(codes(zoliky_jokers(rng), ZOLIKY)) for _ in range(n)],
            15,
        ),
        (
            "Rummikub, 14 tiles",
            RUMMIKUB,
            [" ".join(codes(rng.sample(DECK * 2, 14), RUMMIKUB)) for _ in range(n)],
            15,
        ),
    ]
    for name, rules, texts, goal in parse_cases:
        median, p99 = stats(per_hand(texts, partial(parse_text, rules=rules)))
        row(name, f"{median:7.1f} / {p99:7.1f}", f"goal <= {goal:.0f} µs", f"{median / goal:.2f}× goal")

    if args.no_peer or not peer_ready():
        print("RLCard peer skipped" + ("" if args.no_peer else ": could not create bench/.peer-venv"))
        return
    print("in-process arrange vs RLCard get_best_meld_clusters (µs per hand: median / p99)")
    for kind, hs in hands.items():
        mine = per_hand(hs, lambda hand: arrange(hand, GIN))  # type: ignore[arg-type]
        theirs, points = peer_times(gin_texts[kind])
        if points != [arrange(hand, GIN).deadwood_points for hand in hs]:
            raise SystemExit(f"{kind}: the engine and RLCard disagree on a hand's deadwood")
        (m_med, m_p99), (t_med, t_p99) = stats(mine), stats(theirs)
        row(
            kind,
            f"engine {m_med:7.1f} / {m_p99:7.1f}",
            f"RLCard {t_med:7.1f} / {t_p99:7.1f}",
            f"{t_med / m_med:.2f}× faster (goal 3×)",
        )

    # Bytecode as an installed site has it (PYTHONDONTWRITEBYTECODE would otherwise make every
    # engine run compile its modules again, while the peer's site-packages are compiled).
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine"], check=True)
    print("CLI arrange --rules gin vs RLCard script (whole process, ms CPU [wall], median of runs)")
    for kind, texts in gin_texts.items():
        goal = 3 if kind == "random gin" else 2
        for label, batch in (("1 hand/process", texts[:1]), (f"{n} hands/process", texts)):
            (a_cpu, a_wall), (b_cpu, b_wall) = cli_pair(batch, args.cli_runs)
            row(
                f"{kind}, {label}",
                f"engine {a_cpu * 1000:7.1f} [{a_wall * 1000:7.1f}]",
                f"RLCard {b_cpu * 1000:7.1f} [{b_wall * 1000:7.1f}]",
                f"{b_cpu / a_cpu:.2f}× faster (goal {goal}×)",
            )


if __name__ == "__main__":
    main()
