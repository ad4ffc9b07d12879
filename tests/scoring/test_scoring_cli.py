"""``python -m scoring hand|game`` through a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.rules import OPTIONS
from tests.cli import run_module

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_module("scoring", *args, stdin=stdin)


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_hand_one_result_per_line_and_bad_lines_go_on() -> None:
    stdin = "\n".join(
        [
            '{"players": ["Ann","Bob","Cid"], "closer": "Ann", "from_hand": false,'
            ' "left": {"Bob": 23, "Cid": "KH 5S JK"}}',
            "this is not json",
            "",
            '{"players": ["Ann","Bob"], "closer": "Žofie", "left": {"Bob": 3}}',
            '{"players": ["Ann","Bob"], "closer": "Ann", "left": {"Bob": 3}}',
        ]
    )
    done = run("hand", "--rules", "zoliky", stdin=stdin)
    assert done.returncode == 1, done.stderr
    results = lines(done.stdout)
    assert len(results) == 4  # the blank line is skipped
    assert results[0]["ok"] is True and results[0]["points"] == {"Ann": -10, "Bob": 23, "Cid": 30}
    assert results[1]["ok"] is False and results[1]["code"] == "bad_json"
    assert results[2] == {
        "ok": False,
        "code": "unknown_player",
        "error": "Žofie (in closer) is not a player in this hand",
        "params": {"player": "Žofie", "field": "closer"},
    }
    assert results[3]["points"] == {"Ann": -10, "Bob": 3}


def test_hand_with_options_and_every_family() -> None:
    cases = [
        (
            "gin",
            ["--set", "undercut_bonus=10"],
            {"players": ["A", "B"], "knocker": "A", "deadwood": {"A": 9, "B": 4}},
            {"A": 0, "B": 15},
        ),
        (
            "carousel",
            [],
            {
                "players": ["A", "B", "C"],
                "knocker": "A",
                "out": None,
                "left": {"A": 3, "B": 12, "C": "7H JK"},
            },
            {"A": 38, "B": 0, "C": 0},
        ),
        (
            "rummikub",
            [],
            {"players": ["A", "B", "C", "D"], "winner": None, "left": {"A": 15, "B": 8, "C": 22, "D": 19}},
            {"A": -15, "B": 32, "C": -22, "D": -19},
        ),
        (
            "zoliky",
            ["--set", "joker_penalty=30", "--set", "closer_credit=20"],
            {"players": ["A", "B"], "closer": "A", "left": {"B": "JK"}},
            {"A": -20, "B": 30},
        ),
    ]
    for family, settings, outcome, expected in cases:
        done = run("hand", "--rules", family, *settings, stdin=json.dumps(outcome) + "\n")
        assert done.returncode == 0, done.stdout + done.stderr
        assert lines(done.stdout)[0]["points"] == expected


def test_bad_options_exit_2_with_a_json_error() -> None:
    done = run("hand", "--rules", "zoliky", "--set", "joker_penalty=20")
    assert done.returncode == 2
    assert lines(done.stdout)[0]["code"] == "option_choice"
    done = run("hand", "--rules", "gin", "--set", "nonsense")
    assert done.returncode == 2 and lines(done.stdout)[0]["code"] == "bad_setting"
    assert run("hand", "--rules", "poker").returncode == 2  # argparse: not a family


def test_game_document_to_state() -> None:
    document = {
        "players": ["Ann", "Bob", "Cid"],
        "hands": [
            {"closer": "Ann", "left": {"Bob": 60, "Cid": 5}},
            {"closer": "Cid", "left": {"Ann": 20, "Bob": 45}},
            {"closer": "Ann", "left": {"Cid": 30}},
        ],
    }
    done = run("game", "--rules", "zoliky", stdin=json.dumps(document))
    assert done.returncode == 0, done.stdout + done.stderr
    state = json.loads(done.stdout)
    assert state["totals"] == {"Ann": 0, "Bob": 105, "Cid": 25}
    assert state["after_each_hand"][0] == {"Ann": -10, "Bob": 60, "Cid": 5}
    assert state["eliminated"] == [{"player": "Bob", "hand": 2, "total": 105}]
    assert state["finished"] is False and state["winners"] == [] and state["bonuses"] == []
    assert state["settlement"]["crowns"] == {"Ann": 0, "Bob": 11, "Cid": 3}  # 105 -> 11, 25 -> 3
    for key in ("totals", "after_each_hand", "eliminated", "finished", "winners", "bonuses", "settlement"):
        assert key in state


def test_game_errors() -> None:
    done = run("game", "--rules", "rummikub", stdin="[1, 2]")
    assert done.returncode == 1 and json.loads(done.stdout)["code"] == "game_not_object"
    done = run("game", "--rules", "rummikub", stdin="{")
    assert json.loads(done.stdout)["code"] == "bad_json"
    done = run("game", "--rules", "rummikub", stdin='{"hands": []}')
    assert json.loads(done.stdout)["code"] == "missing_field"
    done = run("game", "--rules", "rummikub", stdin='{"players": ["A", "B"], "hands": [], "extra": 1}')
    assert json.loads(done.stdout)["code"] == "unknown_field"
    bad = {
        "players": ["A", "B"],
        "hands": [{"winner": "A", "left": {"B": 3}}, {"winner": "A", "left": {"B": -3}}],
    }
    error = json.loads(run("game", "--rules", "rummikub", stdin=json.dumps(bad)).stdout)
    assert error["code"] == "negative_count" and error["params"]["hand"] == 2
    assert error["error"] == "hand 2: the left of B cannot be negative (-3)"


def test_game_ended_flag_and_carousel_bonuses() -> None:
    document = {"players": ["A", "B"], "hands": [{"knocker": "A", "left": {"A": 1, "B": 31}}], "ended": True}
    state = json.loads(run("game", "--rules", "carousel", stdin=json.dumps(document)).stdout)
    assert state["finished"] is True and state["finish_reason"] == "ended"
    assert state["bonuses"] == [{"player": "A", "kind": "hands_won", "points": 25, "hands": 1}]
    assert state["totals"] == {"A": 55, "B": 0} and state["winners"] == ["A"]


def test_help_documents_every_field_option_and_result_field() -> None:
    for command in ("hand", "game"):
        done = run(command, "--help")
        assert done.returncode == 0
        text = done.stdout
        for family, options in OPTIONS.items():
            assert f"{family}:" in text
            for name in options:
                assert name in text, name
        for field in (
            "closer",
            "from_hand",
            "left",
            "laid",
            "kept_joker",
            "knocker",
            "gin",
            "deadwood",
            "hands",
            "melds",
            "out",
            "winner",
        ):
            assert f"{field} " in text or f'"{field}"' in text, field
        for result in (
            "points",
            "after_each_hand",
            "totals",
            "eliminated",
            "finished",
            "winners",
            "bonuses",
            "settlement",
            "transfers",
        ):
            assert result in text, result


def test_hand_gin_cards_mode_explains_melds_deadwood_and_layoffs() -> None:
    outcome = {
        "players": ["Ann", "Bob"],
        "knocker": "Ann",
        "hands": {"Ann": "7H 7D 7C 7S 8S 9S AC 2C 3C 2D", "Bob": "TS JS 4H 5H 6H KC KH KS QD 3D"},
        "melds": "7H 7D 7C | 7S 8S 9S | AC 2C 3C",
    }
    result = lines(run("hand", "--rules", "gin", stdin=json.dumps(outcome)).stdout)[0]
    assert result["points"] == {"Ann": 11, "Bob": 0}
    assert result["deadwood_cards"] == {"Ann": ["2D"], "Bob": ["3D", "QD"]}
    assert result["layoffs"] == [{"card": "TS", "meld": 1}, {"card": "JS", "meld": 1}]
    assert result["melds"]["Ann"] == [["7H", "7D", "7C"], ["7S", "8S", "9S"], ["AC", "2C", "3C"]]  # type: ignore[index]


def test_scoring_imports_no_django() -> None:
    code = "import sys, scoring, scoring.cli; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def run_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


GOOD_LINE = '{"players": ["Ann","Bob"], "closer": "Ann", "left": {"Bob": 3}}'


def test_hand_a_line_that_is_not_utf8_is_a_bad_line_and_the_run_goes_on() -> None:
    stdin = b'\xff\xfe{"players": 1}\n' + GOOD_LINE.encode() + b"\n"
    done = run_bytes("hand", "--rules", "zoliky", stdin=stdin)
    assert b"Traceback" not in done.stderr, done.stderr
    results = lines(done.stdout.decode("utf-8"))
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["code"] == "bad_json"
    assert done.returncode == 1


def test_game_not_utf8_is_rejected_not_a_crash() -> None:
    done = run_bytes("game", "--rules", "zoliky", stdin=b'{"players": ["Ann", "\xff"], "hands": []}')
    assert b"Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1)


def test_json_nested_too_deep_or_a_number_too_long_is_bad_json() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    huge = '{"players": ["Ann","Bob"], "closer": "Ann", "left": {"Bob": ' + "1" * 5000 + "}}"
    done = run("game", "--rules", "zoliky", stdin=deep)
    assert "Traceback" not in done.stderr, done.stderr
    assert lines(done.stdout)[0]["code"] == "bad_json" and done.returncode == 1
    results = lines(run("hand", "--rules", "zoliky", stdin=f"{deep}\n{huge}\n{GOOD_LINE}\n").stdout)
    assert [r.get("code") for r in results] == ["bad_json", "bad_json", None]


def test_a_player_name_with_a_lone_surrogate_does_not_stop_the_run() -> None:
    odd = '{"players": ["\\ud800", "Bob"], "closer": "\\ud800", "left": {"Bob": 3}}'
    done = run("hand", "--rules", "zoliky", stdin=f"{odd}\n{GOOD_LINE}\n")
    assert "Traceback" not in done.stderr, done.stderr
    results = lines(done.stdout)
    assert len(results) == 2 and results[1]["points"] == {"Ann": -10, "Bob": 3}
    done = run("game", "--rules", "zoliky", stdin='{"players": ["\\ud800", "Bob"], "hands": []}')
    assert "Traceback" not in done.stderr, done.stderr
