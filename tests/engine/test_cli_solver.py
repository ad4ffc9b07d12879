"""The solver's command-line commands, run as a subprocess: arrange and layoff."""

from __future__ import annotations

import json

from tests.cli import run_module


def run(*args: str, lines: list[str]) -> list[dict[str, object]]:
    done = run_module("engine", *args, stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_arrange_gin() -> None:
    [result] = run("arrange", "--rules", "gin", lines=["AS 2S 3S 4S 5H 5D 5C KH QH JH"])
    assert result == {
        "ok": True,
        "melds": [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"], ["JH", "QH", "KH"]],
        "deadwood": [],
        "deadwood_points": 0,
    }


def test_arrange_writes_jokers_with_their_identity_and_goes_on_after_a_bad_line() -> None:
    results = run("arrange", "--rules", "zoliky", lines=["5H 6H JK 2C", "1X 5H", "7S 8S"])
    assert results[0]["melds"] == [["5H", "6H", "JK=7H"]]
    assert results[0]["deadwood"] == ["2C"] and results[0]["deadwood_points"] == 2
    assert results[1]["ok"] is False and results[1]["code"] == "bad_token"
    assert results[2] == {"ok": True, "melds": [], "deadwood": ["7S", "8S"], "deadwood_points": 15}


def test_arrange_options() -> None:
    [low, high] = run("arrange", "--rules", "gin", "--set", "ace_high=true", lines=["QS KS AS", "KS AS 2S"])
    assert low["deadwood_points"] == 0 and high["deadwood_points"] == 13


def test_layoff_chained() -> None:
    [result] = run("layoff", "--rules", "gin", lines=["JS QS KS | 4H 4D 4C || TS 9S 2C 5H 7D KH QD 8C 3H 6D"])
    assert result["ok"] is True
    assert result["layoffs"] == [["TS", 0], ["9S", 0]]
    assert result["melds"] == []
    assert result["deadwood_points"] == 51


def test_layoff_breaks_own_meld_and_none_against_gin() -> None:
    line = "9S TS JS | 2H 3H 4H || 6S 7S 8S 7H 7D KC QD 2C 3D 5H"
    [result] = run("layoff", "--rules", "gin", lines=[line])
    assert result["layoffs"] == [["8S", 0], ["5H", 1]]
    assert result["melds"] == [["7S", "7H", "7D"]]
    assert result["deadwood_points"] == 31
    [against] = run("layoff", "--rules", "gin", "--against-gin", lines=[line])
    assert against["layoffs"] == [] and against["deadwood_points"] == 44
