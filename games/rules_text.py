"""What the rules page (games/rules_views.py) and its API (games/api/rules.py) show: the house
rules in force with their labels, how a hand is scored under them (per family, with the rules'
values), and a worked example that the real scoring computes from a fixed example hand per
family, so the example follows the house rules (a joker costing 30 at this table shows 30).

docs/RULES.md is the full statement of the rules; this is what a player at the table needs, in
his language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine import notation
from engine.rules import OPTIONS, RuleSet, rule_set
from games.forms import CHOICE_LABELS, OPTION_LABELS
from scoring.game import score_game

# Options the forms do not offer (they follow from something else) still read well here.
EXTRA_LABELS: Mapping[str, Any] = {"decks": gettext_lazy("Decks in play")}


@dataclass(frozen=True)
class Example:
    """A fixed hand of a family, scored under the page's rules: who sat, the outcome as the
    score sheet stores it, and what happened in words (``%(player)s``: the player named)."""

    players: tuple[str, ...]
    outcome: Mapping[str, object]
    said: Any  # lazy translation
    named: str  # the player the sentence names


def _zoliky(o: Mapping[str, Any]) -> list[str]:
    lines = [
        _("Penalty points: the lowest total is best."),
        _(
            "The player who closes (lays down all his cards) is credited %(credit)s points, "
            "%(from_hand)s when he closes from hand (everything laid down in one turn)."
        )
        % {"credit": o["closer_credit"], "from_hand": o["closer_credit_from_hand"]},
        _(
            "Everyone else takes the value of the cards left in his hand: 2 to 10 as numbered, "
            "jack, queen and king 10, ace 11, a joker %(joker)s."
        )
        % {"joker": o["joker_penalty"]},
    ]
    if o["double_from_hand"]:
        lines.append(_("A close from hand doubles the others' penalties, and the closer gets no credit."))
    if o["credit_laid_down"]:
        lines.append(_("Every player, the closer too, is credited the points of the melds he laid down."))
    if o["no_laydown"]:
        lines.append(_("Nobody lays down during the hand: every close is a close from hand."))
    if o["elimination"]:
        lines.append(
            _(
                "A player whose total reaches %(limit)s drops out; the last player left wins. "
                "Ended earlier, the fewest points win."
            )
            % {"limit": o["elimination"]}
        )
    else:
        lines.append(_("An open evening: when the players end it, the fewest points win."))
    return lines


def _gin(o: Mapping[str, Any]) -> list[str]:
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
            _("The game ends after the hand in which a player reaches %(target)s.") % {"target": o["target"]}
        )
    else:
        lines.append(_("An open game: when the players end it, the highest total wins."))
    return lines


def _carousel(o: Mapping[str, Any]) -> list[str]:
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
        _("A winner who did not knock (an undercut) scores %(bonus)s more.") % {"bonus": o["undercut_bonus"]},
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


def _rummikub(o: Mapping[str, Any]) -> list[str]:
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
    if o["hands"]:
        lines.append(
            ngettext(
                "After %(hands)s hand the highest total wins.",
                "After %(hands)s hands the highest total wins.",
                o["hands"],
            )
            % {"hands": o["hands"]}
        )
    else:
        lines.append(_("An open game: when the players end it, the highest total wins."))
    return lines


# How a hand is scored, per family, with the values of the rules in force.
HOW_SCORED: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = MappingProxyType(
    {"zoliky": _zoliky, "gin": _gin, "carousel": _carousel, "rummikub": _rummikub}
)

# One hand per family, scored by the real scoring under the page's rules.
EXAMPLES: Mapping[str, Example] = MappingProxyType(
    {
        "zoliky": Example(
            ("Ann", "Bob", "Cid"),
            {"closer": "Ann", "from_hand": False, "left": {"Bob": "KH 5S JK", "Cid": "AS 2D"}},
            gettext_lazy("%(player)s closes; Bob and Cid count the cards left in their hands."),
            "Ann",
        ),
        "gin": Example(
            ("Ann", "Bob"),
            {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 2, "Bob": 10}},
            gettext_lazy("%(player)s knocks with 2 points of deadwood; Bob is left with 10."),
            "Ann",
        ),
        "carousel": Example(
            ("Ann", "Bob", "Cid"),
            {"knocker": "Ann", "out": None, "left": {"Ann": 4, "Bob": 12, "Cid": "7H JK"}},
            gettext_lazy("%(player)s knocks with 4 points in hand; Bob holds 12 and Cid two cards."),
            "Ann",
        ),
        "rummikub": Example(
            ("Ann", "Bob", "Cid"),
            {"winner": "Ann", "left": {"Bob": "R7 B13 JK", "Cid": 12}},
            gettext_lazy("%(player)s goes out; Bob and Cid count the tiles left on their racks."),
            "Ann",
        ),
    }
)
assert set(HOW_SCORED) == set(EXAMPLES) == set(OPTIONS)


@dataclass(frozen=True)
class ShownRule:
    name: str  # the option's name, as the rule set and the API spell it
    label: str
    value: str  # as shown (translated yes/no, a choice's label)
    raw: object  # as stored
    usual: object  # the family's usual value
    changed: bool  # differs from the family's usual rule


@dataclass(frozen=True)
class ExampleRow:
    name: str
    held: str  # the cards or tiles he held as typed ("K♥ 5♠ JK"); "" for points given
    count: int | None
    points: int


def _value(value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(CHOICE_LABELS.get(value, value))


def shown_rules(rules: RuleSet) -> list[ShownRule]:
    usual = rule_set(rules.family).options
    return [
        ShownRule(
            name=name,
            label=str(OPTION_LABELS.get(name) or EXTRA_LABELS.get(name) or name),
            value=_value(value),
            raw=value,
            usual=usual[name],
            changed=value != usual[name],
        )
        for name, value in rules.options.items()
    ]


def _held(raw: object, rules: RuleSet) -> str:
    """The cards or tiles typed for a player; "" when only his points were given."""
    if isinstance(raw, str):
        return notation.displays(notation.parse_hand(raw, rules), rules)
    return ""


def worked_example(rules: RuleSet) -> tuple[str, list[ExampleRow]]:
    """The family's example hand as this game's rules score it: what happened, and per
    player what he held, its value and the points he scored."""
    example = EXAMPLES[rules.family]
    state = score_game(rules=rules, players=example.players, hands=[example.outcome])
    result = state.hands[0]
    held: Mapping[str, object] = {}
    for key in ("left", "deadwood"):
        value = example.outcome.get(key)
        if isinstance(value, Mapping):
            held = value
    rows = [
        ExampleRow(
            name=name,
            held=_held(held.get(name), rules),
            count=result.counts.get(name),
            points=result.points[name],
        )
        for name in example.players
    ]
    return str(example.said) % {"player": example.named}, rows
