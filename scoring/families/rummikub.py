"""Rummikub: tiles, going out or the pool running dry (a zero-sum hand), agreed hands."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.messages import gettext_noop
from engine.rules import RUMMIKUB, RuleSet

from ..reading import Count, check_pack, left_in_hands, player_field
from ..scored import HandKind, HandResult, cards_detail
from . import Example, Kind, Translate, TranslatePlural, TurnTimer, make_info
from .base import WENT_OUT, StandardFamily, name_of, sample_count, went_out


@dataclass(frozen=True, slots=True)
class RummikubOutcome:
    players: tuple[str, ...]
    winner: str | None  # None: the pool ran dry and nobody went out
    left: Mapping[str, Count]  # every player


class Rummikub(StandardFamily):
    rules = RUMMIKUB
    info = make_info(
        RUMMIKUB,
        gettext_noop("Rummikub"),
        lower_is_better=False,
        roles=(
            went_out(
                "winner",
                nobody=gettext_noop("Nobody: the pool ran dry"),
                unanswered=gettext_noop("Choose who went out, or Nobody (the pool ran dry)."),
            ),
        ),
        emptied_role="winner",
        role_required=False,
        kinds=(
            WENT_OUT,
            Kind(
                "pool_dry",
                gettext_noop("pool ran dry"),
                gettext_noop("the pool ran dry"),
                gettext_noop("the pool ran dry"),
            ),
        ),
        preferred=4,
        # One minute a turn; a player not done in time draws three tiles (docs/RULES.md §4).
        timer=TurnTimer("turn", 60, 0, gettext_noop("Time's up — draw 3")),
    )
    fields = ("players", "winner", "left")
    example = Example(
        ("Ann", "Bob", "Cid"),
        {"winner": "Ann", "left": {"Bob": "R7 B13 JK", "Cid": 12}},
        gettext_noop("%(player)s goes out; Bob and Cid count the tiles left on their racks."),
        "Ann",
    )
    api_examples = (("Rummikub", {"winner": "Ann", "left": {"Bob": 24, "Cid": "R7 B13 JK"}}),)

    # The command line's help (python -m scoring --help): the outcome's fields, the result's details.
    cli_fields = """\
  rummikub: {"players": [...], "winner": "Ann" | null, "left": {"Bob": 24, "Cid": "R7 B13 JK"}}
      winner      who laid down all tiles, or null = the pool ran dry
      left        rack of every other player (every player when the pool ran dry)
"""
    cli_results = """\
  rummikub: ending (out|pool_dry), winner, left_tiles
"""

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> RummikubOutcome:
        winner = player_field(raw, "winner", players, required=False)
        left = left_in_hands(raw, rules, players, emptied=winner, with_cards="winner_with_tiles")
        check_pack(rules, *(c.cards or () for c in left.values()))
        return RummikubOutcome(players, winner, {name: left[name] for name in players})

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, RummikubOutcome)
        o = outcome
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
        cards_detail(details, "left_tiles", {p: o.left[p].cards for p in o.players}, rules)
        return HandResult(rules.family, o.players, points, tuple(winners), counts, details)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        ending = str(details.get("ending") or "pool_dry")
        return HandKind(ending, name_of(details.get("winner")) if ending == "out" else None)

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        hands = rules.opt_int("hands")
        return "hands" if hands and number >= hands else None

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        if rng.random() < 0.06:
            return {
                "winner": None,
                "left": {p: sample_count(rng, 25, 90) for p in active},
            }  # the pool ran dry
        winner = rng.choice(active)
        return {"winner": winner, "left": {p: sample_count(rng, 25, 90) for p in active if p != winner}}

    def how_scored(self, options: Mapping[str, object], _: Translate, ngettext: TranslatePlural) -> list[str]:
        o = options
        lines = [
            _("Points: the highest total is best. A hand sums to zero."),
            _(
                "Who goes out scores the sum of the others' racks; each other player scores minus his "
                "rack (tiles by their number, a joker %(joker)s)."
            )
            % {"joker": o["joker_penalty"]},
            _(
                "When the pool runs dry, everyone scores minus his rack, and the lowest rack scores "
                "instead the sum of the differences between each other rack and his own."
            ),
        ]
        hands = o["hands"]
        assert isinstance(hands, int)
        if hands:
            lines.append(
                ngettext(
                    "After %(hands)s hand the highest total wins.",
                    "After %(hands)s hands the highest total wins.",
                    hands,
                )
                % {"hands": hands}
            )
        else:
            lines.append(_("An open game: when the players end it, the highest total wins."))
        return lines


FAMILY = Rummikub()
