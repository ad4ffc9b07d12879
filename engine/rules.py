"""Rule sets: one immutable description per family, with its house-rule options.

Every number a table might change is an option whose default is the seed's value
(see docs/RULES.md and docs/DESIGN.md). Unknown names and out-of-range values raise
EngineError, so a typo in ``--set`` never silently plays another game.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .errors import EngineError

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    Family = Literal["zoliky", "gin", "carousel", "rummikub"]
else:
    Family = str  # the name exists at run time too (annotations elsewhere import it)
FAMILIES: tuple[Family, ...] = ("zoliky", "gin", "carousel", "rummikub")
OptionValue = int | bool | str


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule: its default and what values it accepts."""

    name: str
    default: OptionValue
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[OptionValue, ...] = ()

    def coerce(self, raw: object) -> OptionValue:
        """Turn a raw value (a string from the command line or a form, or a typed value)
        into this option's type, or raise EngineError naming the option."""
        value: OptionValue
        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.strip().lower() in ("1", "true", "yes", "on"):
                value = True
            elif isinstance(raw, str) and raw.strip().lower() in ("0", "false", "no", "off"):
                value = False
            else:
                raise EngineError(
                    "option_not_bool",
                    f"option {self.name} must be true or false, not {raw!r}",
                    option=self.name,
                    value=str(raw),
                )
        elif isinstance(self.default, int):
            try:
                if isinstance(raw, bool):
                    raise ValueError
                value = int(str(raw).strip())
            except ValueError:
                raise EngineError(
                    "option_not_int",
                    f"option {self.name} must be a whole number, not {raw!r}",
                    option=self.name,
                    value=str(raw),
                ) from None
        else:
            value = str(raw).strip()
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise EngineError(
                "option_choice",
                f"option {self.name} must be one of {allowed}, not {raw!r}",
                option=self.name,
                value=str(raw),
                choices=allowed,
            )
        if isinstance(value, int) and not isinstance(value, bool):
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise EngineError(
                    "option_range",
                    f"option {self.name} must be between {self.minimum} and {self.maximum}, not {value}",
                    option=self.name,
                    value=value,
                    minimum=self.minimum,
                    maximum=self.maximum,
                )
        return value


def _options(*options: Option) -> Mapping[str, Option]:
    return MappingProxyType({o.name: o for o in options})


OPTIONS: Mapping[Family, Mapping[str, Option]] = MappingProxyType(
    {
        "zoliky": _options(
            Option("opening_points", 42, "points the first laydown must reach", 0, 200),
            Option("opening_pure_run", True, "the first laydown must hold a run without a joker"),
            Option(
                "half_jokers", True, "at most half the cards of a meld may be jokers (all-joker groups aside)"
            ),
            Option("all_joker_groups", True, "a group may consist of jokers alone"),
            Option("adjacent_jokers", True, "two jokers may stand side by side in a run"),
            Option("flush", False, "ten cards of one suit laid at once close the hand (10-card deal)"),
            Option("hand_size", 13, "cards dealt to each player", choices=(10, 13)),
            Option("joker_penalty", 15, "penalty for a joker left in hand", choices=(15, 30, 50)),
            Option("closer_credit", 10, "points credited to the player who closes", 0, 100),
            Option("closer_credit_from_hand", 20, "points credited when closing from hand", 0, 100),
            Option("credit_laid_down", False, "each player is credited the points he laid down"),
            Option(
                "double_from_hand",
                False,
                "closing from hand doubles the others' penalties instead of the credit",
            ),
            Option("keep_joker", False, "the closer may keep an unused joker for the next hand (recorded)"),
            Option("no_laydown", False, "nobody lays down: every hand is closed from hand"),
            Option("elimination", 100, "a player reaching this total drops out; 0 = open evening", 0, 10000),
            Option(
                "settlement", "pairs", "how the evening is settled in crowns", choices=("pairs", "winner")
            ),
        ),
        "gin": _options(
            Option("knock_limit", 10, "most deadwood a player may knock with", 0, 10),
            Option("gin_bonus", 25, "bonus for going gin", 0, 100),
            Option("undercut_bonus", 25, "bonus for undercutting the knocker", 0, 100),
            Option("tie_to_knocker", False, "equal deadwood goes to the knocker instead of an undercut"),
            Option("ace_high", False, "the ace may also stand above the king (Q-K-A)"),
            Option("target", 150, "the game ends when a player reaches this; 0 = open", 0, 10000),
        ),
        "carousel": _options(
            Option("decks", 2, "decks in play: 1 for two players (one joker), else 2", 1, 2),
            Option("knock_limit", 5, "most points in hand a player may knock with", 0, 50),
            Option("joker_value", 25, "value of a joker left in hand", 0, 100),
            Option("undercut_bonus", 10, "bonus for a winner who did not knock", 0, 100),
            Option("out_bonus", 25, "bonus for going out with all cards played", 0, 100),
            Option(
                "target", 150, "the game ends after a hand in which a player reaches this; 0 = open", 0, 10000
            ),
            Option("game_bonus", 100, "bonus to each player past the target at the end", 0, 1000),
            Option("hand_win_bonus", 25, "bonus at the end for each hand won", 0, 100),
        ),
        "rummikub": _options(
            Option("opening_points", 30, "points the first laydown must reach from the rack", 0, 200),
            Option("joker_penalty", 30, "penalty for a joker left on the rack", 0, 100),
            Option("hands", 0, "agreed number of hands; 0 = open", 0, 100),
        ),
    }
)


FLUSH_HAND = 10  # Žolíky's flush: all ten cards of a 10-card deal, of one suit


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything the engine and scoring need to know about one family's game.

    Structural facts (deck, ace placement, meld sizes) are fields; house rules are in
    ``options`` with every default filled in.
    """

    family: Family
    tiles: bool  # Rummikub tiles (numbers x colours) rather than French cards
    decks: int  # copies of each card or tile
    jokers: int  # jokers in the whole pack
    ace_low: bool  # A-2-3 is a run (tiles: 1-2-3)
    ace_high: bool  # Q-K-A is a run
    group_max: int  # most cards in a group
    max_players: int
    min_players: int
    options: Mapping[str, OptionValue]

    def opt_int(self, name: str) -> int:
        value = self.options[name]
        assert isinstance(value, int)
        return value

    def opt_bool(self, name: str) -> bool:
        value = self.options[name]
        assert isinstance(value, bool)
        return value

    def opt_str(self, name: str) -> str:
        value = self.options[name]
        assert isinstance(value, str)
        return value


def rules_key(rules: RuleSet) -> tuple[object, ...]:
    """``rules`` named by value, for a dictionary key (a RuleSet holds its options in a mapping,
    so it cannot be hashed itself): every field, the options in their fixed order."""
    return (
        rules.family,
        rules.tiles,
        rules.decks,
        rules.jokers,
        rules.ace_low,
        rules.ace_high,
        rules.group_max,
        rules.max_players,
        rules.min_players,
        tuple(rules.options.items()),
    )


def rule_set(family: str, options: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of ``family`` with ``options`` (raw or typed values) over the defaults."""
    if family not in OPTIONS:
        raise EngineError(
            "unknown_family", f"unknown rule family {family!r} (one of: {', '.join(FAMILIES)})", family=family
        )
    fam: Family = family  # type: ignore[assignment]
    specs = OPTIONS[fam]
    values: dict[str, OptionValue] = {name: spec.default for name, spec in specs.items()}
    for name, raw in (options or {}).items():
        if name not in specs:
            raise EngineError(
                "unknown_option",
                f"{family} has no option {name!r} (options: {', '.join(specs)})",
                option=name,
                family=family,
            )
        values[name] = specs[name].coerce(raw)
    opts = MappingProxyType(values)
    if fam == "zoliky" and values["flush"] and values["hand_size"] != FLUSH_HAND:
        raise EngineError(
            "flush_needs_ten", "the flush is played with a 10-card deal (hand_size=10)", option="flush"
        )
    if fam == "zoliky":
        return RuleSet(fam, False, 2, 4, True, True, 4, 6, 2, opts)
    if fam == "gin":
        return RuleSet(fam, False, 1, 0, True, bool(values["ace_high"]), 4, 2, 2, opts)
    if fam == "carousel":
        decks = int(values["decks"])
        return RuleSet(fam, False, decks, decks, True, True, 4, 5, 2, opts)
    return RuleSet(fam, True, 2, 2, True, False, 4, 4, 2, opts)


def parse_settings(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings from ``--set`` into a dict; a malformed one raises EngineError."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise EngineError("bad_setting", f"--set expects NAME=VALUE, not {pair!r}", setting=pair)
        result[name.strip()] = value
    return result
