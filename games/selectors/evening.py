"""The whole evening of a game: the games the same players played at the same table one after
another (its rematch chain), each game's totals as stored, and their settlement at once.

Read from the games' ``Result`` rows whenever it is asked for, never stored: a correction or an
undo in any of the games rewrites that game's results, so the evening always follows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db.models import Exists, OuterRef
from django.db.models.expressions import RawSQL

from games import rows
from games.models import Game, Hand, Result
from games.sheet import game_rules
from scoring.evening import settle_evening
from scoring.families import family_info
from scoring.settlement import Settlement


@dataclass(frozen=True)
class EveningGame:
    game: Game
    totals: dict[str, int]  # penalty points by the evening's names
    incomplete: bool  # some count of the game is missing


@dataclass(frozen=True)
class Evening:
    game: Game  # the game it was asked for
    players: tuple[str, ...]  # seat order, as that game names them
    games: tuple[EveningGame, ...]  # in the order they were started
    settlement: Settlement | None  # None while a count is missing in one of the games

    @property
    def incomplete(self) -> tuple[EveningGame, ...]:
        return tuple(g for g in self.games if g.incomplete)


@cache
def _chain_sql() -> str:
    """The ids of the games linked to one by rematches, both ways: up to the chain's first
    game, then every rematch of a rematch down from it."""
    game, gid, parent = rows.table(Game), rows.column(Game, "id"), rows.column(Game, "rematch_of")
    return (
        f"WITH RECURSIVE up(gid, parent) AS ("
        f"SELECT {gid}, {parent} FROM {game} WHERE {gid} = %s "
        f"UNION SELECT g.{gid}, g.{parent} FROM {game} g JOIN up ON g.{gid} = up.parent), "
        f"down(gid) AS (SELECT gid FROM up WHERE parent IS NULL "
        f"UNION SELECT g.{gid} FROM {game} g JOIN down ON g.{parent} = down.gid) "
        f"SELECT gid FROM down"
    )


def evening_of(*, game: Game) -> Evening | None:
    """The evening ``game`` belongs to (1 query): the games of its rematch chain of the same
    family with the same players, deleted ones left out, and their settlement (None while a
    count is missing). None for a family not settled in crowns."""
    if not family_info(game.family).settles_in_crowns:
        return None
    results = list(
        Result.objects.filter(
            game_id__in=RawSQL(_chain_sql(), [game.pk]), game__deleted_at=None, game__family=game.family
        )
        .select_related("game", "seat")
        .annotate(
            incomplete=Exists(Hand.objects.filter(game_id=OuterRef("game_id"), outcome__has_key="missing"))
        )
        .order_by("game__created_at", "game_id", "seat__position")
    )
    by_game: dict[int, list[Result]] = {}
    for result in results:
        by_game.setdefault(result.game_id, []).append(result)
    own = by_game.get(game.pk, [])
    names = {r.player_id: r.seat.name for r in own}
    games = tuple(
        EveningGame(
            game=found[0].game,
            totals={names[r.player_id]: r.total for r in found},
            incomplete=any(r.incomplete for r in found),  # type: ignore[attr-defined]
        )
        for found in by_game.values()
        if len(found) == len(own) and {r.player_id for r in found} == set(names)
    )
    players = tuple(names.values())
    settlement = (
        settle_evening(rules=game_rules(game=game), games=[g.totals for g in games])
        if games and not any(g.incomplete for g in games)
        else None
    )
    return Evening(game=game, players=players, games=games, settlement=settlement)
