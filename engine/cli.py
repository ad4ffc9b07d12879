"""``python -m engine COMMAND --rules FAMILY [--set NAME=VALUE ...]``.

Reads one item per line on standard input, writes one JSON object per line, in order: exactly
one output line for every input line, so a caller can zip them. A bad line (blank lines
included) yields ``{"ok": false, "code": ..., "error": ..., "params": {...}}`` and the run goes
on. A bad ``--rules``/``--set`` (or usage) exits with status 2 and a one-line message.
"""

from __future__ import annotations

import io
import json
import sys

from .errors import EngineError
from .messages import fail
from .notation import check_pack, code, codes, parse_hand, parse_melds
from .rules import FAMILIES, OPTIONS, RUMMIKUB, ZOLIKY, parse_settings, rule_set

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import NoReturn, TextIO

    from .cards import Card
    from .rules import RuleSet

PROG = "python -m engine"
_JSON = json.JSONEncoder(ensure_ascii=False, default=str)  # one encoder for every line
Result = dict[str, object]


# Each command imports what it needs, so that starting the program loads no more.


def _check(line: str, rules: RuleSet) -> Result:
    from .melds import check_meld

    meld = check_meld(parse_hand(line, rules), rules)
    jokers = {str(pos): code(card, rules) for pos, card in meld.jokers.items()}
    return {"ok": True, "kind": meld.kind, "points": meld.points, "jokers": jokers}


def _laydown(line: str, rules: RuleSet) -> Result:
    from .laydown import check_laydown

    return {"ok": True, "points": check_laydown(parse_melds(line, rules), rules).points}


def _value(line: str, rules: RuleSet) -> Result:
    from .values import hand_value

    return {"ok": True, "points": hand_value(parse_hand(line, rules), rules)}


def _solvable(cards: list[Card], rules: RuleSet) -> list[Card]:
    """``cards``, unless more than the solver takes (the site's limit too)."""
    if len(cards) > rules.solver_max:
        raise fail("too_many_cards", count=len(cards), maximum=rules.solver_max)
    return cards


def _arrange(line: str, rules: RuleSet) -> Result:
    cards = _solvable(parse_hand(line, rules), rules)
    from .arrange import arrange

    result = arrange(cards, rules)
    return {
        "ok": True,
        "melds": [codes(meld, rules, declared=True) for meld in result.melds],
        "deadwood": codes(result.deadwood, rules),
        "deadwood_points": result.deadwood_points,
    }


def _layoff(line: str, rules: RuleSet, *, against_gin: bool) -> Result:
    knocker_text, sep, opponent_text = line.partition("||")
    if not sep or "||" in opponent_text:
        raise fail("bad_line", reason="expected KNOCKER MELDS | ... || OPPONENT CARDS")
    from .gin import layoff
    from .laydown import check_laydown

    knocker = parse_melds(knocker_text, rules)
    opponent = _solvable(parse_hand(opponent_text, rules), rules)
    check_pack([*(c for meld in knocker for c in meld), *opponent], rules)
    check_laydown(knocker, rules, opening=False)
    result = layoff(knocker, opponent, rules, against_gin=against_gin)
    return {
        "ok": True,
        "layoffs": [[code(card, rules), index] for card, index in result.layoffs],
        "melds": [codes(meld, rules, declared=True) for meld in result.melds],
        "deadwood": codes(result.deadwood, rules),
        "deadwood_points": result.deadwood_points,
    }


COMMANDS = ("check", "laydown", "value", "arrange", "layoff")


def _options_help() -> str:
    lines = []
    for family in FAMILIES:
        lines.append(f"  {family}:")
        for option in OPTIONS[family].values():
            default = str(option.default).lower() if isinstance(option.default, bool) else option.default
            if option.choices:
                allowed = "one of " + ", ".join(str(c) for c in option.choices)
            elif isinstance(option.default, bool):
                allowed = "true/false"
            elif isinstance(option.default, int):
                allowed = f"{option.minimum}..{option.maximum}"
            else:
                allowed = "text"
            lines.append(f"    {option.name}={default}  ({allowed}) {option.help}")
    return "\n".join(lines)


EPILOG = f"""\
commands (one item per input line, one JSON object per output line, in order):
  check     a line is one meld
            -> {{"ok": true, "kind": "group"|"run", "points": N, "jokers": {{"<position>": "<card>"}}}}
            positions are 0-based in the order typed; the card is what the joker stands for
            (declared with JK=4H, or inferred: legal and worth most, e.g. JK 5H 6H -> {{"0": "7H"}})
  laydown   a line is melds separated by "|" (a first laydown: the family's opening rule applies)
            -> {{"ok": true, "points": N}}
  value     a line is the cards left in a hand -> {{"ok": true, "points": N}} (penalty value)
  arrange   a line is a hand, at most {ZOLIKY.solver_max} cards or {RUMMIKUB.solver_max} tiles
            (more: too_many_cards, the site's limit too)
            -> {{"ok": true, "melds": [["AS","2S","3S"], ...], "deadwood": ["KH"], "deadwood_points": 10}}
  layoff    (gin) a line is KNOCKER MELDS | ... || OPPONENT CARDS
            -> {{"ok": true, "layoffs": [["TS", 0], ["9S", 0]], "melds": [...], "deadwood": [...],
                "deadwood_points": N}}
            layoffs: [card, 0-based index of the knocker's meld], in the order laid;
            melds: the opponent's own melds. --against-gin: nothing may be laid off.

errors: a bad line gives {{"ok": false, "code": "<code>", "error": "<English message>",
  "params": {{...}}}} and the run goes on; a blank line is reported as code "empty" (so there is
  always exactly one output line per input line). Exit status 0, or 1 if an internal error
  occurred on some line, or 2 for a bad command line (--rules, --set) with a one-line message.

notation (case-insensitive; tokens separated by spaces or commas):
  cards   rank A 2-9 T 10 J Q K and suit S H D C or ♠ ♥ ♦ ♣, either order: AS 10H TH qd ♥7
  tiles   colour K (black) B (blue) R (red) Y or O (yellow/orange) and number 1-13: R7 B13 K1 Y5
  jokers  JK (or JOKER); JK=4H / JK=R7 declares the card the joker stands for
  output  canonical: cards AS TH (ten is T) JK, tiles R7 K13 JK; jokers inside melds of
          arrange/layoff are written with their identity, JK=7H
  a game never holds more copies of a card than it has decks, nor more jokers than its pack.

families and their options (--set NAME=VALUE, repeatable; default shown):
{_options_help()}
"""


def build_parser() -> argparse.ArgumentParser:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.exit(2, f"{self.prog}: error: {message}\n")

    parser = Parser(
        prog=PROG,
        description="Validate, value and arrange rummy melds and hands, one per line of standard input.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=COMMANDS, help="what to do with each line (see below)")
    parser.add_argument("--rules", required=True, metavar="FAMILY", help=f"one of: {', '.join(FAMILIES)}")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house-rule option of the family (repeatable; see below)",
    )
    parser.add_argument("--against-gin", action="store_true", help="layoff: the knocker went gin")
    return parser


class Args:
    """The command line, read."""

    __slots__ = ("against_gin", "command", "rules", "set")

    def __init__(self, command: str, rules: str, settings: list[str], against_gin: bool) -> None:
        self.command, self.rules, self.set, self.against_gin = command, rules, settings, against_gin


def parse_args(argv: Sequence[str]) -> Args:
    """The command line. The usual shape, ``COMMAND --rules FAMILY [--set NAME=VALUE ...]
    [--against-gin]``, is read here; anything else (help, errors, ``--rules=gin``, options
    first, abbreviations) goes to argparse, which reads it to the same result: importing
    argparse costs a one-hand run a tenth of its time (docs/design/performance.md)."""
    if argv and argv[0] in COMMANDS:
        rules: str | None = None
        settings: list[str] = []
        against_gin = False
        rest = list(argv[1:])
        while rest:
            option = rest.pop(0)
            if option == "--against-gin" and not against_gin:
                against_gin = True
            elif option in ("--rules", "--set") and rest and not rest[0].startswith("-"):
                value = rest.pop(0)
                if option == "--set":
                    settings.append(value)
                elif rules is None:
                    rules = value
                else:
                    break
            else:
                break
        else:
            if rules is not None:
                return Args(argv[0], rules, settings, against_gin)
    parsed = build_parser().parse_args(argv)
    return Args(parsed.command, parsed.rules, parsed.set, parsed.against_gin)


def _utf8(stream: TextIO) -> None:
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(encoding="utf-8", errors="replace")


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        rules = rule_set(args.rules, parse_settings(args.set))
    except EngineError as error:
        sys.stderr.write(f"{PROG}: error: {error.message}\n")
        return 2
    if args.command == "layoff" and not rules.layoffs:
        sys.stderr.write(f"{PROG}: error: layoff is a gin command (use --rules gin)\n")
        return 2
    handler: Callable[[str, RuleSet], Result]
    if args.command == "layoff":
        against_gin: bool = args.against_gin

        def handler(line: str, rules: RuleSet) -> Result:
            return _layoff(line, rules, against_gin=against_gin)
    else:
        handler = {"check": _check, "laydown": _laydown, "value": _value, "arrange": _arrange}[args.command]
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    if stdin is None:
        _utf8(source)
    if stdout is None:
        _utf8(sink)
    status = 0
    for raw in source:
        line = raw.rstrip("\r\n")
        result: Result
        try:
            if not line.strip():
                raise fail("empty")
            result = handler(line, rules)
        except EngineError as error:
            result = error.as_dict()
        except Exception as error:  # a bug: report it on this line, keep going, exit 1
            import traceback

            traceback.print_exc(file=sys.stderr)
            result = fail("internal_error", reason=f"{type(error).__name__}: {error}").as_dict()
            status = 1
        sink.write(_JSON.encode(result) + "\n")
        sink.flush()
    return status
