"""Where round 1 by rating takes its ratings from, when another app knows better than the
club's own list: an app built on tournaments registers a source in its ``AppConfig.ready``
(``register(source)``), and ``services.round_seating.rating_order`` asks the sources in order
before reading the club's ``CurrentRating`` lines. A source returns the shown rating of each
rated player of the tournament ({player id: rating}; the players it leaves out are unrated), or
None when the tournament is none of its business. Tournaments never imports those apps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Tournament
    from tournaments.tournament_data import EntryRow

Source = Callable[["Tournament", Sequence["EntryRow"]], dict[int, int] | None]
_SOURCES: list[Source] = []


def register(source: Source) -> None:
    if source not in _SOURCES:
        _SOURCES.append(source)


def ratings(tournament: Tournament, entries: Sequence[EntryRow]) -> dict[int, int] | None:
    """The first registered source's ratings for the tournament, or None (the club's list)."""
    for source in _SOURCES:
        found = source(tournament, entries)
        if found is not None:
            return found
    return None
