"""Places in a game: pure functions beside the scoring, used for results and standings.

Competition ranking ("1224"): players who compare equal share a place and the next place
skips. Players still in the game rank above those eliminated; of those eliminated, whoever
stayed in longer ranks higher, then the better total.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .families import family_info
from .game import GameState

K = TypeVar("K", bound=Hashable)


def competition_places[K: Hashable](order: Sequence[K], keys: Mapping[K, object]) -> dict[K, int]:
    """1-based places of ``order`` by ascending ``keys`` (comparable values); equal keys share
    the place of the first of them."""
    ranked = sorted(order, key=lambda p: keys[p])  # type: ignore[arg-type, return-value]
    places: dict[K, int] = {}
    for index, player in enumerate(ranked):
        if index and keys[player] == keys[ranked[index - 1]]:
            places[player] = places[ranked[index - 1]]
        else:
            places[player] = index + 1
    return places


def game_places(
    players: Sequence[str],
    totals: Mapping[str, int],
    *,
    lower_is_better: bool,
    eliminated_in: Mapping[str, int],
) -> dict[str, int]:
    """The place of each player of a game (provisional while it goes on)."""
    keys = {
        p: (
            p in eliminated_in,
            -eliminated_in.get(p, 0),
            totals[p] if lower_is_better else -totals[p],
        )
        for p in players
    }
    return competition_places(players, keys)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result in a game, as the ``Result`` rows store it."""

    total: int
    place: int
    winner: bool
    finished: bool
    eliminated_in: int | None  # 1-based hand after which he dropped out
    hands: int  # hands he was dealt in


def seat_results(state: GameState) -> dict[str, SeatResult]:
    """Every player's result in a scored game (places provisional while it goes on)."""
    eliminated = {e.player: e.hand for e in state.eliminated}
    places = game_places(
        state.players,
        state.totals,
        lower_is_better=family_info(state.family).lower_is_better,
        eliminated_in=eliminated,
    )
    played = len(state.hands)
    return {
        p: SeatResult(
            total=state.totals[p],
            place=places[p],
            winner=p in state.winners,
            finished=state.finished,
            eliminated_in=eliminated.get(p),
            hands=eliminated.get(p, played),
        )
        for p in state.players
    }


@dataclass(frozen=True, slots=True)
class HeadToHead:
    games: int
    ahead: int  # games in which the first player placed better
    level: int
    behind: int


def head_to_head(pairs: Sequence[tuple[int, int]]) -> HeadToHead:
    """Record of one player against another over the games both played: ``pairs`` are
    (his place, the other's place) per game; a lower place is better."""
    ahead = sum(1 for mine, theirs in pairs if mine < theirs)
    behind = sum(1 for mine, theirs in pairs if mine > theirs)
    return HeadToHead(games=len(pairs), ahead=ahead, level=len(pairs) - ahead - behind, behind=behind)


def relative_place(place: int, players: int) -> float:
    """0.0 for first, 1.0 for last: compares places across games of different sizes."""
    return (place - 1) / (players - 1) if players > 1 else 0.0
