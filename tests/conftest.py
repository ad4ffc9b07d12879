"""Shared fixtures. Browser tests use Debian's Chromium through Playwright (no browser download)."""

import fcntl
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

# Debian's headless build of Chromium when it is installed: the same engine without the desktop
# browser around it, so each page costs less. Otherwise the desktop build, run headless.
CHROMIUM = (
    os.environ.get("CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session", autouse=True)
def serial_live_server_on_in_memory_sqlite() -> Iterator[None]:
    """On the in-memory SQLite test database the live server's threads all share the test's one
    connection (Django's connections override), and two requests at once on it fail ("bad
    parameter or other API misuse"). The game pages poll (live view, end-of-game preview,
    offline queue), so several phones' requests do overlap: on SQLite the live server answers
    one request at a time. PostgreSQL keeps the threaded server (real concurrency is tested
    there, and by the two-server-process test)."""
    from django.conf import settings
    from django.core.servers.basehttp import WSGIServer
    from django.test.testcases import LiveServerThread

    class SerialWSGIServer(WSGIServer):
        # Requests are answered in the server's own thread, which already uses the shared
        # connection (LiveServerThread.run installs the override there).
        def __init__(self, *args: Any, connections_override: Any = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LiveServerThread, "server_class", SerialWSGIServer)
        yield


@pytest.fixture(autouse=True)
def forget_kept_tournament_values() -> Iterator[None]:
    """What a process keeps by tournament version lives past a test's rolled-back database; a
    later test's tournament may reuse the primary key."""
    yield
    from tournaments.versions import forget_kept

    forget_kept()


@pytest.fixture(autouse=True)
def default_language_after_each_test() -> Iterator[None]:
    """A page asked for in another language leaves that language active in the thread (the
    locale middleware activates it and nothing resets it): the next test would read messages
    in Polish."""
    yield
    from django.utils import translation

    translation.deactivate()


ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def one_at_a_time(lock: Path) -> Iterator[None]:
    """Held by one process at a time, whichever xdist worker (or test run) asks first."""
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder that ``make`` fills once per test run, whichever worker asks first; the others
    wait for it and share it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder, done = shared / name, shared / f"{name}.done"
    with one_at_a_time(shared / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def _production_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY")}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", **extra)
    return env


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], str]:
    """A fresh migrated SQLite database for the processes a test starts: migrated once per test
    run, then copied to the path asked for. Returns its DATABASE_URL."""

    def migrate(folder: Path) -> None:
        env = _production_env(DEBUG="1", DATABASE_URL=f"sqlite:///{folder / 'template.sqlite3'}")
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr

    template = made_once(tmp_path_factory, "migrated", migrate) / "template.sqlite3"

    def fresh(path: Path) -> str:
        with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
        return f"sqlite:///{path}"

    return fresh


# Kept between runs beside pytest's own cache (``make clean`` removes it).
KEPT_STATIC = ROOT / ".pytest_cache" / "collected-static"


@pytest.fixture(scope="session")
def collected_static() -> Path:
    """The static files collected and compressed as production serves them: a test that starts
    the production server points STATIC_ROOT here, and ``serve`` finds them current instead of
    compressing them again. Kept between runs, and collected again as ``serve`` would, only when
    a source changed; the first worker to ask collects, the others wait for it."""
    from django.test import override_settings

    from rummy_site.management.commands import serve

    env = _production_env(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="localhost",
        STATIC_ROOT=str(KEPT_STATIC),
    )
    KEPT_STATIC.parent.mkdir(parents=True, exist_ok=True)
    with (
        one_at_a_time(KEPT_STATIC.parent / "collected-static.lock"),
        override_settings(STATIC_ROOT=KEPT_STATIC),
    ):
        assert serve.collect_static([sys.executable, str(ROOT / "manage.py")], env)
    return KEPT_STATIC


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium. Missing browser: skipped locally, a failure under CI."""
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium-headless-shell)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
    # test itself (fixtures, assertions) are still synchronous and safe.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def new_page(browser: Any, *, width: int, height: int, locale: str = "en-GB") -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale=locale
    )
    context.set_default_timeout(10_000)
    return context.new_page()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a 360 × 740 phone viewport, the narrowest the site is designed for."""
    page = new_page(browser, width=360, height=740)
    yield page
    page.context.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-api",
        metavar="DIR",
        help="record every /api/ answer the tests get, one JSON file per test module in DIR "
        "(compare two recordings with scripts/api_answers.py diff)",
    )


def pytest_configure(config: pytest.Config) -> None:
    directory = config.getoption("--record-api")
    if directory:
        from tests.api_recorder import install

        install(config, directory)
