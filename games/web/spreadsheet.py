"""Every CSV the site writes goes through here, so that no cell is read as a formula.

A spreadsheet opening the file runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and,
in some, a tab or a carriage return) as a formula: a player named
``=HYPERLINK("http://evil.example","x")`` would become a link in the organiser's sheet. Such a
text cell is written with a leading apostrophe, which spreadsheets show as text (OWASP's advice).
Numbers are numbers and stay as they are (a negative score is not a formula).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet runs."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeDictWriter:
    """``csv.DictWriter`` whose every text cell (the header too) is made safe."""

    def __init__(self, out: IO[str], fieldnames: Sequence[str], **options: Any) -> None:
        self._writer = csv.DictWriter(out, fieldnames=[safe_cell(f) for f in fieldnames], **options)
        self._names = list(fieldnames)

    def writeheader(self) -> None:
        self._writer.writeheader()

    def writerow(self, row: Mapping[str, Any]) -> None:
        self._writer.writerow({safe_cell(name): safe_cell(row.get(name, "")) for name in self._names})

    def writerows(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            self.writerow(row)


# Excel takes a CSV without it for the computer's legacy code page and garbles "Šťastný" and
# "Łukasz"; with it every spreadsheet reads UTF-8.
BOM = "\ufeff"


def csv_text(
    fieldnames: Sequence[str], rows: Iterable[Mapping[str, Any]], *, header: Sequence[str] = ()
) -> str:
    """A whole CSV document, safe cells, UTF-8 with a byte-order mark; ``header``: the labels
    shown on the first row (default: the field names)."""
    out = io.StringIO()
    out.write(BOM)
    labels = list(header) or list(fieldnames)
    writer = csv.writer(out)
    writer.writerow([safe_cell(label) for label in labels])
    for row in rows:
        writer.writerow([safe_cell(row.get(name, "")) for name in fieldnames])
    return out.getvalue()
