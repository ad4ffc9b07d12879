"""A round as its pages draw it: its tables and seats, and the seating report the organiser
checks before the round starts."""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game
from games.services.access import edit_url
from games.text.collation import by_name
from scoring.seating import repeated_pairs, seating_report
from tournaments.models import Round, Tournament
from tournaments.table_answers import Agreement
from tournaments.tournament_data import Seating, TableState


def tournament_round(*, tournament: Tournament, number: int) -> Round | None:
    """Round ``number`` of the tournament, if seated (1 query)."""
    return Round.objects.filter(tournament=tournament, number=number).select_related("tournament").first()


@dataclass(frozen=True)
class SeatView:
    entry_id: int
    name: str
    total: int | None
    place: int | None
    repeat: bool  # met someone at this table before (a seated round's warning)
    seat: int  # 1-based; seat 1 deals first


@dataclass(frozen=True)
class TableView:
    number: int
    table_id: int
    game: Game | None
    seats: list[SeatView]
    hands: int
    finished: bool
    leaders: list[str]  # the current leader(s) (first place so far), once a hand is in
    repeats: list[tuple[str, str]]  # pairs at this table who met in an earlier round
    # The players' answers to the table's result, when the tournament asks the tables.
    agreement: Agreement | None = None

    @property
    def edit_path(self) -> str | None:
        """The path of the table game's edit link (a credential: the organisers' only)."""
        return edit_url(self.game) if self.game is not None else None


def table_games(ids: list[int]) -> dict[int, Game]:
    """The games of the tables a page shows, by id (1 query; none without a game)."""
    return {g.pk: g for g in Game.objects.filter(pk__in=ids)} if ids else {}


def table_view(
    seating: Seating,
    table: TableState,
    games: dict[int, Game],
    seated: bool,
    agreed: Agreement | None = None,
) -> TableView:
    names = {e: seating.entries[e].player.name for e in table.entries}
    pairs = repeated_pairs(table.entries, seating.earlier(table.round)) if seated else []
    met = {e for pair in pairs for e in pair}
    seats = [
        SeatView(
            entry_id=e,
            name=names[e],
            total=table.totals[i] if table.totals else None,
            place=table.places[i] if table.places else None,
            repeat=e in met,
            seat=i + 1,
        )
        for i, e in enumerate(table.entries)
    ]
    leaders = [names[e] for i, e in enumerate(table.entries) if table.places and table.places[i] == 1]
    return TableView(
        number=table.number,
        table_id=table.table_id,
        game=games.get(table.game_id) if table.game_id else None,
        seats=seats,
        hands=table.hands,
        finished=table.finished,
        leaders=leaders if table.hands else [],
        repeats=[(names[a], names[b]) for a, b in pairs],
        agreement=agreed,
    )


@dataclass(frozen=True)
class RoundReport:
    """``scoring.seating.seating_report`` of a round, by name (each list sorted by name)."""

    repeats: list[tuple[str, str, int]]  # two players and how often they met before
    smaller_again: list[tuple[str, int]]  # at a smaller table again, and how often before
    bigger_again: list[tuple[str, int]]
    apart_met: list[tuple[str, str]]

    def __bool__(self) -> bool:
        return bool(self.repeats or self.smaller_again or self.bigger_again or self.apart_met)


def round_report(tournament: Tournament, seating: Seating, number: int) -> RoundReport:
    """What the organiser checks before the round starts: repeats, players at a smaller or a
    bigger table again, and pairs kept apart who share a table."""
    rounds: dict[int, list[tuple[int, ...]]] = {}
    for table in seating.tables:
        rounds.setdefault(table.round, []).append(table.entries)
    earlier = [tables for r, tables in sorted(rounds.items()) if r < number]
    report = seating_report(rounds.get(number, []), earlier, tournament.apart)
    name = {pk: e.player.name for pk, e in seating.entries.items()}

    def two(a: int, b: int) -> tuple[str, str]:
        first, second = sorted((name[a], name[b]), key=by_name)
        return first, second

    def sized(kind: str) -> list[tuple[str, int]]:
        found = [(name[p], times) for p, k, times in report.size_again if k == kind]
        return sorted(found, key=lambda f: (f[0].casefold(), f[0]))

    return RoundReport(
        repeats=sorted(
            ((*two(a, b), times) for a, b, times in report.repeats),
            key=lambda r: (r[0].casefold(), r[1].casefold()),
        ),
        smaller_again=sized("smaller"),
        bigger_again=sized("bigger"),
        apart_met=sorted(
            (two(a, b) for a, b in report.apart_met), key=lambda r: (r[0].casefold(), r[1].casefold())
        ),
    )
