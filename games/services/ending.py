"""Would this hand end the game? Asked before a hand is saved, so that a hand that ends the
game (a target passed, the last hand of a set number, the last player left) says so first.

Read-only (a dry run of :func:`games.services.hands.hand_record`): the game is scored with the
hand added, nothing is stored. Any family: the scoring says whether an end condition is met
(``finish_reason``) and who won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import EngineError
from games.services.hands import MAX_HAND_POINTS
from games.sheets.sheet import Sheet
from scoring.game import rescore


@dataclass(frozen=True)
class Ending:
    reason: str  # scoring's finish_reason: "target" | "last_player" | "hands" | "ended"
    winners: tuple[str, ...]  # empty while counts are missing (nothing final is decided)


def hand_ending(*, sheet: Sheet, outcome: Mapping[str, object]) -> Ending | None:
    """How the game ends if ``outcome`` is recorded as its next hand; None when it goes on, or
    when the hand does not score (the save says why, at its field)."""
    if sheet.state is None or sheet.closed:
        return None
    try:
        scored = rescore(
            rules=sheet.rules,
            players=sheet.players,
            hands=[*(row.hand.outcome for row in sheet.rows), dict(outcome)],
            ended=sheet.game.ended,
            hand_limit=sheet.game.hand_limit,
            as_typed={len(sheet.rows)},
        )
    except EngineError:
        return None
    state = scored.state
    if state.finish_reason is None:
        return None
    if any(abs(points) > MAX_HAND_POINTS for points in state.hands[-1].points.values()):
        return None  # refused by the save, which says so at the field
    return Ending(reason=state.finish_reason, winners=tuple(state.winners))
