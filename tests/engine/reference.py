"""A deliberately simple brute-force solver, the yardstick for engine.arrange.

It knows nothing about runs, groups or jokers: it tries every way to split a hand into
melds and deadwood and asks ``melds.check_meld`` which melds are legal. Only memoisation
keeps it usable (on the multiset of cards left, and on the legality of a multiset).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, pairwise

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.melds import check_meld
from engine.rules import RuleSet
from engine.values import card_value

Key = tuple[tuple[int, int], ...]  # a multiset of cards: sorted (rank, suit), jokers (0, 0)


def _key(cards: Sequence[Card]) -> Key:
    return tuple(sorted((c.rank, c.suit) if not c.is_joker else (0, 0) for c in cards))


def legal_meld(cards: Sequence[Card], rules: RuleSet) -> bool:
    """Whether undeclared jokers can stand for cards that make ``cards`` a legal meld, read from
    the rules as RULES.md states them, without the engine's meld check: a group is one rank in
    distinct suits, a run one suit in consecutive places (the ace low or high, never round the
    corner); Žolíky's house rules limit the jokers."""
    count = len(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = count - len(naturals)
    if count < 3 or (jokers and not rules.jokers):
        return False
    ranks = {c.rank for c in naturals}
    suits = [c.suit for c in naturals]
    if not naturals:
        return rules.rule("all_joker_groups") and count <= rules.group_max
    group = (
        len(ranks) == 1
        and len(set(suits)) == len(suits)
        and count <= rules.group_max
        and not (rules.rule("half_jokers_groups") and 2 * jokers > count)
    )
    if group:
        return True
    if len(set(suits)) != 1 or len(ranks) != len(naturals) or count > 13:
        return False
    if rules.rule("half_jokers") and 2 * jokers > count:
        return False
    low = 1 if rules.ace_low else 2
    high = 14 if rules.ace_high else 13
    for start in range(low, high - count + 2):
        places = set(range(start, start + count))
        taken = {1 if r == 1 and start == 1 else 14 if r == 1 else r for r in ranks}
        if not taken <= places:
            continue
        free = sorted(places - taken)
        if not rules.rule("adjacent_jokers", absent=True) and any(b - a == 1 for a, b in pairwise(free)):
            continue
        return True
    return False


def _brute(rules: RuleSet, *, independent: bool = False) -> Callable[[Key], int]:
    """The least deadwood of a multiset of cards, over every partition into legal melds + rest;
    legal as check_meld says, or (``independent``) as :func:`legal_meld` says."""

    @cache
    def legal(meld: Key) -> bool:
        cards = [JOKER if r == 0 else Card(r, s) for r, s in meld]
        if independent:
            return legal_meld(cards, rules)
        try:
            check_meld(cards, rules)
        except EngineError:
            return False
        return True

    @cache
    def best(rest: Key) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        value = card_value(JOKER if first[0] == 0 else Card(*first), rules) + best(others)
        positions = range(len(others))
        for size in range(2, len(others) + 1):
            for chosen in combinations(positions, size):
                meld = (first, *(others[i] for i in chosen))
                if legal(tuple(sorted(meld))):
                    left = tuple(others[i] for i in positions if i not in chosen)
                    value = min(value, best(left))
        return value

    return best


def least_deadwood(cards: Sequence[Card], rules: RuleSet, *, independent: bool = False) -> int:
    """The least deadwood value over every partition of ``cards`` into legal melds + rest
    (``independent``: melds judged by :func:`legal_meld`, not by the engine)."""
    return _brute(rules, independent=independent)(_key(cards))


def most_opening_points(
    cards: Sequence[Card], rules: RuleSet, *, pure_run: bool, keep_one: bool
) -> int | None:
    """The most points of a laydown of legal melds from ``cards`` (points as check_meld counts
    them), holding a run without a joker if ``pure_run`` and leaving a card in hand if
    ``keep_one``; None when no laydown of at least one meld qualifies."""

    @cache
    def meld(cards: Key) -> tuple[int, bool] | None:
        try:
            checked = check_meld([JOKER if r == 0 else Card(r, s) for r, s in cards], rules)
        except EngineError:
            return None
        return checked.points, checked.kind == "run" and not checked.jokers

    @cache
    def best(rest: Key, need_pure: bool, kept: bool, laid: bool) -> int | None:
        if not rest:
            ok = not need_pure and laid and (kept or not keep_one)
            return 0 if ok else None
        first, others = rest[0], rest[1:]
        value = best(others, need_pure, True, laid)
        positions = range(len(others))
        for size in range(2, len(others) + 1):
            for chosen in combinations(positions, size):
                found = meld(tuple(sorted((first, *(others[i] for i in chosen)))))
                if found is not None:
                    left = tuple(others[i] for i in positions if i not in chosen)
                    sub = best(left, need_pure and not found[1], kept, True)
                    if sub is not None and (value is None or found[0] + sub > value):
                        value = found[0] + sub
        return value

    return best(_key(cards), pure_run, False, False)


def least_after_discard(cards: Sequence[Card], rules: RuleSet) -> int:
    """The least deadwood after throwing away any one card."""
    best = _brute(rules)
    return min(best(_key([*cards[:i], *cards[i + 1 :]])) for i in range(len(cards)))


def least_after_layoffs(knocker: Sequence[Sequence[Card]], cards: Sequence[Card], rules: RuleSet) -> int:
    """The defender's least deadwood: every subset of his cards that can be laid off onto the
    knocker's melds in some order (each card making its meld a legal meld again), the rest
    arranged by ``least_deadwood``."""

    def fits(meld: Sequence[Card], card: Card) -> bool:
        try:
            check_meld([*meld, card], rules)
        except EngineError:
            return False
        return True

    def can_lay(melds: tuple[tuple[Card, ...], ...], todo: tuple[Card, ...]) -> bool:
        if not todo:
            return True
        for i, card in enumerate(todo):
            for m, meld in enumerate(melds):
                if fits(meld, card):
                    grown = (*melds[:m], (*meld, card), *melds[m + 1 :])
                    if can_lay(grown, todo[:i] + todo[i + 1 :]):
                        return True
        return False

    start = tuple(tuple(meld) for meld in knocker)
    arrange = _brute(rules)
    best = arrange(_key(cards))
    for size in range(1, len(cards) + 1):
        for chosen in combinations(range(len(cards)), size):
            laid = tuple(cards[i] for i in chosen)
            if can_lay(start, laid):
                rest = [c for i, c in enumerate(cards) if i not in chosen]
                best = min(best, arrange(_key(rest)))
    return best
