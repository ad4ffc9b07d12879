"""The first laydown worth most that satisfies the family's opening rule, or why none exists.

Žolíky: at least ``opening_points`` (42) including a run without a joker (``opening_pure_run``),
and one card kept back for the closing discard. Rummikub: at least ``opening_points`` (30)
from the rack; the whole rack may go down. Carousel and gin: one legal meld is enough.
Meld points as melds.check_meld counts them; jokers stand for the cards worth most.
Reasons: docs/design/engine-solver.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from .arrange import (
    GROUP,
    RUN,
    Candidate,
    Hand,
    Tables,
    by_lowest_card,
    candidates,
    layout,
    meld_cards,
    solver_tables,
)
from .cards import Card
from .laydown import Laydown
from .melds import check_meld
from .messages import fail
from .rules import RuleSet

_POINT = 1 << 12  # score = points * _POINT - jokers used * 64 - cards used (ties: keep jokers, cards)
_NONE = -(1 << 60)

# A laydown found: its melds as (candidate, jokers used) and its points.
Found = tuple[list[tuple[Candidate, int]], int]


def _search(tables: Tables, hand: Hand, need_pure: bool) -> Found | None:
    """The laydown of most points from ``hand`` (with a pure run if ``need_pure``), or None."""
    jokers = len(hand.jokers)
    by_card = by_lowest_card(candidates(tables, hand.once, jokers))
    points: dict[tuple[Candidate, int], int] = {}
    joker_group = tables.group_points[tables.joker_group_rank]
    memo: dict[tuple[int, int, int, bool], int] = {}
    picks: dict[tuple[int, int, int, bool], tuple[Candidate, int] | None] = {}

    def worth(cand: Candidate, used: int) -> int:
        value = points.get((cand, used))
        if value is None:
            value = points[cand, used] = layout(tables, cand, used)[1]
        return value

    def rec(once: int, twice: int, left: int, need: bool) -> int:
        while once:  # cards that start no meld stay in hand
            low = once & -once
            if (low.bit_length() - 1) in by_card:
                break
            once, twice = (once, twice ^ low) if twice & low else (once ^ low, twice)
        if not once:
            if need:
                return _NONE
            if tables.all_joker_groups and left >= 3:
                size = min(left, tables.group_max)
                return size * (joker_group * _POINT - 65)
            return 0
        key = (once, twice, left, need)
        found = memo.get(key)
        if found is not None:
            return found
        low = once & -once
        t = low.bit_length() - 1
        best = rec(*((once, twice ^ low) if twice & low else (once ^ low, twice)), left, need)
        pick: tuple[Candidate, int] | None = None
        for cand in by_card[t]:
            mask, jmin, jmax, kind = cand[0], cand[1], cand[2], cand[3]
            if mask & once != mask or jmin > left:
                continue
            o1, t1 = (once & ~mask) | (twice & mask), twice & ~mask
            size = mask.bit_count()
            for used in range(jmin, min(jmax, left) + 1):
                pure = kind == RUN and used == 0
                rest = rec(o1, t1, left - used, need and not pure)
                if rest == _NONE:
                    continue
                score = worth(cand, used) * _POINT - used * 64 - size - used + rest
                if score > best:
                    best, pick = score, (cand, used)
        memo[key] = best
        picks[key] = pick
        return best

    if rec(hand.once, hand.twice, jokers, need_pure) == _NONE:
        return None
    melds: list[tuple[Candidate, int]] = []
    once, twice, left, need = hand.once, hand.twice, jokers, need_pure
    while once:
        low = once & -once
        choice = picks.get((once, twice, left, need))
        if choice is None:
            once, twice = (once, twice ^ low) if twice & low else (once ^ low, twice)
            continue
        cand, used = choice
        melds.append(choice)
        once, twice = (once & ~cand[0]) | (twice & cand[0]), twice & ~cand[0]
        left -= used
        need = need and not (cand[3] == RUN and used == 0)
    if tables.all_joker_groups and left >= 3:
        size = min(left, tables.group_max)
        melds.append(((0, size, size, GROUP, 0, 0, -1), size))
    return melds, sum(worth(cand, used) for cand, used in melds)


def _uses_all(hand: Hand, found: Found) -> bool:
    laid = sum(cand[0].bit_count() + used for cand, used in found[0])
    return laid == hand.once.bit_count() + hand.twice.bit_count() + len(hand.jokers)


def _best(tables: Tables, hand: Hand, need_pure: bool, keep_one: bool) -> tuple[Hand, Found] | None:
    """The best laydown; with ``keep_one``, one leaving at least one card in hand."""
    found = _search(tables, hand, need_pure)
    if found is None or not keep_one or not _uses_all(hand, found):
        return None if found is None else (hand, found)
    best: tuple[Hand, Found] | None = None
    for t in [0] * bool(hand.jokers) + sorted(hand.first):
        rest = hand.without(t)
        option = _search(tables, rest, need_pure)
        if option is not None and (best is None or option[1] > best[1][1]):
            best = (rest, option)
    return best


def best_opening(cards: Sequence[Card], rules: RuleSet) -> Laydown:
    """The opening laydown worth most that satisfies the family's rule.

    Raises EngineError ``no_opening`` (best_points, required, reason "too_low" or
    "no_pure_run"): best_points is the most any laydown of these cards is worth, ignoring
    the pure-run rule; the reason is "no_pure_run" when that would reach ``required``.
    """
    tables = solver_tables(rules)
    hand = Hand(cards, rules)
    required = rules.opt_int("opening_points") if "opening_points" in rules.options else 0
    need_pure = rules.rule("opening_pure_run")
    keep_one = rules.opening_keeps_card
    best = _best(tables, hand, need_pure, keep_one)
    if best is not None and best[1][0] and best[1][1] >= required:
        rest, (melds, _points) = best
        checked = tuple(check_meld(meld_cards(rest, layout(tables, c, u)[0]), rules) for c, u in melds)
        return Laydown(checked, sum(m.points for m in checked))
    anyway = _best(tables, hand, False, keep_one) if need_pure else best
    best_points = anyway[1][1] if anyway is not None else 0
    reason = "no_pure_run" if need_pure and best_points >= required and anyway and anyway[1][0] else "too_low"
    raise fail("no_opening", best_points=best_points, required=required, reason=reason)
