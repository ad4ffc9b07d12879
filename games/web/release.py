"""What names the code a server runs: part of every page ETag, so a phone that kept a page from
an earlier release never gets a 304 for it after a new template, translation or code.

Servers running one release agree on it without talking to each other: it is the ``RELEASE``
setting when a deploy sets one, otherwise a digest of the files that draw the pages.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from django.conf import settings

# What a page is drawn from: code, templates, translations, the site's own scripts and styles.
_SOURCES = ("engine", "scoring", "games", "tournaments", "rummy_site", "templates", "locale", "static")
_KINDS = frozenset({".py", ".html", ".mo", ".js", ".css", ".json", ".svg", ".txt"})
_READ_ANEW = _KINDS - {".py"}


def release_id() -> str:
    """Read once per process in production (a deploy restarts it). In development on every
    call, so an edited template is not answered with a 304: the names, sizes and modification
    times of the sources a running process reads anew (all but its Python modules, which it
    imported at its start and the development server restarts to change), and the contents
    only when one of those changed."""
    if settings.RELEASE:
        return str(settings.RELEASE)
    return _current_digest() if settings.DEBUG else _kept_digest()


def _files(base: Path, kinds: frozenset[str] = _KINDS) -> Iterator[tuple[str, os.stat_result]]:
    """Every source file of these ``kinds`` under ``base``: its path relative to ``base`` and
    its stat, in the sources' order, by path within each."""
    start = len(str(base)) + 1
    for top in _SOURCES:
        pending = [str(base / top)]
        found: list[tuple[str, os.stat_result]] = []
        while pending:
            try:
                entries = list(os.scandir(pending.pop()))
            except OSError:
                continue  # a source folder the checkout lacks
            for entry in entries:
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        pending.append(entry.path)
                elif os.path.splitext(entry.name)[1] in kinds and entry.is_file():
                    found.append((entry.path[start:], entry.stat()))
        yield from sorted(found, key=lambda file: file[0])


def _digest() -> str:
    digest = hashlib.sha256()
    base = settings.BASE_DIR
    for name, _ in _files(base):
        digest.update(name.encode() + b"\0")
        digest.update((base / name).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


_kept_digest = lru_cache(maxsize=1)(_digest)

# The development server's last digest, with the stats of the sources read anew it was made under.
_seen: tuple[object, str] | None = None
_seen_lock = threading.Lock()


def _current_digest() -> str:
    global _seen
    base = settings.BASE_DIR
    stats = [(name, s.st_mtime_ns, s.st_size, s.st_ino) for name, s in _files(base, _READ_ANEW)]
    key = (base, stats)
    with _seen_lock:
        if _seen is not None and _seen[0] == key:
            return _seen[1]
    digest = _digest()
    with _seen_lock:
        _seen = (key, digest)
    return digest
