"""The command line: check, laydown and value through a real subprocess, plus a few in-process."""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from engine.cli import main
from engine.messages import MESSAGES
from engine.rules import OPTIONS
from tests.cli import run_module

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_module("engine", *args, stdin=stdin)


def lines(result: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_check_one_object_per_line_in_order() -> None:
    result = run("check", "--rules", "zoliky", stdin="JK 5H 6H\nKS AS 2S\n\n5H 5H 5S\nAH AS AD\n")
    assert result.returncode == 0, result.stderr
    out = lines(result)
    assert out[0] == {"ok": True, "kind": "run", "points": 18, "jokers": {"0": "7H"}}
    assert out[1]["ok"] is False and out[1]["code"] == "wraps_around"
    assert out[2]["ok"] is False and out[2]["code"] == "empty"  # blank lines are reported
    assert out[3]["code"] == "duplicate_suit" and "5♥" in str(out[3]["error"])
    assert out[4] == {"ok": True, "kind": "group", "points": 33, "jokers": {}}
    assert len(out) == 5


def test_check_bad_token_keeps_going() -> None:
    out = lines(run("check", "--rules", "rummikub", stdin="R13 R1 R2\nR1 X2 R3\nR11 R12 JK\n"))
    assert [o["ok"] for o in out] == [False, False, True]
    assert out[0]["code"] == "wraps_around"
    assert out[1]["code"] == "bad_token" and str(out[1]["error"]).startswith('"X2" is not a tile')
    assert out[2]["jokers"] == {"2": "R13"}


def test_check_with_options() -> None:
    stdin = "5H JK JK\n"
    out = lines(run("check", "--rules", "zoliky", "--set", "half_jokers_groups=true", stdin=stdin))
    assert out[0]["code"] == "too_many_jokers"
    assert lines(run("check", "--rules", "zoliky", stdin=stdin))[0]["kind"] == "group"
    out = lines(run("check", "--rules", "zoliky", "--set", "half_jokers=false", stdin=stdin))
    assert out[0] == {"ok": True, "kind": "run", "points": 18, "jokers": {"1": "6H", "2": "7H"}}


def test_laydown() -> None:
    stdin = "QH KH AH | 7S 7D JK\n2H 3H 4H | 5S 5D 5C\nJK KH AH | 9S 9D 9C | TS TD TC\n"
    out = lines(run("laydown", "--rules", "zoliky", stdin=stdin))
    assert out[0] == {"ok": True, "points": 52}
    assert out[1]["code"] == "opening_too_low"
    assert out[1]["params"] == {"points": 24, "required": 42}
    assert out[2]["code"] == "no_pure_run"
    out = lines(
        run("laydown", "--rules", "zoliky", "--set", "opening_points=20", stdin="2H 3H 4H | 5S 5D 5C\n")
    )
    assert out == [{"ok": True, "points": 24}]


def test_laydown_rummikub() -> None:
    out = lines(run("laydown", "--rules", "rummikub", stdin="R10 R11 JK\nR8 R9 R10\n"))
    assert out[0] == {"ok": True, "points": 33}
    assert out[1]["code"] == "opening_too_low"


def test_value() -> None:
    stdin = "AS KH JK\nAS KH\n"
    assert lines(run("value", "--rules", "zoliky", stdin=stdin)) == [
        {"ok": True, "points": 36},
        {"ok": True, "points": 21},
    ]
    assert lines(run("value", "--rules", "carousel", stdin=stdin))[0] == {"ok": True, "points": 36}
    out = lines(run("value", "--rules", "gin", stdin=stdin))
    assert out[0]["code"] == "no_jokers"
    assert out[1] == {"ok": True, "points": 11}
    out = lines(run("value", "--rules", "zoliky", "--set", "joker_penalty=50", stdin="JK\n"))
    assert out == [{"ok": True, "points": 50}]


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--rules", "poker"),
        ("check", "--rules", "zoliky", "--set", "nope=1"),
        ("check", "--rules", "zoliky", "--set", "half_jokers=maybe"),
        ("check", "--rules", "zoliky", "--set", "opening_points=-5"),
        ("check", "--rules", "zoliky", "--set", "novalue"),
        ("check",),
        ("shuffle", "--rules", "gin"),
        ("layoff", "--rules", "zoliky"),
    ],
)
def test_bad_command_line_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    result = run(*args, stdin="AS 2S 3S\n")
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "error" in result.stderr


def test_help_documents_commands_notation_and_every_option() -> None:
    result = run("--help")
    assert result.returncode == 0
    text = result.stdout
    for command in ("check", "laydown", "value", "arrange", "layoff"):
        assert f"  {command}" in text
    for word in ("JK=4H", "deadwood_points", '"ok": false', "|| OPPONENT CARDS", "ten is T"):
        assert word in text
    for family, options in OPTIONS.items():
        assert f"  {family}:" in text
        for name, option in options.items():
            default = str(option.default).lower() if isinstance(option.default, bool) else str(option.default)
            assert f"{name}={default}" in text


def test_in_process_main() -> None:
    out = io.StringIO()
    status = main(["check", "--rules", "carousel"], io.StringIO("JK 5H 6H\nQS KS AS\r\n"), out)
    assert status == 0
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [
        {"ok": True, "kind": "run", "points": 18, "jokers": {"0": "7H"}},
        {"ok": True, "kind": "run", "points": 31, "jokers": {}},
    ]


def test_in_process_errors_carry_known_codes() -> None:
    out = io.StringIO()
    main(["check", "--rules", "zoliky"], io.StringIO("1X\nAS 2S\n5H 6S 7H\nJK=9H 5H 6H\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["code"] for r in results] == ["bad_token", "too_short", "mixed_suits", "joker_mismatch"]
    for r in results:
        assert r["code"] in MESSAGES
        assert MESSAGES[r["code"]].format(**r["params"]) == r["error"]


def test_in_process_layoff_line_format() -> None:
    out = io.StringIO()
    main(["layoff", "--rules", "gin"], io.StringIO("JS QS KS | 5H 5D 5C\n"), out)
    result = json.loads(out.getvalue())
    assert (result["ok"], result["code"]) == (False, "bad_line")


def test_in_process_internal_error_is_reported_and_run_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine import cli

    def broken(line: str, rules: object) -> dict[str, object]:
        if line == "boom":
            raise RuntimeError("bug")
        return {"ok": True}

    monkeypatch.setattr(cli, "_value", broken)
    out = io.StringIO()
    status = main(["value", "--rules", "gin"], io.StringIO("boom\nAS\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert results[0]["code"] == "internal_error"
    assert results[1] == {"ok": True}
    assert "RuntimeError" in capsys.readouterr().err


def test_every_code_raised_by_the_engine_has_a_message() -> None:
    engine = ROOT / "engine"
    raised: set[str] = set()
    for path in engine.glob("*.py"):
        raised |= set(re.findall(r'(?:fail|EngineError)\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert {"bad_token", "too_short", "option_range", "unknown_family"} <= raised  # the scan works
    assert sorted(raised - set(MESSAGES)) == []


def test_arrange_and_layoff_are_wired_to_the_solver() -> None:
    out = io.StringIO()
    main(["arrange", "--rules", "zoliky"], io.StringIO("AS 2S 3S KH\n9C 9D 9S 5H 6H JK QC\n"), out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"ok": True, "melds": [["AS", "2S", "3S"]], "deadwood": ["KH"], "deadwood_points": 10}
    assert second["deadwood"] == ["QC"] and second["deadwood_points"] == 10
    assert sorted(map(sorted, second["melds"])) == [["5H", "6H", "JK=7H"], ["9C", "9D", "9S"]]

    out = io.StringIO()
    line = "JS QS KS | 5H 5D 5C || TS 9S 2H 3D 4C 8C 8D 8H KD KC\n"
    main(["layoff", "--rules", "gin"], io.StringIO(line), out)
    result = json.loads(out.getvalue())
    assert result["layoffs"] == [["TS", 0], ["9S", 0]]  # chained: the ten first, then the nine
    assert result["deadwood_points"] == 2 + 3 + 4 + 10 + 10

    out = io.StringIO()
    main(["layoff", "--rules", "gin", "--against-gin"], io.StringIO(line), out)
    result = json.loads(out.getvalue())
    assert result["layoffs"] == [] and result["deadwood_points"] == 9 + 10 + 29


def test_public_api_is_importable_from_the_package() -> None:
    import engine as engine

    for name in engine.__all__:
        assert getattr(engine, name) is not None
    assert engine.knock_check.__module__ == "engine.gin"


def test_arrange_refuses_more_cards_than_the_site_does() -> None:
    many = " ".join(f"{rank}{suit}" for suit in "SHD" for rank in "A23456") + "\n"  # 18 cards
    out = lines(run("arrange", "--rules", "zoliky", stdin=many))
    assert out[0]["code"] == "too_many_cards"
    assert out[0]["params"] == {"count": 18, "maximum": 14}
    assert "at most 14" in str(out[0]["error"])
    tiles = " ".join(f"{colour}{n}" for colour in "KB" for n in range(1, 13)) + "\n"  # 24 tiles
    assert lines(run("arrange", "--rules", "rummikub", stdin=tiles))[0]["ok"] is True
    out = lines(run("arrange", "--rules", "rummikub", stdin=tiles.strip() + " R1\n"))
    assert out[0]["params"] == {"count": 25, "maximum": 24}
