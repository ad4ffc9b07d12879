"""What names the code a server runs: part of every page ETag, so a phone that kept a page from
an earlier release never gets a 304 for it after a new template, translation or code.

Servers running one release agree on it without talking to each other: it is the ``RELEASE``
setting when a deploy sets one, otherwise a digest of the files that draw the pages.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.conf import settings

# What a page is drawn from: code, templates, translations, the site's own scripts and styles.
_SOURCES = ("engine", "scoring", "games", "tournaments", "rummy_site", "templates", "locale", "static")
_KINDS = frozenset({".py", ".html", ".mo", ".js", ".css", ".json", ".svg", ".txt"})


def release_id() -> str:
    """Read once per process in production (a deploy restarts it); in development on every
    call, so an edited template is not answered with a 304."""
    if settings.RELEASE:
        return str(settings.RELEASE)
    return _digest() if settings.DEBUG else _kept_digest()


def _digest() -> str:
    digest = hashlib.sha256()
    for top in _SOURCES:
        for path in sorted((settings.BASE_DIR / top).rglob("*")):
            if path.suffix in _KINDS and "__pycache__" not in path.parts and path.is_file():
                digest.update(path.relative_to(settings.BASE_DIR).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


_kept_digest = lru_cache(maxsize=1)(_digest)


def code_id() -> str:
    """What names the running code, read once per process (a code change restarts even the
    debug server): for what is computed from data by code, where templates do not matter."""
    return str(settings.RELEASE) if settings.RELEASE else _kept_digest()
