"""The family registry loads once, and a server's threads asking for a family while it loads
wait for the whole registry: a thread used to get the part loaded so far, and a page failed
with "unknown family" under the production server's threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

import scoring.families as registry


@pytest.fixture
def unloaded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as a fresh process has it, each family taking a moment to register."""
    saved = dict(registry._FAMILIES)
    slow = registry.register

    def register(family: registry.RuleFamily, *, engine_registered: bool = False) -> None:
        time.sleep(0.02)
        slow(family, engine_registered=engine_registered)

    monkeypatch.setattr(registry, "register", register)
    monkeypatch.setattr(registry, "_started", False)
    monkeypatch.setattr(registry, "_ready", False)
    registry._FAMILIES.clear()
    yield
    registry._FAMILIES.clear()
    registry._FAMILIES.update(saved)


def test_threads_asking_while_the_registry_loads_all_get_every_family(unloaded: None) -> None:
    start = threading.Barrier(8)
    failures: list[BaseException] = []
    found: list[str] = []

    def ask() -> None:
        start.wait()
        try:
            found.append(registry.family("rummikub").info.key)
        except BaseException as error:  # any failure of a thread is the finding
            failures.append(error)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and found == ["rummikub"] * 8
    assert [f.info.key for f in registry.families()] == ["zoliky", "gin", "carousel", "rummikub"]
