"""The tournament-night load test: gunicorn in production mode on PostgreSQL, and Locust
(bench/locustfile.py) playing the evening against it, headless, on this machine.

    .venv/bin/python bench/load_night.py [--tables 25] [--seconds 600] [--spectators 20]
        [--worker-class gthread|sync] [--workers N] [--threads N] [--code DIR]

Per table: one scorekeeper phone saving a hand every 30-60 s (htmx), three phones following the
live view (3 s polls with the tag they hold); for the venue: one projector on the tournament's
screen (reloads every 30 s) and ``--spectators`` people opening the standings and players' pages.

Goals: no error; p95 <= 150 ms for polls and pages, <= 300 ms for saves; every acknowledged save
stored exactly once.

What it does, and undoes (try/finally, even on failure or Ctrl-C):

1. creates a scratch PostgreSQL database on 127.0.0.1:5432 (user postgres, trust auth; ``--pg``),
   runs the migrations and ``collectstatic`` into a temporary folder, and seeds the evening
   (bench/load_night_seed.py: a public club's Rummikub tournament with its first round started);
2. starts gunicorn on 127.0.0.1 on a free port with DEBUG=0, a random SECRET_KEY and
   ALLOWED_HOSTS=127.0.0.1, with the worker model ``manage.py serve`` uses (gthread: few processes,
   many threads, kept-alive connections for the many idle polls; ``--worker-class sync`` for the
   comparison); every request carries the headers the TLS-terminating proxy adds;
3. runs Locust for ``--seconds`` (its own run time, plus a bounded stop), then prints p50, p95
   and p99 per kind of request, the errors, and checks the database: every acknowledged save is
   recorded exactly once (by its request id), and nothing else is;
4. stops gunicorn and drops the database.

``--code DIR`` serves another checkout of the project (say, a copy of main's code, to compare
before and after a change) with this checkout's virtualenv and scenario. Only 127.0.0.1 is ever
contacted.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
# The worker model `manage.py serve` runs (rummy_site/management/commands/serve.py).
WEB_WORKERS, WEB_THREADS, WEB_KEEPALIVE = 2, 8, 10
HOST = "127.0.0.1"  # never anything else

# Goal per kind of request (p95, ms); the kinds not named here are a phone's first look.
GOALS = {"save (htmx)": 300.0, "live poll": 150.0, "screen": 150.0, "standings": 150.0, "player page": 150.0}


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


def verify(pg: str, database: str, acknowledged: dict[str, list[str]]) -> tuple[int, int, list[str]]:
    """(hands in the database, acknowledged saves, problems). The seed records no hand, so
    every hand in the database must be one acknowledged save, once."""
    problems: list[str] = []
    with psycopg.connect(f"{pg}/{database}") as conn:
        rows = conn.execute(
            "SELECT g.public_id, h.request_id::text, count(*) FROM games_hand h "
            "JOIN games_game g ON g.id = h.game_id GROUP BY 1, 2"
        ).fetchall()
    recorded: dict[tuple[str, str | None], int] = {(g, r): n for g, r, n in rows}
    total = sum(recorded.values())
    count = 0
    for game, ids in acknowledged.items():
        for request_id in ids:
            count += 1
            found = recorded.pop((game, request_id), 0)
            if found != 1:
                problems.append(f"game {game} save {request_id}: recorded {found} times")
    for (game, unknown), found in recorded.items():
        problems.append(f"game {game} save {unknown}: recorded {found}x, never acknowledged")
    return total, count, problems


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--worker-class", choices=("gthread", "sync"), default="gthread")
    parser.add_argument("--workers", type=int, help="processes (gthread: as serve; sync: 2 x cores + 1)")
    parser.add_argument("--threads", type=int, default=WEB_THREADS, help="threads per gthread process")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--pg", default=f"postgresql://postgres@{HOST}:5432", help="server (127.0.0.1)")
    parser.add_argument("--keep-log", action="store_true", help="print gunicorn's log at the end")
    args = parser.parse_args()
    if args.workers is None:
        args.workers = WEB_WORKERS if args.worker_class == "gthread" else 2 * (os.cpu_count() or 1) + 1
    if not 1 <= args.tables <= 200 or not 10 <= args.seconds <= 1800 or not 0 <= args.spectators <= 200:
        parser.error("--tables 1..200, --seconds 10..1800, --spectators 0..200")
    if f"@{HOST}:" not in args.pg and f"//{HOST}" not in args.pg:
        parser.error("--pg must point at 127.0.0.1")
    code = args.code.resolve()

    database = f"rummy_night_{os.getpid()}_{secrets.token_hex(3)}"
    workdir = Path(tempfile.mkdtemp(prefix="rummy-night-"))
    log_path = workdir / "gunicorn.log"
    out_path = workdir / "locust.json"
    port = free_port()
    env = os.environ | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"{args.pg}/{database}",
        "STATIC_ROOT": str(workdir / "static"),
        "PROXY_COUNT": "1",
        "LOG_LEVEL": "WARNING",
    }
    gunicorn: subprocess.Popen[bytes] | None = None
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
        command = [str(VENV_BIN / "gunicorn"), "rummy_site.wsgi", "--bind", f"{HOST}:{port}"]
        command += ["--workers", str(args.workers), "--backlog", "256", "--timeout", "60"]
        command += ["--worker-class", args.worker_class]
        if args.worker_class == "gthread":
            command += ["--threads", str(args.threads), "--keep-alive", str(WEB_KEEPALIVE)]
        with open(log_path, "wb") as log:
            gunicorn = subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)
        wait_healthy(port, gunicorn)
        users = args.tables * 4 + 1 + args.spectators
        print(
            f"gunicorn {args.workers} {args.worker_class} workers"
            + (f" x {args.threads} threads" if args.worker_class == "gthread" else "")
            + f" on {HOST}:{port} serving {code}, DEBUG=0, PostgreSQL; "
            f"{args.tables} tables (a scorekeeper and 3 followers each), 1 projector, "
            f"{args.spectators} spectators: {users} phones for {args.seconds} s"
        )
        locust = [str(VENV_BIN / "locust"), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless"]
        locust += [
            "--host",
            f"http://{HOST}:{port}",
            "--users",
            str(users),
            "--spawn-rate",
            str(max(1, users // 10)),
        ]
        locust += ["--run-time", f"{args.seconds}s", "--stop-timeout", "5", "--only-summary"]
        locust += ["--loglevel", "WARNING", "--skip-log-setup"]
        night_env = env | {
            "LOAD_NIGHT": json.dumps(night),
            "LOAD_SPECTATORS": str(args.spectators),
            "LOAD_NIGHT_OUT": str(out_path),
        }
        subprocess.run(locust, cwd=ROOT, env=night_env, timeout=args.seconds + 120, stdout=subprocess.DEVNULL)
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
        errors = result["errors"]
        print(f"errors: {len(errors)}")
        for error in errors[:10]:
            print(f"  {error}")
        total, acknowledged, problems = verify(args.pg, database, result["acknowledged"])
        print(
            f"database: {total} hands in {len(night['tables'])} games; {acknowledged} acknowledged saves; "
            f"{len(problems)} mismatches"
        )
        for problem in problems[:10]:
            print(f"  {problem}")
        met = met and not errors and not problems and acknowledged > 0
        print(f"goals (no error, p95 per kind, every save stored once): {'MET' if met else 'NOT MET'}")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        status = 0 if met else 2
    finally:
        if gunicorn is not None:
            gunicorn.send_signal(signal.SIGTERM)
            try:
                gunicorn.wait(30)
            except subprocess.TimeoutExpired:
                gunicorn.kill()
                gunicorn.wait()
        if status == 1 or args.keep_log:
            if log_path.exists():
                print("--- gunicorn log (tail) ---", file=sys.stderr)
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
