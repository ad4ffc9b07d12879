"""Gin (knock rummy for two): deadwood, knocks, gin and undercuts, a game to a target."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import melds, notation, values
from engine.arrange import arrange
from engine.cards import Card
from engine.errors import EngineError
from engine.gin import layoff
from engine.messages import gettext_noop
from engine.rules import GIN, RuleSet

from ..errors import ScoringError, for_player
from ..reading import (
    Count,
    cards_field,
    check_pack,
    counts_field,
    flag_field,
    per_player,
    player_field,
    require_counts,
)
from ..scored import HandKind, HandResult
from . import Example, Flag, Kind, Translate, TranslatePlural, TurnTimer, make_info
from .base import KNOCK, KNOCKER, UNDERCUT, StandardFamily, name_of, target_reached

GIN_HAND_SIZE = 10


@dataclass(frozen=True, slots=True)
class GinOutcome:
    players: tuple[str, ...]
    knocker: str | None  # None: nobody went down (a void hand)
    gin: bool | None  # as declared; None when not given
    deadwood: Mapping[str, Count] | None  # points mode
    hands: Mapping[str, tuple[Card, ...]] | None  # cards mode: both hands, 10 cards each
    melds: tuple[tuple[Card, ...], ...] | None  # cards mode: the knocker's declared melds


class Gin(StandardFamily):
    rules = GIN
    info = make_info(
        GIN,
        gettext_noop("Gin (knock rummy for two)"),
        lower_is_better=False,
        roles=(KNOCKER,),
        emptied_role="knocker",
        role_required=True,
        flags=(
            Flag(
                "gin",
                gettext_noop("Gin (no deadwood)"),
                said=gettext_noop("gin"),
                hint=gettext_noop("With gin the knocker's count may stay empty: it is 0."),
                empties=True,
            ),
        ),
        kinds=(
            KNOCK,
            UNDERCUT,
            Kind("gin", gettext_noop("gin"), gettext_noop("%(name)s went gin"), gettext_noop("gin")),
            Kind(
                "void",
                gettext_noop("no knock"),
                gettext_noop("nobody knocked"),
                gettext_noop("nobody knocked"),
            ),
        ),
        declares_melds=True,
        preferred=2,
        chart_line="target",
        # A chess clock: five minutes each for a hand, five seconds more per turn (docs/RULES.md §2).
        timer=TurnTimer("chess", 300, 5, gettext_noop("Time's up")),
    )
    fields = ("players", "knocker", "gin", "deadwood", "hands", "melds")
    example = Example(
        ("Ann", "Bob"),
        {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 2, "Bob": 10}},
        gettext_noop("%(player)s knocks with 2 points of deadwood; Bob is left with 10."),
        "Ann",
    )
    api_examples = (("Gin", {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}),)

    # The command line's help (python -m scoring --help): the outcome's fields, the result's details.
    cli_fields = """\
  gin:      {"players": ["Ann","Bob"], "knocker": "Ann", "gin": false,
             "deadwood": {"Ann": 7, "Bob": 12}}
            or {"players": [...], "knocker": "Ann",
             "hands": {"Ann": "<10 cards>", "Bob": "<10 cards>"},
             "melds": "<Ann's melds, | separated>"}
      knocker     who went down (knock or gin); null = a void hand, nobody scores
      gin         declared gin; rejected with deadwood; deadwood 0 is gin anyway
      deadwood    each player's deadwood after layoffs (points or the cards)
      hands       both hands as cards (10 each): the engine arranges the knocker's
                  melds (or takes "melds"), checks the knock, arranges the opponent's
                  melds and lays off his deadwood (nothing against gin)
      melds       the knocker's declared melds (only with "hands")
"""
    cli_results = """\
  gin:      knocker, kind (gin|knock|undercut|void), scorer, gin, undercut,
            deadwood (after layoffs), difference, bonuses {gin|undercut: N};
            with hands: melds_declared, melds {name: [[cards]]},
            deadwood_cards {name: [cards]}, layoffs [{"card", "meld": index}]
"""

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> GinOutcome:
        knocker = player_field(raw, "knocker", players, required=False)
        gin = flag_field(raw, "gin")
        if gin and knocker is None:
            raise ScoringError("gin_without_knocker")
        has_deadwood = raw.get("deadwood") is not None
        has_hands = raw.get("hands") is not None
        if has_deadwood and has_hands:
            raise ScoringError("deadwood_or_hands")
        if raw.get("melds") is not None and not has_hands:
            raise ScoringError("melds_without_hands")
        if has_hands:
            given = per_player(raw, "hands", players)
            hands: dict[str, tuple[Card, ...]] = {}
            for name in players:
                if name not in given:
                    raise ScoringError("missing_count", player=name, field="hands")
                value = given[name]
                if isinstance(value, list) and all(isinstance(v, str) for v in value):
                    value = " ".join(str(v) for v in value)
                if not isinstance(value, str):
                    raise ScoringError(
                        "field_type", field="hands", expected="cards as text, e.g. 'AS 2S 3S ...'"
                    )
                hands[name] = cards_field(value, rules, name, "hands")
                if len(hands[name]) != GIN_HAND_SIZE:
                    raise ScoringError(
                        "hand_size", player=name, expected=GIN_HAND_SIZE, count=len(hands[name])
                    )
            check_pack(rules, *hands.values())
            declared: tuple[tuple[Card, ...], ...] | None = None
            melds_raw = raw.get("melds")
            if melds_raw is not None:
                declared = _knocker_melds(melds_raw, rules, knocker, hands)
            return GinOutcome(players, knocker, gin, None, hands, declared)
        deadwood = counts_field(raw, "deadwood", players, rules)
        if knocker is not None:
            if not deadwood and "deadwood" not in raw:
                raise ScoringError("missing_field", field="deadwood")
            require_counts(deadwood, "deadwood", players)
            check_pack(rules, *(c.cards or () for c in deadwood.values()))
        return GinOutcome(players, knocker, gin, deadwood, None, None)

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, GinOutcome)
        o = outcome
        zero = dict.fromkeys(o.players, 0)
        if o.knocker is None:
            counts = {p: c.points for p, c in (o.deadwood or {}).items()}
            details: dict[str, object] = {"knocker": None, "kind": "void", "scorer": None, "gin": False}
            return HandResult(rules.family, o.players, zero, (), counts, details)
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
        return HandResult(
            rules.family, o.players, points, (scorer,), {p: counts[p] for p in o.players}, details
        )

    def kind(self, details: Mapping[str, object]) -> HandKind:
        return HandKind(str(details.get("kind") or "void"), name_of(details.get("knocker")))

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return target_reached(rules, totals)

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        if rng.random() < 0.04:
            return {"knocker": None}  # nobody went down
        knocker = rng.choice(active)
        mine = 0 if rng.random() < 0.2 else rng.randint(1, 10)
        return {
            "knocker": knocker,
            "gin": mine == 0,
            "deadwood": {p: mine if p == knocker else rng.randint(0, 60) for p in active},
        }

    def how_scored(self, options: Mapping[str, object], _: Translate, ngettext: TranslatePlural) -> list[str]:
        o = options
        lines = [
            _("Points won: the highest total is best. Only one player scores in a hand."),
            _(
                "A player may knock with at most %(limit)s points of deadwood (cards in no meld; "
                "ace 1, jack, queen and king 10). The opponent lays off what he can on the "
                "knocker's melds."
            )
            % {"limit": o["knock_limit"]},
            _("Gin (no deadwood): the knocker scores %(bonus)s plus the opponent's deadwood.")
            % {"bonus": o["gin_bonus"]},
            _("Less deadwood than the opponent: the knocker scores the difference."),
        ]
        if o["tie_to_knocker"]:
            lines.append(_("Equal deadwood: the knocker scores 0."))
            lines.append(
                _("Less deadwood for the opponent: he scores %(bonus)s plus the difference (an undercut).")
                % {"bonus": o["undercut_bonus"]}
            )
        else:
            lines.append(
                _(
                    "Equal or less deadwood for the opponent: he scores %(bonus)s plus the difference "
                    "(an undercut)."
                )
                % {"bonus": o["undercut_bonus"]}
            )
        if o["target"]:
            lines.append(
                _("The game ends after the hand in which a player reaches %(target)s.")
                % {"target": o["target"]}
            )
        else:
            lines.append(_("An open game: when the players end it, the highest total wins."))
        return lines


def _knocker_melds(
    raw: object, rules: RuleSet, knocker: str | None, hands: Mapping[str, tuple[Card, ...]]
) -> tuple[tuple[Card, ...], ...]:
    if knocker is None:
        raise ScoringError("missing_field", field="knocker")
    if isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        raw = " | ".join(str(v) for v in raw)
    if not isinstance(raw, str):
        raise ScoringError("field_type", field="melds", expected="melds as text, separated by |")
    if not raw.strip():
        return ()
    try:
        declared = tuple(tuple(m) for m in notation.parse_melds(raw, rules))
    except EngineError as error:
        raise for_player(error, knocker, "melds") from None
    available = Counter(Card(c.rank, c.suit) for c in hands[knocker])
    for meld in declared:
        for card in meld:
            plain = Card(card.rank, card.suit)
            if available[plain] <= 0:
                raise ScoringError("melds_not_in_hand", card=notation.display(plain, rules), player=knocker)
            available[plain] -= 1
    return declared


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


FAMILY = Gin()
