"""The federation export's name, version and JSON Schema (``federations/exchange_schema.json``,
described in docs/design/federation-export.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from scoring.families import FAMILY_INFO

FORMAT = "rummy-federation-export"
VERSION = 1
SCHEMA_PATH = Path(__file__).parents[1] / "exchange_schema.json"


def validator() -> Draft202012Validator:
    return _validator_for(tuple(FAMILY_INFO))


@cache
def _validator_for(families: tuple[str, ...]) -> Draft202012Validator:
    """The schema, its families those registered (the file names the shipped ones)."""
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    schema["$defs"]["family"]["enum"] = list(families)
    return Draft202012Validator(schema)
