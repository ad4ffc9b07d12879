"""The tournament as its pages show it, read as they ask for it: a fixed number of queries each,
whatever the number of players, rounds and tables (the tests under tests/tournaments pin the
counts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from django.core.paginator import Paginator

from games.text.collation import by_name
from scoring.families import family_info
from tournaments.models import Round, Tournament
from tournaments.selectors.rounds import RoundReport, TableView, round_report, table_games, table_view
from tournaments.selectors.standings import Ranked, StandingRow, in_name_order, ranked_from
from tournaments.services.tournament_settings import current_settings
from tournaments.table_answers import CONFIRMED, DISPUTED, WAITING, Agreement, round_agreements
from tournaments.tournament_data import (
    EntryRow,
    Seating,
    TableState,
    TournamentData,
    data_upto,
    final_rounds,
    frozen_from,
    hidden_rounds,
    last_round,
    round_states,
    tiebreaks,
    tournament_data,
    tournament_rounds,
    tournament_seating,
)
from tournaments.versions import Versions, once, tournament_versions


class TournamentView:
    """The tournament as its pages show it. Each part is read when a page first asks for it:
    the rounds (1 query); the version tags (2); the standings, kept by this process for this
    version (0), else from the tournament's data; the seating, kept alike (0, else 3); a round's
    tables, with the results of that round only (1); the games of the tables a page draws (1);
    the whole data, when the standings or the organiser's tools need it (the seating and every
    table's results: 1).

    Anyone but the organisers (``organiser`` False) sees what is released: no table or bye of
    a round whose seating is not published, and while the standings are frozen, the standings
    as they stood before the frozen rounds (or none). The organisers see everything, and the
    page marks what the players do not see."""

    def __init__(self, tournament: Tournament, *, organiser: bool = False) -> None:
        self.tournament = tournament
        self.organiser = organiser

    @cached_property
    def _rounds(self) -> list[Round]:
        return tournament_rounds(self.tournament)

    @cached_property
    def versions(self) -> Versions:
        return tournament_versions(self.tournament, self._rounds)

    @cached_property
    def unpublished(self) -> set[int]:
        """The rounds whose seating the players do not see yet."""
        return hidden_rounds(self.tournament, self._rounds)

    @cached_property
    def seating(self) -> Seating:
        """Who is registered and who sits where (kept per seating version, like the standings);
        without the rounds not published, for anyone but the organisers."""
        full = once(
            self.tournament, self.versions.seating, "seating", partial(tournament_seating, self.tournament)
        )
        hidden = set() if self.organiser else self.unpublished
        if not hidden:
            return full
        return Seating(
            full.entries,
            [t for t in full.tables if t.round not in hidden],
            {n: ids for n, ids in full.byes.items() if n not in hidden},
        )

    @cached_property
    def data(self) -> TournamentData:
        return tournament_data(self.tournament, rounds=self._rounds, seating=self.seating)

    @cached_property
    def live(self) -> Ranked:
        """The standings as they are (what the organisers see)."""
        return once(self.tournament, self.versions.standings, "standings", lambda: ranked_from(self.data))

    @cached_property
    def frozen(self) -> int | None:
        """The first round the public standings leave out (frozen); None: they are live."""
        return frozen_from(self.tournament, self._rounds)

    @property
    def standings_hidden(self) -> bool:
        """The players see no standings (frozen, hidden until revealed)."""
        return self.frozen is not None and self.tournament.frozen_shows == Tournament.FrozenShows.HIDDEN

    @property
    def public(self) -> bool:
        """The players see the standings this reader sees (false: the organisers' live
        standings while they are frozen)."""
        return not (self.organiser and self.frozen is not None)

    @property
    def stood_after(self) -> int | None:
        """The round the players' frozen standings stand after (0: before the first)."""
        return self.frozen - 1 if self.frozen is not None and not self.standings_hidden else None

    @cached_property
    def ranked(self) -> Ranked:
        """The standings this reader sees: the organisers the live ones; others, while they are
        frozen, none or the standings as they stood before the frozen rounds."""
        first = self.frozen
        if self.organiser or first is None:
            return self.live
        if self.standings_hidden:
            return Ranked((), False, False)
        return once(
            self.tournament,
            self.versions.standings,
            f"stood-{first}",
            lambda: ranked_from(data_upto(self.data, first - 1)),
        )

    @property
    def standings(self) -> tuple[StandingRow, ...]:
        return in_name_order(self.ranked.rows)

    @property
    def provisional(self) -> bool:
        return self.ranked.provisional

    @property
    def finished(self) -> bool:
        return self.ranked.finished

    @cached_property
    def rounds(self) -> list[RoundView]:
        return [RoundView(r, self) for r in self._rounds]

    @property
    def current(self) -> RoundView | None:
        """The round being seated or played, else the last one."""
        return self.rounds[-1] if self.rounds else None

    @property
    def entries(self) -> list[EntryRow]:
        return sorted(self.seating.entries.values(), key=lambda e: by_name(e.player.name))

    @property
    def registered(self) -> int:
        return len(self.seating.entries)

    @property
    def checked_in(self) -> int:
        """Checked in and still playing: a player who dropped out sits at no table any more."""
        return sum(1 for e in self.seating.entries.values() if e.checked_in and e.dropped_after is None)

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The tie-break order of the standings, points first."""
        return tiebreaks(self.tournament)

    @property
    def lower_is_better(self) -> bool:
        return family_info(self.tournament.family).lower_is_better

    @property
    def next_round(self) -> int | None:
        """The round the organiser can seat now (the last one is confirmed), if any is left."""
        last = self.rounds[-1].round if self.rounds else None
        if last is None:
            return 1
        if last.status == Round.Status.CONFIRMED and last.number < self.tournament.rounds:
            return last.number + 1
        return None

    def round(self, number: int) -> RoundView | None:
        return next((r for r in self.rounds if r.round.number == number), None)

    @property
    def final_next(self) -> int | None:
        """The stage of the final the organiser can seat now (the rounds and the stage before
        confirmed), if the tournament has a final and it is not played yet."""
        tournament = self.tournament
        if tournament.final == Tournament.Final.NONE:
            return None
        last = self.data.round(tournament.rounds)
        if last is None or last.status != Round.Status.CONFIRMED or last_round(self.data) is not None:
            return None
        stages = final_rounds(self.data)
        if stages and stages[-1].status != Round.Status.CONFIRMED:
            return None
        return len(stages) + 1


class TablePage:
    """One page of a round's tables: what a phone shows at once of a big open."""

    def __init__(self, round_view: RoundView, number: int | str | None, size: int) -> None:
        self.paginator = Paginator(round_view.states, size)
        self.page = self.paginator.get_page(number)
        self.tables = round_view.draw(list(self.page.object_list))

    @property
    def numbers(self) -> list[tuple[int, int, int]]:
        """(page, first table, last table) for every page: the links between them."""
        states = self.paginator.object_list
        size = self.paginator.per_page
        if not states:  # a round whose seating the reader may not see yet
            return []
        return [
            (n, states[(n - 1) * size].number, states[min(n * size, len(states)) - 1].number)
            for n in self.paginator.page_range
        ]


class RoundView:
    """A round; its tables and byes are drawn when a page first asks for them (most pages only
    need the rounds' numbers), and a page can draw only some of its tables."""

    def __init__(self, round: Round, view: TournamentView) -> None:
        self.round = round
        self._view = view

    @cached_property
    def states(self) -> list[TableState]:
        view = self._view
        return round_states(view.tournament, view.seating, self.round.number)

    def draw(self, states: Sequence[TableState]) -> list[TableView]:
        seated = self.round.status == Round.Status.SEATED
        games = table_games([t.game_id for t in states if t.game_id is not None])
        agreements = self.agreements
        return [table_view(self._view.seating, t, games, seated, agreements.get(t.table_id)) for t in states]

    @cached_property
    def agreements(self) -> dict[int, Agreement]:
        """Each table's answers to its result, by table id (1 query; none asked: no query)."""
        if not self._view.tournament.table_confirm or self.round.status == Round.Status.SEATED:
            return {}
        return round_agreements(self.round, self.states)

    @property
    def agreement_counts(self) -> dict[str, int]:
        """How many tables are confirmed, waiting and disputed."""
        counts = {CONFIRMED: 0, WAITING: 0, DISPUTED: 0}
        for found in self.agreements.values():
            counts[found.state] += 1
        return counts

    @cached_property
    def tables(self) -> list[TableView]:
        return self.draw(self.states)

    def page(self, number: int | str | None, size: int) -> TablePage:
        return TablePage(self, number, size)

    @property
    def published(self) -> bool:
        """The players see the round's seating."""
        return self.round.number not in self._view.unpublished

    @property
    def table_count(self) -> int:
        return len(self.states)

    @property
    def finished_tables(self) -> int:
        return sum(1 for t in self.states if t.finished)

    @cached_property
    def report(self) -> RoundReport | None:
        """The seating report, while the round is seated and not started (no query)."""
        if self.round.status != Round.Status.SEATED:
            return None
        return round_report(self._view.tournament, self._view.seating, self.round.number)

    @cached_property
    def byes(self) -> list[str]:
        seating = self._view.seating
        return sorted(seating.entries[e].player.name for e in seating.byes.get(self.round.number, []))


def tournament_view(*, tournament: Tournament, organiser: bool = False) -> TournamentView:
    """The whole tournament as its pages show it, read as they ask for it (``organiser``: all
    of it, else what is released to the players)."""
    return TournamentView(tournament, organiser=organiser)


@dataclass(frozen=True)
class TournamentOverview:
    """A tournament with its settings (as ``Settings.from_mapping`` takes them) and its view:
    the API's answer about it."""

    tournament: Tournament
    settings: Mapping[str, Any]
    view: TournamentView


def tournament_overview(*, tournament: Tournament, organiser: bool = False) -> TournamentOverview:
    """The tournament, its settings and its view, read as asked for (no query until then)."""
    return TournamentOverview(
        tournament, current_settings(tournament), TournamentView(tournament, organiser=organiser)
    )
