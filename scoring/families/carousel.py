"""Carousel rummy: knocks, undercuts and going out, a game to a target with end bonuses."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.messages import gettext_noop
from engine.rules import CAROUSEL, RuleSet

from ..errors import ScoringError
from ..reading import Count, check_pack, left_in_hands, player_field
from ..scored import Bonus, HandKind, HandResult, cards_detail
from . import Example, Kind, Translate, TranslatePlural, TurnTimer, make_info
from .base import (
    KNOCK,
    KNOCKER,
    UNDERCUT,
    WENT_OUT,
    StandardFamily,
    name_of,
    sample_count,
    target_reached,
    went_out,
)


@dataclass(frozen=True, slots=True)
class CarouselOutcome:
    players: tuple[str, ...]
    knocker: str | None
    out: str | None
    left: Mapping[str, Count]  # every player


class Carousel(StandardFamily):
    rules = CAROUSEL
    info = make_info(
        CAROUSEL,
        gettext_noop("Carousel rummy"),
        lower_is_better=False,
        roles=(
            KNOCKER,
            went_out(
                "out",
                nobody=gettext_noop("Nobody"),
                unanswered=gettext_noop("Choose who went out, or Nobody."),
            ),
        ),
        emptied_role="out",
        role_required=False,
        kinds=(
            WENT_OUT,
            KNOCK,
            UNDERCUT,
            Kind(
                "stock",
                gettext_noop("stock ran out"),
                gettext_noop("the stock ran out"),
                gettext_noop("the stock ran out"),
            ),
        ),
        preferred=4,
        chart_line="target",
        # A chess clock: ten minutes each for a hand (turns rearrange the table), five seconds
        # more per turn (docs/RULES.md §3).
        timer=TurnTimer("chess", 600, 5, gettext_noop("Time's up")),
    )
    fields = ("players", "knocker", "out", "left")
    example = Example(
        ("Ann", "Bob", "Cid"),
        {"knocker": "Ann", "out": None, "left": {"Ann": 4, "Bob": 12, "Cid": "7H JK"}},
        gettext_noop("%(player)s knocks with 4 points in hand; Bob holds 12 and Cid two cards."),
        "Ann",
    )
    api_examples = (
        ("Carousel", {"knocker": "Ann", "out": None, "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}}),
    )

    # The command line's help (python -m scoring --help): the outcome's fields, the result's details.
    cli_fields = """\
  carousel: {"players": [...], "knocker": "Ann" | null, "out": "Ann" | null,
             "left": {"Ann": 3, "Bob": 12, "Cid": "7H JK"}}
      knocker     who knocked (points in hand <= knock_limit), or null
      out         who went out with no cards, or null (not both; neither = the
                  stock ran out); "out"'s left may be omitted
      left        points in hand of every player
"""
    cli_results = """\
  carousel: ending (knock|out|stock), knocker, out, undercut, differences
            {winner: sum of differences}, bonuses {winner: {undercut|out: N}}, left_cards
"""

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> CarouselOutcome:
        knocker = player_field(raw, "knocker", players, required=False)
        out = player_field(raw, "out", players, required=False)
        if knocker is not None and out is not None:
            raise ScoringError("knock_and_out")
        left = left_in_hands(raw, rules, players, emptied=out, with_cards="out_with_cards", knocker=knocker)
        if knocker is not None and left[knocker].points > rules.opt_int("knock_limit"):
            raise ScoringError(
                "knock_over_limit",
                player=knocker,
                points=left[knocker].points,
                limit=rules.opt_int("knock_limit"),
            )
        check_pack(rules, *(c.cards or () for c in left.values()))
        return CarouselOutcome(players, knocker, out, {name: left[name] for name in players})

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, CarouselOutcome)
        o = outcome
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
        cards_detail(details, "left_cards", {p: o.left[p].cards for p in o.players}, rules)
        return HandResult(rules.family, o.players, points, tuple(winners), counts, details)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        ending = str(details.get("ending") or "stock")
        if ending == "out":
            return HandKind("out", name_of(details.get("out")))
        if ending == "knock":
            return HandKind(
                "undercut" if details.get("undercut") else "knock", name_of(details.get("knocker"))
            )
        return HandKind("stock", None)

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return target_reached(rules, totals)

    def end_bonuses(
        self,
        rules: RuleSet,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        hands_won: Mapping[str, int],
    ) -> list[Bonus]:
        """Each player at or past the target gets ``game_bonus``; every player
        ``hand_win_bonus`` for each hand he won."""
        bonuses: list[Bonus] = []
        target = rules.opt_int("target")
        game_bonus = rules.opt_int("game_bonus")
        for p in players:
            if target and totals[p] >= target and game_bonus:
                bonuses.append(Bonus(p, "game", game_bonus))
        for p in players:
            if hands_won[p] and rules.opt_int("hand_win_bonus"):
                bonuses.append(
                    Bonus(p, "hands_won", hands_won[p] * rules.opt_int("hand_win_bonus"), hands_won[p])
                )
        return bonuses

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        roll = rng.random()
        if roll < 0.35:
            out = rng.choice(active)
            return {
                "knocker": None,
                "out": out,
                "left": {p: sample_count(rng, 12, 50) for p in active if p != out},
            }
        if roll < 0.95:
            knocker = rng.choice(active)
            return {
                "knocker": knocker,
                "out": None,
                "left": {p: rng.randint(1, 5) if p == knocker else sample_count(rng, 8, 35) for p in active},
            }
        return {"knocker": None, "out": None, "left": {p: sample_count(rng, 8, 35) for p in active}}

    def how_scored(self, options: Mapping[str, object], _: Translate, ngettext: TranslatePlural) -> list[str]:
        o = options
        lines = [
            _("Points won: the highest total is best."),
            _(
                "A player may knock with at most %(limit)s points in hand. Cards left count ace 1, "
                "2 to 10 as numbered, jack, queen and king 10, a joker %(joker)s."
            )
            % {"limit": o["knock_limit"], "joker": o["joker_value"]},
            _(
                "The player with the fewest points in hand wins the hand and scores, over every other "
                "player, that player's count minus his own; the others score 0."
            ),
            _("A winner who did not knock (an undercut) scores %(bonus)s more.")
            % {"bonus": o["undercut_bonus"]},
            _("A player who goes out (plays all his cards) wins and scores %(bonus)s more.")
            % {"bonus": o["out_bonus"]},
        ]
        if o["target"]:
            lines.append(
                _(
                    "The game ends after the hand in which a player reaches %(target)s. Then each player "
                    "at or past it gets %(game)s, and everyone %(won)s for each hand he won."
                )
                % {"target": o["target"], "game": o["game_bonus"], "won": o["hand_win_bonus"]}
            )
        else:
            lines.append(
                _("An open game: when the players end it, everyone gets %(won)s for each hand he won.")
                % {"won": o["hand_win_bonus"]}
            )
        return lines


FAMILY = Carousel()
