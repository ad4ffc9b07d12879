"""The labels of hand kinds (``scoring.kinds``) as pages show them: one table, no family
branches. ``short`` names the kind on the score sheet; ``line`` says who did it in the line
shown after a save ("Ann closed from hand")."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.hands import HandResult
from scoring.kinds import HandKind, hand_kind


@dataclass(frozen=True)
class KindLabel:
    short: Promise
    line: Promise  # with %(name)s: the player who ended the hand
    nobody: Promise  # the line when no player ended it


KIND_LABELS: dict[str, KindLabel] = {
    "closed": KindLabel(_("closed"), _("%(name)s closed"), _("closed")),
    "from_hand": KindLabel(_("closed from hand"), _("%(name)s closed from hand"), _("closed from hand")),
    "knock": KindLabel(_("knock"), _("%(name)s knocked"), _("knock")),
    "undercut": KindLabel(_("undercut"), _("%(name)s knocked and was undercut"), _("undercut")),
    "gin": KindLabel(_("gin"), _("%(name)s went gin"), _("gin")),
    "void": KindLabel(_("no knock"), _("nobody knocked"), _("nobody knocked")),
    "out": KindLabel(_("went out"), _("%(name)s went out"), _("went out")),
    "stock": KindLabel(_("stock ran out"), _("the stock ran out"), _("the stock ran out")),
    "pool_dry": KindLabel(_("pool ran dry"), _("the pool ran dry"), _("the pool ran dry")),
}


def kind_label(kind: HandKind | None) -> str:
    """The hand's kind in a word or two, for the score sheet ("knock", "closed from hand")."""
    label = KIND_LABELS.get(kind.kind) if kind is not None else None
    return str(label.short) if label is not None else ""


def kind_short(result: HandResult) -> str:
    return kind_label(hand_kind(result))


def kind_line(result: HandResult) -> str:
    """Who ended the hand and how ("Bob knocked", "the pool ran dry")."""
    kind = hand_kind(result)
    label = KIND_LABELS.get(kind.kind)
    if label is None:
        return ""
    if kind.player is None:
        return str(label.nobody)
    return str(label.line) % {"name": kind.player}
