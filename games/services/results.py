"""The derived rows of a game: a ``Score`` per player per hand and a ``Result`` per seat.

Written inside the write's transaction that changed the game (hands, its end, its players),
from the one scoring of the game that the write already did, so they never disagree with the
score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import EngineError
from games.models import Game, Hand, Result, Score, Seat
from games.sheet import game_rules
from games.signals import results_changed
from scoring.game import GameState, score_game
from scoring.ranking import seat_results


def score(game: Game, seats: Sequence[Seat], hands: Sequence[Hand]) -> GameState:
    """Score ``game`` with these hands (in sheet order); raises the first hand's error."""
    return score_game(
        rules=game_rules(game=game),
        players=[seat.name for seat in seats],
        hands=[hand.outcome for hand in hands],
        ended=game.ended,
        hand_limit=game.hand_limit,
    )


def store_derived(
    game: Game, seats: Sequence[Seat], hands: Sequence[Hand], state: GameState, *, took_number: bool = False
) -> None:
    """Rewrite the game's scores and results from ``state`` (the scoring of ``hands``), and save
    the game's version (``updated_at``); ``took_number``: also its ``next_hand_number``, which
    the write's new hand took (one UPDATE of the game for both)."""
    by_name = {seat.name: seat for seat in seats}
    wanted = {
        (hand.pk, by_name[name].pk): points
        for hand, result in zip(hands, state.hands, strict=True)
        for name, points in result.points.items()
    }
    # Only the rows that differ are written: a hand added writes its own scores, not the whole
    # game's again (test_results checks the rows always equal a fresh scoring).
    kept: set[tuple[int, int]] = set()
    gone: list[int] = []
    changed: list[Score] = []
    for pk, hand_id, seat_id, points in Score.objects.filter(hand__game=game).values_list(
        "pk", "hand_id", "seat_id", "points"
    ):
        key = (hand_id, seat_id)
        if key not in wanted:
            gone.append(pk)
        else:
            kept.add(key)
            if wanted[key] != points:
                changed.append(Score(pk=pk, hand_id=hand_id, seat_id=seat_id, points=wanted[key]))
    if gone:
        Score.objects.filter(pk__in=gone).delete()
    if changed:
        Score.objects.bulk_update(changed, ["points"])
    Score.objects.bulk_create(
        Score(hand_id=hand_id, seat_id=seat_id, points=points)
        for (hand_id, seat_id), points in wanted.items()
        if (hand_id, seat_id) not in kept
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
    game.save(update_fields=["updated_at", "next_hand_number"] if took_number else ["updated_at"])
    if game.club_id is not None:
        results_changed.send(sender=Game, game=game, finished=state.finished)


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
