"""The words of hand kinds (``scoring.kinds``) as pages show them, read from the family that
scored the hand (``FamilyInfo.words``): no table here, no family branches. ``short`` names
the kind on the score sheet; ``line`` says who did it in the line shown after a save ("Ann
closed from hand")."""

from __future__ import annotations

from django.utils.translation import gettext

from games.families import words
from scoring.hands import HandResult
from scoring.kinds import HandKind, hand_kind


def kind_label(kind: HandKind | None, family: str) -> str:
    """The hand's kind in a word or two, for the score sheet ("knock", "closed from hand")."""
    said = words(family).kind(kind.kind) if kind is not None else None
    return gettext(said.short) if said is not None else ""


def kind_line(result: HandResult) -> str:
    """Who ended the hand and how ("Bob knocked", "the pool ran dry")."""
    kind = hand_kind(result)
    said = words(result.family).kind(kind.kind)
    if said is None:
        return ""
    if kind.player is None:
        return gettext(said.nobody)
    return gettext(said.line) % {"name": kind.player}
