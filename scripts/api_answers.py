"""Reads recordings of the REST API's answers made by ``pytest --record-api=DIR``.

    python scripts/api_answers.py coverage DIR [--schema docs/openapi.yaml]
        how many tests and answers DIR holds, and every operation of the schema no recorded
        answer exercised (exit status 1 if there is one)
    python scripts/api_answers.py diff BEFORE AFTER [--show N]
        every test whose answers differ between two recordings (or that only one holds), the
        first differing lines of up to N of them, and their count (exit status 1 if any)

A refactoring that must not change what the API answers records before and after on each
database (``pytest tests/api --record-api=DIR``) and expects ``diff`` to find nothing.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

METHODS = ("get", "put", "post", "delete", "patch")


def load(directory: Path) -> dict[str, Any]:
    """Every test's entry, by node id, from a recording's module files."""
    tests: dict[str, Any] = {}
    files = sorted(directory.glob("*.json"))
    if not files:
        raise SystemExit(f"{directory}: no recording here")
    for path in files:
        tests.update(json.loads(path.read_text()))
    return tests


def operations(schema: Path) -> set[tuple[str, str]]:
    paths = yaml.safe_load(schema.read_text())["paths"]
    return {(method.upper(), path) for path, item in paths.items() for method in item if method in METHODS}


def exercised(tests: dict[str, Any]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for entry in tests.values():
        for answer in entry.get("answers", []):
            if answer["operation"] is not None:
                key = (answer["method"], answer["operation"])
                counts[key] = counts.get(key, 0) + 1
    return counts


def coverage(directory: Path, schema: Path) -> int:
    tests = load(directory)
    recorded = [entry for entry in tests.values() if "answers" in entry]
    skipped = {test: entry["not recorded"] for test, entry in tests.items() if "not recorded" in entry}
    answers = sum(len(entry["answers"]) for entry in recorded)
    known = operations(schema)
    counts = exercised(tests)
    missing = sorted(known - counts.keys(), key=lambda op: (op[1], op[0]))
    outside = sum(1 for entry in recorded for answer in entry["answers"] if answer["operation"] is None)
    print(f"{len(recorded)} tests recorded, {answers} answers")
    print(f"{len(known) - len(missing)} of {len(known)} schema operations exercised")
    print(f"{outside} answers to paths outside the schema's operations (schema, problems, 404s)")
    for test, reason in sorted(skipped.items()):
        print(f"not recorded: {test} ({reason})")
    for method, path in missing:
        print(f"never exercised: {method} {path}")
    return 1 if missing else 0


def lines(entry: Any) -> list[str]:
    return json.dumps(entry, sort_keys=True, indent=1, ensure_ascii=False).splitlines()


def diff(before_dir: Path, after_dir: Path, show: int) -> int:
    before, after = load(before_dir), load(after_dir)
    differing = []
    for test in sorted(before.keys() | after.keys()):
        if test not in after:
            differing.append((test, "only before"))
        elif test not in before:
            differing.append((test, "only after"))
        elif before[test] != after[test]:
            differing.append((test, "answers differ"))
    for index, (test, how) in enumerate(differing):
        print(f"{how}: {test}")
        if how == "answers differ" and index < show:
            changes = difflib.unified_diff(
                lines(before[test]), lines(after[test]), "before", "after", n=2, lineterm=""
            )
            for line in list(changes)[:40]:
                print("    " + line)
    compared = len(before.keys() & after.keys())
    print(f"{len(differing)} tests differ ({compared} in both recordings)")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    cover = commands.add_parser("coverage", help="the schema's operations no recorded answer exercised")
    cover.add_argument("recording", type=Path)
    cover.add_argument(
        "--schema", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
    )
    compare = commands.add_parser("diff", help="tests whose answers differ between two recordings")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    compare.add_argument(
        "--show", type=int, default=5, help="print the first changed lines of this many tests"
    )
    arguments = parser.parse_args(argv)
    if arguments.command == "coverage":
        return coverage(arguments.recording, arguments.schema)
    return diff(arguments.before, arguments.after, arguments.show)


if __name__ == "__main__":
    sys.exit(main())
