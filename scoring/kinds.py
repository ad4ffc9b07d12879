"""What kind of hand a scored hand was: closed, closed from hand, knock, undercut, gin, went
out, the stock or the pool ran dry, a void hand.

Read from each family's scoring details (``scoring.hands``), one reader per family in one
table, so a page names the kind without asking which family it shows. The kinds are a shared
vocabulary; the web layer has one table of their labels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.rules import Family

from .hands import HandResult


@dataclass(frozen=True, slots=True)
class HandKind:
    kind: str  # closed | from_hand | knock | undercut | gin | void | out | stock | pool_dry
    player: str | None  # who closed, knocked or went out (None when nobody did)


def _name(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _zoliky(d: Mapping[str, object]) -> HandKind:
    return HandKind("from_hand" if d.get("from_hand") else "closed", _name(d.get("closer")))


def _gin(d: Mapping[str, object]) -> HandKind:
    return HandKind(str(d.get("kind") or "void"), _name(d.get("knocker")))


def _carousel(d: Mapping[str, object]) -> HandKind:
    ending = str(d.get("ending") or "stock")
    if ending == "out":
        return HandKind("out", _name(d.get("out")))
    if ending == "knock":
        return HandKind("undercut" if d.get("undercut") else "knock", _name(d.get("knocker")))
    return HandKind("stock", None)


def _rummikub(d: Mapping[str, object]) -> HandKind:
    ending = str(d.get("ending") or "pool_dry")
    return HandKind(ending, _name(d.get("winner")) if ending == "out" else None)


KIND_READERS: MappingProxyType[Family, Callable[[Mapping[str, object]], HandKind]] = MappingProxyType(
    {"zoliky": _zoliky, "gin": _gin, "carousel": _carousel, "rummikub": _rummikub}
)


def hand_kind(result: HandResult) -> HandKind:
    """The kind of ``result``'s hand and the player who ended it."""
    return KIND_READERS[result.family](result.details)
