"""What the federations app does when the games app reports a change (``games.signals``): it
hands the change to ``federations.derived``, which marks what it moves."""

from __future__ import annotations

import datetime
from typing import Any

from federations import derived
from games.models import Game
from tournaments.models import Tournament


def results_changed(sender: object, *, game: Game, finished: bool, **kwargs: Any) -> None:
    derived.game_changed(game, finished=finished)


def game_dated(
    sender: object, *, game: Game, before: datetime.datetime, after: datetime.datetime, **kwargs: Any
) -> None:
    derived.game_dated(game, before=before, after=after)


def seats_moved(sender: object, *, club_id: int, game_ids: list[int], **kwargs: Any) -> None:
    derived.games_moved(club_id=club_id, game_ids=game_ids)


def tournament_changed(
    sender: object, *, tournament: Tournament, before: Tournament | None, **kwargs: Any
) -> None:
    derived.tournament_changed(tournament, before)
