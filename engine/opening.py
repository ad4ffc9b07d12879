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
    SHIFT,
    Candidate,
    Hand,
    Tables,
    candidates,
    layout,
    meld_cards,
    solver_tables,
)
from .cards import ACE, Card
from .laydown import Laydown
from .melds import check_meld
from .messages import fail
from .rules import RuleSet
from .values import ACE_HIGH

_POINT = 1 << 12  # score = points * _POINT - jokers used * 64 - cards used (ties: keep jokers, cards)
_NONE = -(1 << 60)

# A laydown found: its melds as (candidate, jokers used) and its points.
Found = tuple[list[tuple[Candidate, int]], int]


def _rank_major(mask: int) -> int:
    """``mask`` with the card of index ``suit * SHIFT + rank`` moved to bit ``rank * 4 + suit``."""
    out = 0
    while mask:
        low = mask & -mask
        t = low.bit_length() - 1
        out |= 1 << ((t % SHIFT) * 4 + t // SHIFT)
        mask ^= low
    return out


def _real_points(tables: Tables, cand: Candidate) -> int:
    """The points of the candidate's own cards, jokers aside."""
    mask, kind, a = cand[0], cand[3], cand[4]
    if kind == GROUP:
        return mask.bit_count() * tables.group_points[a]
    ranks = [t % SHIFT for t in range(64) if mask >> t & 1]
    return sum(tables.run_points[ACE_HIGH if r == ACE and a != ACE else r] for r in ranks)


def _card_most(tables: Tables, t: int) -> int:
    """The most card ``t`` adds to a score in any meld (its points, less one for the card)."""
    rank = t % SHIFT
    points = max(tables.group_points[rank], tables.run_points[rank])
    if rank == ACE and tables.ace_high:
        points = max(points, tables.run_points[ACE_HIGH])
    return points * _POINT - 1


def _search(tables: Tables, hand: Hand, need_pure: bool) -> Found | None:
    """The laydown of most points from ``hand`` (with a pure run if ``need_pure``), or None.

    Branch and bound on the lowest card still undecided: it stays in hand, or it is in one
    candidate meld containing it. Cards go rank by rank (every suit of a rank before the next
    rank), so a group only takes cards of the rank at hand and the undecided cards stay a
    narrow front; with the suits one after the other a group would take cards out of every
    later suit and the states would multiply. A state is cut when even all its cards at their
    best and its jokers at their most cannot beat the best laydown found, which the melds
    worth most, tried first, make good early. The memo keeps a state's exact score, or, when a
    cut decided it, the upper bound it was cut at (reused only for a cut as deep).
    """
    jokers = len(hand.jokers)
    joker_group = tables.group_points[tables.joker_group_rank]
    # The most one joker adds to a score: in an all-joker group, or on average in a meld.
    joker_most = joker_group * _POINT - 65 if tables.all_joker_groups else 0
    card_most = [0] * 64  # the most each card adds (by rank-major bit; 0: in no meld)
    # By the rank-major bit of the lowest card: (mask, candidate, jokers, score, card_most sum).
    options: dict[int, list[tuple[int, Candidate, int, int, int]]] = {}
    for cand in candidates(tables, hand.once, jokers):
        mask, jmin, jmax = cand[0], cand[1], cand[2]
        most = 0
        for t in range(64):
            if mask >> t & 1:
                adds = _card_most(tables, t)
                card_most[_rank_major(1 << t).bit_length() - 1] = adds
                most += adds
        major, size, real = _rank_major(mask), mask.bit_count(), _real_points(tables, cand)
        for used in range(jmin, min(jmax, jokers) + 1):
            points = layout(tables, cand, used)[1]
            if used:
                joker_most = max(joker_most, -(-((points - real) * _POINT - 65 * used) // used))
            entry = (major, cand, used, points * _POINT - used * 64 - size - used, most)
            options.setdefault((major & -major).bit_length() - 1, []).append(entry)
    for entries in options.values():
        entries.sort(key=lambda entry: -entry[3])  # best first: a good laydown early cuts more
    memo: dict[tuple[int, int, int, bool], int] = {}
    bounds: dict[tuple[int, int, int, bool], int] = {}
    picks: dict[tuple[int, int, int, bool], tuple[Candidate, int] | None] = {}

    def rec(once: int, twice: int, left: int, need: bool, cards: int, floor: int) -> int:
        """The state's exact score if it is above ``floor``, else an upper bound <= ``floor``.
        ``cards``: the most the remaining cards add (card_most summed)."""
        while once:  # cards that start no meld stay in hand
            low = once & -once
            u = low.bit_length() - 1
            if u in options:
                break
            cards -= card_most[u]
            once, twice = (once, twice ^ low) if twice & low else (once ^ low, twice)
        if not once:
            if need:
                return _NONE
            if tables.all_joker_groups and left >= 3:
                size = min(left, tables.group_max)
                return size * (joker_group * _POINT - 65)
            return 0
        most = cards + left * joker_most
        if most <= floor:
            return most
        key = (once, twice, left, need)
        found = memo.get(key)
        if found is not None:
            return found
        bound = bounds.get(key)
        if bound is not None and bound <= floor:
            return bound
        best = _NONE
        pick: tuple[Candidate, int] | None = None
        for mask, cand, used, score, taken in options[u]:
            if mask & once != mask or used > left:
                continue
            pure = cand[3] == RUN and used == 0
            o1, t1 = (once & ~mask) | (twice & mask), twice & ~mask
            rest = rec(o1, t1, left - used, need and not pure, cards - taken, max(floor, best) - score)
            if rest != _NONE and score + rest > best:
                best, pick = score + rest, (cand, used)
        o1, t1 = (once, twice ^ low) if twice & low else (once ^ low, twice)
        rest = rec(o1, t1, left, need, cards - card_most[u], max(floor, best))
        if rest != _NONE and rest > best:
            best, pick = rest, None
        if best > floor:
            memo[key] = best
            picks[key] = pick
        else:
            bounds[key] = best
        return best

    once, twice = _rank_major(hand.once), _rank_major(hand.twice)
    cards = sum(card_most[u] * ((once >> u & 1) + (twice >> u & 1)) for u in range(64))
    if rec(once, twice, jokers, need_pure, cards, _NONE) == _NONE:
        return None
    melds: list[tuple[Candidate, int]] = []
    left, need = jokers, need_pure
    while once:
        low = once & -once
        choice = picks.get((once, twice, left, need))
        if choice is None:
            once, twice = (once, twice ^ low) if twice & low else (once ^ low, twice)
            continue
        cand, used = choice
        melds.append(choice)
        mask = _rank_major(cand[0])
        once, twice = (once & ~mask) | (twice & mask), twice & ~mask
        left -= used
        need = need and not (cand[3] == RUN and used == 0)
    if tables.all_joker_groups and left >= 3:
        size = min(left, tables.group_max)
        melds.append(((0, size, size, GROUP, 0, 0, -1), size))
    return melds, sum(layout(tables, cand, used)[1] for cand, used in melds)


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
