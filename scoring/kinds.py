"""What kind of hand a scored hand was: closed, closed from hand, knock, undercut, gin, went
out, the stock or the pool ran dry, a void hand.

Read from each family's scoring details by the family's module (``scoring.families``), so a
page names the kind without asking which family it shows. Each family declares its kinds with
their words (``FamilyInfo.words``); the web layer translates them.
"""

from __future__ import annotations

from .families import family
from .scored import HandKind as HandKind
from .scored import HandResult


def hand_kind(result: HandResult) -> HandKind:
    """The kind of ``result``'s hand and the player who ended it (its family reads it)."""
    return family(result.family).kind(result.details)
