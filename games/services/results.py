"""The derived rows of a game: a ``Score`` per player per hand and a ``Result`` per seat.

Written inside the write's transaction that changed the game (hands, its end, its players),
from the one scoring of the game that the write already did, so they never disagree with the
score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.errors import EngineError
from games.models import Game, Hand, Result, Score, Seat
from games.sheet import game_rules
from scoring.game import GameState, score_game
from scoring.ranking import seat_results


def score(game: Game, seats: Sequence[Seat], hands: Sequence[Hand]) -> GameState:
    """Score ``game`` with these hands (in sheet order); raises the first hand's error."""
    return score_game(
        rules=game_rules(game=game),
        players=[seat.name for seat in seats],
        hands=[hand.outcome for hand in hands],
        ended=game.ended,
    )


def store_derived(game: Game, seats: Sequence[Seat], hands: Sequence[Hand], state: GameState) -> None:
    """Rewrite the game's scores and results from ``state`` (the scoring of ``hands``)."""
    by_name = {seat.name: seat for seat in seats}
    Score.objects.filter(hand__game=game).delete()
    Score.objects.bulk_create(
        Score(hand=hand, seat=by_name[name], points=points)
        for hand, result in zip(hands, state.hands, strict=True)
        for name, points in result.points.items()
    )
    results = seat_results(state)
    Result.objects.filter(game=game).delete()
    Result.objects.bulk_create(
        Result(
            game=game,
            seat=seat,
            player_id=seat.player_id,
            total=results[seat.name].total,
            place=results[seat.name].place,
            winner=results[seat.name].winner,
            finished=results[seat.name].finished,
            eliminated_in=results[seat.name].eliminated_in,
            hands=results[seat.name].hands,
        )
        for seat in seats
    )
    game.save(update_fields=["updated_at"])


def rebuild(game: Game) -> tuple[GameState, list[Seat], list[Hand]] | None:
    """Re-derive everything of ``game`` from its hands (after its end changed). Hands that no
    longer score (which the writes prevent) leave the rows as they were."""
    seats = list(Seat.objects.filter(game=game))
    hands = list(Hand.objects.filter(game=game))
    try:
        state = score(game, seats, hands)
    except EngineError:
        return None
    store_derived(game, seats, hands, state)
    return state, seats, hands
