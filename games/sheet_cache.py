"""Sheets kept by the game's version, so a page after a save, or a second look, scores and
draws nothing again: in this process (the scored sheet, its drawn parts, the hand form's
fields), and one copy per game shared by every application server (``SheetCopy``), so that
a server that never drew this version of the game reads it instead of scoring and drawing it.

Every write (hands, the evening's end, the edit link) saves the game's ``updated_at`` inside its
transaction under the game's row lock, so a key names one state of one game: an entry is never
stale, only unused, and several servers each keeping their own cannot disagree. The shared copy
names its version too, and one for another version is ignored. Losing any of it costs time,
never correctness.
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import io
import logging
import operator
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import django
import zstandard
from django.db import DatabaseError, connection, transaction
from django.db.models import DateTimeField
from django.utils import timezone
from django.utils.safestring import SafeString

from engine.rules import RuleSet, rule_set
from games.models import Game, Hand, SheetCopy
from games.sheet import Sheet
from scoring.game import Bonus, Elimination, GameState, Missing, forget_scored
from scoring.hands import HandResult
from scoring.kinds import HandKind
from scoring.settlement import Payment, Settlement

log = logging.getLogger(__name__)


class Recent[K: Hashable, V]:
    """A small per-process LRU. Only for values keyed by a game's version (see
    :func:`sheet_version`): a write gives the game a new version, so an entry is never stale,
    only unused, and several servers each keep their own without disagreeing."""

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


def remember_sheet(sheet: Sheet) -> None:
    """Keep the sheet a write built (its one scoring), once the write is committed: the page
    that follows the save on this server then scores nothing."""
    key = sheet_version(sheet.game)
    transaction.on_commit(lambda: SHEETS.put(key, sheet))


# The totals, table and chart of a sheet as drawn, per game version, edit right and language:
# the same for everyone who sees them so (no form, no token in them). games.views draws them.
PARTS: Recent[tuple[object, ...], dict[str, SafeString]] = Recent(512)

# The new-hand form's fields as drawn (everything but the CSRF token and the hidden fields,
# which name the hand and the request), per game, rules, players dealt in and language: the
# same for every hand while those stay the same. games.views draws them.
FIELDS: Recent[tuple[object, ...], SafeString] = Recent(512)


def forget_local() -> None:
    """Drop everything this server keeps in memory (the shared copies stay): it then answers as
    a server that never scored or drew any game. For benchmarks and tests of several servers."""
    for kept in (SHEETS, PARTS, FIELDS, SHARED):
        kept.clear()
    forget_scored()


# --------------------------------------------------------------- the copy shared by servers


def _release() -> str:
    """What the copies of this release are read with: the code of every class a copy holds (the
    sheet, the scoring, the rules, the hand's fields) and Django's version. A copy written by
    another release (a field added to a row, say, during a rolling update) is not read: it
    could unpickle into objects that lack what this code expects."""
    digest = hashlib.sha256(django.get_version().encode())
    root = Path(__file__).resolve().parent.parent
    for path in sorted([*root.glob("engine/*.py"), *root.glob("scoring/*.py")]):
        digest.update(path.read_bytes())
    for module in ("sheet.py", "sheet_cache.py", "models.py"):
        digest.update((root / "games" / module).read_bytes())
    return digest.hexdigest()[:16]


RELEASE = _release()


def _stamp(game: Game) -> str:
    return f"{RELEASE}/{game.updated_at.isoformat()}"


@dataclass
class Copy:
    """What the shared copy of one version holds: the scored sheet and what was drawn of it."""

    sheet: Sheet
    parts: dict[tuple[object, ...], dict[str, SafeString]] = field(default_factory=dict)
    fields: dict[tuple[object, ...], SafeString] = field(default_factory=dict)


# The copy each version's shared row holds, as this server last read or wrote it.
SHARED: Recent[tuple[int, str], Copy] = Recent(256)


# The game a copy is being read for: a copy does not store the game (the reader has it, at the
# same version), only where it goes.
_READER_GAME: ContextVar[Game] = ContextVar("reader_game")


def _reader_game() -> Game:
    return _READER_GAME.get()


def _hand(values: tuple[object, ...]) -> Hand:
    hand = Hand.from_db(connection.alias, _HAND_FIELDS, _times_read(values))
    hand.game = _reader_game()  # as a hand read through its game holds it
    return hand


_HAND_FIELDS = [f.attname for f in Hand._meta.concrete_fields]
# A hand's times (when it was made and changed) go into a copy as microseconds since 1970 in
# UTC: an integer pickles in a tenth of a datetime's time (its bytes and its time zone).
_HAND_TIMES = [i for i, f in enumerate(Hand._meta.concrete_fields) if isinstance(f, DateTimeField)]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _hand_values(hand: Hand) -> tuple[object, ...]:
    values = [getattr(hand, name) for name in _HAND_FIELDS]
    for i in _HAND_TIMES:
        value = values[i]
        if isinstance(value, datetime) and value.tzinfo is not None:  # naive ones stay as they are
            values[i] = (value - _EPOCH) // _MICROSECOND
    return tuple(values)


def _times_read(values: tuple[object, ...]) -> list[object]:
    read = list(values)
    for i in _HAND_TIMES:
        value = read[i]
        if isinstance(value, int):
            read[i] = _EPOCH + value * _MICROSECOND
    return read


def _by_fields(cls: type) -> Callable[[Any], Any]:
    """How a copy writes one of the scoring's frozen dataclasses with slots: its class and its
    fields' values in order, made again by its constructor. Pickle's own way for slots goes
    through ``dataclasses``' ``__getstate__``, which looks up the class's fields again for every
    object: a third of the time pickling a sheet took, and a sixth of reading it back (a sheet
    has two of them per hand)."""
    fields = dataclasses.fields(cls)
    assert len(fields) > 1 and all(f.init for f in fields), cls  # attrgetter gives a tuple
    values = operator.attrgetter(*(f.name for f in fields))
    return lambda obj: (cls, values(obj))


# The scoring's results a sheet holds (its state, and per hand its result and kind).
_RESULTS = (HandResult, HandKind, GameState, Elimination, Bonus, Missing, Settlement, Payment)

# How a copy writes what is not plain data, looked up by type (the pickler's own table: every
# other object is pickled as usual, in C): the game as a reference to the reader's, the rules
# as how to make them, a hand as its stored values, the scoring's results by their fields.
_REDUCE: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    Game: lambda game: (_reader_game, ()),
    RuleSet: lambda rules: (rule_set, (rules.family, dict(rules.options))),
    Hand: lambda hand: (_hand, (_hand_values(hand),)),
    **{cls: _by_fields(cls) for cls in _RESULTS},
}


class _Zstd(threading.local):
    """Each thread's own compressor and decompressor (neither may be used by two threads at
    once; making them per copy would cost 50 µs)."""

    def __init__(self) -> None:
        self.compressor = zstandard.ZstdCompressor(level=1)
        self.decompressor = zstandard.ZstdDecompressor()


_ZSTD = _Zstd()


def _dumps(copy: Copy) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCE
    pickler.dump(copy)
    # Compressed (to about a fifth: the drawn parts are repetitive HTML): less for the database
    # to store and log. Zstandard at level 1 compresses a 30-hand copy (58 KB) a little smaller
    # than zlib at level 1 (11 KB against 12) in a quarter of its time, and reads it back in a
    # third (docs/design/performance.md, round 6).
    return _ZSTD.compressor.compress(buffer.getvalue())


def _loads(data: bytes, game: Game) -> object:
    token = _READER_GAME.set(game)
    try:
        return pickle.loads(_ZSTD.decompressor.decompress(data))
    finally:
        _READER_GAME.reset(token)


@cache
def _copy_sql() -> str:
    # Written out, as the ETag check's query is (games.selectors.games): the ORM's query
    # building cost more than the rest of reading a copy but its unpickling (0.5 of 1.5 ms).
    return f"SELECT data FROM {SheetCopy._meta.db_table} WHERE game_id = %s AND stamp = %s"


def shared_sheet(game: Game) -> Sheet | None:
    """The sheet of this version of ``game`` from the shared copy (1 query), with what was
    drawn of it put in this server's caches; None if no server kept this version."""
    with connection.cursor() as cursor:
        cursor.execute(_copy_sql(), [game.pk, _stamp(game)])
        found = cursor.fetchone()
    if found is None:
        return None
    try:
        copy = _loads(bytes(found[0]), game)
    except Exception:  # a copy that does not read is only a miss: the sheet is scored anew
        log.warning("shared sheet copy of game %s does not read", game.pk, exc_info=True)
        return None
    if not isinstance(copy, Copy):
        return None
    for key, parts in copy.parts.items():
        PARTS.put(key, parts)
    for key, fields in copy.fields.items():
        FIELDS.put(key, fields)
    SHARED.put(sheet_version(game), copy)
    return copy.sheet


def share(
    sheet: Sheet,
    parts: tuple[tuple[object, ...], dict[str, SafeString]],
    fields: tuple[tuple[object, ...], SafeString] | None,
) -> None:
    """Make the shared copy of ``sheet``'s version hold it and these drawn parts and form
    fields (key, drawing), unless it holds them already as far as this server knows (then no
    query; else 1 upsert). Two servers writing the same version at once may each drop what the
    other added: a later reader then draws that again."""
    game = sheet.game
    version = sheet_version(game)
    known = SHARED.get(version)
    if known is not None and parts[0] in known.parts and (fields is None or fields[0] in known.fields):
        return
    copy = Copy(sheet, dict(known.parts), dict(known.fields)) if known is not None else Copy(sheet)
    copy.parts[parts[0]] = parts[1]
    if fields is not None:
        copy.fields[fields[0]] = fields[1]
    try:
        data = _dumps(copy)
    except Exception:  # something in the sheet does not pickle: the page is still shown
        log.warning("shared sheet copy of game %s does not pickle", game.pk, exc_info=True)
        return
    written = timezone.now()
    row = SheetCopy(game_id=game.pk, stamp=_stamp(game), data=data, written_at=written)
    try:
        SheetCopy.objects.bulk_create(
            [row],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["stamp", "data", "written_at"],
        )
    except DatabaseError:
        # The game deleted meanwhile, or the database busy (SQLite's one writer): the page is
        # still shown, and a later look shares this version.
        log.warning("shared sheet copy of game %s not written", game.pk, exc_info=True)
        return
    SHARED.put(version, copy)
    _prune(written)


# A copy not rewritten for this long is deleted (its game's next view draws and shares it
# again): the table holds the games being played and looked at, not every game ever drawn.
KEEP = timedelta(days=2)
# How often a server looks for such copies (at a write of its own; 1 query).
PRUNE_EVERY = timedelta(hours=1)
_pruned: list[datetime] = []  # when this server last looked


def _prune(now: datetime) -> None:
    if _pruned and now - _pruned[-1] < PRUNE_EVERY:
        return
    _pruned[:] = [now]
    try:
        SheetCopy.objects.filter(written_at__lt=now - KEEP).delete()
    except DatabaseError:  # the database busy: this server looks again in an hour
        log.warning("old shared sheet copies not deleted", exc_info=True)
