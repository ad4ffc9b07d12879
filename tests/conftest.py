"""Shared fixtures. Browser tests use Debian's Chromium through Playwright (no browser download)."""

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium. Missing browser: skipped locally, a failure under CI."""
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
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
