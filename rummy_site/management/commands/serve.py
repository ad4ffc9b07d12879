"""Serve the club from this computer: the site in production mode on the Wi-Fi, with a worker.

``make run`` ends here. Django's debug server shows tracebacks, settings and the URL map to any
phone on the network, so the club is served by gunicorn with DEBUG off instead: a secret key made
once and kept in the project's local data folder, only this computer's own names and addresses
as allowed hosts (a forged Host header is refused), static files through WhiteNoise, plain HTTP
(there is no certificate on a club's Wi-Fi, so no HTTPS redirect, HSTS or Secure-only cookies)
and no proxy in front. Every process started here stops when this command is stopped.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandError

from games.web.links import lan_addresses

SECRET_FILE = "secret_key"
# Beside the collected static folder (not in it: WhiteNoise would serve it), the digest of the
# sources it was collected from.
COLLECTED_FROM = ".collected-from"
# Processes that serve requests; threads for the many small polls phones make.
WEB_WORKERS = 2
WEB_THREADS = 8
# Seconds an idle connection is kept: longer than the phones' polls, so a poll never meets a
# connection the server is just closing (gunicorn's default, 2 s, is shorter than a poll).
WEB_KEEPALIVE = 10


def data_dir() -> Path:
    """Where the club server keeps what must survive a restart but never enters git."""
    return Path(os.environ.get("LOCAL_DATA_DIR") or settings.BASE_DIR / "var")


def secret_key(folder: Path) -> str:
    """The server's secret key: made on the first start, then read back (sessions and links stay
    valid across restarts). Readable by its owner only."""
    path = folder / SECRET_FILE
    if path.exists():
        key = path.read_text().strip()
        if len(key) >= 50:
            return key
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def own_hosts(addresses: Sequence[str]) -> list[str]:
    """The names and addresses this computer answers to: loopback, its host name (also as the
    ``.local`` name phones resolve on a Wi-Fi) and its network addresses."""
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    name = socket.gethostname().strip().lower()
    if name:
        hosts += [name, name if name.endswith(".local") else f"{name}.local"]
    hosts += addresses
    return list(dict.fromkeys(hosts))


def server_env(*, port: str, base: dict[str, str], addresses: Sequence[str], key: str) -> dict[str, str]:
    """The environment the club server runs in (production mode on plain HTTP, no proxy)."""
    env = dict(base)
    env.update(
        DEBUG="0",
        HTTPS="0",
        PROXY_COUNT="0",
        SECRET_KEY=key,
        ALLOWED_HOSTS=",".join(own_hosts(addresses)),
        LAN_DETECT="1",
    )
    if addresses and not env.get("LAN_URL"):
        env["LAN_URL"] = f"http://{addresses[0]}:{port}"
    return env


# The worker's rebuilds can wait a moment; a table's save cannot: on a machine the two share,
# the worker runs at a lower CPU priority (where the system has `nice`).
WORKER_NICE = ["nice", "-n", "10"] if shutil.which("nice") else []


def commands(*, host: str, port: str) -> list[list[str]]:
    """What serves the club: gunicorn, and the task worker that brings ratings and season
    standings up to date beside it."""
    web = [sys.executable, "-m", "gunicorn", "rummy_site.wsgi", "--bind", f"{host}:{port}"]
    web += ["--workers", str(WEB_WORKERS), "--threads", str(WEB_THREADS), "--worker-class", "gthread"]
    web += ["--keep-alive", str(WEB_KEEPALIVE)]
    # Two servers on one computer (another port) must not fight over one control socket.
    web += ["--no-control-socket"]
    worker = [
        *WORKER_NICE,
        sys.executable,
        str(settings.BASE_DIR / "manage.py"),
        "worker",
        "--no-reload",
        "--interval",
        "0.5",
    ]
    return [web, worker]


def static_sources() -> str:
    """A digest of every static file collectstatic would copy (its name, size and modification
    time) and of how they are compressed."""
    digest = hashlib.sha256(repr(settings.WHITENOISE_SKIP_COMPRESS_EXTENSIONS).encode())
    found = []
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            stat = os.stat(storage.path(path))
            found.append(f"{getattr(storage, 'prefix', '') or ''}/{path} {stat.st_size} {stat.st_mtime_ns}")
    for line in sorted(found):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def collect_static(manage: Sequence[str], env: dict[str, str]) -> bool:
    """Collect and compress the static files, unless the folder already holds these sources'
    (compressing takes a while, and most starts change nothing). False if collecting failed."""
    root = Path(settings.STATIC_ROOT)
    stamp = root.with_name(root.name + COLLECTED_FROM)
    sources = static_sources()
    if (root / "staticfiles.json").exists() and stamp.exists() and stamp.read_text() == sources:
        return True
    stamp.unlink(missing_ok=True)
    collected = subprocess.run(
        [*manage, "collectstatic", "--noinput", "-v", "0"], env=env, cwd=settings.BASE_DIR, check=False
    )
    if collected.returncode != 0:
        return False
    stamp.write_text(sources)
    return True


def _stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + 10
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()


class Command(BaseCommand):
    help = "Serve the club on this computer's Wi-Fi in production mode (what `make run` does)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--port", default="8000")
        parser.add_argument("--host", default="0.0.0.0", help="Address to listen on (all by default).")

    def handle(self, *args: Any, **options: Any) -> None:
        port, host = str(options["port"]), str(options["host"])
        if not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
            raise CommandError(f"--port must be a port number, not {port!r}")
        addresses = lan_addresses()
        env = server_env(port=port, base=dict(os.environ), addresses=addresses, key=secret_key(data_dir()))
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        if not collect_static(manage, env):
            raise CommandError("Could not collect the static files (see above).")
        self.stdout.write(f"The site is served in production mode on {host}:{port}. Open it at:")
        self.stdout.write(f"  this computer:   http://localhost:{port}/")
        for address in addresses:
            self.stdout.write(f"  phones on Wi-Fi: http://{address}:{port}/")
        self.stdout.write("Stop it with Ctrl-C.")
        self.stdout.flush()
        processes = [
            subprocess.Popen(command, env=env, cwd=settings.BASE_DIR)
            for command in commands(host=host, port=port)
        ]
        stopping: list[int] = []

        def on_signal(number: int, _frame: object) -> None:
            stopping.append(number)

        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, on_signal)
        try:
            while not stopping and all(process.poll() is None for process in processes):
                time.sleep(0.2)
        finally:
            _stop(processes)
        failed = [p.returncode for p in processes if p.returncode not in (0, -signal.SIGTERM, None)]
        if failed and not stopping:
            raise CommandError("A server process stopped unexpectedly (see above).")
