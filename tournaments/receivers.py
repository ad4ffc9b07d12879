"""What the tournaments app does when the games app reports a change (``games.signals``)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from games.models import Game
from tournaments.models import RatingEvent
from tournaments.ratings import mark_dirty
from tournaments.tasks import refresh_club


def results_changed(sender: object, *, game: Game, finished: bool, **kwargs: Any) -> None:
    """A club game's results were rewritten: when the game is (or was) rated, mark its club's
    ratings for a rebuild from this game on, and run it once the write has committed."""
    if game.club_id is None:
        return
    if not finished and not RatingEvent.objects.filter(game=game).exists():
        return  # a game under way, never rated: nothing derived from it yet
    mark_dirty(game)
    transaction.on_commit(partial(refresh_club.enqueue, game.club_id))
