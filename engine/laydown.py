"""A player's laydown: several melds at once, and the opening rule of each family."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .errors import EngineError
from .melds import Meld, check_meld
from .messages import fail
from .notation import check_pack
from .rules import FLUSH_HAND, RuleSet
from .values import card_value


@dataclass(frozen=True)
class Laydown:
    """Legal melds laid down together and their total points (jokers valued as their card)."""

    melds: tuple[Meld, ...]
    points: int


def is_pure_run(meld: Meld) -> bool:
    """A run without a joker (Žolíky's "čistá postupka")."""
    return meld.kind == "run" and not meld.jokers


def is_flush(cards: Sequence[Card], rules: RuleSet) -> bool:
    """Žolíky's flush (house rule ``flush``, 10-card deal): all ten cards of one suit laid at
    once, any ranks, duplicates allowed, no joker. It closes the hand; it is no meld."""
    return (
        rules.rule("flush")
        and len(cards) == FLUSH_HAND
        and not any(c.is_joker for c in cards)
        and len({c.suit for c in cards}) == 1
    )


def check_laydown(melds: Sequence[Sequence[Card]], rules: RuleSet, *, opening: bool = True) -> Laydown:
    """Validate melds laid down together; with ``opening`` also the family's first-laydown rule.

    zoliky: at least ``opening_points`` (42) and, if ``opening_pure_run``, a run without a joker;
    rummikub: at least ``opening_points`` (30), jokers counting as the tile they replace;
    carousel and gin: one legal meld is enough. A meld error carries ``meld`` (1-based).
    A Žolíky flush (see ``is_flush``) stands alone and satisfies any opening rule.
    Raises EngineError: no_melds, opening_too_low (points, required), no_pure_run, pack errors.
    """
    if not melds:
        raise fail("no_melds")
    check_pack((c for meld in melds for c in meld), rules)
    if len(melds) == 1 and is_flush(melds[0], rules):
        flush = Meld("flush", tuple(melds[0]), {}, sum(card_value(c, rules) for c in melds[0]))
        return Laydown((flush,), flush.points)
    checked: list[Meld] = []
    for index, cards in enumerate(melds, start=1):
        try:
            checked.append(check_meld(cards, rules))
        except EngineError as error:
            raise EngineError(
                error.code, f"meld {index}: {error.message}", **error.params, meld=index
            ) from None
    points = sum(m.points for m in checked)
    if opening and "opening_points" in rules.options:  # a family with an opening minimum
        required = rules.opt_int("opening_points")
        if points < required:
            raise fail("opening_too_low", points=points, required=required)
        if rules.rule("opening_pure_run") and not any(map(is_pure_run, checked)):
            raise fail("no_pure_run")
    return Laydown(tuple(checked), points)
