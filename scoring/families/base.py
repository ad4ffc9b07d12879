"""The defaults a family module builds on: what most families do at the end of a game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.messages import gettext_noop
from engine.rules import FamilyRules, RuleSet

from ..scored import Bonus, HandKind
from . import Example, FamilyInfo, Kind, Role

# Words more than one family says alike (one msgid each in the catalogues).
WENT_OUT = Kind("out", gettext_noop("went out"), gettext_noop("%(name)s went out"), gettext_noop("went out"))
KNOCK = Kind("knock", gettext_noop("knock"), gettext_noop("%(name)s knocked"), gettext_noop("knock"))
UNDERCUT = Kind(
    "undercut",
    gettext_noop("undercut"),
    gettext_noop("%(name)s knocked and was undercut"),
    gettext_noop("undercut"),
)


KNOCKER = Role(
    "knocker",
    gettext_noop("Who knocked?"),
    gettext_noop("%(name)s knocked"),
    gettext_noop("Nobody"),
    gettext_noop("Choose who knocked, or Nobody."),
)


def went_out(name: str, *, nobody: str = "", unanswered: str = "") -> Role:
    """The role of the player who went out (Carousel's ``out``, Rummikub's ``winner``)."""
    return Role(name, gettext_noop("Who went out?"), gettext_noop("%(name)s went out"), nobody, unanswered)


class StandardFamily:
    """A family that eliminates nobody, has no end rule of its own and no end bonuses, and
    whose leaders are the best totals (lowest when ``info.lower_is_better``). A family module
    subclasses it, sets ``rules``, ``info``, ``fields`` and ``example`` and writes ``parse``,
    ``score``, ``kind`` and ``how_scored`` (see :class:`scoring.families.RuleFamily`)."""

    rules: FamilyRules
    info: FamilyInfo
    fields: tuple[str, ...]
    example: Example
    api_examples: tuple[tuple[str, Mapping[str, object]], ...] = ()
    cli_fields = ""
    cli_results = ""

    def elimination(self, rules: RuleSet) -> int:
        return 0

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return None

    def end_bonuses(
        self,
        rules: RuleSet,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        hands_won: Mapping[str, int],
    ) -> list[Bonus]:
        return []

    def leaders(
        self,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        active: Sequence[str],
        reason: str | None,
    ) -> tuple[str, ...]:
        return best(totals, players, lowest=self.info.lower_is_better)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        return HandKind(str(details.get("ending") or "void"), None)

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        raise NotImplementedError(f"{self.info.key} has no sample outcomes (generate_club cannot play it)")


def sample_count(rng: random.Random, small: int, large: int) -> int:
    """Points left in a sample hand: mostly a few cards, sometimes a full hand (never 0: 0
    means out)."""
    if rng.random() < 0.7:
        return rng.randint(1, small)
    return rng.randint(small, large)


def best(totals: Mapping[str, int], players: Sequence[str], *, lowest: bool) -> tuple[str, ...]:
    """The players with the best total, in seat order."""
    top = min(totals.values()) if lowest else max(totals.values())
    return tuple(p for p in players if totals[p] == top)


def name_of(value: object) -> str | None:
    """A player's name read from a result's details (None for nobody)."""
    return value if isinstance(value, str) and value else None


def target_reached(rules: RuleSet, totals: Mapping[str, int]) -> str | None:
    """The end by ``target`` (gin, Carousel): after a hand in which a player reaches it."""
    target = rules.opt_int("target")
    return "target" if target and max(totals.values()) >= target else None
