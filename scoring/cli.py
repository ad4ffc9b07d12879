"""``python -m scoring hand|game --rules FAMILY [--set NAME=VALUE ...]``.

``hand`` reads one JSON outcome per line on standard input and writes one JSON result per
line, in order (blank lines are skipped); a line that cannot be scored yields
``{"ok": false, "code": ..., "error": ..., "params": {...}}`` and the run goes on.
``game`` reads one JSON document ``{"players": [...], "hands": [...], "ended": false}`` and
writes the game's state as one JSON object. Exit status: 0 when everything was scored, 1
when a line or the game was rejected, 2 for bad arguments (unknown family or option).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

from engine.errors import EngineError
from engine.rules import FAMILIES, OPTIONS, RuleSet, parse_settings, rule_set

from .errors import ScoringError
from .families import families
from .game import score_game
from .hands import score_hand

DESCRIPTION = """\
Score rummy hands and games (Žolíky, gin, Carousel, Rummikub) from JSON.

  python -m scoring hand --rules FAMILY [--set NAME=VALUE ...] < outcomes.jsonl
      one JSON outcome per line -> one JSON result per line
  python -m scoring game --rules FAMILY [--set NAME=VALUE ...] < game.json
      one JSON document {"players": [...], "hands": [outcome, ...], "ended": false}
      -> the game's state as one JSON object
"""

FIELDS_HELP = """\
OUTCOME FIELDS (keyed by player name; unknown fields are rejected)
  A count is whole points (23 or "23") or the cards/tiles left as text ("KH 5S JK",
  "R7 B13 JK"; "" = nothing left), which the engine values. Cards: A 2-9 T/10 J Q K +
  S H D C (or the suit symbols), either order, any case; JK = joker. Tiles: K (black)
  B (blue) R (red) Y/O (yellow) + 1-13.
  "players"   list of names; in a game it may be left out (the players still in);
{player_counts}
{family_fields}
HAND RESULT
  {"ok": true, "family", "players", "points": {name: points}, "winners": [...],
   "counts": {name: valued count}, ...}  points are penalties for zoliky (lower is
  better; the closer -10 / -20), gains otherwise (one scorer per gin hand).
{family_results}  missing:  [names] whose count is missing (only then; 0 in points, not in counts)
  error:    {"ok": false, "code", "error", "params"} (codes: scoring/messages.py and
            engine/messages.py)

GAME RESULT
  {"ok": true, "family", "players", "options", "hands": [hand result, ...],
   "after_each_hand": [{name: running total}, ...], "hand_totals": {...},
   "totals": {...} (with end bonuses), "hands_won": {...},
   "eliminated": [{"player", "hand", "total"}], "active": [...],
   "finished": bool, "finish_reason": target|last_player|hands|ended|null,
   "finished_after": hand number|null, "leaders": [...], "winners": [...] (once
   finished; lowest total for zoliky, highest otherwise),
   "bonuses": [{"player", "kind": game|hands_won, "points", "hands"}],
   "settlement": null | (zoliky) {"style": pairs|winner, "totals", "crowns"
   (total / 10 rounded half up), "winners" (fewest points), "debts": [{"from","to",
   "crowns"}], "net": {name: + receives / - pays}, "transfers": [{"from","to",
   "crowns"}] (fewest payments)}, "missing": [{"hand", "players"}],
   "incomplete": bool}  while counts are missing nothing is final: not finished, no
  leaders, winners, bonuses or settlement (finish_reason may name an end condition met
  on the known points)
  A rejected hand: the error with params.hand (1-based) and "hand N: " in "error".
"""


EXIT_HELP = "EXIT STATUS: 0 everything scored, 1 a line or the game was rejected, 2 bad arguments."


def _fields_help() -> str:
    """FIELDS_HELP with each registered family's player count, outcome fields and result."""
    counts = ", ".join(
        f"{f.info.key} {f.info.min_players}"
        + (f"-{f.info.max_players}" if f.info.max_players > f.info.min_players else "")
        for f in families()
    )
    players = textwrap.fill(
        f"the family's player count applies ({counts}).",
        width=86,
        initial_indent=" " * 14,
        subsequent_indent=" " * 14,
    )
    fields = "".join(f.cli_fields or f"  {f.info.key}: {', '.join(f.fields)}\n" for f in families())
    results = "".join(f.cli_results for f in families())
    return (
        FIELDS_HELP.replace("{player_counts}\n", players + "\n")
        .replace("{family_fields}", fields)
        .replace("{family_results}", results)
    )


def _options_help() -> str:
    lines = ["HOUSE-RULE OPTIONS (--set NAME=VALUE; default in brackets)"]
    for family in FAMILIES:
        lines.append(f"  {family}:")
        for option in OPTIONS[family].values():
            default = str(option.default).lower() if isinstance(option.default, bool) else option.default
            lines.append(f"    {option.name} [{default}]  {option.help}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    epilog = f"{_fields_help()}\n{_options_help()}\n\n{EXIT_HELP}"
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description=DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="hand|game")
    for name, summary in (
        ("hand", "score one JSON outcome per line"),
        ("game", "score one JSON game document"),
    ):
        sub = commands.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=parser.formatter_class
        )
        sub.add_argument("--rules", required=True, choices=FAMILIES, help="the rule family")
        sub.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            dest="settings",
            help="a house-rule option (repeatable); see the list below",
        )
        if name == "game":
            sub.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    return parser


def _dump(data: object, out: TextIO, indent: int | None = None) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=indent) + "\n")
    out.flush()


def _error(error: EngineError) -> dict[str, object]:
    return error.as_dict()


def _internal(error: Exception) -> dict[str, object]:
    reason = f"{type(error).__name__}: {error}"
    return {
        "ok": False,
        "code": "internal_error",
        "error": f"internal error: {reason}",
        "params": {"reason": reason},
    }


def _load(line: str) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as error:  # not JSON, nested too deep, a number too long
        raise ScoringError("bad_json", detail=str(error)) from None


def run_hands(rules: RuleSet, lines: TextIO, out: TextIO) -> int:
    status = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            result: dict[str, object] = score_hand(rules=rules, outcome=_load(line)).as_dict()
        except EngineError as error:
            result, status = _error(error), 1
        except Exception as error:  # a bug must not stop the other lines
            result, status = _internal(error), 1
        _dump(result, out)
    return status


def run_game(rules: RuleSet, text: str, out: TextIO, indent: int | None) -> int:
    try:
        document = _load(text)
        if not isinstance(document, dict):
            raise ScoringError("game_not_object")
        for key in document:
            if key not in ("players", "hands", "ended"):
                raise ScoringError("unknown_field", family="game", field=key, fields="players, hands, ended")
        if "players" not in document:
            raise ScoringError("missing_field", field="players")
        players, hands, ended = document["players"], document.get("hands", []), document.get("ended", False)
        if not isinstance(players, list):
            raise ScoringError("field_type", field="players", expected="a list of player names")
        if not isinstance(hands, list):
            raise ScoringError("field_type", field="hands", expected="a list of outcomes")
        if not isinstance(ended, bool):
            raise ScoringError("field_type", field="ended", expected="true or false")
        state = score_game(rules=rules, players=players, hands=hands, ended=ended)
    except EngineError as error:
        _dump(_error(error), out, indent)
        return 1
    _dump(state.as_dict(), out, indent)
    return 0


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    source = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    for stream in (source, out):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # A byte that is not UTF-8 makes that line bad JSON, a lone surrogate in a name is
            # written as "?": neither may stop the run.
            reconfigure(encoding="utf-8", errors="replace")
    try:
        rules = rule_set(args.rules, parse_settings(args.settings))
    except EngineError as error:
        _dump(_error(error), out)
        return 2
    if args.command == "hand":
        return run_hands(rules, source, out)
    return run_game(rules, source.read(), out, args.indent)
