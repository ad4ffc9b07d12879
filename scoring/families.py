"""One table of per-family facts that the scoring, forms, views and templates read.

Instead of ``if family == "zoliky"`` spread over the code, each question a page or a rule asks
about a family ("is a lower total better?", "who empties his hand?", "does the evening settle
in crowns?") is a field here. Display names are marked for translation with the engine's
identity ``gettext_noop``; the web layer translates them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from engine.messages import gettext_noop
from engine.rules import FAMILIES, Family, rule_set

CountKind = Literal["cards", "tiles"]


@dataclass(frozen=True, slots=True)
class FamilyInfo:
    key: Family
    name: str  # English display name, marked for translation
    lower_is_better: bool  # penalty points (Žolíky) rather than points won
    # The outcome's role fields, in the order the hand form asks them; ``emptied_role`` is the
    # one naming the player whose hand is empty by definition (no count asked of him).
    roles: tuple[str, ...]
    emptied_role: str
    role_required: bool  # a hand always names the player in ``emptied_role``
    flags: tuple[str, ...]  # yes/no facts of a hand (closed from hand, gin...), in form order
    # Gin: the knocker's melds may be declared and both whole hands given, so the engine finds
    # deadwood and layoffs; the counts are then ``hands``, else ``deadwood``. Others: ``left``.
    declares_melds: bool
    count: CountKind  # what is left in a hand
    settles_in_crowns: bool
    opening: bool  # a player's first laydown must reach a minimum (checked by the engine)
    # Players drop out during a game (Žolíky's elimination). Only then can a correction bring a
    # player back into hands recorded without him, so only then can a hand miss a count.
    eliminates: bool
    min_players: int
    max_players: int
    # The table size a tournament prefers when seating (tables hold min..max_players).
    table_preferred: int
    # The house rule whose value the running totals head for, drawn as a line on the chart of
    # the evening: Žolíky's elimination limit (a total to stay under, as ``lower_is_better``
    # says), the target of gin and Carousel (one to reach). None: no such line (Rummikub).
    # The option's value 0 (an open evening) draws no line either.
    chart_line: str | None = None


def _info(
    key: Family,
    name: str,
    *,
    lower_is_better: bool,
    roles: tuple[str, ...],
    emptied_role: str,
    role_required: bool,
    flags: tuple[str, ...] = (),
    declares_melds: bool = False,
    settles_in_crowns: bool,
    opening: bool,
    preferred: int,
    eliminates: bool = False,
    chart_line: str | None = None,
) -> FamilyInfo:
    rules = rule_set(key)
    return FamilyInfo(
        key=key,
        name=name,
        lower_is_better=lower_is_better,
        roles=roles,
        emptied_role=emptied_role,
        role_required=role_required,
        flags=flags,
        declares_melds=declares_melds,
        count="tiles" if rules.tiles else "cards",
        settles_in_crowns=settles_in_crowns,
        opening=opening,
        eliminates=eliminates,
        min_players=rules.min_players,
        max_players=rules.max_players,
        table_preferred=preferred,
        chart_line=chart_line,
    )


FAMILY_INFO: MappingProxyType[Family, FamilyInfo] = MappingProxyType(
    {
        "zoliky": _info(
            "zoliky",
            gettext_noop("Žolíky"),
            lower_is_better=True,
            roles=("closer",),
            emptied_role="closer",
            role_required=True,
            flags=("from_hand", "kept_joker"),
            settles_in_crowns=True,
            opening=True,
            preferred=4,
            eliminates=True,
            chart_line="elimination",
        ),
        "gin": _info(
            "gin",
            gettext_noop("Gin (knock rummy for two)"),
            lower_is_better=False,
            roles=("knocker",),
            emptied_role="knocker",
            role_required=True,
            flags=("gin",),
            declares_melds=True,
            settles_in_crowns=False,
            opening=False,
            preferred=2,
            chart_line="target",
        ),
        "carousel": _info(
            "carousel",
            gettext_noop("Carousel rummy"),
            lower_is_better=False,
            roles=("knocker", "out"),
            emptied_role="out",
            role_required=False,
            settles_in_crowns=False,
            opening=False,
            preferred=4,
            chart_line="target",
        ),
        "rummikub": _info(
            "rummikub",
            gettext_noop("Rummikub"),
            lower_is_better=False,
            roles=("winner",),
            emptied_role="winner",
            role_required=False,
            settles_in_crowns=False,
            opening=True,
            preferred=4,
        ),
    }
)
assert tuple(FAMILY_INFO) == FAMILIES


def family_info(family: str) -> FamilyInfo:
    """The facts of ``family``; KeyError for an unknown one."""
    return FAMILY_INFO[family]  # type: ignore[index]
