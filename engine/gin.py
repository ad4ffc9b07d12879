"""Gin: whether a hand can knock or go gin, and the defender's least deadwood after layoffs.

Both are built on the exact arrangement search of ``arrange.py``. Reasons and tie-breaks:
docs/design/engine-solver.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .arrange import SHIFT, Arrangement, Hand, Plan, arrange, build, solve, solver_tables
from .cards import ACE, KING, RUN_MAX, Card
from .melds import check_meld
from .notation import check_pack
from .rules import RuleSet
from .values import ACE_HIGH


@dataclass(frozen=True, slots=True)
class KnockCheck:
    """Whether the hand may knock or goes gin, the card to discard (11 cards) and the melds."""

    can_knock: bool
    gin: bool
    discard: Card | None
    arrangement: Arrangement


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's layoffs (card, 0-based knocker meld, in playing order), own melds and
    deadwood."""

    layoffs: tuple[tuple[Card, int], ...]
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int


def knock_check(cards: Sequence[Card], rules: RuleSet) -> KnockCheck:
    """10 cards: the hand as it is; 11 cards: after the discard that leaves the least deadwood.

    The hand may knock when its deadwood is within ``knock_limit`` and goes gin when no card
    is left over. Between equally good discards the choice is deterministic: a card in no
    meld, the one worth most, when that is as good as any.
    """
    discard: Card | None = None
    if len(cards) != 11:  # the hand as it is (gin takes arrange's fast path)
        arrangement = arrange(cards, rules)
    else:
        discard, arrangement = _best_discard(cards, rules)
    limit = rules.opt_int("knock_limit") if "knock_limit" in rules.options else 0
    return KnockCheck(arrangement.deadwood_points <= limit, not arrangement.deadwood, discard, arrangement)


def _best_discard(cards: Sequence[Card], rules: RuleSet) -> tuple[Card, Arrangement]:
    """The discard that leaves the least deadwood, and the arrangement it leaves."""
    tables = solver_tables(rules)
    hand = Hand(cards, rules)
    if not hand.jokers:
        plan = solve(tables, hand, discard=True)
        assert plan[3] is not None
        discard = hand.take(plan[3])
    else:  # jokers (not dealt in gin): each distinct card in turn, those worth most first
        kinds = [(tables.values[t], t) for t in hand.first] + [(tables.joker_value, 0)] * bool(hand.jokers)
        plans = [(solve(tables, hand.without(t)), t) for _value, t in sorted(kinds, reverse=True)]
        plan, t = min(plans, key=lambda p: p[0][4])  # the first of equals
        discard = hand.jokers[0] if t == 0 else hand.take(t)
        hand = hand.without(t)
    return discard, build(tables, hand, plan)


def _targets(knocker: Sequence[Sequence[Card]], hand: Hand, rules: RuleSet) -> list[list[tuple[int, ...]]]:
    """Per knocker meld, the ways to lay off onto it: card indices in playing order.

    A group takes missing suits up to its size limit; a run takes a chain of cards going
    down from its low end and one going up from its high end (T♠ then 9♠ onto J♠Q♠K♠), within
    the rule set's ace placement and at most 13 cards.
    """
    tables = solver_tables(rules)
    held = hand.once
    ways: list[list[tuple[int, ...]]] = []
    for meld in knocker:
        checked = check_meld(meld, rules)
        cards = [checked.jokers.get(i, c) for i, c in enumerate(checked.cards)]
        if checked.kind == "group":
            rank = cards[0].rank
            missing = [s * SHIFT + rank for s in range(4) if s not in {c.suit for c in cards}]
            have = [t for t in missing if held >> t & 1]
            room = rules.group_max - len(cards)
            ways.append([combo for n in range(min(room, len(have)) + 1) for combo in combinations(have, n)])
            continue
        suit = cards[0].suit
        ranks = {c.rank for c in cards}
        slots = sorted(ACE_HIGH if r == ACE and KING in ranks and 2 not in ranks else r for r in ranks)
        down: list[int] = []
        for slot in range(slots[0] - 1, tables.low - 1, -1):
            t = suit * SHIFT + (ACE if slot == ACE_HIGH else slot)
            if not held >> t & 1:
                break
            down.append(t)
        up: list[int] = []
        for slot in range(slots[-1] + 1, tables.high + 1):
            t = suit * SHIFT + (ACE if slot == ACE_HIGH else slot)
            if not held >> t & 1:
                break
            up.append(t)
        ways.append(
            [
                (*down[:d], *up[:u])
                for d in range(len(down) + 1)
                for u in range(len(up) + 1)
                if len(cards) + d + u <= RUN_MAX
            ]
        )
    return ways


def layoff(
    knocker_melds: Sequence[Sequence[Card]],
    cards: Sequence[Card],
    rules: RuleSet,
    *,
    against_gin: bool = False,
) -> LayoffResult:
    """The defender's least deadwood: his own melds plus layoffs onto the knocker's melds.

    Layoffs chain (T♠ then 9♠ onto J♠Q♠K♠) and may take cards from what would otherwise be
    the defender's own melds; against gin nothing is laid off. Among equal deadwood, fewer
    layoffs win (the defender keeps his own melds).
    """
    tables = solver_tables(rules)
    check_pack([*(c for meld in knocker_melds for c in meld), *cards], rules)
    hand = Hand(cards, rules)
    ways = [] if against_gin else _targets(knocker_melds, hand, rules)
    best: tuple[int, int, tuple[tuple[int, ...], ...], Hand, Plan] | None = None
    seen: set[int] = set()
    for combo in sorted(product(*ways), key=lambda c: sum(map(len, c))):
        laid = [t for part in combo for t in part]
        if len(set(laid)) < len(laid):
            continue  # one card onto two melds (one deck)
        rest = hand
        for t in laid:
            if not (rest.once >> t & 1):
                break
            rest = rest.without(t)
        else:
            key = rest.once | (rest.twice << 64)
            if key in seen:
                continue
            seen.add(key)
            plan = solve(tables, rest)
            if best is None or plan[4] < best[0]:
                best = (plan[4], len(laid), combo, rest, plan)
    assert best is not None
    _score, _count, combo, rest, plan = best
    layoffs = tuple((rest.take(t), index) for index, part in enumerate(combo) for t in part)
    arrangement = build(tables, rest, plan)
    return LayoffResult(layoffs, arrangement.melds, arrangement.deadwood, arrangement.deadwood_points)
