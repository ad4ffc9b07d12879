"""A game's score sheet and its history, as the pages show them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.rules import RuleSet
from games.models import Change, Game
from games.sheets import rows
from games.sheets.cache import SHEETS, sheet_version
from games.sheets.sheet import Sheet, build_sheet, game_rules, sheet_ordinals
from scoring.game import GameState, score_game


def recent_sheet(*, game: Game, scored: Sheet | None = None) -> Sheet:
    """The score sheet of ``game`` as this request read it from the database (so its version
    is current): from this process's recent sheets, else scored (:func:`game_sheet`).
    ``scored``: the sheet a committed write of this request left (its one scoring), kept as
    the game's as it now stands, so the next page on this server scores nothing."""
    if scored is not None:
        SHEETS.put(sheet_version(scored.game), scored)
        return scored
    return SHEETS.get_or_make(sheet_version(game), lambda: game_sheet(game=game))


def game_sheet(*, game: Game) -> Sheet:
    """The score sheet: the game scored from its hands (2 queries: seats, hands)."""
    rules = game_rules(game=game)
    players = [seat.name for seat in rows.seats(game)]
    hands = rows.hands(game)
    state: GameState | None
    error: EngineError | None = None
    try:
        state = score_game(
            rules=rules,
            players=players,
            hands=[h.outcome for h in hands],
            ended=game.ended,
            hand_limit=game.hand_limit,
        )
    except EngineError as exc:
        state, error = None, exc
    return build_sheet(game=game, rules=rules, players=players, hands=hands, state=state, error=error)


@dataclass(frozen=True)
class Table:
    """What a hand form needs before a save (no scoring)."""

    rules: RuleSet
    seating: list[str]  # every seat's name, in seat order
    dealt_in: list[str]  # the players not out, in seat order


def game_table(*, game: Game) -> Table:
    """The seats and who is still in: from this server's kept sheet of the game as it stands
    (no query: the page the phone saves from was drawn from it, or the last save on this server
    left it), else from the results the last write stored (1 query)."""
    kept = SHEETS.get(sheet_version(game))
    if kept is not None and kept.state is not None:
        return Table(
            rules=kept.rules,
            seating=list(kept.players),
            dealt_in=kept.dealt_in_next,  # whom the page's form asked about
        )
    results = list(game.results.select_related("seat").order_by("seat__position"))
    seating = [r.seat.name for r in results]
    return Table(
        rules=game_rules(game=game),
        seating=seating,
        dealt_in=[r.seat.name for r in results if r.eliminated_in is None],
    )


@dataclass(frozen=True)
class History:
    changes: list[Change]
    players: list[str]
    labels: dict[int, int]  # hand number -> its place on the score sheet (as the sheet shows it)


def game_history(*, game: Game) -> History:
    """Every change to a game (its hands, its end, its edit link), newest first, with hands
    numbered as on the sheet (4 queries: changes, what undid them, hand numbers, seats)."""
    changes = list(game.changes.select_related("user", "undoes").prefetch_related("undone_by"))
    present = list(game.hands.values_list("number", flat=True))
    numbers = {c.hand_number for c in changes if c.hand_number is not None}
    labels = sheet_ordinals(present, sorted(numbers | set(present)))
    return History(changes=changes, players=[seat.name for seat in game.seats.all()], labels=labels)
