"""The database side of a tournament's standings and seating history: one fixed set of queries
reads what the pure code in ``scoring.standings`` and ``scoring.seating`` needs.

Shared by the services (seating a Swiss round needs the standings, a balanced one the earlier
tables) and the selectors (the pages), like ``games.sheets.sheet`` is for games. The number of queries
does not depend on the number of players, rounds or tables (tests/tournaments pins it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import NamedTuple

from django.db.models import QuerySet

from games.models import Result
from scoring.families import family_info
from scoring.finals import final_places, knockout_groups
from scoring.standings import DEFAULT_TIEBREAKS, SharedBy, Standing, TableResult, standings
from tournaments.models import Bye, Entry, Round, TableSeat, Tournament


@dataclass(frozen=True)
class TableState:
    """A table of a round as the pages and the standings see it."""

    round: int
    number: int
    table_id: int
    game_id: int | None
    entries: tuple[int, ...]  # entry ids in seat order
    # From the game's results (empty before the round starts): per entry in seat order.
    totals: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    finished: bool = False
    hands: int = 0


@dataclass(frozen=True, slots=True)
class EntryPlayer:
    """The player of an entry, as the pages, the standings and seating read him."""

    name: str
    key: str
    loose_key: str


@dataclass(frozen=True, slots=True)
class EntryRow:
    """A registered player as the pages, the standings and seating read him: plain values, so
    that a tournament of hundreds of players is read in a few milliseconds (writes lock and
    read the ``Entry`` itself)."""

    pk: int
    player_id: int
    checked_in: bool
    from_round: int
    dropped_after: int | None
    pinned_table: int | None
    version: int
    player: EntryPlayer


@dataclass
class TournamentData:
    tournament: Tournament
    entries: dict[int, EntryRow]  # by id, with their players
    rounds: list[Round]
    tables: list[TableState]
    byes: dict[int, list[int]] = field(default_factory=dict)  # round number -> entry ids

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)

    def tables_of(self, number: int) -> list[TableState]:
        return [t for t in self.tables if t.round == number]

    def counted(self, table: TableState) -> bool:
        """A table counts for the standings once its game is over or its round confirmed."""
        played = self.round(table.round)
        if played is None or played.status == Round.Status.SEATED or not table.places:
            return False
        return table.finished or played.status == Round.Status.CONFIRMED

    @property
    def provisional(self) -> bool:
        """Standings include a table of a round the organiser has not confirmed yet."""
        confirmed = {r.number for r in self.rounds if r.status == Round.Status.CONFIRMED}
        return any(self.counted(t) and t.round not in confirmed for t in self.tables)


class _Result(NamedTuple):
    total: int
    place: int
    finished: bool
    hands: int


ENTRY_FIELDS = (
    "pk",
    "player_id",
    "checked_in",
    "from_round",
    "dropped_after",
    "pinned_table",
    "version",
    "player__name",
    "player__key",
    "player__loose_key",
)


class SeatedTable(NamedTuple):
    table_id: int
    round: int
    number: int
    game_id: int | None
    entries: tuple[int, ...]  # entry ids in seat order


@dataclass(frozen=True)
class Seating:
    """Who is registered and who sits where, in every round: what only a write to the
    tournament changes (its entries, rounds and seating; a player's name), never a hand, so
    the pages keep it per version of those (tournaments.versions)."""

    entries: dict[int, EntryRow]
    tables: list[SeatedTable]  # by round, then table number
    byes: dict[int, list[int]]  # round number -> entry ids

    def earlier(self, number: int) -> list[tuple[int, ...]]:
        """Every table of the rounds before ``number``, as entry ids (what seating avoids
        repeating)."""
        return [t.entries for t in self.tables if t.round < number]


def tournament_seating(tournament: Tournament) -> Seating:
    """The tournament's entries, tables and byes (3 queries)."""
    entries: dict[int, EntryRow] = {}
    for pk, player, checked_in, from_round, dropped, pinned, version, *named in Entry.objects.filter(
        tournament=tournament
    ).values_list(*ENTRY_FIELDS):
        who = EntryPlayer(*named)
        entries[pk] = EntryRow(pk, player, checked_in, from_round, dropped, pinned, version, who)
    seats = (
        TableSeat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table_id", "table__round__number", "table__number", "table__game_id", "entry_id")
    )
    grouped: dict[int, list[tuple[int, int, int | None, int]]] = defaultdict(list)
    for table_id, round_no, table_no, table_game, entry_id in seats:
        grouped[table_id].append((round_no, table_no, table_game, entry_id))
    tables = [
        SeatedTable(table_id, rows[0][0], rows[0][1], rows[0][2], tuple(row[3] for row in rows))
        for table_id, rows in grouped.items()
    ]
    byes: dict[int, list[int]] = defaultdict(list)
    for round_number, entry_id in Bye.objects.filter(round__tournament=tournament).values_list(
        "round__number", "entry_id"
    ):
        byes[round_number].append(entry_id)
    return Seating(entries, tables, dict(byes))


def tournament_data(
    tournament: Tournament, rounds: list[Round] | None = None, seating: Seating | None = None
) -> TournamentData:
    """Everything a tournament's standings and seating read (5 queries; 1 given its
    ``rounds``, in order, and its ``seating``: the tables' results)."""
    if seating is None:
        seating = tournament_seating(tournament)
    if rounds is None:
        rounds = tournament_rounds(tournament)
    # A join rather than a list of game ids: Django normalises every value of an ``in`` list
    # of a foreign key, which costs more than the query itself at 200 tables.
    results = Result.objects.filter(game__tournament_table__round__tournament=tournament)
    tables = _table_states(seating, seating.tables, results)
    return TournamentData(tournament, seating.entries, rounds, tables, seating.byes)


def round_states(tournament: Tournament, seating: Seating, number: int) -> list[TableState]:
    """Round ``number``'s tables with their results (1 query): what a page of one round reads,
    whatever the number of rounds played before it."""
    results = Result.objects.filter(
        game__tournament_table__round__tournament=tournament, game__tournament_table__round__number=number
    )
    return _table_states(seating, [t for t in seating.tables if t.round == number], results)


def _table_states(seating: Seating, seated: list[SeatedTable], results: QuerySet[Result]) -> list[TableState]:
    found: dict[tuple[int, int], _Result] = {}
    for of_game, player_id, total, place, finished, hands in results.values_list(
        "game_id", "player_id", "total", "place", "finished", "hands"
    ):
        found[(of_game, player_id)] = _Result(total, place, finished, hands)
    entries = seating.entries
    tables: list[TableState] = []
    for table_id, round_number, table_number, game_id, entry_ids in seated:
        rows = [found.get((game_id, entries[e].player_id)) for e in entry_ids] if game_id else []
        done = [r for r in rows if r is not None]
        if done and len(done) == len(rows):
            tables.append(
                TableState(
                    round_number,
                    table_number,
                    table_id,
                    game_id,
                    entry_ids,
                    totals=tuple(r.total for r in done),
                    places=tuple(r.place for r in done),
                    finished=all(r.finished for r in done),
                    hands=max(r.hands for r in done),
                )
            )
        else:
            tables.append(TableState(round_number, table_number, table_id, game_id, entry_ids))
    return tables


def tournament_rounds(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


def custom_points(tournament: Tournament) -> dict[int, tuple[Fraction, ...]] | None:
    """The custom points per table size (stored as text, "5/2", so they stay exact)."""
    if tournament.points != Tournament.Points.CUSTOM:
        return None
    return {
        int(size): tuple(Fraction(p) for p in points) for size, points in tournament.custom_points.items()
    }


def tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreaks) or DEFAULT_TIEBREAKS


def final_rounds(data: TournamentData) -> list[Round]:
    """The stages of the final, in order."""
    return [r for r in data.rounds if r.final_stage]


def last_round(data: TournamentData) -> Round | None:
    """The round that ends the tournament, once confirmed: its last round, or with a final the
    final's last stage (the final table, a knockout's one-match stage). None: not over yet."""
    last = data.round(data.tournament.rounds)
    if last is None or last.status != Round.Status.CONFIRMED:
        return None
    if data.tournament.final == Tournament.Final.NONE:
        return last
    stages = final_rounds(data)
    if not stages or stages[-1].status != Round.Status.CONFIRMED:
        return None
    done = data.tournament.final == Tournament.Final.TABLE or len(data.tables_of(stages[-1].number)) == 1
    return stages[-1] if done else None


def deciding(tournament: Tournament) -> bool:
    """The final places its players above the standings (rather than adding its points)."""
    return (
        tournament.final != Tournament.Final.NONE
        and tournament.final_counts == Tournament.FinalCounts.DECIDES
    )


def knockout_match(order: dict[int, int], table: TableState) -> tuple[int, int]:
    """A knockout match as (winner, loser): first place wins; a tie goes to the better seed."""
    a, b = table.entries
    pa, pb = table.places
    if pa == pb:
        return (a, b) if order.get(a, 0) <= order.get(b, 0) else (b, a)
    return (a, b) if pa < pb else (b, a)


def final_groups(data: TournamentData, order: list[int]) -> list[list[int]] | None:
    """The final's outcome as ``scoring.finals.final_places`` takes it, once it is decided (a
    final table counted; a knockout's last match counted); None before."""
    stages = final_rounds(data)
    if not stages:
        return None
    position = {p: i for i, p in enumerate(order)}
    if data.tournament.final == Tournament.Final.TABLE:
        tables = data.tables_of(stages[0].number)
        if len(tables) != 1 or not data.counted(tables[0]):
            return None
        table = tables[0]
        by_place: dict[int, list[int]] = defaultdict(list)
        for entry, place in zip(table.entries, table.places, strict=True):
            by_place[place].append(entry)
        return [by_place[place] for place in sorted(by_place)]
    matches: list[list[tuple[int, int]]] = []
    for stage in stages:
        tables = data.tables_of(stage.number)
        if not tables or not all(data.counted(t) and len(t.entries) == 2 for t in tables):
            return None
        matches.append([knockout_match(position, t) for t in tables])
    if len(matches[-1]) != 1:
        return None
    return knockout_groups(matches)


@dataclass(frozen=True, slots=True)
class Penalty:
    """A warning or a point penalty as given (``Tournament.penalties``)."""

    id: int
    entry: int
    player: str
    kind: str  # "warning" or "points"
    points: Fraction  # 0 for a warning
    round: int | None  # None: the tournament's total
    reason: str
    undone: bool


def penalties(tournament: Tournament) -> list[Penalty]:
    """Every warning and penalty given, undone ones too, in the order given."""
    return [
        Penalty(
            id=int(p["id"]),
            entry=int(p["entry"]),
            player=str(p.get("player", "")),
            kind=str(p["kind"]),
            points=Fraction(str(p.get("points") or 0)),
            round=p.get("round"),
            reason=str(p.get("reason", "")),
            undone=bool(p.get("undone")),
        )
        for p in tournament.penalties or []
    ]


def in_force(data: TournamentData) -> list[Penalty]:
    """The penalties and warnings that stand in these data: not undone, for a player still
    registered, and a round's only once its round is in the data (the standings after an
    earlier round do not count it)."""
    numbers = {r.number for r in data.rounds}
    return [
        p
        for p in penalties(data.tournament)
        if not p.undone and p.entry in data.entries and (p.round is None or p.round in numbers)
    ]


def points_taken(data: TournamentData) -> dict[int, Fraction]:
    """The points the penalties in force take off each entry."""
    taken: dict[int, Fraction] = defaultdict(Fraction)
    for p in in_force(data):
        if p.kind == "points":
            taken[p.entry] += p.points
    return dict(taken)


def compute_standings(data: TournamentData) -> tuple[Standing, ...]:
    """The standings over every counted table (and the byes of rounds under way or done). A
    final that decides the top places counts no points; once it is decided its order leads."""
    tournament = data.tournament
    played = {r.number for r in data.rounds if r.status != Round.Status.SEATED}
    finals = {r.number for r in final_rounds(data)} if deciding(tournament) else set()
    rows = standings(
        list(data.entries),
        [
            TableResult(t.round, t.entries, t.places, t.totals)
            for t in data.tables
            if data.counted(t) and t.round not in finals
        ],
        [(number, entry) for number, ids in sorted(data.byes.items()) if number in played for entry in ids],
        lower_is_better=family_info(tournament.family).lower_is_better,
        scheme=tournament.points,  # type: ignore[arg-type]
        custom=custom_points(tournament),
        tiebreaks=tiebreaks(tournament),  # type: ignore[arg-type]
        penalties=points_taken(data),
    )
    if not finals:
        return rows
    order = [s.player for s in rows]
    groups = final_groups(data, order)
    if groups is None:
        return rows
    by_player = {s.player: s for s in rows}
    finalists = {p for group in groups for p in group}
    placed = final_places(order, groups, counts="decides", ranks=[s.rank for s in rows])
    # Players of one group share its place for the final's reason, not the tie-breaks'.
    reason: SharedBy = "knockout" if tournament.final == Tournament.Final.KNOCKOUT else "final"
    shared = {p for group in groups if len(group) > 1 for p in group}
    out = []
    for index, (player, place) in enumerate(placed):
        # The note "below X on ..." holds only between two players the standings ordered.
        keep = player not in finalists and index and placed[index - 1][0] not in finalists
        out.append(
            replace(
                by_player[player],
                rank=place,
                separated_by=by_player[player].separated_by if keep else None,
                shared_by=reason if player in shared else None,
            )
        )
    return tuple(out)


def hidden_rounds(tournament: Tournament, rounds: Sequence[Round]) -> set[int]:
    """The rounds whose seating the players do not see yet: seated while the tournament's
    organisers publish each seating themselves, and not published (a started round is)."""
    if not tournament.hide_seating:
        return set()
    return {r.number for r in rounds if not r.published and r.status == Round.Status.SEATED}


def frozen_from(tournament: Tournament, rounds: Sequence[Round]) -> int | None:
    """The first round the public standings leave out while they are frozen: the first of the
    last ``freeze_rounds`` rounds (else, with ``freeze_final``, the final's first stage), once
    it has started and until the organisers reveal the standings; None: not frozen."""
    if tournament.standings_revealed:
        return None
    if tournament.freeze_rounds:
        first = max(1, tournament.rounds - tournament.freeze_rounds + 1)
    elif tournament.freeze_final and tournament.final != Tournament.Final.NONE:
        first = tournament.rounds + 1
    else:
        return None
    if any(r.number >= first and r.status != Round.Status.SEATED for r in rounds):
        return first
    return None


def standings_after(data: TournamentData, number: int) -> tuple[Standing, ...]:
    """The standings counting the rounds up to ``number`` only (the standings as they stood
    then)."""
    return compute_standings(data_upto(data, number))


def data_upto(data: TournamentData, number: int) -> TournamentData:
    """The tournament's data as it stood after round ``number``: the later rounds left out."""
    return TournamentData(
        tournament=data.tournament,
        entries=data.entries,
        rounds=[r for r in data.rounds if r.number <= number],
        tables=[t for t in data.tables if t.round <= number],
        byes={n: ids for n, ids in data.byes.items() if n <= number},
    )
