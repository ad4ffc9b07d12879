"""Arrange a hand at the table: the engine's best arrangement and what it means under the game's
house rules (may the hand knock, may it open), for the arrange page and its API.

Nothing here is stored. Which questions are asked follows the rule set's options, not the
family's name: a rule set with ``knock_limit`` asks "may this hand knock?", one with
``opening_points`` asks "may this hand open, and with which melds?" (``CHECKS``).
See docs/design/cards.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.arrange import Arrangement, arrange
from engine.cards import Card
from engine.errors import EngineError
from engine.gin import knock_check
from engine.melds import Meld
from engine.notation import Notation, parse_hand
from engine.opening import best_opening
from engine.rules import RuleSet

MAX_TEXT = 500


@dataclass(frozen=True)
class Knock:
    """May the hand knock: its deadwood (after the best discard, with 11 cards) within the limit."""

    possible: bool
    gin: bool
    deadwood_points: int
    limit: int
    discard: Card | None
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]


class OpeningMeld(NamedTuple):
    cards: tuple[Card, ...]  # jokers declared (``stands_for``)
    points: int


@dataclass(frozen=True)
class Opening:
    """May the hand open (a first laydown): the best one, or the most any laydown is worth."""

    possible: bool
    points: int
    required: int
    melds: tuple[OpeningMeld, ...]
    error: EngineError | None  # no_opening (too_low or no_pure_run)

    @property
    def reason(self) -> str | None:
        """Why no opening: too_low or no_pure_run."""
        reason = self.error.params.get("reason") if self.error is not None else None
        return reason if isinstance(reason, str) else None

    @property
    def meld_cards(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(meld.cards for meld in self.melds)


@dataclass(frozen=True)
class Advice:
    cards: tuple[Card, ...]
    arrangement: Arrangement
    knock: Knock | None
    opening: Opening | None


class TooManyCards(ValueError):
    def __init__(self, maximum: int) -> None:
        super().__init__(maximum)
        self.maximum = maximum


def _knock(cards: Sequence[Card], rules: RuleSet) -> Knock:
    check = knock_check(cards, rules)
    return Knock(
        possible=check.can_knock,
        gin=check.gin,
        deadwood_points=check.arrangement.deadwood_points,
        limit=rules.opt_int("knock_limit"),
        discard=check.discard,
        melds=check.arrangement.melds,
        deadwood=check.arrangement.deadwood,
    )


def opening_check(cards: Sequence[Card], rules: RuleSet) -> Opening:
    """The best first laydown of ``cards`` under ``rules`` (``opening_points``), or why none."""
    required = rules.opt_int("opening_points")
    try:
        laydown = best_opening(cards, rules)
    except EngineError as error:
        best = error.params.get("best_points")
        return Opening(False, best if isinstance(best, int) else 0, required, (), error)
    melds = tuple(OpeningMeld(_declared(meld), meld.points) for meld in laydown.melds)
    return Opening(True, laydown.points, required, melds, None)


def _declared(meld: Meld) -> tuple[Card, ...]:
    """A checked meld's cards, each joker carrying the card it stands for."""
    return tuple(
        Card(card.rank, card.suit, stands_for=meld.jokers[i]) if i in meld.jokers else card
        for i, card in enumerate(meld.cards)
    )


# What to ask about a hand, by the house-rule option that makes the question meaningful.
CHECKS: dict[str, Callable[[Sequence[Card], RuleSet], object]] = {
    "knock_limit": _knock,
    "opening_points": opening_check,
}


def max_cards(rules: RuleSet) -> int:
    """The most cards the solver is given (the family's row says; the command line's too)."""
    return rules.solver_max


def advise(text: str, rules: RuleSet, notation: Notation | None = None) -> Advice:
    """Read a hand (in ``notation``'s letters, English when None; EngineError when it cannot
    be read; TooManyCards) and arrange it."""
    cards = parse_hand(text[:MAX_TEXT], rules, notation)
    if len(cards) > max_cards(rules):
        raise TooManyCards(max_cards(rules))
    found = {option: check(cards, rules) for option, check in CHECKS.items() if option in rules.options}
    knock = found.get("knock_limit")
    opening = found.get("opening_points")
    assert knock is None or isinstance(knock, Knock)
    assert opening is None or isinstance(opening, Opening)
    return Advice(tuple(cards), arrange(cards, rules), knock, opening)
