"""The fast path of ``arrange`` for one-deck hands without jokers (every gin hand).

With one deck and no jokers a hand is a set of cards, four suit masks of 13 bits, and the
problem shrinks to two small ones (reasons in docs/design/engine-solver.md, "One deck, no
jokers"):

- **Runs.** Without jokers a run is a block of consecutive ranks of one suit. Every maximal
  block of at least 3 consecutive ranks can be melded whole (13 cards at most: a suit has no
  more), and splitting it never leaves less deadwood; the cards of shorter blocks are in no
  run. So what the runs take is a function of the cards left: a few bit operations on the
  whole hand (``run_slots``). When the ace may stand both low and high (not in gin), an ace
  wanted at both ends is the one case with a choice; the fast path leaves that hand to the
  general search.
- **Groups.** Which cards go into groups is a small choice: each rank held three or four
  times forms no group, or one group of three of its suits, or of all four (if
  ``group_max`` allows). At most three ranks are held three times in 10 or 11 cards, so at
  most 6 × 6 × 6 choices, usually two. Each choice takes its cards out and the runs take
  their blocks from what is left: exact, a run broken by a group card included.

Each choice's deadwood is scored by a table: per suit, the score of every 13-bit mask of
deadwood (``points * 64 + cards``, as in the search: the least value, then the fewest cards).
Among equal scores the first choice wins: groups (all four suits first, then the three-suit
subsets in suit order) before no group, the lowest rank varying slowest; a block is one run.

The answer is spelled from the masks in the deck's own ``Card`` objects (``CARDS``), equal to
the caller's: a card without a joker's declaration is its rank and suit and nothing else, and
the per-suit tables of ``spell`` put a hand's cards in order for less than indexing the
caller's objects would cost.
"""

from __future__ import annotations

from itertools import combinations, product

from .arrangement import Arrangement, quick_arrangement
from .cards import ACE, Card

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Sequence

SHIFT = 16  # t = suit * SHIFT + rank, as in arrange.py
WEIGHT = 64  # score = deadwood points * WEIGHT + deadwood cards
_SUIT = 0x3FFE  # one suit's ranks, bits 1-13
_VALID = sum(_SUIT << (s * SHIFT) for s in range(4))  # ranks 1-13 of the four suits
_ACES = sum(1 << (s * SHIFT + ACE) for s in range(4))
_HIGH_ACES = _ACES << 13  # bit 14 of each suit: the ace above the king
_COLUMN = sum(1 << (s * SHIFT) for s in range(4))  # one bit per suit
_NOT_YET = 1 << 62  # above any score

_BIT = [[1 << (suit * SHIFT + rank) for rank in range(SHIFT)] for suit in range(4)]
"""A card's bit by suit and rank: reading it costs less than shifting 1 up to bit 61."""
CARDS = [Card(t & 15, t >> 4) for t in range(64)]
"""The deck's cards by index ``suit * 16 + rank``: what the fast path hands back (only ranks
1-13 are ever read)."""


def _spellings(suit: int, ranks: range) -> list[tuple[Card, ...]]:
    """The cards of ``ranks`` in ``suit``, low to high, for every mask of those ranks (bit 0
    is the lowest rank): 2 ** len(ranks) tuples, built a rank at a time."""
    table: list[tuple[Card, ...]] = [()]
    for rank in ranks:
        card = CARDS[suit * SHIFT + rank]
        table += [(*cards, card) for cards in table]
    return table


# Per suit, its ranks 1-7 (128 masks) and 8-13 (64): a hand's cards are eight table reads.
_L0, _L1, _L2, _L3 = (_spellings(suit, range(1, 8)) for suit in range(4))
_H0, _H1, _H2, _H3 = (_spellings(suit, range(8, 14)) for suit in range(4))


class OneDeck:
    """What the fast path needs about one rule set with one deck."""

    __slots__ = ("ace_high", "ace_low", "choices", "costs", "group_max", "low_only", "members")

    def __init__(self, values: Sequence[int], ace_low: bool, ace_high: bool, group_max: int) -> None:
        """``values``: the deadwood value of each rank (index 1-13)."""
        self.ace_low, self.ace_high, self.group_max = ace_low, ace_high, group_max
        self.low_only = ace_low and not ace_high  # gin's ace: a card's slot is its rank
        # costs[mask]: the score of one suit's cards ``mask`` (bits 1-13) left as deadwood,
        # built a bit at a time (16,384 entries, bit 0 is never set).
        costs = [0]
        for rank in range(14):
            cost = values[rank] * WEIGHT + 1 if rank else 0
            costs += [c + cost for c in costs]
        self.costs = costs
        self.choices: dict[int, tuple[int, ...]] = {}
        self.members: dict[int, tuple[int, ...]] = {}  # a group's mask: its card indices

    def run_slots(self, cards: int) -> int:
        """The cards of ``cards`` (a hand mask) in blocks of 3 or more consecutive ranks of a
        suit, which runs take whole, as slots (bit 14 of a suit: an ace above the king);
        -1 when an ace would be wanted both low and high."""
        if self.low_only:  # gin: the slots are the cards
            starts = cards & (cards >> 1) & (cards >> 2)
            return starts | (starts << 1) | (starts << 2)
        slots = cards if self.ace_low else cards & ~_ACES
        if self.ace_high:
            slots |= (cards & _ACES) << 13
        starts = slots & (slots >> 1) & (slots >> 2)
        cover = starts | (starts << 1) | (starts << 2)
        if self.ace_high and cover & (cover >> 13) & _ACES:
            return -1
        return cover

    def rank_choices(self, rank: int, column: int) -> tuple[int, ...]:
        """The group choices of ``rank`` held in the suits of ``column`` (bit 16 * suit), as
        the cards each takes: a group of all four suits, then of three in suit order, then
        no group (0)."""
        key = rank << 64 | column
        found = self.choices.get(key)
        if found is None:
            held = [s for s in range(4) if column >> (s * SHIFT) & 1]
            groups = [
                tuple(s * SHIFT + rank for s in chosen)
                for size in range(min(len(held), self.group_max), 2, -1)
                for chosen in combinations(held, size)
            ]
            masks = [sum(1 << t for t in group) for group in groups]
            self.members.update(zip(masks, groups, strict=True))
            found = self.choices[key] = (*masks, 0)
        return found

    def arrange(self, cards: Sequence[Card]) -> Arrangement | None:
        """The hand's arrangement as ``arrange`` returns it, or None when the
        hand holds a joker or a card twice, or an ace has two places (the general search
        decides, or raises). The cards handed back are the deck's own (``CARDS``), equal to
        the caller's: without jokers a card is its rank and suit and nothing else."""
        once = 0
        for card in cards:
            once |= _BIT[card.suit][card.rank]
        if once & ~_VALID or once.bit_count() != len(cards):
            return None
        costs, low_only = self.costs, self.low_only
        a, b, c, d = _suits(once)
        three = (a & b & (c | d)) | (c & d & (a | b)) if self.group_max >= 3 else 0
        pick: tuple[int, ...] = ()  # the groups chosen, as masks
        if not three:
            if low_only:  # run_slots for gin, inline: most random hands end here
                starts = once & (once >> 1) & (once >> 2)
                cover = starts | (starts << 1) | (starts << 2)
            else:
                cover = self.run_slots(once)
                if cover < 0:
                    return None
            if not cover:  # no meld at all (most random gin hands): all is deadwood
                points = (costs[a] + costs[b] + costs[c] + costs[d]) >> 6
                return quick_arrangement((), spell(a, b, c, d), points)
            dead = once & ~_cards(cover)
            score = costs[dead & _SUIT] + costs[dead >> SHIFT & _SUIT]
            score += costs[dead >> 2 * SHIFT & _SUIT] + costs[dead >> 3 * SHIFT]
        else:  # every choice of groups, and the runs of what each leaves
            options = []
            while three:
                low = three & -three
                rank = low.bit_length() - 1
                options.append(self.rank_choices(rank, once >> rank & _COLUMN))
                three ^= low
            score, cover = _NOT_YET, 0
            for choice in product(*options):
                rest = once & ~sum(choice)
                if low_only:  # run_slots for gin, inline: this loop is the hot spot of dense hands
                    starts = rest & (rest >> 1) & (rest >> 2)
                    runs = starts | (starts << 1) | (starts << 2)
                    left = rest & ~runs
                else:
                    runs = self.run_slots(rest)
                    if runs < 0:
                        return None
                    left = rest & ~_cards(runs)
                total = (
                    costs[left & _SUIT]
                    + costs[left >> SHIFT & _SUIT]
                    + costs[left >> 2 * SHIFT & _SUIT]
                    + costs[left >> 3 * SHIFT]
                )
                if total < score:
                    score, pick, cover = total, choice, runs
                    if not total:
                        break  # nothing beats no deadwood
        found = _runs(cover) if cover else []
        if any(pick):
            found += [self.members[mask] for mask in pick if mask]
            found.sort(key=min)  # melds by their lowest card, as the search has them
        elif not low_only:
            found.sort(key=min)  # a high ace is the lowest card of its run
        melds = tuple([tuple(map(CARDS.__getitem__, ts)) for ts in found])
        dead = once & ~(_cards(cover) | sum(pick))
        return quick_arrangement(melds, spell(*_suits(dead)), score >> 6)


def spell(a: int, b: int, c: int, d: int) -> tuple[Card, ...]:
    """The cards of a hand in card order (by suit, then rank), as ``CARDS``; ``a``-``d``: the
    masks of its ♠, ♥, ♦ and ♣ (bits 1-13)."""
    return (
        _L0[a >> 1 & 127] + _H0[a >> 8] + _L1[b >> 1 & 127] + _H1[b >> 8]
        + _L2[c >> 1 & 127] + _H2[c >> 8] + _L3[d >> 1 & 127] + _H3[d >> 8]
    )  # fmt: skip


def _suits(mask: int) -> tuple[int, int, int, int]:
    """The masks of a hand's four suits (bits 1-13 each)."""
    return mask & _SUIT, mask >> SHIFT & _SUIT, mask >> 2 * SHIFT & _SUIT, mask >> 3 * SHIFT


def _runs(slots: int) -> list[tuple[int, ...]]:
    """The blocks of ``run_slots`` as card indices, low to high (a high ace last)."""
    out = []
    starts = slots & ~(slots << 1)
    ends = slots & ~(slots >> 1)
    while starts:
        first = starts & -starts
        after = ends & ~(first - 1)
        last = (after & -after).bit_length() - 1
        if last & 15 == 14:  # ends with a high ace
            out.append((*range(first.bit_length() - 1, last), last - 13))
        else:
            out.append(tuple(range(first.bit_length() - 1, last + 1)))
        starts ^= first
    return out


def _cards(slots: int) -> int:
    """The cards of a slot mask: a high ace is the ace."""
    return (slots & ~_HIGH_ACES) | ((slots & _HIGH_ACES) >> 13)
