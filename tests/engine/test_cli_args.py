"""The command line's quick reading of the usual shape (engine.cli.parse_args) reads every
command line exactly as argparse does, errors included."""

from __future__ import annotations

import contextlib
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import build_parser, parse_args

COMMANDS = ["arrange", "check", "value", "layoff", "laydown", "nonsense"]
PARTS = [
    ["--rules", "gin"], ["--rules", "zoliky"], ["--rules"], ["--rules=gin"], ["--ru", "gin"],
    ["--set", "knock_limit=5"], ["--set"], ["--against-gin"], ["-x"], ["--help"], ["gin"],
]  # fmt: skip
# A command (or none), then options in any order: the usual shape and its near misses.
command_lines = st.tuples(
    st.lists(st.sampled_from(COMMANDS), max_size=1), st.lists(st.sampled_from(PARTS), max_size=5)
).map(lambda drawn: [*drawn[0], *(token for part in drawn[1] for token in part)])


def read(reader, argv: list[str]) -> tuple[object, ...]:  # type: ignore[no-untyped-def]
    """(command, rules, settings, against_gin), or ("exit", status) where argparse stops."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = reader(argv)
        except SystemExit as stop:
            return ("exit", stop.code)
    return (args.command, args.rules, list(args.set), args.against_gin)


@settings(max_examples=500, deadline=None)
@given(command_lines)
def test_the_quick_reading_agrees_with_argparse(argv: list[str]) -> None:
    assert read(parse_args, argv) == read(build_parser().parse_args, argv)


def test_the_usual_shapes() -> None:
    usual = ["arrange", "--rules", "gin", "--set", "knock_limit=5", "--set", "gin_bonus=20"]
    assert read(parse_args, usual) == ("arrange", "gin", ["knock_limit=5", "gin_bonus=20"], False)
    assert read(parse_args, ["layoff", "--against-gin", "--rules", "gin"]) == ("layoff", "gin", [], True)
    assert read(parse_args, ["arrange"]) == ("exit", 2)  # --rules is required
    assert read(parse_args, ["arrange", "--rules", "gin", "--rules", "zoliky"])[1] == "zoliky"  # as argparse
