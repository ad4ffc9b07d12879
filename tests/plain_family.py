"""A family of the tests' own — a plain rummy with one deck — and the fixture that registers it.

It brings words no shipped family has: the role ``declarer``, the flag ``rummy`` (all cards
laid down at once: the points count twice, or as often as its house rule ``rummy_counts``
says) and the kind of hand ``rummy``. Registering it is
the whole of it: the pages, forms, summaries, API and exports read its words from the registry
(docs/design/scoring.md, "Adding a family"). Its strings are not marked for translation: they
stay out of the catalogues and are shown as written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pytest

from engine.rules import FamilyRules, Option, RuleSet
from scoring.families import (
    Example,
    Flag,
    Kind,
    Role,
    Translate,
    TranslatePlural,
    make_info,
    register,
    unregister,
)
from scoring.families.base import WENT_OUT, StandardFamily, name_of, target_reached
from scoring.reading import Count, check_pack, flag_field, left_in_hands, player_field
from scoring.scored import HandKind, HandResult

PLAIN_RULES = FamilyRules(
    key="plain",
    options=(
        Option(
            "target",
            100,
            "the game ends when a player reaches this; 0 = open",
            0,
            1000,
            label="Game to (points; 0 = open)",
        ),
        # A house rule of its own, with labelled choices.
        Option(
            "rummy_counts",
            2,
            "how many times a rummy's points count",
            choices=(2, 3),
            label="A rummy counts",
            choice_labels=((2, "twice"), (3, "three times")),
        ),
    ),
    decks=1,
    jokers=0,
    ace_high=True,
    max_players=4,
)

DECLARER = Role("declarer", "Who declared?", "%(name)s declared")
RUMMY = Flag("rummy", "Went rummy (all cards at once)", said="rummy!", hint="Going rummy doubles the points.")
RUMMY_KIND = Kind("rummy", "went rummy", "%(name)s went rummy", "rummy")


@dataclass(frozen=True)
class PlainOutcome:
    players: tuple[str, ...]
    declarer: str
    rummy: bool
    left: Mapping[str, Count]


class Plain(StandardFamily):
    """Who goes out scores what the others hold, twice when he went rummy; the game goes to a
    target."""

    rules = PLAIN_RULES
    info = make_info(
        PLAIN_RULES,
        "Plain rummy",
        lower_is_better=False,
        roles=(DECLARER,),
        emptied_role="declarer",
        role_required=True,
        flags=(RUMMY,),
        kinds=(WENT_OUT, RUMMY_KIND),
        preferred=3,
        chart_line="target",
    )
    fields = ("players", "declarer", "rummy", "left")
    example = Example(
        ("Ann", "Bob", "Cid"),
        {"declarer": "Ann", "left": {"Bob": "KH 5S", "Cid": 7}},
        "%(player)s goes out; Bob and Cid count their cards.",
        "Ann",
    )
    api_examples = (("Plain rummy", {"declarer": "Ann", "rummy": True, "left": {"Bob": 5, "Cid": "KH"}}),)

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> PlainOutcome:
        declarer = player_field(raw, "declarer", players, required=True)
        assert declarer is not None
        left = left_in_hands(raw, rules, players, emptied=declarer, with_cards="winner_with_tiles")
        check_pack(rules, *(c.cards or () for c in left.values()))
        return PlainOutcome(players, declarer, bool(flag_field(raw, "rummy")), left)

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, PlainOutcome)
        counts = {p: outcome.left[p].points for p in outcome.players}
        points = dict.fromkeys(outcome.players, 0)
        points[outcome.declarer] = sum(counts.values()) * (
            rules.opt_int("rummy_counts") if outcome.rummy else 1
        )
        details = {"ending": "rummy" if outcome.rummy else "out", "declarer": outcome.declarer}
        return HandResult(rules.family, outcome.players, points, (outcome.declarer,), counts, details)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        return HandKind(str(details.get("ending") or "out"), name_of(details.get("declarer")))

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return target_reached(rules, totals)

    def how_scored(
        self, options: Mapping[str, object], say: Translate, ngettext: TranslatePlural
    ) -> list[str]:
        return [
            say("Who goes out scores the cards left in the others' hands; the game goes to %(target)s.")
            % {"target": options["target"]}
        ]


@pytest.fixture
def plain() -> Iterator[None]:
    """The plain family registered for the test (and removed after it)."""
    register(Plain())
    try:
        yield
    finally:
        unregister("plain")
