"""Running the engine's and scoring's command lines as a user would: a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_module(module: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` in the project, ``stdin`` fed in, output captured."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=60,
        check=False,
    )
