"""A player's tournament round by round, as his page in the tournament shows it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import cast

from games.models import Game
from scoring.families import family_info
from scoring.standings import Scheme, Standing, bye_points, table_points
from tournaments.models import Round, Tournament
from tournaments.selectors.view import TournamentView
from tournaments.tournament_data import (
    EntryRow,
    Penalty,
    TableState,
    TournamentData,
    custom_points,
    deciding,
    final_rounds,
    in_force,
    standings_after,
)
from tournaments.versions import once


@dataclass(frozen=True)
class PlayerRound:
    """One round of a player's tournament: where he sat and what it gave him."""

    round: int
    final_stage: int  # 0: a round of the tournament; else the final's stage
    status: str  # the round's status
    table: int | None  # None: a bye, or not seated in this round
    seat: int | None  # 1-based; seat 1 deals first
    game: str | None  # the public id of the table's game (its score sheet)
    bye: bool
    counted: bool  # the table (or the bye) counts for the standings yet
    published: bool  # the players see the round's seating (else no table, no bye shown)
    place: int | None
    total: int | None  # his total at the table, as the game counts it
    points: Fraction | None  # the table points (or the bye's) he earned; None at a deciding final
    rank: int | None  # his rank in the standings after this round; None: nothing counted yet
    # What a deciding final's stage did for him (its table points count for nothing): "place"
    # (it decided his place, ``final_place``), "through" (won his match, plays the next stage),
    # "out" (lost it; his place waits for the knockout's end); None: not such a stage.
    final_result: str | None = None
    final_place: int | None = None
    final_place_shared: bool = False

    @property
    def final_place_text(self) -> str:
        """The final's place as the standings show it ("3", "=3" when shared)."""
        return f"={self.final_place}" if self.final_place_shared else str(self.final_place)


@dataclass(frozen=True)
class PlayerView:
    entry: EntryRow
    rounds: list[PlayerRound]
    standing: Standing | None  # his line in the standings now (the frozen one, while frozen)
    view: TournamentView = field(compare=False)  # what the reader sees (frozen standings, hidden rounds)
    penalties: list[Penalty] = field(default_factory=list)  # his warnings and penalties in force


def player_rounds(*, tournament: Tournament, entry_id: int, organiser: bool = False) -> PlayerView | None:
    """A player's tournament round by round: table, seat, place, table points and the rank
    after each round (the standings as they stood then); None if he is not registered (a
    fixed number of queries, whatever the number of players and rounds; the ranks are kept by
    the process once a page computed them for this version of the tournament). Others than
    the organisers see no seat in a round not published, and no rank after a frozen round."""
    view = TournamentView(tournament, organiser=organiser)
    data = view.data
    entry = data.entries.get(entry_id)
    if entry is None:
        return None
    earn = partial(
        table_points,
        scheme=cast(Scheme, tournament.points),
        lower_is_better=family_info(tournament.family).lower_is_better,
        custom=custom_points(tournament),
    )
    started = [r for r in data.rounds if r.status != Round.Status.SEATED]
    ids = [t.game_id for t in data.tables if entry_id in t.entries and t.game_id is not None]
    games = dict(Game.objects.filter(pk__in=ids).values_list("pk", "public_id")) if ids else {}
    ranks = once(
        tournament,
        view.versions.standings,
        "ranks-after",
        lambda: {r.number: {s.player: s.rank for s in standings_after(data, r.number)} for r in started},
    )
    now = next((r.standing for r in view.standings if r.standing.player == entry_id), None)
    shared = Counter(r.standing.rank for r in view.standings)
    rounds: list[PlayerRound] = []
    for played in data.rounds:
        number = played.number
        table = next((t for t in data.tables_of(number) if entry_id in t.entries), None)
        bye = entry_id in data.byes.get(number, [])
        place = total = points = None
        counted = False
        if table is not None and data.counted(table):
            at = table.entries.index(entry_id)
            earned = earn(table.places, table.totals)
            place, total, points, counted = table.places[at], table.totals[at], earned[at], True
        elif bye and played in started:
            seats = [p for t in data.tables_of(number) if data.counted(t) for p in earn(t.places, t.totals)]
            points, counted = bye_points(seats), True
        frozen = not organiser and view.frozen is not None and number >= view.frozen
        rank = None if frozen else ranks.get(number, {}).get(entry_id)
        result = None
        if played.final_stage and deciding(tournament) and table is not None and counted:
            result = _final_result(data, number, table, entry_id)
            points = None
        rounds.append(
            PlayerRound(
                round=number,
                final_stage=played.final_stage,
                status=played.status,
                table=table.number if table is not None else None,
                seat=table.entries.index(entry_id) + 1 if table is not None else None,
                game=games.get(table.game_id) if table is not None and table.game_id else None,
                bye=bye,
                counted=counted,
                published=organiser or number not in view.unpublished,
                place=place,
                total=total,
                points=points,
                rank=rank,
                final_result=result,
                final_place=now.rank if result == "place" and now is not None else None,
                final_place_shared=result == "place" and now is not None and shared[now.rank] > 1,
            )
        )
    given = [p for p in in_force(data) if p.entry == entry_id]
    return PlayerView(entry=entry, rounds=rounds, standing=now, view=view, penalties=given)


def _final_result(data: TournamentData, number: int, table: TableState, entry_id: int) -> str:
    """What the counted stage ``number`` of a deciding final did for the player at ``table``."""
    stages = final_rounds(data)
    if any(entry_id in t.entries for r in stages if r.number > number for t in data.tables_of(r.number)):
        return "through"
    last = data.tables_of(stages[-1].number)
    if len(last) == 1 and data.counted(last[0]):
        return "place"  # the final table, or the knockout's last match, is decided
    at = table.entries.index(entry_id)
    return "through" if table.places[at] < max(table.places) else "out"
