"""Named points of the worker's job where a test can stop a real worker process, to kill it at an
exact step (``tests/tournaments/test_pipeline_faults.py``).

Off unless the process was started with ``DERIVED_PAUSE_AT=<point>``: then the worker, on
reaching that point the first time, writes its process id to the file ``DERIVED_PAUSE_FILE``
and waits there until the file is removed (or the process killed). The points: ``start`` (the
club's job holds its lease, nothing read yet), ``rating-commit`` / ``season-commit`` (inside a
transaction, everything written, not yet committed), ``ratings`` / ``season`` (just after one
of them committed), ``end`` (every mark applied, the club's state not yet written), ``done``
(the job over, its task result not yet written).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

_at = os.environ.get("DERIVED_PAUSE_AT", "")


def checkpoint(name: str) -> None:
    global _at
    if not _at or name != _at:
        return
    _at = ""
    signal = Path(os.environ["DERIVED_PAUSE_FILE"])
    signal.write_text(str(os.getpid()))
    while signal.exists():
        time.sleep(0.05)
