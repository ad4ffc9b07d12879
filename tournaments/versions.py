"""What names a version of a tournament, and what is computed once per version.

Three tags, read in two queries from the rows every write already stamps (a game's
``updated_at``, the versions of the tournament, its rounds, entries and players):

- ``seating``: who is registered and who sits where (the tournament, its rounds and entries,
  their players' names): every seating, move, drop or start saves a round or an entry.
- ``standings``: what the standings count (the entries, the rounds, and the games of tables
  that count: finished, or of a confirmed round). A hand at a table still playing leaves it
  alone, so the standings of a big open are computed once per finished table, not per hand.
- ``live``: everything the tournament's tables show (every game's last write as well).

What is computed from them is kept in each process under a key that names the tournament and
the tag: a new tag is a new key, and nothing is ever invalidated by hand (a release starts
every process empty).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from django.db.models import Count, Exists, Max, OuterRef, Q, Sum

from games.models import Game, Result
from games.sheets.cache import Recent
from tournaments.models import Entry, Round, Tournament

# What this process computed lately, by tournament, part and version (values never None).
_KEPT: Recent[tuple[int, str, str], object] = Recent(64)


@dataclass(frozen=True)
class Versions:
    seating: str
    standings: str
    live: str


def _tag(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def tournament_versions(tournament: Tournament, rounds: Sequence[Round]) -> Versions:
    """The tournament's three tags (2 queries)."""
    confirmed = Round.Status.CONFIRMED
    finished = Exists(Result.objects.filter(game=OuterRef("pk"), finished=True))
    counts = Q(tournament_table__round__status=confirmed) | Q(finished)
    games = Game.objects.filter(tournament_table__round__tournament=tournament).aggregate(
        n=Count("pk"),
        last=Max("updated_at"),
        counted=Count("pk", filter=counts),
        counted_last=Max("updated_at", filter=counts),
        counted_ids=Sum("pk", filter=counts),
    )
    # Count, largest id and the sums name the set: an entry removed and another added changes
    # the largest id, a rename or a merge a player's version.
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"),
        top=Max("pk"),
        versions=Sum("version"),
        players=Sum("player_id"),
        player_versions=Sum("player__version"),
    )
    base = (
        tournament.pk,
        tournament.version,
        tournament.updated_at,
        [(r.pk, r.number, r.status, r.version) for r in rounds],
        sorted(entries.items()),
    )
    seating = _tag(base)
    standings = _tag(seating, games["counted"], games["counted_last"], games["counted_ids"])
    return Versions(seating=seating, standings=standings, live=_tag(standings, games["n"], games["last"]))


def once[T](tournament: Tournament, version: str, part: str, compute: Callable[[], T]) -> T:
    """``compute()`` for this version of the tournament, computed by this process's first
    request that asks. Two requests that miss at once both compute it: the same value, as it
    is named by its inputs."""
    return cast(T, _KEPT.get_or_make((tournament.pk, part, version), compute))


def forget_kept() -> None:
    """Drop what this process keeps: it then computes anew as another server does. For
    benchmarks and tests."""
    _KEPT.clear()
