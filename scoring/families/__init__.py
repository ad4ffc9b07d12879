"""The rule families: one module per family behind one protocol, and the registry.

A family module (``zoliky.py``, ``gin.py``, ``carousel.py``, ``rummikub.py``) holds everything
scoring knows of its family: its facts (:class:`FamilyInfo`: what a page or a rule asks, "is a
lower total better?", "who empties his hand?"), the fields of its outcome, the parser that
validates an outcome, the scorer of a hand, the reader of a hand's kind, its end rule, its end
bonuses, its leaders, the text that says how a hand is scored, an example hand, the example
outcomes the API's schema shows, the turn timer its tables run (:class:`TurnTimer`) and its
words (:class:`Vocabulary`: how the pages name its roles, flags and kinds of hand). The
engine's facts (deck, card values, house rules) are the family's row in ``engine.rules``
(:class:`~engine.rules.FamilyRules`), which :func:`register` registers with it.

Nothing outside the family modules asks which family it holds: it asks the registry
(:func:`family`, :func:`family_info`) and the family answers. Adding a family is writing its
module and registering it; docs/design/scoring.md says how. Display names, words and rules
text are marked for translation with the engine's identity ``gettext_noop`` (or, for the rules text,
with the translation functions the web layer passes in); the web layer translates them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from engine.messages import gettext_noop
from engine.rules import FamilyRules, register_rules, unregister_rules

if TYPE_CHECKING:
    import random

    from engine.rules import RuleSet

    from ..scored import Bonus, HandKind, HandResult

CountKind = Literal["cards", "tiles"]
Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """The turn timer a table's phone runs unless the players set other times (docs/RULES.md,
    each family's "Time at the table").

    ``turn``: every turn has ``seconds``; passing starts the next player's turn afresh.
    ``chess``: every player has ``seconds`` for the hand on a clock of his own that runs on his
    turns; passing adds ``increment`` seconds to it. ``at_zero`` is what the phone says when the
    time runs out (marked for translation): the table applies it, the site records nothing."""

    style: Literal["turn", "chess"]
    seconds: int
    increment: int
    at_zero: str


# A turn of a minute, and no penalty the rules know of: the table decides what a late turn costs.
PLAIN_TURN = TurnTimer("turn", 60, 0, gettext_noop("Time's up"))


@dataclass(frozen=True, slots=True)
class Role:
    """An outcome field naming the player who ended the hand (closed, knocked, went out), with
    the words the pages say it in (marked for translation; the web layer translates)."""

    name: str
    question: str  # the hand form's label: "Who closed?"
    did: str  # a stored hand's one-line reading, ``%(name)s``: the player ("%(name)s closed")
    nobody: str = ""  # the choice naming nobody, where the role may name nobody
    unanswered: str = ""  # said when neither a player nor nobody was chosen ("": "Choose one.")


@dataclass(frozen=True, slots=True)
class Flag:
    """A yes/no fact of a hand (closed from hand, gin), with its words."""

    name: str
    label: str  # the hand form's tick
    said: str = ""  # in a stored hand's one-line reading when set ("": not said)
    hint: str = ""  # said under the tick before anyone types
    option: str | None = None  # offered only under this house rule, and stored only when set
    # Set, the player in the family's ``emptied_role`` holds nothing (gin): his count may stay
    # empty on the hand form, which then takes 0.
    empties: bool = False


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of hand the family's :meth:`RuleFamily.kind` reads, with its words."""

    name: str
    short: str  # on the score sheet ("knock", "closed from hand")
    line: str  # after a save, ``%(name)s``: who ended the hand ("%(name)s knocked")
    nobody: str  # the line when nobody ended it ("the stock ran out")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A family's words: its roles and flags in form order, the kinds its hands end in. The
    pages, forms, summaries and API examples read them here, never a table of their own, so a
    family brings its words with it."""

    roles: tuple[Role, ...] = ()
    flags: tuple[Flag, ...] = ()
    kinds: tuple[Kind, ...] = ()

    def role(self, name: str) -> Role | None:
        return next((role for role in self.roles if role.name == name), None)

    def flag(self, name: str) -> Flag | None:
        return next((flag for flag in self.flags if flag.name == name), None)

    def kind(self, name: str) -> Kind | None:
        return next((kind for kind in self.kinds if kind.name == name), None)

    def merged(self, other: Vocabulary) -> Vocabulary:
        """Both vocabularies, a name this one has already kept as it is."""
        return Vocabulary(
            (*self.roles, *(r for r in other.roles if self.role(r.name) is None)),
            (*self.flags, *(f for f in other.flags if self.flag(f.name) is None)),
            (*self.kinds, *(k for k in other.kinds if self.kind(k.name) is None)),
        )


@dataclass(frozen=True, slots=True)
class FamilyInfo:
    key: str
    name: str  # English display name, marked for translation
    lower_is_better: bool  # penalty points (Žolíky) rather than points won
    # The outcome's role fields, in the order the hand form asks them; ``emptied_role`` is the
    # one naming the player whose hand is empty by definition (no count asked of him).
    roles: tuple[str, ...]
    emptied_role: str
    role_required: bool  # a hand always names the player in ``emptied_role``
    flags: tuple[str, ...]  # yes/no facts of a hand (closed from hand, gin...), in form order
    # Gin: the knocker's melds may be declared and both whole hands given, so the engine finds
    # deadwood and layoffs; the counts are then ``hands``, else ``deadwood``. Others: ``left``.
    declares_melds: bool
    count: CountKind  # what is left in a hand
    settles_in_crowns: bool
    opening: bool  # a player's first laydown must reach a minimum (checked by the engine)
    # Players drop out during a game (Žolíky's elimination). Only then can a correction bring a
    # player back into hands recorded without him, so only then can a hand miss a count.
    eliminates: bool
    min_players: int
    max_players: int
    # The table size a tournament prefers when seating (tables hold min..max_players).
    table_preferred: int
    # The house rule whose value the running totals head for, drawn as a line on the chart of
    # the evening: Žolíky's elimination limit (a total to stay under, as ``lower_is_better``
    # says), the target of gin and Carousel (one to reach). None: no such line (Rummikub).
    # The option's value 0 (an open evening) draws no line either.
    chart_line: str | None = None
    timer: TurnTimer = PLAIN_TURN
    # The words of ``roles``, ``flags`` and the kinds of the family's hands.
    words: Vocabulary = Vocabulary()


def make_info(
    rules: FamilyRules,
    name: str,
    *,
    lower_is_better: bool,
    roles: tuple[Role, ...],
    emptied_role: str,
    role_required: bool,
    preferred: int,
    kinds: tuple[Kind, ...],
    flags: tuple[Flag, ...] = (),
    declares_melds: bool = False,
    settles_in_crowns: bool = False,
    eliminates: bool = False,
    chart_line: str | None = None,
    timer: TurnTimer = PLAIN_TURN,
) -> FamilyInfo:
    """A family's facts; what the engine's row says already (count, table sizes, an opening
    minimum) is read from it, not stated again. The roles, flags and kinds come with their
    words (:class:`Vocabulary`); ``info.roles`` and ``info.flags`` are their names."""
    return FamilyInfo(
        key=rules.key,
        name=name,
        lower_is_better=lower_is_better,
        roles=tuple(role.name for role in roles),
        emptied_role=emptied_role,
        role_required=role_required,
        flags=tuple(flag.name for flag in flags),
        declares_melds=declares_melds,
        count="tiles" if rules.tiles else "cards",
        settles_in_crowns=settles_in_crowns,
        opening=any(option.name == "opening_points" for option in rules.options),
        eliminates=eliminates,
        min_players=rules.min_players,
        max_players=rules.max_players,
        table_preferred=preferred,
        chart_line=chart_line,
        timer=timer,
        words=Vocabulary(roles, flags, kinds),
    )


@dataclass(frozen=True, slots=True)
class Example:
    """A fixed hand of a family, scored on the rules page under the game's rules: who sat, the
    outcome as the score sheet stores it, and what happened in words (marked for translation;
    ``%(player)s``: the player named)."""

    players: tuple[str, ...]
    outcome: Mapping[str, object]
    said: str
    named: str


class RuleFamily(Protocol):
    """What a family module provides (``base.StandardFamily`` gives the common defaults)."""

    @property
    def rules(self) -> FamilyRules: ...  # the engine's row

    @property
    def info(self) -> FamilyInfo: ...

    @property
    def fields(self) -> tuple[str, ...]: ...  # the outcome's fields; any other is refused

    @property
    def example(self) -> Example: ...

    # The API schema's example outcomes of a recorded hand: (title, outcome) pairs.
    @property
    def api_examples(self) -> tuple[tuple[str, Mapping[str, object]], ...]: ...

    @property
    def cli_fields(self) -> str: ...  # the command line's help on the outcome ("": its fields)

    @property
    def cli_results(self) -> str: ...  # the command line's help on the result's details

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> object:
        """The typed outcome of ``raw`` (fields checked, ``players`` seated for the hand)."""
        ...

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        """The hand's result from an outcome :meth:`parse` returned."""
        ...

    def kind(self, details: Mapping[str, object]) -> HandKind:
        """The kind of a scored hand, from its result's details."""
        ...

    def elimination(self, rules: RuleSet) -> int:
        """The total at which a player drops out; 0: nobody does."""
        ...

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        """Why the game is over after hand ``number`` (totals so far, players remaining)."""
        ...

    def end_bonuses(
        self,
        rules: RuleSet,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        hands_won: Mapping[str, int],
    ) -> list[Bonus]:
        """The bonuses of a finished game."""
        ...

    def leaders(
        self,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        active: Sequence[str],
        reason: str | None,
    ) -> tuple[str, ...]:
        """The best totals now (the winners once the game is finished)."""
        ...

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        """A plausible random outcome for the players ``active`` (data for benchmarks)."""
        ...

    def how_scored(self, options: Mapping[str, object], _: Translate, ngettext: TranslatePlural) -> list[str]:
        """How a hand is scored under ``options``, in the language of the functions given."""
        ...


# The families shipped, in the order lists show them; loaded on first use (their modules build
# on the rest of scoring, which reads this registry).
_BUILT_IN = ("zoliky", "gin", "carousel", "rummikub")
_FAMILIES: dict[str, RuleFamily] = {}
_started = False  # the loading thread's own nested reads see the families registered so far
_ready = False
# A server's threads may ask at once: the others wait for the whole registry, never a part.
_LOADING = threading.RLock()


def _load() -> dict[str, RuleFamily]:
    global _started, _ready
    if _ready:
        return _FAMILIES
    with _LOADING:
        if not _started:
            _started = True
            from importlib import import_module

            for name in _BUILT_IN:
                register(import_module(f"{__name__}.{name}").FAMILY, engine_registered=True)
            _ready = True
    return _FAMILIES


def register(family: RuleFamily, *, engine_registered: bool = False) -> None:
    """Add ``family`` to scoring and its row to the engine (``engine_registered``: the engine
    has it already, as for the families it ships). A key registered already is refused."""
    families = _load()
    key = family.info.key
    if key in families or family.rules.key != key:
        raise ValueError(f"family {key!r} is registered already, or its row has another key")
    if not engine_registered:
        register_rules(family.rules)
    families[key] = family


def unregister(key: str) -> None:
    """Remove a family added with :func:`register` (a test's family of its own)."""
    if _load().pop(key, None) is not None:
        unregister_rules(key)


def family(key: str) -> RuleFamily:
    """The family ``key``; KeyError for an unknown one."""
    return _load()[key]


def family_info(key: str) -> FamilyInfo:
    """The facts of ``key``; KeyError for an unknown one."""
    return _load()[key].info


def families() -> tuple[RuleFamily, ...]:
    """Every registered family, in order."""
    return tuple(_load().values())


class _Infos(Mapping[str, FamilyInfo]):
    """The facts of every registered family, by key: a live view of the registry."""

    def __getitem__(self, key: str) -> FamilyInfo:
        return _load()[key].info

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_load()))

    def __len__(self) -> int:
        return len(_load())


FAMILY_INFO: Mapping[str, FamilyInfo] = _Infos()


def every_word() -> Vocabulary:
    """The words of every registered family at once (a family registered earlier keeps a
    name), for a stored outcome read without its family."""
    words = Vocabulary()
    for registered in families():
        words = words.merged(registered.info.words)
    return words
