"""Optimal arrangement of a hand: the melds that leave the least deadwood value, exactly.

How it works (reasons in docs/design/engine-solver.md):

- A real card is an index ``t = suit * 16 + rank`` (rank 1-13) and a bit ``1 << t``. A hand
  is two masks, ``once`` (cards held at least once) and ``twice`` (held twice, two-deck
  games), plus a number of jokers; jokers are a count, never positions.
- A candidate meld is a mask of real cards with the fewest and the most jokers that make
  it legal exactly as ``melds.check_meld`` decides (group size, distinct suits, run range
  and length, ace low/high, Žolíky's half-jokers, all-joker-groups and adjacent-jokers
  options). Runs are listed per suit pattern and groups per rank pattern, cached per rule
  set. Without jokers, a bit-parallel test first drops the cards that are in no meld.
- A depth-first search on the lowest card still undecided: it is deadwood, or it is in one
  candidate meld containing it, memoised on the remaining cards, the jokers left, the free
  "room" for more jokers in the melds chosen, and (gin knock check) a discard still due.
- Scores are ``points * 64 + cards``: the least deadwood value, and among equals the fewest
  deadwood cards; remaining ties go to the first arrangement in search order.
- One deck and no jokers (every gin hand): no search at all, ``plain.py`` decides from the
  groups a hand can form and the blocks of consecutive cards left (same scores; its own
  order for the remaining ties).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise

from .arrangement import Arrangement as Arrangement  # the contract names it here
from .cards import ACE, JOKER, JOKER_RANK, RUN_MAX, Card
from .notation import check_pack
from .plain import OneDeck
from .rules import RuleSet, rules_key
from .values import ACE_HIGH, card_value, slot_value

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Sequence

SHIFT = 16  # t = suit * SHIFT + rank
WEIGHT = 64  # score = deadwood points * WEIGHT + deadwood cards
INF = 1 << 60
_RANK_BITS = 0x3FFE  # ranks 1-13 of one suit
_COLUMN = sum(1 << (s * SHIFT) for s in range(4))  # one bit per suit
_ACES = _COLUMN << ACE
_BIG = 64  # second mask and joker count live above bit 64 in memo keys

GROUP, RUN = 0, 1
# A candidate meld: (real-card mask, fewest jokers, most jokers, GROUP|RUN, a, b, suit).
# Group: a = b = rank, suit -1. Run: a..b = the slots of its lowest and highest real card
# (slot 14 is an ace above the king), suit = its suit.
Candidate = tuple[int, int, int, int, int, int, int]


class Tables:
    """Everything the search needs about one rule set, computed once per rule set."""

    __slots__ = (
        "ace_high",
        "ace_low",
        "adjacent",
        "all_joker_groups",
        "costs",
        "group_max",
        "group_points",
        "half_groups",
        "half_runs",
        "high",
        "joker_group_rank",
        "joker_value",
        "low",
        "one_deck",
        "run_points",
        "values",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.values = [0] * 64
        for suit in range(4):
            for rank in range(1, 14):
                self.values[suit * SHIFT + rank] = card_value(Card(rank, suit), rules)
        self.joker_value = card_value(JOKER, rules) if rules.jokers else 0
        self.ace_low = rules.ace_low
        self.ace_high = rules.ace_high
        self.group_max = rules.group_max
        # The same reading of the options as melds.check_meld (Žolíky only).
        self.half_runs = rules.rule("half_jokers")
        self.half_groups = rules.rule("half_jokers_groups")
        self.all_joker_groups = rules.rule("all_joker_groups")
        self.adjacent = rules.rule("adjacent_jokers", absent=True)
        self.low = ACE if rules.ace_low else 2
        self.high = ACE_HIGH if rules.ace_high else 13
        self.run_points = [0] + [slot_value(slot, rules, in_group=False) for slot in range(1, 15)]
        self.group_points = [0] + [slot_value(rank, rules, in_group=True) for rank in range(1, 14)]
        self.costs: dict[int, list[list[int]]] = {}
        self.joker_group_rank = max(range(1, 14), key=lambda r: (self.group_points[r], r))
        # One deck (gin): hands without jokers take the fast path of plain.py.
        self.one_deck = None
        if rules.decks == 1:
            self.one_deck = OneDeck(self.values[:14], rules.ace_low, rules.ace_high, rules.group_max)

    def meldable(self, once: int) -> int:
        """The cards of ``once`` that are in some meld without jokers (bit-parallel)."""
        low_part = once if self.ace_low else once & ~_ACES
        slots = low_part | ((once & _ACES) << 13) if self.ace_high else low_part
        starts = slots & (slots >> 1) & (slots >> 2)
        cover = starts | (starts << 1) | (starts << 2)
        if self.ace_high:
            cover |= (cover >> 13) & _ACES
        a = once & _RANK_BITS
        b = (once >> SHIFT) & _RANK_BITS
        c = (once >> 2 * SHIFT) & _RANK_BITS
        d = (once >> 3 * SHIFT) & _RANK_BITS
        three = (a & b & (c | d)) | (c & d & (a | b))
        if self.group_max < 3:
            three = 0
        return (cover | three | (three << SHIFT) | (three << 2 * SHIFT) | (three << 3 * SHIFT)) & once

    def joker_costs(self, jokers: int) -> list[list[int]]:
        """``[left][room]``: the score of ``left`` jokers still unplaced at the end of the
        search when the chosen melds have ``room`` free places for jokers."""
        costs = self.costs.get(jokers)
        if costs is None:
            score = self.joker_value * WEIGHT + 1
            costs = [[_fill(self, n, room)[1] * score for room in range(n + 1)] for n in range(jokers + 1)]
            self.costs[jokers] = costs
        return costs

    def leftover(self, jokers: int) -> int:
        """Jokers left unmelded when ``jokers`` remain and no real card is left to join."""
        if not self.all_joker_groups:
            return jokers
        best = [0] * (jokers + 1)
        for n in range(1, jokers + 1):
            best[n] = best[n - 1] + 1
            for size in range(3, min(self.group_max, n) + 1):
                best[n] = min(best[n], best[n - size])
        return best[jokers]


_BY_ID: dict[int, tuple[RuleSet, Tables]] = {}
_BY_KEY: dict[tuple[object, ...], Tables] = {}


def solver_tables(rules: RuleSet) -> Tables:
    """The search tables of ``rules``, built once per distinct rule set."""
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    key = rules_key(rules)
    tables = _BY_KEY.get(key)
    if tables is None:
        tables = _BY_KEY[key] = Tables(rules)
    if len(_BY_ID) >= 256:  # rule sets made per request must not pile up
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, tables)
    return tables


class Hand:
    """A hand as masks, plus the given Card objects to hand back (first and second copies)."""

    __slots__ = ("first", "jokers", "once", "second", "twice")

    def __init__(self, cards: Sequence[Card], rules: RuleSet) -> None:
        once = twice = 0
        first: dict[int, Card] = {}
        second: dict[int, Card] = {}
        jokers: list[Card] = []
        for card in cards:
            rank = card.rank
            if rank == JOKER_RANK:
                jokers.append(card)
                continue
            t = card.suit * SHIFT + rank
            bit = 1 << t
            if once & bit:
                if twice & bit or rules.decks < 2:
                    check_pack(cards, rules)  # raises too_many_copies
                twice |= bit
                second[t] = card
            else:
                once |= bit
                first[t] = card
        if len(jokers) > rules.jokers:
            check_pack(cards, rules)  # raises no_jokers / too_many_jokers_in_pack
        self.once, self.twice, self.first, self.second, self.jokers = once, twice, first, second, jokers

    def without(self, t: int) -> Hand:
        """A copy with one card of index ``t`` (or a joker, ``t`` = 0) taken out."""
        other = object.__new__(Hand)
        other.first, other.second, other.jokers = dict(self.first), dict(self.second), self.jokers
        other.once, other.twice = self.once, self.twice
        if t == 0:
            other.jokers = self.jokers[1:]
        else:
            other.once, other.twice = _remove_one(self.once, self.twice, 1 << t)
        return other

    def take(self, t: int) -> Card:
        """One of the given cards of index ``t`` (each copy handed out once)."""
        card = self.first.pop(t, None)
        if card is None:
            card = self.second.pop(t)
        return card


def _remove_one(once: int, twice: int, bit: int) -> tuple[int, int]:
    if twice & bit:
        return once, twice ^ bit
    return once & ~bit, twice


def _bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def candidates(tables: Tables, once: int, jokers: int) -> list[Candidate]:
    """Every meld the cards ``once`` can form with up to ``jokers`` jokers (not all-joker ones).

    A run may leave out a card it holds (a joker stands in, the card goes elsewhere).
    """
    out: list[Candidate] = []
    blocks = [(once >> (suit * SHIFT)) & _RANK_BITS for suit in range(4)]
    for rank in _bits(blocks[0] | blocks[1] | blocks[2] | blocks[3]):
        out += _rank_groups(tables, rank, (once >> rank) & _COLUMN, jokers)
    for suit, held in enumerate(blocks):
        if held:
            base = suit * SHIFT
            out += [
                (m << base, jmin, jmax, RUN, lo, hi, suit)
                for m, jmin, jmax, lo, hi in _suit_runs(tables, held, jokers)
            ]
    return out


def by_lowest_card(cands: list[Candidate]) -> dict[int, list[Candidate]]:
    """Candidates keyed by the index of their lowest card, where the search enters them."""
    by_card: dict[int, list[Candidate]] = {}
    for cand in cands:
        by_card.setdefault((cand[0] & -cand[0]).bit_length() - 1, []).append(cand)
    return by_card


@lru_cache(maxsize=4096)
def _rank_groups(tables: Tables, rank: int, column: int, jokers: int) -> tuple[Candidate, ...]:
    """Groups of ``rank`` from the suits held (``column``: the hand shifted down by the rank,
    bit 16 * suit), with up to ``jokers`` jokers."""
    held = [s for s in range(4) if column >> (s * SHIFT) & 1]
    out = []
    for size in range(len(held), 0, -1):
        jmin = max(0, 3 - size)
        jmax = min(tables.group_max - size, jokers, size if tables.half_groups else jokers)
        if jmin <= jmax:
            for chosen in combinations(held, size):
                mask = sum(1 << (s * SHIFT + rank) for s in chosen)
                out.append((mask, jmin, jmax, GROUP, rank, rank, -1))
    return tuple(out)


@lru_cache(maxsize=16384)
def _suit_runs(tables: Tables, held: int, jokers: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """Runs from the ranks held in one suit (bits 1-13) with up to ``jokers`` jokers, as
    (mask within the suit, fewest jokers, most jokers, lowest slot, highest slot)."""
    low, high, adjacent, half = tables.low, tables.high, tables.adjacent, tables.half_runs
    slots = [r for r in range(2, 14) if held >> r & 1]
    if held & (1 << ACE):
        if tables.ace_low:
            slots.insert(0, ACE)
        if tables.ace_high:
            slots.append(ACE_HIGH)
    bits = [1 << (ACE if s == ACE_HIGH else s) for s in slots]
    out = []
    for i, lo in enumerate(slots):
        whole = 0
        for j in range(i, len(slots)):
            hi = slots[j]
            whole |= bits[j]
            span, count = hi - lo + 1, j - i + 1
            absent = span - count
            if span > RUN_MAX or absent > jokers:
                break
            ends = (lo - low) + (high - hi) if adjacent else (lo > low) + (hi < high)
            for skipped in range(min(count - 2, jokers - absent) + 1 if j > i else 1):
                size, gaps = count - skipped, absent + skipped
                jmin = max(gaps, 3 - size)
                most = min(gaps + ends, RUN_MAX - size, jokers, size if half else jokers)
                if jmin > most:
                    continue
                for skip in combinations(range(i + 1, j), skipped):
                    mask = whole
                    for k in skip:
                        mask ^= bits[k]
                    if not adjacent and any(
                        b - a > 2
                        for a, b in pairwise(s for k, s in enumerate(slots[i : j + 1], i) if k not in skip)
                    ):
                        continue  # two missing cards side by side
                    out.append((mask, jmin, most, lo, hi))
    return tuple(out)


def layout(tables: Tables, cand: Candidate, jokers: int) -> tuple[list[tuple[int, int, bool]], int]:
    """The meld ``cand`` with ``jokers`` jokers: (rank, suit, is_joker) in order, and its points.

    Jokers take the identities worth most (ties: the lowest run), as check_meld infers them.
    """
    mask, _jmin, _jmax, kind, a, b, suit = cand
    if kind == GROUP:
        rank = a if mask else tables.joker_group_rank
        real = [s for s in range(4) if mask >> (s * SHIFT + rank) & 1]
        free = [s for s in range(4) if s not in real][:jokers]
        entries = [(rank, s, False) for s in real] + [(rank, s, True) for s in free]
        return entries, len(entries) * tables.group_points[rank]
    base = suit * SHIFT
    size = mask.bit_count()
    extra = jokers - ((b - a + 1) - size)
    room_down, room_up = a - tables.low, tables.high - b
    if not tables.adjacent:
        room_down, room_up = min(room_down, 1), min(room_up, 1)
    points = tables.run_points
    best: tuple[int, int] | None = None
    for down in range(min(extra, room_down), -1, -1):
        up = extra - down
        if up > room_up:
            break
        value = sum(points[slot] for slot in range(a - down, b + up + 1))
        if best is None or value > best[0]:
            best = (value, down)
    assert best is not None
    value, down = best
    entries = []
    for slot in range(a - down, b + extra - down + 1):
        rank = ACE if slot == ACE_HIGH else slot
        entries.append((rank, suit, not (a <= slot <= b and mask >> (base + rank) & 1)))
    return entries, value


def meld_cards(hand: Hand, entries: list[tuple[int, int, bool]]) -> tuple[Card, ...]:
    """Cards for a laid-out meld: the hand's own cards, jokers declared as what they stand for."""
    return tuple(
        Card(JOKER_RANK, 0, stands_for=Card(rank, suit)) if joker else hand.take(suit * SHIFT + rank)
        for rank, suit, joker in entries
    )


# A solution: melds as (candidate, jokers), deadwood indices, unmelded jokers, the discarded
# index (or None), and the score.
Plan = tuple[list[tuple[Candidate, int]], list[int], int, int | None, int]
_DISCARD: Candidate = (0, 0, 0, GROUP, 0, 0, -1)


def _search(tables: Tables, once: int, twice: int, jokers: int, cands: list[Candidate], spare: int) -> Plan:
    """Least deadwood: the lowest card is deadwood, or discarded (``spare``: one discard still
    due), or in a candidate meld containing it.

    A meld takes the fewest jokers it needs; the extra jokers it could hold add to ``room``,
    and jokers still unplaced at the end fill that room (the placement is free within each
    meld's range). ``room`` never exceeds the jokers left, so most states share it.
    """
    values = tables.values
    by_card = by_lowest_card(cands)
    end = tables.joker_costs(jokers)
    memo: dict[int, int] = {}
    picks: dict[int, Candidate | None] = {}

    def rec(once: int, twice: int, left: int, room: int, spare: int) -> int:
        extra = 0
        while True:  # cards starting no candidate meld are deadwood, without a memo entry
            if not once:
                return extra + (INF if spare else end[left][room])
            low = once & -once
            t = low.bit_length() - 1
            options = by_card.get(t)
            if options is not None or spare:
                break
            extra += values[t] * WEIGHT + 1
            if twice & low:
                twice ^= low
            else:
                once ^= low
        key = _state(once, twice, left, room, spare)
        found = memo.get(key)
        if found is not None:
            return extra + found
        o1, t1 = (once, twice ^ low) if twice & low else (once ^ low, twice)
        best = values[t] * WEIGHT + 1 + rec(o1, t1, left, room, spare)
        pick: Candidate | None = None
        if spare:
            score = rec(o1, t1, left, room, 0)
            if score < best:
                best, pick = score, _DISCARD
        if options is not None:
            for cand in options:
                mask, jmin = cand[0], cand[1]
                if mask & once != mask or jmin > left:
                    continue
                rest = left - jmin
                more = room + cand[2] - jmin
                if more > rest:
                    more = rest
                score = rec((once & ~mask) | (twice & mask), twice & ~mask, rest, more, spare)
                if score < best:
                    best, pick = score, cand
                    if not score:
                        break  # nothing beats no deadwood
        memo[key] = best
        picks[key] = pick
        return extra + best

    total = rec(once, twice, jokers, 0, spare)
    chosen: list[Candidate] = []
    dead: list[int] = []
    dropped: int | None = None
    left, room = jokers, 0
    while once:
        low = once & -once
        t = low.bit_length() - 1
        choice = None
        if t in by_card or spare:
            choice = picks[_state(once, twice, left, room, spare)]
        if choice is None or choice is _DISCARD:
            if choice is None:
                dead.append(t)
            else:
                dropped, spare = t, 0
            once, twice = _remove_one(once, twice, low)
            continue
        chosen.append(choice)
        once, twice = (once & ~choice[0]) | (twice & choice[0]), twice & ~choice[0]
        left -= choice[1]
        room = min(room + choice[2] - choice[1], left)
    placed, unmelded = _fill(tables, left, room)
    melds: list[tuple[Candidate, int]] = []
    for cand in chosen:
        more = min(placed, cand[2] - cand[1])
        placed -= more
        melds.append((cand, cand[1] + more))
    for size in _joker_groups(tables, left - unmelded - sum(u - c[1] for c, u in melds)):
        melds.append(((0, size, size, GROUP, 0, 0, -1), size))
    return melds, dead, unmelded, dropped, total


def _state(once: int, twice: int, left: int, room: int, spare: int) -> int:
    """The memo key of a search state: one int (small while only ``once`` is set)."""
    return once | (twice << _BIG) | ((left | room << 8 | spare << 16) << 2 * _BIG)


def _fill(tables: Tables, left: int, room: int) -> tuple[int, int]:
    """How many of ``left`` unplaced jokers go into ``room`` free places in melds (the most
    among the best), and how many stay unmelded after all-joker groups take the rest."""
    best = min(range(min(left, room) + 1), key=lambda x: (tables.leftover(left - x), -x))
    return best, tables.leftover(left - best)


def _joker_groups(tables: Tables, jokers: int) -> list[int]:
    """Sizes of all-joker groups holding exactly ``jokers`` jokers."""
    sizes = []
    while jokers:
        size = min(tables.group_max, jokers)
        if jokers - size in (1, 2):
            size = 3
        sizes.append(size)
        jokers -= size
    return sizes


def solve(tables: Tables, hand: Hand, *, discard: bool = False) -> Plan:
    """The best plan for ``hand``; with ``discard``, after throwing away its best card.

    Discarding is supported for hands without jokers (the only ones gin deals).
    """
    once, twice, jokers = hand.once, hand.twice, len(hand.jokers)
    if jokers and discard:
        raise ValueError("the discard search is for hands without jokers")
    meldable = tables.meldable(once) if not jokers else once
    cands = candidates(tables, meldable, jokers) if meldable else []
    meldable = 0
    for cand in cands:
        meldable |= cand[0]
    forced_once, forced_twice = once & ~meldable, twice & ~meldable
    once, twice = once & meldable, twice & meldable
    plan: Plan = [], [], 0, None, INF if discard else 0
    if once or jokers:
        plan = _search(tables, once, twice, jokers, cands, int(discard))
    if discard and forced_once:
        # Throwing away the forced deadwood card worth most, against the search's own discard.
        values = tables.values
        worst = max(_bits(forced_once), key=lambda t: (values[t], t & (SHIFT - 1), t))
        kept = _search(tables, once, twice, 0, cands, 0) if once else ([], [], 0, None, 0)
        if kept[4] - values[worst] * WEIGHT - 1 <= plan[4]:
            plan = kept[0], kept[1], kept[2], worst, kept[4]
            forced_once, forced_twice = _remove_one(forced_once, forced_twice, 1 << worst)
    melds, dead, unmelded, dropped, score = plan
    forced = _bits(forced_once) + _bits(forced_twice)
    score += sum(tables.values[t] for t in forced) * WEIGHT + len(forced)
    return melds, sorted(dead + forced), unmelded, dropped, score


def build(tables: Tables, hand: Hand, plan: Plan) -> Arrangement:
    """Turn a plan into an Arrangement of the hand's own Card objects."""
    melds, dead, unmelded, _dropped, _score = plan
    out: list[tuple[Card, ...]] = []
    for cand, jokers in melds:
        out.append(meld_cards(hand, layout(tables, cand, jokers)[0]))
    deadwood = [hand.take(t) for t in dead]
    points = sum(tables.values[t] for t in dead) + unmelded * tables.joker_value
    deadwood += hand.jokers[len(hand.jokers) - unmelded :]
    return Arrangement(tuple(out), tuple(deadwood), points)


def arrange(cards: Sequence[Card], rules: RuleSet) -> Arrangement:
    """The melds that leave the least deadwood value (values.card_value), exactly.

    Every meld passes melds.check_meld; jokers in melds carry ``stands_for``. Among
    arrangements with equal deadwood value the one with fewer deadwood cards wins.
    """
    tables = solver_tables(rules)
    if tables.one_deck is not None:  # gin: no jokers, one deck
        found = tables.one_deck.arrange(cards)
        if found is not None:
            return found
    hand = Hand(cards, rules)
    return build(tables, hand, solve(tables, hand))
