"""The standings as the tournament pages show them: a row per player, computed once per version
of the tournament, with the players who share a rank listed by name; and the organiser's list
of warnings and penalties."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby, pairwise

from games.text.collation import by_name
from scoring.standings import Standing
from tournaments.models import Tournament
from tournaments.tournament_data import (
    Penalty,
    TournamentData,
    compute_standings,
    in_force,
    last_round,
    penalties,
)


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str
    player_id: int
    dropped: bool
    # His warnings and penalties in force, in the order given (the row is marked by them).
    penalties: tuple[Penalty, ...] = ()

    @property
    def rank(self) -> int:
        return self.standing.rank


@dataclass(frozen=True)
class Ranked:
    """What the standings of one version of the tournament are: computed once per version
    (tournaments.versions), whichever page or server asks first."""

    rows: tuple[StandingRow, ...]
    provisional: bool
    finished: bool


def ranked_from(data: TournamentData) -> Ranked:
    given: dict[int, list[Penalty]] = defaultdict(list)
    for penalty in in_force(data):
        given[penalty.entry].append(penalty)
    rows = tuple(
        StandingRow(
            standing=s,
            name=data.entries[s.player].player.name,
            player_id=data.entries[s.player].player_id,
            dropped=data.entries[s.player].dropped_after is not None,
            penalties=tuple(given.get(s.player, ())),
        )
        for s in compute_standings(data)
    )
    return Ranked(rows, data.provisional, last_round(data) is not None)


def in_name_order(rows: Sequence[StandingRow]) -> tuple[StandingRow, ...]:
    """The standings with the players who share a rank, equal on every tie-break, listed by name
    in the reader's language (a final's shared place keeps its players' standings order). The
    tie-break that put the group below the row above stays on the group's first row."""
    out: list[StandingRow] = []
    for _rank, grouped in groupby(rows, key=lambda row: row.rank):
        group = list(grouped)
        if len(group) > 1 and group[0].standing.shared_by is None:
            above = group[0].standing.separated_by
            group = sorted(group, key=lambda row: by_name(row.name))
            group = [
                replace(row, standing=replace(row.standing, separated_by=above if i == 0 else None))
                for i, row in enumerate(group)
            ]
        out.extend(group)
    return tuple(out)


def separations(rows: Sequence[StandingRow]) -> list[tuple[StandingRow, StandingRow]]:
    """Neighbouring rows (above, below), for the page's "what separated them" notes."""
    return list(pairwise(rows))


@dataclass(frozen=True)
class PenaltiesView:
    """The organiser's list of warnings and penalties (undone ones too), newest first."""

    tournament: Tournament
    penalties: list[Penalty]


def penalties_view(*, tournament: Tournament) -> PenaltiesView:
    """Read from the tournament's row itself: no query."""
    return PenaltiesView(tournament, list(reversed(penalties(tournament))))
