"""Installing the site on a phone and using it offline: the web app manifest, the service worker
and the page it shows for an address it has no copy of (docs/design/offline.md).

The service worker's source is ``static/js/sw.js``; this view serves it from the site's root
(a worker controls only the paths under its own address) with its settings prepended: the cache
version, which changes whenever a static file does, and the files to keep on the phone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext

THEME_COLOR = "#0b5d3b"  # the site's accent (static/css/site.css, --accent)
BACKGROUND_COLOR = "#fbfaf7"  # the page background (--bg)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
WORKER_SOURCE = "js/sw.js"
# Static files the phone does not need offline: the worker's own source (served at /sw.js)
# and licence texts.
NOT_PRECACHED = (WORKER_SOURCE, "vendor/htmx/LICENSE")
# Site paths (after the language prefix) whose pages are never kept for offline use.
NOT_KEPT = ("/admin/", "/api/", "/accounts/", "/i18n/", "/sw.js", "/manifest.webmanifest")


def _site_static_files() -> list[tuple[str, bytes]]:
    """The project's own static files (``STATICFILES_DIRS``, not the admin's or the API's), with
    their contents, sorted by path."""
    found: list[tuple[str, bytes]] = []
    for finder in finders.get_finders():
        if not isinstance(finder, finders.FileSystemFinder):
            continue
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            with storage.open(path) as handle:
                found.append((path.replace("\\", "/"), handle.read()))
    return sorted(found)


def _url(path: str) -> str | None:
    """The file's address; None for one the manifest of collected files lacks (production)."""
    try:
        return static(path)
    except ValueError:
        return None


def _worker_settings() -> dict[str, object]:
    files = _site_static_files()
    digest = hashlib.sha256()
    for path, content in files:
        digest.update(path.encode() + b"\0" + content + b"\0")
    precache = [url for path, _content in files if path not in NOT_PRECACHED and (url := _url(path))]
    digest.update("\n".join(precache).encode())  # hashed names in production
    offline = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            offline[code] = reverse("offline")
    return {
        "version": digest.hexdigest()[:16],
        "static": PrefixNode.handle_simple("STATIC_URL"),
        "precache": precache,
        "offline": offline,
        "defaultLanguage": settings.LANGUAGE_CODE,
        "notKept": NOT_KEPT,
    }


_cached_worker_settings = lru_cache(maxsize=1)(_worker_settings)


def worker_settings() -> dict[str, object]:
    """Computed once per process in production (a deploy restarts it); in development on every
    request, so an edited script reaches the phone."""
    return _worker_settings() if settings.DEBUG else _cached_worker_settings()


def _worker_source() -> str:
    path = finders.find(WORKER_SOURCE)
    if path:
        with open(str(path), encoding="utf-8") as handle:
            return handle.read()
    with staticfiles_storage.open(WORKER_SOURCE) as handle:  # pragma: no cover - collected only
        return str(handle.read().decode("utf-8"))


def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root so that its scope is the whole site."""
    source = f"self.SW_SETTINGS = {json.dumps(worker_settings())};\n{_worker_source()}"
    response = HttpResponse(source, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Always asked for again: a new deploy must reach the phone at its next visit.
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the language of its address (``/cs/manifest.webmanifest``)."""
    data = {
        "name": gettext("Rummy score sheet"),
        "short_name": gettext("Rummy"),
        "description": gettext(
            "Keep score at the card table: record each hand in seconds, check melds, "
            "follow your club's games and players."
        ),
        "lang": translation.get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    patch_cache_control(response, public=True, max_age=60 * 60)
    return response


def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has no copy of while the phone is offline."""
    return render(request, "offline.html")


# The header the service worker sends with the pages it fetches in the background (static/js/sw.js).
BACKGROUND_HEADER = "HTTP_X_BACKGROUND_COPY"


class BackgroundCopies:
    """Answers to the service worker's background fetches (the offline pages at install, a copy
    of the page just opened) set no cookie. Such a fetch can leave with the cookies of a moment
    ago and come back after the browser logged in: Django would then delete the session cookie
    of a session it no longer finds, or bring back a CSRF cookie the browser dropped, and the
    phone would be logged out or keep a stale form token behind the user's back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.META.get(BACKGROUND_HEADER) == "1":
            response.cookies.clear()
        return response
