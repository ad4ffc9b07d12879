"""Small helpers shared by the scoring tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from engine.errors import EngineError
from engine.rules import RuleSet, rule_set
from scoring import HandResult, score_hand
from scoring.messages import MESSAGES


def rules(family: str, **options: object) -> RuleSet:
    return rule_set(family, options)


def hand(family: str, outcome: Mapping[str, object], **options: object) -> HandResult:
    return score_hand(rules=rule_set(family, options), outcome=outcome)


def points(family: str, outcome: Mapping[str, object], **options: object) -> dict[str, int]:
    return dict(hand(family, outcome, **options).points)


def rejected(
    family: str,
    outcome: object,
    code: str,
    players: Sequence[str] | None = None,
    **options: object,
) -> EngineError:
    """Assert the outcome is rejected with ``code`` and a message that is the code's template."""
    with pytest.raises(EngineError) as caught:
        score_hand(rules=rule_set(family, options), outcome=outcome, players=players)
    error = caught.value
    assert error.code == code, (error.code, error.message)
    if code in MESSAGES:
        assert error.message == MESSAGES[code].format(**error.params)
    return error
