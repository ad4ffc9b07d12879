"""The derived rows of a game: a ``Score`` per player per hand and a ``Result`` per seat.

Written inside the write's transaction that changed the game (hands, its end, its players),
from the one scoring of the game that the write already did, so they never disagree with the
score sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from engine.errors import EngineError
from games.models import Game, Hand, Result, Score, Seat
from games.sheets import rows
from games.sheets.sheet import game_rules
from games.signals import results_changed
from scoring.game import GameState, score_game
from scoring.ranking import SeatResult, seat_results


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
    the write's new hand took (one UPDATE of the game for both).

    Every write of a game comes here, a save among them, so its statements are written out
    (:func:`_sql`, from the models' ``_meta``): the ORM's building of them cost a save more
    than scoring the game (docs/design/performance.md)."""
    sql = _sql()
    by_name = {seat.name: seat for seat in seats}
    wanted = {
        (hand.pk, by_name[name].pk): points
        for hand, result in zip(hands, state.hands, strict=True)
        for name, points in result.points.items()
    }
    # Only the rows that differ are written: a hand added writes its own scores, not the whole
    # game's again (test_results checks the rows always equal a fresh scoring).
    gone: list[tuple[int]] = []
    changed: list[tuple[int, int]] = []
    with connection.cursor() as cursor:
        cursor.execute(sql.scores, [game.pk])
        for pk, hand_id, seat_id, points in cursor.fetchall():
            want = wanted.pop((hand_id, seat_id), None)
            if want is None:
                gone.append((pk,))
            elif want != points:
                changed.append((want, pk))
        if gone:
            cursor.executemany(sql.score_delete, gone)
        if changed:
            cursor.executemany(sql.score_update, changed)
        if wanted:
            cursor.executemany(sql.score_insert, [(*key, points) for key, points in wanted.items()])
        results = seat_results(state)
        cursor.execute(sql.result_delete, [game.pk])
        rows = [(game.pk, seat.pk, seat.player_id, *_columns(results[seat.name])) for seat in seats]
        cursor.executemany(sql.result_insert, rows)
        game.updated_at = timezone.now()  # what ``auto_now`` would set
        updated = connection.ops.adapt_datetimefield_value(game.updated_at)
        if took_number:
            cursor.execute(sql.game_numbered, [updated, game.next_hand_number, game.pk])
        else:
            cursor.execute(sql.game_version, [updated, game.pk])
    if game.club_id is not None:
        results_changed.send(sender=Game, game=game, finished=state.finished)


def _columns(result: SeatResult) -> tuple[int, int, bool, bool, int | None, int]:
    """A seat's result as the statement's last six columns (``_sql().result_insert``)."""
    return (result.total, result.place, result.winner, result.finished, result.eliminated_in, result.hands)


class _Statements(NamedTuple):
    scores: str
    score_delete: str
    score_update: str
    score_insert: str
    result_delete: str
    result_insert: str
    game_version: str
    game_numbered: str


# A Result row's fields in the order store_derived gives them (the seat's three, then _columns).
_RESULT_FIELDS = ("game", "seat", "player", "total", "place", "winner", "finished", "eliminated_in", "hands")


@cache
def _sql() -> _Statements:
    """store_derived's statements, written once from the models' tables and columns."""
    score, hand, result, game = (rows.table(model) for model in (Score, Hand, Result, Game))

    def col(model: type[Model], *names: str) -> str:
        return ", ".join(rows.column(model, name) for name in names)

    def marks(count: int) -> str:
        return ", ".join(["%s"] * count)

    score_id = col(Score, "id")
    return _Statements(
        scores=f"SELECT {', '.join(rows.column(Score, n, 's') for n in ('id', 'hand', 'seat', 'points'))}"
        f" FROM {score} s JOIN {hand} h ON {rows.column(Hand, 'id', 'h')} = {rows.column(Score, 'hand', 's')}"
        f" WHERE {rows.column(Hand, 'game', 'h')} = %s",
        score_delete=f"DELETE FROM {score} WHERE {score_id} = %s",
        score_update=f"UPDATE {score} SET {col(Score, 'points')} = %s WHERE {score_id} = %s",
        score_insert=f"INSERT INTO {score} ({col(Score, 'hand', 'seat', 'points')}) VALUES ({marks(3)})",
        result_delete=f"DELETE FROM {result} WHERE {col(Result, 'game')} = %s",
        result_insert=f"INSERT INTO {result} ({col(Result, *_RESULT_FIELDS)})"
        f" VALUES ({marks(len(_RESULT_FIELDS))})",
        game_version=f"UPDATE {game} SET {col(Game, 'updated_at')} = %s WHERE {col(Game, 'id')} = %s",
        game_numbered=f"UPDATE {game} SET {col(Game, 'updated_at')} = %s,"
        f" {col(Game, 'next_hand_number')} = %s WHERE {col(Game, 'id')} = %s",
    )


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
