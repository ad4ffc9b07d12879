"""The export document's name, version and JSON Schema (``tournaments/exchange_schema.json``,
described in docs/design/export-format.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

FORMAT = "rummy-club-export"
VERSION = 1
SCHEMA_PATH = Path(__file__).parents[1] / "exchange_schema.json"


@cache
def validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def prepare() -> None:
    """Read the export's schema now, before the process answers (not in its first import)."""
    validator()
