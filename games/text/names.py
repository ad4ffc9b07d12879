"""Player names: one reading of "the same name", shared by the services and the migrations.

Plain Python (no Django). A name is shown as typed, with Unicode in NFC and runs of spaces
made one; two names are the same player's when their ``name_key`` (also case-folded) is equal;
``loose_key`` drops accents as well, so "Tomas" is offered as "did you mean Tomáš?", never
merged silently.

Case folding and ``loose_key`` may lengthen a name ("ß" is "ss", "æ" is "ae"): a key longer
than its column (``MAX_KEY``) keeps its start and ends in a digest of the whole, so it fits and
two different names still have different keys.
"""

from __future__ import annotations

import hashlib
import unicodedata

MAX_NAME = 40
MAX_KEY = 40  # the length of Player.key and Player.loose_key
_DIGEST = 12

# Letters that Unicode does not decompose into a base letter and an accent.
_LOOSE = str.maketrans({"ł": "l", "đ": "d", "ø": "o", "æ": "ae", "œ": "oe", "ŀ": "l", "ı": "i"})


def clean_name(raw: str) -> str:
    """The name as it is stored and shown: NFC, single spaces, no leading or trailing space,
    and no invisible format characters (zero-width spaces and joiners, bidirectional marks and
    overrides), so names that differ only by them are one name and none can disguise itself."""
    visible = "".join(ch for ch in raw if unicodedata.category(ch) != "Cf")
    return " ".join(unicodedata.normalize("NFC", visible).split())


def has_control(name: str) -> bool:
    """Control, surrogate, private-use or unassigned characters have no place in a name on a
    score sheet (format characters are dropped by :func:`clean_name` instead, and tabs or line
    breaks are spaces to it)."""
    return any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and not ch.isspace() for ch in name)


def _fitted(key: str) -> str:
    if len(key) <= MAX_KEY:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:_DIGEST]
    return f"{key[: MAX_KEY - _DIGEST - 1]}~{digest}"


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", clean_name(name).casefold())


def name_key(name: str) -> str:
    return _fitted(_folded(name))


def loose_key(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", _folded(name))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _fitted(unicodedata.normalize("NFC", bare.translate(_LOOSE)))
