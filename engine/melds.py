"""Meld validation for the four families: groups and runs, jokers declared or inferred.

A meld is checked as a set: the order the cards are given in does not matter (``JK 5H 6H``
is the run 5♥-6♥-7♥). Jokers that were not declared take the identities that make the meld
legal and worth most; on a tie the lowest run wins (and a group before a run), and within one
interpretation the jokers, in the order given, take the missing cards from the lowest up.
A declared joker (``JK=4H``) keeps its identity; one that cannot stand where it says raises
``joker_mismatch``. Decisions and their reasons: docs/design/engine-core.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType
from typing import Literal

from .cards import ACE, KING, RUN_MAX, SUITS, Card
from .errors import EngineError
from .messages import fail
from .notation import display, displays
from .rules import RuleSet
from .values import ACE_HIGH, slot_value

Kind = Literal["group", "run", "flush"]


@dataclass(frozen=True)
class Meld:
    """A legal meld: its kind, the cards as given, each joker's identity and the points."""

    kind: Kind
    cards: tuple[Card, ...]
    jokers: Mapping[int, Card] = field(hash=False)  # 0-based position in ``cards`` -> identity
    points: int


@dataclass(frozen=True)
class _Reading:
    kind: Kind
    jokers: dict[int, Card]
    points: int


def _half_jokers(rules: RuleSet, kind: Kind) -> bool:
    # The source limits jokers in a run; the limit in groups is a house rule of its own.
    return rules.rule("half_jokers" if kind == "run" else "half_jokers_groups")


def _all_joker_groups(rules: RuleSet) -> bool:
    return rules.rule("all_joker_groups")


def _adjacent_allowed(rules: RuleSet) -> bool:
    return rules.rule("adjacent_jokers", absent=True)


def _check_joker_share(jokers: int, count: int, rules: RuleSet, kind: Kind) -> None:
    if _half_jokers(rules, kind) and 2 * jokers > count:
        raise fail("too_many_jokers", jokers=jokers, count=count)


def _group(fixed: list[Card], free: list[int], jokers: int, count: int, rules: RuleSet) -> _Reading:
    """Read as a group: ``fixed`` (naturals and declared identities) all share one rank."""
    rank = fixed[0].rank
    if count > rules.group_max:
        raise fail("too_long", kind="group", maximum=rules.group_max, count=count)
    seen: set[int] = set()
    for card in fixed:
        if card.suit in seen:
            raise fail("duplicate_suit", card=display(card, rules))
        seen.add(card.suit)
    if jokers == count:  # jokers alone, some of them declared
        if not _all_joker_groups(rules):
            raise fail("all_jokers")
    else:
        _check_joker_share(jokers, count, rules, "group")
    missing = [s for s in SUITS if s not in seen]
    identities = {pos: Card(rank, missing[i]) for i, pos in enumerate(free)}
    return _Reading("group", identities, count * slot_value(rank, rules, in_group=True))


def _cyclic_fit(ranks: set[int], count: int) -> list[set[int]]:
    """Windows of ``count`` ranks on the circle A..K..A that hold all ``ranks``."""
    windows = []
    for start in range(13):
        window = {(start + k) % 13 + 1 for k in range(count)}
        if ranks <= window:
            windows.append(window)
    return windows


def _fits_ace_high(ranks: set[int], count: int) -> bool:
    """Whether ``ranks`` fit ``count`` places with the ace above the king (Q-K-A)."""
    slots = {ACE_HIGH if rank == ACE else rank for rank in ranks}
    return max(slots) - min(slots) < count


def _run(fixed: list[Card], free: list[int], declared_slots: int, count: int, rules: RuleSet) -> _Reading:
    """Read as a run: ``fixed`` (naturals and declared identities) all share one suit."""
    suit = fixed[0].suit
    if count > RUN_MAX:
        raise fail("too_long", kind="run", maximum=RUN_MAX, count=count)
    ranks: set[int] = set()
    for card in fixed:
        if card.rank in ranks:
            raise fail("duplicate_rank", card=display(card, rules))
        ranks.add(card.rank)
    jokers = len(free) + declared_slots
    if jokers == count:
        raise fail("all_jokers")
    _check_joker_share(jokers, count, rules, "run")
    declared_ranks = {c.rank for c in fixed[len(fixed) - declared_slots :]}
    low = 1 if rules.ace_low else 2
    high = ACE_HIGH if rules.ace_high else KING
    best: tuple[int, list[int]] | None = None
    fitting_window = False
    for start in range(low, high - count + 2):
        window = range(start, start + count)
        slots: set[int] = set()
        for rank in ranks:
            slot = rank
            if rank == ACE:
                slot = ACE if start == ACE else ACE_HIGH
            if slot not in window:
                break
            slots.add(slot)
        else:
            fitting_window = True
            gaps = [r for r in window if r not in slots]
            if not _adjacent_allowed(rules):
                joker_slots = sorted(
                    gaps + [s for s in slots if (ACE if s == ACE_HIGH else s) in declared_ranks]
                )
                if any(b - a == 1 for a, b in pairwise(joker_slots)):
                    continue
            points = sum(slot_value(r, rules, in_group=False) for r in window)
            if best is None or points > best[0]:
                best = (points, gaps)
    if best is None:
        shown = displays(fixed, rules)
        if fitting_window:
            raise fail("adjacent_jokers", cards=shown)
        cyclic = _cyclic_fit(ranks, count)
        if cyclic:
            # Only a typed ace can be "not high"; without one the run goes round the corner.
            if not rules.ace_high and ACE in ranks and _fits_ace_high(ranks, count):
                raise fail("ace_not_high", cards=shown)
            raise fail("wraps_around", cards=shown)
        raise fail("not_consecutive", cards=shown, jokers=jokers)
    points, gaps = best
    identities = {pos: Card(ACE if gaps[i] == ACE_HIGH else gaps[i], suit) for i, pos in enumerate(free)}
    return _Reading("run", identities, points)


def _mixed(fixed: list[Card], rules: RuleSet) -> EngineError:
    """The error for cards that share neither one rank nor one suit."""
    shown = displays(fixed, rules)
    most_rank = max(Counter(c.rank for c in fixed).values())
    most_suit = max(Counter(c.suit for c in fixed).values())
    if most_suit > most_rank or (most_suit == most_rank == 1):
        return fail("mixed_suits", cards=shown)
    return fail("mixed_ranks", cards=shown)


def _read(cards: tuple[Card, ...], rules: RuleSet, declared: set[int]) -> _Reading:
    """The best legal reading with the jokers at ``declared`` positions held to their identity."""
    count = len(cards)
    naturals = [c for c in cards if not c.is_joker]
    pinned: list[Card] = []
    free: list[int] = []
    for pos, card in enumerate(cards):
        if card.is_joker:
            if pos in declared and card.stands_for is not None:
                pinned.append(Card(card.stands_for.rank, card.stands_for.suit))
            else:
                free.append(pos)
    jokers = count - len(naturals)
    fixed = naturals + pinned
    if not fixed:
        if not _all_joker_groups(rules):
            raise fail("all_jokers")
        if count > rules.group_max:
            raise fail("too_long", kind="group", maximum=rules.group_max, count=count)
        rank = max(range(1, 14), key=lambda r: (slot_value(r, rules, in_group=True), r))
        identities = {pos: Card(rank, s) for pos, s in zip(free, SUITS, strict=False)}
        return _Reading("group", identities, count * slot_value(rank, rules, in_group=True))
    one_rank = len({c.rank for c in fixed}) == 1
    one_suit = len({c.suit for c in fixed}) == 1
    if not one_rank and not one_suit:
        raise _mixed(fixed, rules)
    readings: list[_Reading] = []
    errors: list[EngineError] = []
    if one_rank:
        try:
            readings.append(_group(fixed, free, jokers, count, rules))
        except EngineError as error:
            errors.append(error)
    if one_suit:
        try:
            readings.append(_run(fixed, free, len(pinned), count, rules))
        except EngineError as error:
            errors.append(error)
    if not readings:
        # One natural card and jokers: the run's complaint is the more telling one.
        raise errors[-1] if len(fixed) == 1 else errors[0]
    best = readings[0]
    for reading in readings[1:]:
        if reading.points > best.points:
            best = reading
    return best


def check_meld(cards: Sequence[Card], rules: RuleSet) -> Meld:
    """Validate one meld; return its kind, joker identities and points, or raise EngineError.

    Codes: too_short, too_long, duplicate_suit, duplicate_rank, mixed_ranks, mixed_suits,
    not_consecutive, wraps_around, ace_not_high, too_many_jokers, adjacent_jokers,
    joker_mismatch, all_jokers, no_jokers.
    """
    given = tuple(cards)
    if len(given) < 3:
        raise fail("too_short", count=len(given))
    if rules.jokers == 0 and any(c.is_joker for c in given):
        raise fail("no_jokers", token="JK")
    declared = [
        pos
        for pos, c in enumerate(given)
        if c.is_joker and c.stands_for is not None and not c.stands_for.is_joker
    ]
    reading = _read(given, rules, set())
    if declared:
        try:
            reading = _read(given, rules, set(declared))
        except EngineError:
            culprit = declared[-1]
            for k in range(1, len(declared) + 1):
                try:
                    _read(given, rules, set(declared[:k]))
                except EngineError:
                    culprit = declared[k - 1]
                    break
            stands_for = given[culprit].stands_for
            assert stands_for is not None
            raise fail("joker_mismatch", card=display(stands_for, rules), position=culprit) from None
        for pos in declared:
            stands_for = given[pos].stands_for
            assert stands_for is not None
            reading.jokers[pos] = Card(stands_for.rank, stands_for.suit)
    jokers = MappingProxyType(dict(sorted(reading.jokers.items())))
    return Meld(reading.kind, given, jokers, reading.points)
