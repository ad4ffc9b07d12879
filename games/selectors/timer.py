"""What a table's turn timer starts from (docs/design/table.md, "The turn timer"): the family's
timer, the players of the next hand in seat order and who plays first. The timer itself runs
in the phone (static/js/timer.js); the server keeps nothing of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from games.models import Game
from games.selectors.sheets import recent_sheet
from scoring.families import family_info


@dataclass(frozen=True)
class TimerSetup:
    style: str  # "turn": each turn has ``seconds``; "chess": each player has them for the hand
    seconds: int
    increment: int  # chess: seconds added to a player's clock when he passes
    at_zero: str  # what the phone says at zero, in the request's language
    players: list[str]  # dealt in for the next hand, in seat order
    first: str | None  # who plays first: the seat after the next hand's dealer
    hand: int  # the next hand's place on the sheet: a new one starts the timer afresh


def first_player(players: Sequence[str], dealer: str | None) -> str | None:
    """The player after ``dealer`` in seat order (the dealer's left plays first)."""
    if not players:
        return None
    if dealer is None or dealer not in players:
        return players[0]
    return players[(list(players).index(dealer) + 1) % len(players)]


def timer_setup(*, game: Game) -> TimerSetup:
    """The game's timer as its family starts it (the sheet: none, or 2 queries)."""
    sheet = recent_sheet(game=game)
    timer = family_info(game.family).timer
    players = sheet.dealt_in_next
    return TimerSetup(
        style=timer.style,
        seconds=timer.seconds,
        increment=timer.increment,
        at_zero=gettext(timer.at_zero),
        players=players,
        first=first_player(players, sheet.next_dealer),
        hand=len(sheet.rows) + 1,
    )
