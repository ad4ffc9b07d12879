"""The whole evening of a game: the games the same players played at the same table one after
another, linked by rematches (its rematch chain) or put in the evening by a scorekeeper, each
game's totals as stored, and their settlement at once.

Read from the games' ``Result`` rows whenever it is asked for, never stored: a correction or an
undo in any of the games rewrites that game's results, so the evening always follows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.expressions import RawSQL

from games.models import Game, Hand, Result
from games.sheets import rows
from games.sheets.sheet import game_rules
from scoring.evening import settle_evening
from scoring.families import family_info
from scoring.settlement import Settlement


@dataclass(frozen=True)
class EveningGame:
    game: Game
    totals: dict[str, int]  # penalty points by the evening's names
    incomplete: bool  # some count of the game is missing

    @property
    def put_in(self) -> bool:
        """A scorekeeper put the game in the evening (it can be taken out again)."""
        return self.game.evening_id is not None


@dataclass(frozen=True)
class Evening:
    game: Game  # the game it was asked for
    players: tuple[str, ...]  # seat order, as that game names them
    player_keys: frozenset[str]  # the players' name keys (games.text.names.name_key)
    games: tuple[EveningGame, ...]  # in the order they were started
    settlement: Settlement | None  # None while a count is missing in one of the games

    @property
    def incomplete(self) -> tuple[EveningGame, ...]:
        return tuple(g for g in self.games if g.incomplete)


def evening_of(*, game: Game) -> Evening | None:
    """The evening ``game`` belongs to (1 query): the games linked to it (rematches, games put
    in its evening) of the same family with the same players, deleted ones left out, and their
    settlement (None while a count is missing). None for a family not settled in crowns."""
    if not family_info(game.family).settles_in_crowns:
        return None
    results = list(
        Result.objects.filter(
            game_id__in=RawSQL(rows.evening_sql(), [game.pk]), game__deleted_at=None, game__family=game.family
        )
        .select_related("game", "seat", "player")
        .annotate(
            incomplete=Exists(Hand.objects.filter(game_id=OuterRef("game_id"), outcome__has_key="missing"))
        )
        .order_by("game__created_at", "game_id", "seat__position")
    )
    by_game: dict[int, list[Result]] = {}
    for result in results:
        by_game.setdefault(result.game_id, []).append(result)
    own = by_game.get(game.pk, [])
    # The same players by their names' keys: a game without a club or an owner has players of
    # its own, and its next one, started by hand, has new ones of the same names.
    names = {r.player.key: r.seat.name for r in own}
    games = tuple(
        EveningGame(
            game=found[0].game,
            totals={names[r.player.key]: r.total for r in found},
            incomplete=any(r.incomplete for r in found),  # type: ignore[attr-defined]
        )
        for found in by_game.values()
        if len(found) == len(own) and {r.player.key for r in found} == set(names)
    )
    players = tuple(names.values())
    settlement = (
        settle_evening(rules=game_rules(game=game), games=[g.totals for g in games])
        if games and not any(g.incomplete for g in games)
        else None
    )
    return Evening(
        game=game, players=players, player_keys=frozenset(names), games=games, settlement=settlement
    )


# How far from a game another may have been played to be offered for its evening.
EVENING_HOURS = 12


def evening_candidates(*, evening: Evening, limit: int = 10) -> list[Game]:
    """The games a scorekeeper may put in this evening (1 query): of the same family and
    players, played within ``EVENING_HOURS`` of the game, not deleted, not a tournament's table,
    not in this evening or another one yet; the latest first."""
    game = evening.game
    window = timedelta(hours=EVENING_HOURS)
    count = len(evening.player_keys)
    found = (
        Game.objects.filter(
            family=game.family,
            deleted_at=None,
            evening=None,
            event_name="",
            played_at__range=(game.played_at - window, game.played_at + window),
        )
        .exclude(pk__in=[g.game.pk for g in evening.games])
        .annotate(
            result_count=Count("results"),
            same_players=Count("results", filter=Q(results__player__key__in=evening.player_keys)),
        )
        .filter(result_count=count, same_players=count)
        .order_by("-played_at", "-pk")
    )
    return list(found[:limit])
