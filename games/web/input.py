"""Where outside input enters: the one JSON reader (every API body, the club import, the JSON
kept in form fields) and the one integer reader for query strings and form fields.

Both refuse what would otherwise fail further in, as a server error: JSON nested deeper than any
document of the site, numbers no database column or JSON type can hold (``1e309`` is infinity),
text no database can store (a NUL, a lone surrogate), a key given twice (the second silently
winning). Digits that are not ASCII (``²``, ``①``) pass ``str.isdigit()`` but not ``int()``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.utils.translation import gettext as _

# An export document is the deepest the site reads (club, games, hands, outcome, counts...).
MAX_DEPTH = 32
# Integers JSON carries exactly everywhere (I-JSON, RFC 7493), far beyond any score.
MAX_INT = 2**53 - 1
# Text a database cannot store: NUL (PostgreSQL refuses it) and surrogates (not UTF-8).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class InputRefused(ValueError):
    """The input cannot be read; ``message`` says why, in the user's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def unstorable_text(text: str) -> bool:
    """Whether ``text`` holds a character no database can store."""
    return UNSTORABLE.search(text) is not None


def _refuse_constant(name: str) -> Any:
    raise InputRefused(_("Numbers must be finite: %(value)s is not a number.") % {"value": name})


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputRefused(_("Numbers must be finite: %(value)s is too big.") % {"value": text[:20]})
    return value


def _int(text: str) -> int:
    if len(text) > 20:
        raise InputRefused(_("A number is too big: %(value)s…") % {"value": text[:20]})
    value = int(text)
    if abs(value) > MAX_INT:
        raise InputRefused(_("A number is too big: %(value)s") % {"value": text})
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputRefused(_("The key “%(key)s” is given twice.") % {"key": key[:40]})
        out[key] = value
    return out


def _check(value: Any) -> None:
    """Depth and text, without recursion (a deep document must not exhaust the stack here)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if unstorable_text(item):
                raise InputRefused(_("Text may not contain a NUL character or a lone surrogate."))
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise InputRefused(
                    _("The JSON is nested too deep (at most %(most)d levels).") % {"most": MAX_DEPTH}
                )
            children = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            for key, child in children:
                if key is not None and unstorable_text(key):
                    raise InputRefused(_("Text may not contain a NUL character or a lone surrogate."))
                stack.append((child, depth + 1))


def read_json(data: str | bytes) -> Any:
    """The value of a JSON text, or :class:`InputRefused` with a message for the user."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputRefused(_("The JSON must be UTF-8 text.")) from None
    try:
        value = json.loads(
            data,
            object_pairs_hook=_pairs,
            parse_constant=_refuse_constant,
            parse_float=_float,
            parse_int=_int,
        )
    except RecursionError:
        raise InputRefused(
            _("The JSON is nested too deep (at most %(most)d levels).") % {"most": MAX_DEPTH}
        ) from None
    except InputRefused:
        raise
    except ValueError as error:
        raise InputRefused(_("This is not valid JSON: %(error)s") % {"error": error}) from None
    _check(value)
    return value


def read_int(raw: str | None, *, lo: int, hi: int) -> int | None:
    """A whole number written in ASCII digits within [lo, hi], or None for anything else."""
    if raw is None:
        return None
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(hi)):
        return None
    value = int(raw)
    return value if lo <= value <= hi else None
