"""Reading a hand's outcome: a JSON-like dict in, a typed, validated outcome out.

Each family's module (``scoring.families``) states its outcome's fields (the stable contract,
see README.md in this package), its typed outcome and its parser, built from the blocks in
``scoring.reading``; this module checks the fields and hands the outcome to its family.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.rules import RuleSet

from .errors import ScoringError
from .families import family
from .reading import ZERO as ZERO
from .reading import Count as Count
from .reading import Outcome as Outcome
from .reading import check_player_count as check_player_count
from .reading import hand_players
from .reading import parse_players as parse_players


def parse_outcome(raw: object, rules: RuleSet, players: Sequence[str] | None = None) -> Outcome:
    """Validate ``raw`` (a JSON object) as an outcome of ``rules.family`` (its module parses it).

    ``players`` are the players seated for this hand (the game's active players); when
    None, the outcome's own ``players`` field is required.
    """
    if not isinstance(raw, Mapping):
        raise ScoringError("outcome_not_object")
    rule_family = family(rules.family)
    if "missing" in raw and not rule_family.info.eliminates:
        raise ScoringError("missing_not_allowed", family=rules.family)
    fields = rule_family.fields
    for key in raw:
        if key not in fields:
            raise ScoringError("unknown_field", family=rules.family, field=key, fields=", ".join(fields))
    return rule_family.parse(raw, rules, hand_players(raw, rules, players))
