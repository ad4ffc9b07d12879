"""The tournament-night load test: gunicorn in production mode on PostgreSQL, and Locust
(bench/locustfile.py) playing the evening against it, headless, on this machine.

    .venv/bin/python bench/load_night.py [--tables 25,150] [--seconds 600] [--spectators 20]
        [--servers 1|2] [--worker-class gthread|sync] [--workers N] [--threads N] [--code DIR]

``--tables`` takes one number or several (the default: a club night of 25 tables, then a big
open of 150), one whole run each, in turn.

Per table: one scorekeeper phone saving a hand every 30-60 s (htmx), three phones following the
live view (3 s polls with the tag they hold); for the venue: one projector on the tournament's
screen (a 4 s poll with its tag, the next screenful every 15 s) and ``--spectators`` people
opening the standings, a page of the round, "where do I sit", players' tournament pages and the
club's player pages.

Goals: no error; p95 <= 150 ms for pages and saves, <= 50 ms for polls; every acknowledged save
stored exactly once; every follower was shown every save of its table.

What it does, and undoes (try/finally, even on failure or Ctrl-C):

1. creates a scratch PostgreSQL database on 127.0.0.1:5432 (user postgres, trust auth; ``--pg``),
   runs the migrations and ``collectstatic`` into a temporary folder, and seeds the evening
   (bench/load_night_seed.py: a public club's Rummikub tournament with its first round started);
2. starts ``--servers`` gunicorns (1 or 2, each on a free port of 127.0.0.1, the same database)
   with DEBUG=0, a random SECRET_KEY and ALLOWED_HOSTS=127.0.0.1, with the worker model
   ``manage.py serve`` uses (gthread: few processes, many threads, kept-alive connections for
   the many idle polls; ``--worker-class sync`` for the comparison); every request carries the
   headers the TLS-terminating proxy adds, and with two servers each phone sends its requests
   to them in turn, as a round-robin proxy would (no server may know what the other does not);
3. runs Locust (its lighter HTTP client, so that it takes little of the servers' machine): the
   phones arrive, ten a second, and open their tables; 20 s after the last
   arrived, ``--seconds`` are measured (then a bounded stop); it prints p50, p95
   and p99 per kind of request, the errors, what each server answered, and checks the
   database: every acknowledged save is recorded exactly once (by its request id), nothing else
   is, and every follower's last view of its table had all the table's hands (each follower
   polls once more at the stop, after its table's scorekeeper stopped);
4. prints the CPU time (user + system, from /proc) each gunicorn (master and workers),
   PostgreSQL and Locust used in the measured seconds: seconds, share of one core, and milliseconds per
   table per second, the figure that says how many tables a machine carries;
5. stops the gunicorns and drops the database.

``--code DIR`` serves another checkout of the project (say, a copy of main's code, to compare
before and after a change) with this checkout's virtualenv and scenario. Only 127.0.0.1 is ever
contacted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
# The worker model `manage.py serve` runs (rummy_site/management/commands/serve.py).
WEB_WORKERS, WEB_THREADS, WEB_KEEPALIVE = 2, 8, 10
# Phones arriving a second (an open's players do not all open their tables at once), and the
# seconds after the last arrives before the run is measured.
ARRIVALS, SETTLE = 10, 20
HOST = "127.0.0.1"  # never anything else

FOLLOWERS = 3  # per table, as bench/locustfile.py

# Goal per kind of request (p95, ms); the kinds not named here are a phone's first look (and a
# follower's last poll at the stop, all at once).
GOALS = {
    "save (htmx)": 150.0,
    "live poll": 50.0,
    "screen": 150.0,
    # The projector's poll redraws the screen whenever any table saved since its last one,
    # nearly every poll at an evening's pace: a page, not a 304.
    "screen poll": 150.0,
    "standings": 150.0,
    "round page": 150.0,
    "find seat": 150.0,
    "tournament player": 150.0,
    "player page": 150.0,
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_healthy(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=1) as sock:
                sock.sendall(
                    f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Forwarded-Proto: https\r\n"
                    f"X-Forwarded-For: 10.255.0.1\r\nConnection: close\r\n\r\n".encode()
                )
                if sock.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /healthz in time")


def verify(
    pg: str, database: str, acknowledged: dict[str, list[str]]
) -> tuple[dict[str, int], int, list[str]]:
    """(hands in the database per game, acknowledged saves, problems). The seed records no
    hand, so every hand in the database must be one acknowledged save, once."""
    problems: list[str] = []
    with psycopg.connect(f"{pg}/{database}") as conn:
        rows = conn.execute(
            "SELECT g.public_id, h.request_id::text, count(*) FROM games_hand h "
            "JOIN games_game g ON g.id = h.game_id GROUP BY 1, 2"
        ).fetchall()
    recorded: dict[tuple[str, str | None], int] = {(g, r): n for g, r, n in rows}
    hands: dict[str, int] = defaultdict(int)
    for (game, _), found in recorded.items():
        hands[game] += found
    count = 0
    for game, ids in acknowledged.items():
        for request_id in ids:
            count += 1
            found = recorded.pop((game, request_id), 0)
            if found != 1:
                problems.append(f"game {game} save {request_id}: recorded {found} times")
    for (game, unknown), found in recorded.items():
        problems.append(f"game {game} save {unknown}: recorded {found}x, never acknowledged")
    return hands, count, problems


def followers_check(followers: list[dict[str, object]], hands: dict[str, int]) -> tuple[int, list[str]]:
    """(followers shown every hand of their table, the others as text)."""
    saw, missed = 0, []
    for seen in followers:
        game = str(seen["game"])
        shown, stored = seen["hands"], hands.get(game, 0)
        if shown == stored:
            saw += 1
        else:
            last = " after a last poll" if seen["final_poll"] else " (no last poll)"
            if seen.get("keeper_stopped") is False:
                last += ", its scorekeeper still running"
            missed.append(
                f"game {game}: a follower was shown {shown} of {stored} hands{last} (its last answers, "
                f"asked/answered/status/hands: {seen.get('answers')}; last save: {seen.get('last_saved')})"
            )
    return saw, missed


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """The CPU time (user + system) process groups use during the run, from /proc: each
    gunicorn (its master and workers), PostgreSQL (this run's database's backends, and all its
    processes: the server is shared), read before, every half second during, and after the
    run, so that a process born or ended in between (a database connection Django reopens)
    counts up to its last reading."""

    def __init__(self, masters: dict[str, int], database: str) -> None:
        self.masters = masters  # group -> the pid of its parent process
        self.database = database.encode()
        self.first: dict[tuple[int, int], float] = {}  # (pid, start time) -> CPU s at the start
        self.last: dict[tuple[int, int], float] = {}
        self.groups: dict[tuple[int, int], set[str]] = {}
        self.started = False

    def sample(self) -> None:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue  # ended meanwhile
            pid = int(entry.name)
            comm = stat[stat.index(b"(") + 1 : stat.rindex(b")")]
            fields = stat[stat.rindex(b")") + 2 :].split()
            ppid, start = int(fields[1]), int(fields[19])
            seconds = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            key = (pid, start)
            groups = self.groups.get(key)
            if groups is None or (b"postgres" == comm and "pg-run" not in groups):
                groups = self.classify(pid, ppid, comm)
                if not groups:
                    continue
                self.groups[key] = groups
            # A process first seen during the run was born during it: all its time counts.
            self.first.setdefault(key, seconds if not self.started else 0.0)
            self.last[key] = seconds
        self.started = True

    def classify(self, pid: int, ppid: int, comm: bytes) -> set[str]:
        for group, master in self.masters.items():
            if master in (pid, ppid):
                return {group}
        if comm != b"postgres":
            return set()
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                title = f.read()
        except OSError:
            return {"pg"}
        # A backend's title names its database (update_process_title, on by default).
        return {"pg", "pg-run"} if self.database in title else {"pg"}

    def seconds(self) -> dict[str, float]:
        totals: dict[str, float] = defaultdict(float)
        # The whole machine's busy time (every CPU but idle and iowait), for what no process
        # above is charged with (the kernel's loopback networking) and the other tenants.
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
        totals["machine"] = (sum(ticks) - ticks[3] - ticks[4]) / CLOCK_TICKS
        for key, last in self.last.items():
            for group in self.groups[key]:
                totals[group] += last - self.first[key]
        return totals


# The kind of request a logged path is, as Locust names it (the rest are a phone's first look).
SERVER_KINDS = (
    (re.compile(r"^/g/[^/]+/live/$"), "live poll"),
    (re.compile(r"^/g/[^/]+/hands/$"), "save (htmx)"),
    (re.compile(r"^/t/[^/]+/screen/$"), "screen (both)"),
    (re.compile(r"^/t/[^/]+/standings/$"), "standings"),
    (re.compile(r"^/t/[^/]+/r/\d+/$"), "round page"),
    (re.compile(r"^/t/[^/]+/seat/$"), "find seat"),
    (re.compile(r"^/t/[^/]+/p/\d+/$"), "tournament player"),
    (re.compile(r"^/c/[^/]+/players/\d+/$"), "player page"),
)


def print_server_times(log_paths: list[Path], start: float, seconds: int) -> None:
    """The time the requests of the measured window spent inside Django, from the site's own
    request log, per kind: what the server costs, apart from the queues before it and Locust's
    own scheduling."""
    times: dict[str, list[float]] = defaultdict(list)
    # The log's lines carry wall-clock times; the window is known in monotonic time.
    offset = time.time() - time.monotonic()
    first, last = start + offset, start + offset + seconds
    for log_path in log_paths:
        for line in log_path.read_text(errors="replace").splitlines():
            if not line.startswith("{"):
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if "duration_ms" not in record:
                continue
            at = datetime.datetime.fromisoformat(record["time"]).timestamp() if "time" in record else first
            if not first <= at <= last:
                continue
            kind = next((k for pattern, k in SERVER_KINDS if pattern.match(record["path"])), "other")
            times[kind].append(float(record["duration_ms"]))
    print(f"{'in Django (request log)':26} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7}  ms")
    for kind in sorted(times):
        values = times[kind]
        print(
            f"  {kind:24} {len(values):6d} {percentile(values, 50):7.1f} {percentile(values, 95):7.1f} "
            f"{percentile(values, 99):7.1f}"
        )


def _each(counts: list[int]) -> int:
    """One run per number of tables, each in its own process (its own database and servers)."""
    rest: list[str] = []
    given = iter(sys.argv[1:])
    for arg in given:
        if arg == "--tables":
            next(given, None)
        elif not arg.startswith("--tables="):
            rest.append(arg)
    worst = 0
    for count in counts:
        print(f"\n=== {count} tables ===", flush=True)
        worst = max(worst, subprocess.call([sys.executable, __file__, *rest, "--tables", str(count)]))
    return worst


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables", default="25,150", help="tables; several, comma-separated: one run each, in turn"
    )
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument(
        "--servers", type=int, choices=(1, 2), default=1, help="gunicorns on one database, each as set"
    )
    parser.add_argument("--worker-class", choices=("gthread", "sync"), default="gthread")
    parser.add_argument("--workers", type=int, help="processes (gthread: as serve; sync: 2 x cores + 1)")
    parser.add_argument("--threads", type=int, default=WEB_THREADS, help="threads per gthread process")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--pg", default=f"postgresql://postgres@{HOST}:5432", help="server (127.0.0.1)")
    parser.add_argument("--keep-log", action="store_true", help="print gunicorn's log at the end")
    parser.add_argument(
        "--server-times",
        action="store_true",
        help="also the time each request spent in Django (the site's request log), beside Locust's",
    )
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.tables.split(",")]
    except ValueError:
        parser.error("--tables: numbers separated by commas")
    if len(counts) > 1:
        return _each(counts)
    args.tables = counts[0]
    if args.workers is None:
        args.workers = WEB_WORKERS if args.worker_class == "gthread" else 2 * (os.cpu_count() or 1) + 1
    if not 1 <= args.tables <= 200 or not 10 <= args.seconds <= 1800 or not 0 <= args.spectators <= 200:
        parser.error("--tables 1..200, --seconds 10..1800, --spectators 0..200")
    if f"@{HOST}:" not in args.pg and f"//{HOST}" not in args.pg:
        parser.error("--pg must point at 127.0.0.1")
    code = args.code.resolve()

    database = f"rummy_night_{os.getpid()}_{secrets.token_hex(3)}"
    workdir = Path(tempfile.mkdtemp(prefix="rummy-night-"))
    log_paths = [workdir / f"gunicorn-{n + 1}.log" for n in range(args.servers)]
    out_path = workdir / "locust.json"
    ports: list[int] = []
    while len(ports) < args.servers:
        port = free_port()
        if port not in ports:
            ports.append(port)
    env = os.environ | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"{args.pg}/{database}",
        "STATIC_ROOT": str(workdir / "static"),
        "PROXY_COUNT": "1",
        # The site's request log (rummy_site/logs.py): a JSON line per request with its duration.
        **({"LOG_LEVEL": "INFO", "LOG_FORMAT": "json"} if args.server_times else {"LOG_LEVEL": "WARNING"}),
    }
    gunicorns: list[subprocess.Popen[bytes]] = []
    created = False
    status = 1
    try:
        with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
            created = True
        python = str(VENV_BIN / "python")
        subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=code, env=env, check=True)
        subprocess.run(
            [python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=code, env=env, check=True
        )
        seed = subprocess.run(
            [python, str(ROOT / "bench" / "load_night_seed.py"), "--tables", str(args.tables)],
            cwd=code,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        night = json.loads(seed)
        for port, log_path in zip(ports, log_paths, strict=True):
            command = [str(VENV_BIN / "gunicorn"), "rummy_site.wsgi", "--bind", f"{HOST}:{port}"]
            command += ["--workers", str(args.workers), "--backlog", "256", "--timeout", "60"]
            command += ["--worker-class", args.worker_class]
            if args.worker_class == "gthread":
                command += ["--threads", str(args.threads), "--keep-alive", str(WEB_KEEPALIVE)]
            with open(log_path, "wb") as log:
                gunicorns.append(
                    subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)
                )
        for port, gunicorn in zip(ports, gunicorns, strict=True):
            wait_healthy(port, gunicorn)
        bases = [f"http://{HOST}:{port}" for port in ports]
        users = args.tables * (1 + FOLLOWERS) + 1 + args.spectators
        print(
            f"{args.servers} x gunicorn {args.workers} {args.worker_class} workers"
            + (f" x {args.threads} threads" if args.worker_class == "gthread" else "")
            + f" on {', '.join(bases)} serving {code}, DEBUG=0, PostgreSQL; "
            f"{args.tables} tables (a scorekeeper and {FOLLOWERS} followers each), 1 projector, "
            f"{args.spectators} spectators: {users} phones for {args.seconds} s"
            + (", each phone's requests to the servers in turn" if args.servers > 1 else "")
        )
        locust = [str(VENV_BIN / "locust"), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless"]
        locust += [
            "--host",
            bases[0],
            "--users",
            str(users),
            "--spawn-rate",
            str(ARRIVALS),
        ]
        # The phones arrive, open their tables' pages and settle; then the run is measured.
        warmup = -(-users // ARRIVALS) + SETTLE
        # The stop waits for a save in flight, then for the followers' last polls.
        locust += ["--run-time", f"{warmup + args.seconds}s", "--stop-timeout", "30", "--only-summary"]
        locust += ["--loglevel", "WARNING", "--skip-log-setup"]
        night_env = env | {
            "LOAD_NIGHT": json.dumps(night),
            "LOAD_SPECTATORS": str(args.spectators),
            "LOAD_NIGHT_OUT": str(out_path),
            "LOAD_BASES": json.dumps(bases),
            "LOAD_WARMUP": str(warmup),
        }
        began = time.monotonic()
        runner = subprocess.Popen(locust, cwd=ROOT, env=night_env, stdout=subprocess.DEVNULL)
        masters = {f"gunicorn {n + 1}": g.pid for n, g in enumerate(gunicorns)} | {"locust": runner.pid}
        meter = CpuMeter(masters, database)
        # The CPU of the measured window only (the phones arriving are not a table's evening).
        window: list[dict[str, float]] = []
        try:
            while runner.poll() is None:
                elapsed = time.monotonic() - began
                if elapsed > warmup + args.seconds + 120:
                    raise RuntimeError("Locust did not stop in time")
                meter.sample()
                if len(window) < 2 and elapsed >= warmup + len(window) * args.seconds:
                    window.append(meter.seconds())
                time.sleep(0.5)
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
        if len(window) < 2:
            raise RuntimeError("Locust stopped before the end of the measured window")
        ran = float(args.seconds)
        cpu = {group: used - window[0].get(group, 0.0) for group, used in window[1].items()}
        result = json.loads(out_path.read_text())

        print(f"{'request':26} {'n':>6} {'p50':>7} {'p95':>7} {'p99':>7}  ms   goal (p95)")
        met = True
        for name in sorted(result["timings"], key=lambda n: (n not in GOALS, n)):
            values = result["timings"][name]
            p95 = percentile(values, 95)
            goal = GOALS.get(name)
            verdict = "" if goal is None else f"<= {goal:g}  {'ok' if p95 <= goal else 'NOT MET'}"
            met = met and (goal is None or p95 <= goal)
            print(
                f"{name:26} {len(values):6d} {percentile(values, 50):7.1f} {p95:7.1f} "
                f"{percentile(values, 99):7.1f}      {verdict}"
            )
        if args.server_times:
            print_server_times(log_paths, began + warmup, args.seconds)
        errors = result["errors"]
        print(f"errors: {len(errors)}")
        for error in errors[:10]:
            print(f"  {error}")
        for n, base in enumerate(bases):
            answers: dict[str, int] = result["served"].get(base, {})
            polls = {status: answers.get(f"live poll {status}", 0) for status in ("200", "304")}
            saves = answers.get("save (htmx) 200", 0)
            other = sum(v for k, v in answers.items() if not k.endswith((" 200", " 302", " 304")))
            print(
                f"server {n + 1} ({base}): {sum(answers.values())} requests; saves answered 200: {saves}; "
                f"live polls 200: {polls['200']}, 304: {polls['304']}; other statuses: {other}"
            )
        hands, acknowledged, problems = verify(args.pg, database, result["acknowledged"])
        print(
            f"database: {sum(hands.values())} hands in {len(night['tables'])} games; "
            f"{acknowledged} acknowledged saves; {len(problems)} mismatches"
        )
        for problem in problems[:10]:
            print(f"  {problem}")
        followers = result["followers"]
        saw, missed = followers_check(followers, hands)
        expected = args.tables * FOLLOWERS
        finals = sum(1 for f in followers if f["final_poll"])
        print(
            f"followers: {saw} of {len(followers)} saw every save"
            + (f" ({expected} expected)" if len(followers) != expected else "")
            + f"; {finals} polled once more at the stop"
        )
        for miss in missed[:10]:
            print(f"  {miss}")
        print(f"{f'CPU, the measured {ran:.0f} s':33} {'s':>7} {'% core':>7} {'ms/table/s':>11}")
        rows = [(f"gunicorn {n + 1} (port {port})", f"gunicorn {n + 1}") for n, port in enumerate(ports)]
        rows += [("PostgreSQL, this database", "pg-run"), ("PostgreSQL, all processes", "pg")]
        rows += [("Locust", "locust"), ("the machine, all of it", "machine")]
        for label, group in rows:
            used = cpu.get(group, 0.0)
            print(f"  {label:31} {used:7.1f} {100 * used / ran:7.1f} {1000 * used / ran / args.tables:11.2f}")
        met = met and not errors and not problems and acknowledged > 0
        met = met and saw == len(followers) == expected
        print(
            "goals (no error, p95 per kind, every save stored once, every follower saw every save): "
            + ("MET" if met else "NOT MET")
        )
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        status = 0 if met else 2
    finally:
        for gunicorn in gunicorns:
            gunicorn.send_signal(signal.SIGTERM)
        for gunicorn in gunicorns:
            try:
                gunicorn.wait(30)
            except subprocess.TimeoutExpired:
                gunicorn.kill()
                gunicorn.wait()
        if status == 1 or args.keep_log:
            for n, log_path in enumerate(log_paths):
                if log_path.exists():
                    print(f"--- gunicorn {n + 1} log (tail) ---", file=sys.stderr)
                    print(log_path.read_text(errors="replace")[-4000:], file=sys.stderr)
        if created:
            with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database))
                )
        shutil.rmtree(workdir, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
