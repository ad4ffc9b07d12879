"""What the rules page (games/views/rules.py) and its API (games/api/rules.py) show: the house
rules in force with their labels, how a hand is scored under them (per family, with the rules'
values: each family's module says it), and a worked example that the real scoring computes
from the family's example hand, so the example follows the house rules (a joker costing 30 at
this table shows 30).

docs/RULES.md is the full statement of the rules; this is what a player at the table needs, in
his language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import notation
from engine.errors import EngineError
from engine.rules import OPTIONS, Option, RuleSet, rule_set
from games.forms import choice_label, option_label
from scoring.families import family
from scoring.game import score_game


def how_scored(rules: RuleSet) -> list[str]:
    """How a hand is scored under ``rules``, in the user's language (the family's own text)."""
    return family(rules.family).how_scored(rules.options, _, ngettext)


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


def _value(option: Option, value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(choice_label(option, value))


def shown_rules(rules: RuleSet) -> list[ShownRule]:
    usual = rule_set(rules.family).options
    options = OPTIONS[rules.family]
    return [
        ShownRule(
            name=name,
            label=str(option_label(options[name])),
            value=_value(options[name], value),
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
    example = family(rules.family).example
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
    return _(example.said) % {"player": example.named}, rows


@dataclass(frozen=True)
class Example:
    said: str  # what happened in the hand, in words
    rows: list[ExampleRow]


@dataclass(frozen=True)
class RulesShown:
    """What a rules page shows of a rule set (the API's answer too)."""

    family: str
    hand_limit: int  # the game ends after this many hands at the latest; 0: none
    rules: list[ShownRule]
    how: list[str]
    example: Example | None  # None when the house rules cannot play the example


def rules_shown(rules: RuleSet, hand_limit: int = 0) -> RulesShown:
    try:
        said, rows = worked_example(rules)
    except EngineError:  # a house rule the example cannot be played under
        example = None
    else:
        example = Example(said, rows)
    return RulesShown(rules.family, hand_limit, shown_rules(rules), how_scored(rules), example)
