"""Rule sets: one immutable description per family, with its house-rule options.

Each family is one keyword row (:class:`FamilyRules`: its options and structural facts) in a
registry (:func:`register_rules`); ``FAMILIES`` and ``OPTIONS`` are live views of it. The engine
reads the facts and options of a :class:`RuleSet`, never its family's name.

Every number a table might change is an option whose default is the seed's value
(see docs/RULES.md and docs/DESIGN.md). Unknown names and out-of-range values raise
EngineError, so a typo in ``--set`` never silently plays another game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from .errors import EngineError
from .messages import gettext_noop

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

# A family's key ("zoliky", "gin", ...): any family registered (see ``register_rules``).
Family = str
OptionValue = int | bool | str


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule: its default, what values it accepts and what a player calls it.

    ``label`` (and a choice's label in ``choice_labels``) is marked with ``gettext_noop``
    where the option is declared; the pages translate it when they show it, so a family
    registered later labels its own house rules."""

    name: str
    default: OptionValue
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[OptionValue, ...] = ()
    # Set by the program from something else (Carousel's decks follow the players): no table
    # chooses it, so the forms do not offer it.
    derived: bool = False
    label: str = ""  # "": shown by its name
    choice_labels: tuple[tuple[OptionValue, str], ...] = ()  # (choice, label); others by value

    def choice_label(self, value: object) -> str | None:
        """The label of the choice ``value`` (untranslated); None for one without a label."""
        return next((label for choice, label in self.choice_labels if choice == value), None)

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


FLUSH_HAND = 10  # Žolíky's flush: all ten cards of a 10-card deal, of one suit


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything the engine and scoring need to know about one family's game.

    Structural facts (deck, ace placement, meld sizes, card values) are fields, copied from the
    family's row (:class:`FamilyRules`); house rules are in ``options`` with every default
    filled in.
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
    ace_in_hand: int = 1  # an ace left in hand (Žolíky 11)
    ace_eleven_in_melds: bool = True  # an ace in a group or above the king is worth 11 (gin: 1)
    # The option giving a joker's value left in hand; None: the pack has no jokers.
    joker_option: str | None = None
    # A first laydown must leave a card in hand (to discard): Žolíky's opening.
    opening_keeps_card: bool = False
    layoffs: bool = False  # the opponent lays off on the knocker's melds (gin)
    # The most cards or tiles a player can hold at a hand's end (the whole pack where a hand
    # grows by drawing with nothing discarded), and the most the solver is given: a hand of
    # cards holds at most 14 (13 dealt, one drawn) and a rack may grow longer; its work grows
    # fast with the hand, and these keep every request well under a second.
    largest_hand: int = 0
    solver_max: int = 14

    @property
    def pack_size(self) -> int:
        return 52 * self.decks + self.jokers

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

    def rule(self, name: str, *, absent: bool = False) -> bool:
        """A yes/no house rule's value; ``absent`` in a family that has no such rule (a meld
        rule of Žolíky's is no rule of Carousel's)."""
        value = self.options.get(name, absent)
        return value is True


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilyRules:
    """One family's row: its house rules and the facts a :class:`RuleSet` copies.

    ``derive`` gives the facts that follow from the options (Carousel's decks, gin's ace_high)
    and refuses options that cannot be played together; it returns the rule set as it is
    when nothing follows. ``for_players`` gives the options that follow from the number of
    players (the ``derived`` ones)."""

    key: Family
    options: tuple[Option, ...]
    decks: int
    jokers: int
    ace_high: bool
    max_players: int
    min_players: int = 2
    tiles: bool = False
    ace_low: bool = True
    group_max: int = 4
    ace_in_hand: int = 1
    ace_eleven_in_melds: bool = True
    joker_option: str | None = None
    opening_keeps_card: bool = False
    layoffs: bool = False
    # 0: the whole pack (the hand grows by drawing); ``derive`` may set it from the options.
    largest_hand: int = 0
    solver_max: int = 14
    derive: Callable[[RuleSet], RuleSet] | None = None
    # The options the number of players at the table sets (Carousel's decks), not the table.
    for_players: Callable[[int], Mapping[str, OptionValue]] | None = None

    def rule_set(self, values: Mapping[str, OptionValue]) -> RuleSet:
        rules = RuleSet(
            family=self.key,
            tiles=self.tiles,
            decks=self.decks,
            jokers=self.jokers,
            ace_low=self.ace_low,
            ace_high=self.ace_high,
            group_max=self.group_max,
            max_players=self.max_players,
            min_players=self.min_players,
            options=MappingProxyType(dict(values)),
            ace_in_hand=self.ace_in_hand,
            ace_eleven_in_melds=self.ace_eleven_in_melds,
            joker_option=self.joker_option,
            opening_keeps_card=self.opening_keeps_card,
            layoffs=self.layoffs,
            largest_hand=self.largest_hand,
            solver_max=self.solver_max,
        )
        rules = self.derive(rules) if self.derive is not None else rules
        return rules if rules.largest_hand else replace(rules, largest_hand=rules.pack_size)


def _zoliky_derive(rules: RuleSet) -> RuleSet:
    if rules.opt_bool("flush") and rules.opt_int("hand_size") != FLUSH_HAND:
        raise EngineError(
            "flush_needs_ten", "the flush is played with a 10-card deal (hand_size=10)", option="flush"
        )
    # The deal, and the first player's card more (a hand closed before he discards).
    return replace(rules, largest_hand=rules.opt_int("hand_size") + 1)


def _gin_derive(rules: RuleSet) -> RuleSet:
    return replace(rules, ace_high=rules.opt_bool("ace_high"))


def _carousel_decks(players: int) -> Mapping[str, OptionValue]:
    return {"decks": 1 if players == 2 else 2}  # two players: one deck, one joker (RULES.md)


def _carousel_derive(rules: RuleSet) -> RuleSet:
    decks = rules.opt_int("decks")
    return replace(rules, decks=decks, jokers=decks)  # one joker per deck


ZOLIKY = FamilyRules(
    key="zoliky",
    options=(
        Option(
            "opening_points",
            42,
            "points the first laydown must reach",
            0,
            200,
            label=gettext_noop("First laydown at least (points)"),
        ),
        Option(
            "opening_pure_run",
            True,
            "the first laydown must hold a run without a joker",
            label=gettext_noop("First laydown needs a run without a joker"),
        ),
        Option(
            "half_jokers",
            True,
            "at most half the cards of a run may be jokers",
            label=gettext_noop("At most half of a run may be jokers"),
        ),
        Option(
            "half_jokers_groups",
            False,
            "at most half the cards of a group may be jokers too (all-joker groups aside)",
            label=gettext_noop("At most half of a group may be jokers too"),
        ),
        Option(
            "all_joker_groups",
            True,
            "a group may consist of jokers alone",
            label=gettext_noop("A group may be all jokers"),
        ),
        Option(
            "adjacent_jokers",
            True,
            "two jokers may stand side by side in a run",
            label=gettext_noop("Two jokers may stand side by side in a run"),
        ),
        Option(
            "flush",
            False,
            "ten cards of one suit laid at once close the hand (10-card deal)",
            label=gettext_noop("Flush: ten cards of one suit close the hand"),
        ),
        Option(
            "hand_size",
            13,
            "cards dealt to each player",
            choices=(10, 13),
            label=gettext_noop("Cards dealt to each player"),
        ),
        Option(
            "joker_penalty",
            15,
            "penalty for a joker left in hand",
            choices=(15, 30, 50),
            label=gettext_noop("Penalty for a joker left in hand"),
        ),
        Option(
            "closer_credit",
            10,
            "points credited to the player who closes",
            0,
            100,
            label=gettext_noop("Credit for closing"),
        ),
        Option(
            "closer_credit_from_hand",
            20,
            "points credited when closing from hand",
            0,
            100,
            label=gettext_noop("Credit for closing from hand"),
        ),
        Option(
            "credit_laid_down",
            False,
            "each player is credited the points he laid down",
            label=gettext_noop("Credit the points each player laid down"),
        ),
        Option(
            "double_from_hand",
            False,
            "closing from hand doubles the others' penalties instead of the credit",
            label=gettext_noop("Closing from hand doubles the others' penalties (instead of the credit)"),
        ),
        Option(
            "keep_joker",
            False,
            "the closer may keep an unused joker for the next hand (recorded)",
            label=gettext_noop("The closer may keep an unused joker"),
        ),
        Option(
            "no_laydown",
            False,
            "nobody lays down: every hand is closed from hand",
            label=gettext_noop("No laying down: every hand closes from hand"),
        ),
        Option(
            "elimination",
            100,
            "a player reaching this total drops out; 0 = open evening",
            0,
            10000,
            label=gettext_noop("Out at (points; 0 = open evening)"),
        ),
        Option(
            "settlement",
            "pairs",
            "how the evening is settled in crowns",
            choices=("pairs", "winner"),
            label=gettext_noop("Settlement in crowns"),
            choice_labels=(
                ("pairs", gettext_noop("every pair settles its difference")),
                ("winner", gettext_noop("everyone pays the winner")),
            ),
        ),
    ),
    decks=2,
    jokers=4,
    ace_high=True,
    max_players=6,
    ace_in_hand=11,
    joker_option="joker_penalty",
    opening_keeps_card=True,
    derive=_zoliky_derive,
)
GIN = FamilyRules(
    key="gin",
    options=(
        Option(
            "knock_limit",
            10,
            "most deadwood a player may knock with",
            0,
            10,
            label=gettext_noop("Knock with at most (points)"),
        ),
        Option("gin_bonus", 25, "bonus for going gin", 0, 100, label=gettext_noop("Gin bonus")),
        Option(
            "undercut_bonus",
            25,
            "bonus for undercutting the knocker",
            0,
            100,
            label=gettext_noop("Undercut bonus"),
        ),
        Option(
            "tie_to_knocker",
            False,
            "equal deadwood goes to the knocker instead of an undercut",
            label=gettext_noop("A tie goes to the knocker"),
        ),
        Option(
            "ace_high",
            False,
            "the ace may also stand above the king (Q-K-A)",
            label=gettext_noop("Ace may also be high (Q-K-A)"),
        ),
        Option(
            "target",
            150,
            "the game ends when a player reaches this; 0 = open",
            0,
            10000,
            label=gettext_noop("Game to (points; 0 = open)"),
        ),
    ),
    decks=1,
    jokers=0,
    ace_high=False,
    max_players=2,
    ace_eleven_in_melds=False,
    layoffs=True,
    largest_hand=11,  # ten dealt and one drawn
    derive=_gin_derive,
)
CAROUSEL = FamilyRules(
    key="carousel",
    options=(
        Option(
            "decks",
            2,
            "decks in play: 1 for two players (one joker), else 2",
            1,
            2,
            derived=True,
            label=gettext_noop("Decks in play"),
        ),
        Option(
            "knock_limit",
            5,
            "most points in hand a player may knock with",
            0,
            50,
            label=gettext_noop("Knock with at most (points)"),
        ),
        Option(
            "joker_value",
            25,
            "value of a joker left in hand",
            0,
            100,
            label=gettext_noop("Value of a joker left in hand"),
        ),
        Option(
            "undercut_bonus",
            10,
            "bonus for a winner who did not knock",
            0,
            100,
            label=gettext_noop("Undercut bonus"),
        ),
        Option(
            "out_bonus",
            25,
            "bonus for going out with all cards played",
            0,
            100,
            label=gettext_noop("Bonus for going out"),
        ),
        Option(
            "target",
            150,
            "the game ends after a hand in which a player reaches this; 0 = open",
            0,
            10000,
            label=gettext_noop("Game to (points; 0 = open)"),
        ),
        Option(
            "game_bonus",
            100,
            "bonus to each player past the target at the end",
            0,
            1000,
            label=gettext_noop("Game bonus past the target"),
        ),
        Option(
            "hand_win_bonus",
            25,
            "bonus at the end for each hand won",
            0,
            100,
            label=gettext_noop("Bonus per hand won, at the end"),
        ),
    ),
    decks=2,
    jokers=2,
    ace_high=True,
    max_players=5,
    joker_option="joker_value",
    derive=_carousel_derive,
    for_players=_carousel_decks,
)
RUMMIKUB = FamilyRules(
    key="rummikub",
    options=(
        Option(
            "opening_points",
            30,
            "points the first laydown must reach from the rack",
            0,
            200,
            label=gettext_noop("First laydown at least (points)"),
        ),
        Option(
            "joker_penalty",
            30,
            "penalty for a joker left on the rack",
            0,
            100,
            label=gettext_noop("Penalty for a joker left in hand"),
        ),
        Option(
            "hands",
            0,
            "agreed number of hands; 0 = open",
            0,
            100,
            label=gettext_noop("Number of hands (0 = open)"),
        ),
    ),
    tiles=True,
    decks=2,
    jokers=2,
    ace_high=False,
    max_players=4,
    joker_option="joker_penalty",
    solver_max=24,
)

# The registry: every family the engine plays, in the order lists show them.
_ROWS: dict[Family, FamilyRules] = {}
_OPTIONS: dict[Family, Mapping[str, Option]] = {}
OPTIONS: Mapping[Family, Mapping[str, Option]] = MappingProxyType(_OPTIONS)  # a live view


class _Families(Sequence[Family]):
    """The registered families' keys, in order; a live view (a family registered later is in)."""

    def __getitem__(self, index: int) -> Family:  # type: ignore[override]
        return tuple(_ROWS)[index]

    def __len__(self) -> int:
        return len(_ROWS)

    def __iter__(self) -> Iterator[Family]:
        return iter(tuple(_ROWS))

    def __contains__(self, key: object) -> bool:
        return key in _ROWS

    def __repr__(self) -> str:
        return repr(tuple(_ROWS))


FAMILIES: Sequence[Family] = _Families()


def register_rules(row: FamilyRules) -> None:
    """Add a family to the engine (an existing key is refused: one row per family)."""
    if row.key in _ROWS:
        raise ValueError(f"family {row.key!r} is registered already")
    names = [option.name for option in row.options]
    if len(set(names)) != len(names):
        raise ValueError(f"family {row.key!r} names an option twice")
    _ROWS[row.key] = row
    _OPTIONS[row.key] = MappingProxyType({option.name: option for option in row.options})


def unregister_rules(key: Family) -> None:
    """Remove a family registered with :func:`register_rules` (tests of a family of their own)."""
    _ROWS.pop(key, None)
    _OPTIONS.pop(key, None)


for _row in (ZOLIKY, GIN, CAROUSEL, RUMMIKUB):
    register_rules(_row)


def family_rules(family: str) -> FamilyRules:
    """The row of ``family``; EngineError ``unknown_family`` for an unregistered one."""
    row = _ROWS.get(family)
    if row is None:
        raise EngineError(
            "unknown_family", f"unknown rule family {family!r} (one of: {', '.join(FAMILIES)})", family=family
        )
    return row


def table_options(family: str, players: int) -> Mapping[str, OptionValue]:
    """The options of ``family`` that ``players`` at the table set (none for most families)."""
    row = family_rules(family)
    return row.for_players(players) if row.for_players is not None else {}


def rules_key(rules: RuleSet) -> tuple[object, ...]:
    """``rules`` named by value, for a dictionary key (a RuleSet holds its options in a mapping,
    so it cannot be hashed itself): every field, the options in their fixed order."""
    return tuple(
        tuple(rules.options.items()) if name == "options" else getattr(rules, name)
        for name in RuleSet.__dataclass_fields__
    )


def rule_set(family: str, options: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of ``family`` with ``options`` (raw or typed values) over the defaults."""
    row = family_rules(family)
    specs = OPTIONS[row.key]
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
    return row.rule_set(values)


def parse_settings(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings from ``--set`` into a dict; a malformed one raises EngineError."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise EngineError("bad_setting", f"--set expects NAME=VALUE, not {pair!r}", setting=pair)
        result[name.strip()] = value
    return result
