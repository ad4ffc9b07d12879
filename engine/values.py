"""Card values: the penalty of a card left in hand, and the value of a card in a meld."""

from __future__ import annotations

from .cards import ACE, JACK, Card
from .messages import fail

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .rules import RuleSet

ACE_HIGH = 14  # a run slot: the ace above the king (Q-K-A)


def joker_value(rules: RuleSet) -> int | None:
    """A joker's value left in hand (its family's ``joker_option``); None: the pack has none."""
    return rules.opt_int(rules.joker_option) if rules.joker_option is not None else None


def card_value(card: Card, rules: RuleSet) -> int:
    """Penalty value of one card or tile left in hand.

    Cards: 2-10 face, J/Q/K 10, the ace ``rules.ace_in_hand`` (Žolíky 11, else 1); tiles: the
    number; a joker its family's option (Žolíky ``joker_penalty`` 15, Carousel ``joker_value``
    25, Rummikub ``joker_penalty`` 30; gin has none).
    """
    if card.is_joker:
        value = joker_value(rules)
        if value is None:
            raise fail("no_jokers", token="JK")
        return value
    if rules.tiles:
        return card.rank
    if card.rank == ACE:
        return rules.ace_in_hand
    return min(card.rank, 10)


def hand_value(cards: Iterable[Card], rules: RuleSet) -> int:
    """Penalty value of the cards or tiles left in a hand."""
    return sum(card_value(c, rules) for c in cards)


# largest_count by what it depends on: every count of every hand scored asks for it, and
# working it out (the pack sorted by worth) cost more than scoring the hand.
_LARGEST: dict[tuple[object, ...], int] = {}


def largest_count(rules: RuleSet) -> int:
    """The most a hand left can count: the ``rules.largest_hand`` cards of the pack worth most
    (jokers at the house rules' value). No count above it can be true."""
    joker = joker_value(rules) or 0
    key = (rules.tiles, rules.ace_in_hand, rules.decks, rules.jokers, joker, rules.largest_hand)
    found = _LARGEST.get(key)
    if found is None:
        cards = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)] * rules.decks
        worth = sorted((card_value(c, rules) for c in cards), reverse=True)
        pack = sorted(worth + [joker] * rules.jokers, reverse=True)
        found = _LARGEST[key] = sum(pack[: rules.largest_hand])
    return found


def slot_value(rank: int, rules: RuleSet, *, in_group: bool) -> int:
    """Value of a card of ``rank`` inside a meld (``rank`` 14 = an ace above the king).

    zoliky/carousel: ace 1 at the low end of a run, 11 at the high end and in a group;
    gin: ace 1; rummikub: the number; J/Q/K 10; 2-10 face.
    """
    if rules.tiles:
        return ACE if rank == ACE_HIGH else rank
    if rank in (ACE, ACE_HIGH):
        if not rules.ace_eleven_in_melds:
            return 1
        return 11 if in_group or rank == ACE_HIGH else 1
    return 10 if rank >= JACK else rank
