"""What the tournament pages and the API's tournament resources read: a fixed number of
queries each, whatever the number of players, rounds and tables (the tests under
tests/tournaments pin the counts)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, partial
from itertools import groupby, pairwise
from typing import Any, cast

from django.core.paginator import Paginator
from django.db.models import Count, Q, QuerySet

from games.models import Change, Club, Game, Player
from games.services.access import edit_url
from games.text.collation import by_name
from games.text.names import loose_key, name_key
from scoring.families import family_info
from scoring.seating import repeated_pairs, seating_report
from scoring.standings import Scheme, Standing, bye_points, table_points
from tournaments.models import (
    Entry,
    Round,
    Tournament,
    TournamentChange,
)
from tournaments.services.tournaments import current_settings, door_path
from tournaments.table_answers import CONFIRMED, DISPUTED, WAITING, Agreement, round_agreements
from tournaments.tournament_data import (
    EntryRow,
    Penalty,
    Seating,
    TableState,
    TournamentData,
    compute_standings,
    custom_points,
    data_upto,
    deciding,
    final_rounds,
    frozen_from,
    hidden_rounds,
    in_force,
    last_round,
    penalties,
    round_states,
    standings_after,
    tiebreaks,
    tournament_data,
    tournament_rounds,
    tournament_seating,
)
from tournaments.versions import Versions, once, tournament_versions


def tournament_by_public_id(*, public_id: str) -> Tournament | None:
    return Tournament.objects.select_related("club").filter(public_id=public_id).first()


def tournaments_of_club(*, club: Club) -> QuerySet[Tournament]:
    """All the club's tournaments, for a list that pages them itself (the API's cursor)."""
    return Tournament.objects.filter(club=club)


def club_tournaments(*, club: Club, limit: int = 50) -> list[Tournament]:
    """The club's latest tournaments, by date (1 query)."""
    return list(tournaments_of_club(club=club).order_by("-date", "-id")[:limit])


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
        games = _games([t.game_id for t in states if t.game_id is not None])
        agreements = self.agreements
        return [_table_view(self._view.seating, t, games, seated, agreements.get(t.table_id)) for t in states]

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


@dataclass(frozen=True)
class RoundReport:
    """``scoring.seating.seating_report`` of a round, by name (each list sorted by name)."""

    repeats: list[tuple[str, str, int]]  # two players and how often they met before
    smaller_again: list[tuple[str, int]]  # at a smaller table again, and how often before
    bigger_again: list[tuple[str, int]]
    apart_met: list[tuple[str, str]]

    def __bool__(self) -> bool:
        return bool(self.repeats or self.smaller_again or self.bigger_again or self.apart_met)


def _sorted_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=by_name))


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
        first, second = _sorted_names([name[a], name[b]])
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


@dataclass(frozen=True)
class ApartPair:
    first: EntryRow
    second: EntryRow


def apart_pairs(*, view: TournamentView) -> list[ApartPair]:
    """The tournament's pairs kept apart, by the first name then the second (no query beyond
    the seating's)."""
    entries = view.seating.entries
    pairs = []
    for a, b in view.tournament.apart:
        if a in entries and b in entries:
            first, second = sorted((entries[a], entries[b]), key=lambda e: (e.player.name.casefold(), e.pk))
            pairs.append(ApartPair(first, second))
    return sorted(pairs, key=lambda p: (p.first.player.name.casefold(), p.second.player.name.casefold()))


@dataclass(frozen=True)
class Ranked:
    """What the standings of one version of the tournament are: computed once per version
    (tournaments.versions), whichever page or server asks first."""

    rows: tuple[StandingRow, ...]
    provisional: bool
    finished: bool


def _ranked(data: TournamentData) -> Ranked:
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


class TournamentView:
    """The tournament as its pages show it. Each part is read when a page first asks for it:
    the rounds (1 query); the version tags (2); the standings, kept by this process or in the
    shared cache for this version (0 or 1), else from the tournament's data; the seating, kept
    alike (0 or 1, else 3 and the cache's write); a round's tables, with the results of that
    round only (1); the games of the tables a page draws (1); the whole data, when the
    standings or the organiser's tools need it (the seating and every table's results: 1).

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
        return once(self.tournament, self.versions.standings, "standings", lambda: _ranked(self.data))

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
            lambda: _ranked(data_upto(self.data, first - 1)),
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


def _games(ids: list[int]) -> dict[int, Game]:
    """The games of the tables a page shows, by id (1 query; none without a game)."""
    return {g.pk: g for g in Game.objects.filter(pk__in=ids)} if ids else {}


def _table_view(
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


def tournament_round(*, tournament: Tournament, number: int) -> Round | None:
    """Round ``number`` of the tournament, if seated (1 query)."""
    return Round.objects.filter(tournament=tournament, number=number).select_related("tournament").first()


@dataclass(frozen=True)
class EntryList:
    entries: list[Entry]  # with their players, by name


def _entries(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__key")


def _by_name(entries: QuerySet[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: by_name(e.player.name))


def tournament_entries(*, tournament: Tournament) -> EntryList:
    """The players registered, by name in the reader's language (1 query)."""
    return EntryList(_by_name(_entries(tournament)))


def entries_of(*, tournament: Tournament, player_ids: Sequence[int], keys: Sequence[str]) -> EntryList:
    """The entries of these players (by id, or by name key), by name (1 query)."""
    return EntryList(
        _by_name(_entries(tournament).filter(Q(player_id__in=player_ids) | Q(player__key__in=keys)))
    )


def tournament_entry(*, tournament: Tournament, entry_id: int) -> Entry | None:
    """One entry of the tournament, with its player and tournament (1 query)."""
    return _entries(tournament).select_related("tournament").filter(pk=entry_id).first()


def players_to_register(*, tournament: Tournament, ids: Sequence[int]) -> list[Player]:
    """The club's players among ``ids`` (merged ones left out), to register (1 query)."""
    return list(Player.objects.filter(club_id=tournament.club_id, merged_into=None, pk__in=ids))


@dataclass(frozen=True)
class SeatFound:
    name: str
    round: int
    table: int | None  # None: not at a table this round (a bye, or not seated)
    seat: int | None  # 1-based; seat 1 deals first
    game: Game | None
    bye: bool = False  # sits this round out
    dropped_after: int | None = None  # dropped out after this round (then never seated again)
    entry_id: int = 0  # his entry (his own page in the tournament)
    published: bool = True  # False: the round's seating is not published yet


def find_seat(*, view: TournamentView, query: str, limit: int = 20) -> list[SeatFound]:
    """ "Where do I sit?": the players whose name matches ``query`` (accents, case and spacing
    aside; a part of the name is enough), with their table in the current round; the first
    ``limit`` of them, as a phone shows them."""
    current = view.current
    wanted, loose = name_key(query), loose_key(query)
    if not wanted:
        return []
    entries = [e for e in view.entries if wanted in e.player.key or loose in e.player.loose_key][:limit]
    states = current.states if current is not None else []
    where = {e: (t, i + 1) for t in states for i, e in enumerate(t.entries)}
    ids = [g for e in entries if e.pk in where and (g := where[e.pk][0].game_id) is not None]
    games = _games(ids)
    number = current.round.number if current else 0
    found: list[SeatFound] = []
    for entry in entries:
        table, seat = where.get(entry.pk, (None, None))
        game = games.get(table.game_id) if table is not None and table.game_id else None
        bye = entry.pk in view.seating.byes.get(number, [])
        found.append(
            SeatFound(
                entry.player.name,
                number,
                table.number if table is not None else None,
                seat,
                game,
                bye,
                entry.dropped_after,
                entry.pk,
                current.published if current is not None else True,
            )
        )
    return found


@dataclass(frozen=True)
class SeatSearch:
    query: str
    results: list[SeatFound]


def seat_search(*, tournament: Tournament, query: str, organiser: bool = False) -> SeatSearch:
    """ "Where do I sit?" for ``query`` (``find_seat`` on the tournament's view)."""
    return SeatSearch(query, find_seat(view=TournamentView(tournament, organiser=organiser), query=query))


def check_in_matches(*, tournament: Tournament, query: str, limit: int = 20) -> list[Entry]:
    """The door's search: the registered players whose name matches ``query`` (accents, case
    and spacing aside; a part of the name is enough), those who dropped out left aside."""
    wanted, loose = name_key(query), loose_key(query)
    if not wanted:
        return []
    entries = (
        Entry.objects.filter(tournament=tournament, dropped_after=None)
        .select_related("player")
        .order_by("player__key", "pk")
    )
    found = [e for e in entries if wanted in e.player.key or loose in e.player.loose_key]
    return sorted(found, key=lambda e: by_name(e.player.name))[:limit]


@dataclass(frozen=True)
class DoorSearch:
    """The door's search: the matching players, and whether the door is open."""

    tournament: Tournament
    results: list[Entry]

    @property
    def open(self) -> bool:
        return self.tournament.check_in_open


def door_search(*, tournament: Tournament, query: str) -> DoorSearch:
    """``check_in_matches`` with the door's state (1 query)."""
    return DoorSearch(tournament, check_in_matches(tournament=tournament, query=query))


@dataclass(frozen=True)
class DoorView:
    """The self check-in at the door as its organisers see it."""

    tournament: Tournament
    path: str | None  # the check-in link's path; None until the door is first opened
    entries: int
    checked_in: int

    @property
    def open(self) -> bool:
        return self.tournament.check_in_open


def door_view(*, tournament: Tournament) -> DoorView:
    """The door's state, with how many are registered and checked in (1 query)."""
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        entries=Count("pk"), checked_in=Count("pk", filter=Q(checked_in=True, dropped_after=None))
    )
    return DoorView(tournament, door_path(tournament), counts["entries"], counts["checked_in"])


def unregistered_players(*, tournament: Tournament) -> list[Player]:
    """The club's players not registered yet (for the organiser's registration page)."""
    players = Player.objects.filter(club_id=tournament.club_id, merged_into=None).exclude(
        entries__tournament=tournament
    )
    return sorted(players, key=lambda p: by_name(p.name))


@dataclass(frozen=True)
class HistoryItem:
    change: TournamentChange | None
    correction: Change | None  # a change at a table after its round was confirmed
    round: int | None = None
    table: int | None = None
    # A seating of a round not published yet, read by someone else than its organisers: its
    # tables are left out (the round's number stays).
    hidden: bool = False

    @property
    def _item(self) -> TournamentChange | Change:
        item = self.change or self.correction
        assert item is not None
        return item

    @property
    def created_at(self) -> object:
        return self._item.created_at

    @property
    def kind(self) -> str:
        return "change" if self.change is not None else "correction"

    @property
    def action(self) -> str:
        return self._item.action

    @property
    def title(self) -> str:
        """What happened, in the current language."""
        return str(self._item.get_action_display())

    @property
    def details(self) -> dict[str, object]:
        if self.change is not None and self.hidden:
            return {"round": self.round_number}
        if self.change is not None:
            return cast(dict[str, object], self.change.data)
        assert self.correction is not None
        return {"hand": self.correction.hand_number}

    @property
    def username(self) -> str | None:
        user = self._item.user
        return user.get_username() if user is not None else None

    @property
    def round_number(self) -> int | None:
        """The round it concerns: a correction's, or the one a change names."""
        if self.change is not None:
            data = self.change.data
            return data.get("round") if isinstance(data, dict) else None
        return self.round


# The changes that name who sits where in a round.
SEATING_ACTIONS = (
    TournamentChange.Action.SEATED,
    TournamentChange.Action.MOVED,
    TournamentChange.Action.FINAL,
)


def tournament_history(
    *, tournament: Tournament, limit: int = 200, organiser: bool = False
) -> list[HistoryItem]:
    """The tournament's changes, with every change made at a table after its round's results
    were confirmed (a correction that changed the standings), newest first (3 queries; 4
    for anyone but the organisers while seatings are published by hand: the seatings of the
    rounds not published yet are left out)."""
    hidden: set[int] = set()
    if not organiser and tournament.hide_seating:
        hidden = hidden_rounds(tournament, tournament_rounds(tournament))
    items = [
        HistoryItem(
            c,
            None,
            hidden=c.action in SEATING_ACTIONS and isinstance(c.data, dict) and c.data.get("round") in hidden,
        )
        for c in tournament.changes.select_related("user")[:limit]
    ]
    confirmed = {r.pk: r for r in Round.objects.filter(tournament=tournament, status=Round.Status.CONFIRMED)}
    if confirmed:
        late = (
            Change.objects.filter(game__tournament_table__round__in=list(confirmed))
            .select_related("game__tournament_table", "user")
            .order_by("-created_at", "-id")[:limit]
        )
        for change in late:
            table = change.game.tournament_table
            played = confirmed[table.round_id]
            if played.confirmed_at is not None and change.created_at > played.confirmed_at:
                items.append(HistoryItem(None, change, played.number, table.number))
    items.sort(key=lambda i: i.created_at, reverse=True)  # type: ignore[arg-type, return-value]
    return items[:limit]


@dataclass(frozen=True)
class TournamentHistory:
    items: list[HistoryItem]


def history_of(*, tournament: Tournament, organiser: bool = False) -> TournamentHistory:
    """``tournament_history`` as one object (4 queries at most)."""
    return TournamentHistory(tournament_history(tournament=tournament, organiser=organiser))


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
    fixed number of queries, whatever the number of players and rounds; the ranks come from the
    shared cache once any page computed them for this version of the tournament). Others than
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


@dataclass(frozen=True)
class PenaltiesView:
    """The organiser's list of warnings and penalties (undone ones too), newest first."""

    tournament: Tournament
    penalties: list[Penalty]


def penalties_view(*, tournament: Tournament) -> PenaltiesView:
    """Read from the tournament's row itself: no query."""
    return PenaltiesView(tournament, list(reversed(penalties(tournament))))
