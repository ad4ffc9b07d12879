"""Scoring one hand, per family, from a validated outcome (see outcomes.py).

Every result gives ``points`` for every player of the hand (0 for those who score nothing),
the hand's ``winners`` and the valued ``counts``, plus ``details`` that explain the score
(the JSON contract lists them in README.md). Žolíky points are penalties (lower is better);
the other families' points are gains (higher is better). A Žolíky hand may miss a player's
count (a correction brought him back into a hand recorded without him): he is listed in
``missing``, has no count, and his points are 0 until the count is filled in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine import melds, notation, values
from engine.arrange import arrange
from engine.cards import Card
from engine.gin import layoff
from engine.rules import Family, RuleSet

from .errors import ScoringError
from .outcomes import CarouselOutcome, GinOutcome, Outcome, RummikubOutcome, ZolikyOutcome, parse_outcome


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand scored."""

    family: Family
    players: tuple[str, ...]
    points: Mapping[str, int]  # every player of the hand, in seat order
    winners: tuple[str, ...]  # who won the hand (Žolíky: the closer); empty for a void gin hand
    counts: Mapping[str, int]  # the valued count of each player (left in hand / deadwood)
    details: Mapping[str, object] = field(default_factory=dict)  # JSON-ready explanation
    # Players of the hand whose count is missing (seat order); their points are 0 for now.
    missing: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        result: dict[str, object] = {
            "ok": True,
            "family": self.family,
            "players": list(self.players),
            "points": dict(self.points),
            "winners": list(self.winners),
            "counts": dict(self.counts),
            **self.details,
        }
        if self.missing:
            result["missing"] = list(self.missing)
        return result


def score_outcome(outcome: Outcome, rules: RuleSet) -> HandResult:
    """Score an already validated outcome."""
    if isinstance(outcome, ZolikyOutcome):
        return _zoliky(outcome, rules)
    if isinstance(outcome, GinOutcome):
        return _gin(outcome, rules)
    if isinstance(outcome, CarouselOutcome):
        return _carousel(outcome, rules)
    return _rummikub(outcome, rules)


def score_hand(*, rules: RuleSet, outcome: object, players: Sequence[str] | None = None) -> HandResult:
    """Validate ``outcome`` (a JSON-like dict) and score it.

    ``players`` are the players seated for the hand; when None, the outcome must name them.
    Raises ScoringError (or the engine's EngineError for a bad card) and scores nothing when
    the outcome cannot have happened.
    """
    return score_outcome(parse_outcome(outcome, rules, players), rules)


# --------------------------------------------------------------------------- Žolíky


def _zoliky(o: ZolikyOutcome, rules: RuleSet) -> HandResult:
    doubled = o.from_hand and rules.opt_bool("double_from_hand")
    if doubled:
        credit = 0  # the doubled penalties replace the closer's from-hand credit
    elif o.from_hand:
        credit = rules.opt_int("closer_credit_from_hand")
    else:
        credit = rules.opt_int("closer_credit")
    factor = 2 if doubled else 1
    counted = [p for p in o.players if p not in o.missing]  # a missing count scores 0 for now
    penalties = {p: (0 if p == o.closer else o.left[p].points * factor) for p in counted}
    points = {p: (-credit if p == o.closer else penalties.get(p, 0)) for p in o.players}
    details: dict[str, object] = {
        "closer": o.closer,
        "from_hand": o.from_hand,
        "credit": credit,
        "doubled": doubled,
        "penalties": penalties,
    }
    if rules.opt_bool("credit_laid_down"):
        laid = {p: o.laid[p].points for p in counted}
        for p in counted:
            points[p] -= laid[p]
        details["laid"] = laid
    if rules.opt_bool("keep_joker"):
        details["kept_joker"] = o.kept_joker
    _cards_detail(details, "left_cards", {p: o.left[p].cards for p in counted}, rules)
    counts = {p: o.left[p].points for p in counted}
    return HandResult("zoliky", o.players, points, (o.closer,), counts, details, o.missing)


# --------------------------------------------------------------------------- gin


def _gin(o: GinOutcome, rules: RuleSet) -> HandResult:
    zero = dict.fromkeys(o.players, 0)
    if o.knocker is None:
        counts = {p: c.points for p, c in (o.deadwood or {}).items()}
        details: dict[str, object] = {"knocker": None, "kind": "void", "scorer": None, "gin": False}
        return HandResult("gin", o.players, zero, (), counts, details)
    knocker = o.knocker
    opponent = next(p for p in o.players if p != knocker)
    limit = rules.opt_int("knock_limit")
    details = {"knocker": knocker}
    if o.hands is not None:
        knocker_deadwood, opponent_deadwood, gin = _gin_cards(o, rules, knocker, opponent, limit, details)
    else:
        assert o.deadwood is not None
        knocker_deadwood = o.deadwood[knocker].points
        opponent_deadwood = o.deadwood[opponent].points
        _check_knock(o.gin, knocker, knocker_deadwood, limit)
        gin = knocker_deadwood == 0
    points = dict(zero)
    bonus: dict[str, int] = {}
    if gin:
        kind, scorer = "gin", knocker
        bonus["gin"] = rules.opt_int("gin_bonus")
        points[scorer] = bonus["gin"] + opponent_deadwood
    elif knocker_deadwood < opponent_deadwood or (
        knocker_deadwood == opponent_deadwood and rules.opt_bool("tie_to_knocker")
    ):
        kind, scorer = "knock", knocker
        points[scorer] = opponent_deadwood - knocker_deadwood
    else:
        kind, scorer = "undercut", opponent
        bonus["undercut"] = rules.opt_int("undercut_bonus")
        points[scorer] = bonus["undercut"] + knocker_deadwood - opponent_deadwood
    counts = {knocker: knocker_deadwood, opponent: opponent_deadwood}
    details.update(
        {
            "kind": kind,
            "scorer": scorer,
            "gin": gin,
            "undercut": kind == "undercut",
            "deadwood": {p: counts[p] for p in o.players},
            "difference": abs(opponent_deadwood - knocker_deadwood),
            "bonuses": bonus,
        }
    )
    return HandResult("gin", o.players, points, (scorer,), {p: counts[p] for p in o.players}, details)


def _check_knock(declared_gin: bool | None, knocker: str, deadwood: int, limit: int) -> None:
    if declared_gin and deadwood > 0:
        raise ScoringError("gin_with_deadwood", player=knocker, points=deadwood)
    if deadwood > limit:
        raise ScoringError("knock_over_limit", player=knocker, points=deadwood, limit=limit)


def _gin_cards(
    o: GinOutcome,
    rules: RuleSet,
    knocker: str,
    opponent: str,
    limit: int,
    details: dict[str, object],
) -> tuple[int, int, bool]:
    """Cards mode: the knocker's melds (declared, or the engine's best), his deadwood, the
    legality of the knock, then the opponent's best melds and layoffs."""
    assert o.hands is not None
    hand = o.hands[knocker]
    if o.melds is not None:
        knocker_melds = tuple(tuple(melds.check_meld(m, rules).cards) for m in o.melds)
        rest = Counter(Card(c.rank, c.suit) for c in hand)
        rest.subtract(Card(c.rank, c.suit) for m in knocker_melds for c in m)
        dead: list[Card] = []
        for card in hand:  # the cards in no declared meld, in the hand's order
            if rest[card] > 0:
                dead.append(card)
                rest[card] -= 1
        knocker_dead = tuple(dead)
        declared = True
    else:
        arrangement = arrange(hand, rules)
        knocker_melds, knocker_dead = arrangement.melds, arrangement.deadwood
        declared = False
    knocker_points = values.hand_value(knocker_dead, rules)
    _check_knock(o.gin, knocker, knocker_points, limit)
    is_gin = knocker_points == 0
    result = layoff(knocker_melds, o.hands[opponent], rules, against_gin=is_gin)
    details["melds_declared"] = declared
    details["melds"] = {
        knocker: [notation.codes(m, rules) for m in knocker_melds],
        opponent: [notation.codes(m, rules) for m in result.melds],
    }
    details["deadwood_cards"] = {
        knocker: notation.codes(knocker_dead, rules),
        opponent: notation.codes(result.deadwood, rules),
    }
    details["layoffs"] = [
        {"card": notation.code(card, rules), "meld": index} for card, index in result.layoffs
    ]
    return knocker_points, result.deadwood_points, is_gin


# --------------------------------------------------------------------------- Carousel


def _carousel(o: CarouselOutcome, rules: RuleSet) -> HandResult:
    counts = {p: o.left[p].points for p in o.players}
    lowest = min(counts.values())
    tied = [p for p in o.players if counts[p] == lowest]
    if o.out is not None:
        ending, winners = "out", [o.out]
    elif o.knocker is not None:
        ending = "knock"
        others = [p for p in tied if p != o.knocker]
        winners = others or [o.knocker]  # a tie with the knocker goes to the other(s)
    else:
        ending, winners = "stock", tied  # stock exhausted: every tied lowest hand wins
    points = dict.fromkeys(o.players, 0)
    bonuses: dict[str, dict[str, int]] = {}
    differences: dict[str, int] = {}
    for w in winners:
        differences[w] = sum(counts[p] - counts[w] for p in o.players if p != w)
        bonus: dict[str, int] = {}
        if o.knocker is not None and w != o.knocker:
            bonus["undercut"] = rules.opt_int("undercut_bonus")
        if w == o.out:
            bonus["out"] = rules.opt_int("out_bonus")
        bonuses[w] = bonus
        points[w] = differences[w] + sum(bonus.values())
    details: dict[str, object] = {
        "ending": ending,
        "knocker": o.knocker,
        "out": o.out,
        "undercut": o.knocker is not None and o.knocker not in winners,
        "differences": differences,
        "bonuses": bonuses,
    }
    _cards_detail(details, "left_cards", {p: o.left[p].cards for p in o.players}, rules)
    return HandResult("carousel", o.players, points, tuple(winners), counts, details)


# --------------------------------------------------------------------------- Rummikub


def _rummikub(o: RummikubOutcome, rules: RuleSet) -> HandResult:
    counts = {p: o.left[p].points for p in o.players}
    points = {p: -counts[p] for p in o.players}
    if o.winner is not None:
        ending, winners = "out", [o.winner]
    else:
        lowest = min(counts.values())
        ending, winners = "pool_dry", [p for p in o.players if counts[p] == lowest]
    for w in winners:
        points[w] = sum(counts[p] - counts[w] for p in o.players if p != w)
    details: dict[str, object] = {"ending": ending, "winner": o.winner}
    _cards_detail(details, "left_tiles", {p: o.left[p].cards for p in o.players}, rules)
    return HandResult("rummikub", o.players, points, tuple(winners), counts, details)


def _cards_detail(
    details: dict[str, object], key: str, given: Mapping[str, tuple[Card, ...] | None], rules: RuleSet
) -> None:
    """Echo the cards given as cards, in canonical notation (nothing when all were points)."""
    if all(cards is None for cards in given.values()):
        return
    details[key] = {p: notation.codes(cards, rules) for p, cards in given.items() if cards is not None}
