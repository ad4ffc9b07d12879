"""Sheets kept by the game's version in this process, so a page after a save, or a second look,
scores and draws nothing again: the scored sheet, its drawn parts, the hand form's fields.

Every write (hands, the evening's end, the edit link) saves the game's ``updated_at`` inside its
transaction under the game's row lock, so a key names one state of one game: an entry is never
stale, only unused, and several servers each keeping their own cannot disagree. What is kept
lives and dies with the process, so a release (new code, templates or translations) starts
every server empty: nothing drawn by an earlier release is ever shown. Losing any of it costs
time, never correctness.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from django.utils.safestring import SafeString

from games.models import Game
from games.sheets.sheet import Sheet
from scoring.game import forget_scored


class Recent[K: Hashable, V]:
    """A small per-process LRU. Only for values keyed by a version named by what they were
    computed from (a game's, :func:`sheet_version`; a tournament's, ``tournaments.versions``):
    a write names a new version, so an entry is never stale, only unused, and several servers
    each keep their own without disagreeing."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def sheet_version(game: Game) -> tuple[int, str]:
    """What identifies the game as it stands: every write (hands, its end, its link) saves
    ``updated_at`` inside its transaction, under the game's row lock."""
    return (game.pk, game.updated_at.isoformat())


# The sheets of the games looked at or written lately, by version.
SHEETS: Recent[tuple[int, str], Sheet] = Recent(256)


# The totals, table and chart of a sheet as drawn, per game version, edit right and language:
# the same for everyone who sees them so (no form, no token in them). games.views.games draws them.
PARTS: Recent[tuple[object, ...], dict[str, SafeString]] = Recent(512)

# The new-hand form's fields as drawn (everything but the CSRF token and the hidden fields,
# which name the hand and the request), per game, rules, players dealt in and language: the
# same for every hand while those stay the same. games.views.games draws them.
FIELDS: Recent[tuple[object, ...], SafeString] = Recent(512)


def forget_local() -> None:
    """Drop everything this process keeps: it then answers as a freshly started server (after a
    release, or another server behind the proxy). For benchmarks and tests."""
    for kept in (SHEETS, PARTS, FIELDS):
        kept.clear()
    forget_scored()
