"""The engine's operations without a game, as the engine API answers them (games/api/engine.py):
check melds typed as a laydown, value the cards left in a hand, arrange a hand, and a gin
defender's layoffs. Each reads the text it is given under a rule set and returns what it
found; nothing is stored.

Cards that cannot be read, and a laydown or knocker's melds the engine refuses where the answer
cannot go on, raise EngineError; a hand larger than the operation takes raises TooManyCards.
A meld refused in a checked laydown is part of the answer, not an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from engine.arrange import Arrangement, arrange
from engine.cards import Card
from engine.errors import EngineError
from engine.gin import KnockCheck, LayoffResult, knock_check, layoff
from engine.laydown import Laydown, check_laydown, is_flush
from engine.melds import Meld, check_meld
from engine.notation import check_pack, parse_hand, parse_melds
from engine.rules import GIN, RuleSet
from engine.values import hand_value
from games.solver import Opening, TooManyCards, opening_check
from scoring.families import family_info

MAX_GIN_HAND = GIN.largest_hand  # ten dealt and one drawn


@dataclass(frozen=True)
class MeldCheck:
    """One meld as typed: its cards (none when they cannot be read) and the meld, or why not."""

    index: int  # 1-based, in the order typed
    cards: tuple[Card, ...]
    meld: Meld | None
    error: EngineError | None

    @property
    def ok(self) -> bool:
        return self.meld is not None

    @property
    def jokers(self) -> Mapping[int, Card]:
        """Each joker's 0-based position and the card it stands for; none when refused."""
        return self.meld.jokers if self.meld is not None else {}


@dataclass(frozen=True)
class Refusal:
    error: EngineError
    meld: int | None  # the first refused meld's index; None: the laydown as a whole is refused


@dataclass(frozen=True)
class LaydownCheck:
    """Each meld checked, then the laydown as a whole (copies in the pack, the opening rule)."""

    melds: tuple[MeldCheck, ...]
    laydown: Laydown | None
    refusal: Refusal | None

    @property
    def ok(self) -> bool:
        return self.laydown is not None


@dataclass(frozen=True)
class CardsValue:
    cards: tuple[Card, ...]
    points: int  # the penalty value, as the family counts it


@dataclass(frozen=True)
class Arranged:
    """A hand's best arrangement and, as the family asks, its knock (gin) and opening."""

    cards: tuple[Card, ...]
    arrangement: Arrangement
    knock: KnockCheck | None
    opening: Opening | None


class Layoff(NamedTuple):
    card: Card
    meld: int  # 0-based index of the knocker's meld


@dataclass(frozen=True)
class Defence:
    """The gin defender's least deadwood: his layoffs, his own melds and what is left."""

    result: LayoffResult

    @property
    def layoffs(self) -> tuple[Layoff, ...]:
        return tuple(Layoff(card, index) for card, index in self.result.layoffs)


def check_melds(text: str, rules: RuleSet, *, opening: bool) -> LaydownCheck:
    """Melds separated by "|": each one checked (a Žolíky flush typed alone is one), then, when
    every one is legal, the laydown (with ``opening``, the family's first-laydown rule)."""
    parts = text.split("|")
    checked: list[MeldCheck] = []
    for index, part in enumerate(parts, start=1):
        cards: tuple[Card, ...] = ()
        try:
            cards = tuple(parse_hand(part, rules))
            if len(parts) == 1 and is_flush(cards, rules):
                meld = check_laydown([cards], rules, opening=False).melds[0]
            else:
                meld = check_meld(cards, rules)
        except EngineError as error:
            checked.append(MeldCheck(index, cards, None, error))
        else:
            checked.append(MeldCheck(index, cards, meld, None))
    melds = tuple(checked)
    refused = next((Refusal(row.error, row.index) for row in melds if row.error is not None), None)
    if refused is not None:
        return LaydownCheck(melds, None, refused)
    try:
        laydown = check_laydown(parse_melds(text, rules), rules, opening=opening)
    except EngineError as error:
        return LaydownCheck(melds, None, Refusal(error, None))
    return LaydownCheck(melds, laydown, None)


def value_cards(text: str, rules: RuleSet) -> CardsValue:
    cards = parse_hand(text, rules)
    return CardsValue(tuple(cards), hand_value(cards, rules))


def arrange_hand(text: str, rules: RuleSet) -> Arranged:
    """The melds leaving the least deadwood; a knocking family's (gin) 10 or 11 cards: may the
    hand knock; a family with an opening rule: its best first laydown."""
    cards = parse_hand(text, rules)
    if len(cards) > rules.solver_max:
        raise TooManyCards(rules.solver_max)
    arrangement = arrange(cards, rules)
    knock = knock_check(cards, rules) if rules.layoffs and len(cards) in (10, 11) else None
    opening = opening_check(cards, rules) if family_info(rules.family).opening else None
    return Arranged(tuple(cards), arrangement, knock, opening)


def defend(knocker_text: str, hand_text: str, rules: RuleSet, *, against_gin: bool) -> Defence:
    """The knocker's melds (separated by "|", checked as laid) and the defender's hand."""
    knocker = parse_melds(knocker_text, rules)
    hand = parse_hand(hand_text, rules)
    if len(hand) > MAX_GIN_HAND:
        raise TooManyCards(MAX_GIN_HAND)
    check_pack([*(c for meld in knocker for c in meld), *hand], rules)
    check_laydown(knocker, rules, opening=False)
    return Defence(layoff(knocker, hand, rules, against_gin=against_gin))
