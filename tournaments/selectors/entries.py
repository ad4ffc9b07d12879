"""The players registered in a tournament: the lists, the door's search and "where do I sit?",
and the pairs kept apart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from games.models import Game, Player
from games.text.collation import by_name
from games.text.names import loose_key, name_key
from tournaments.models import Entry, Tournament
from tournaments.selectors.rounds import table_games
from tournaments.selectors.view import TournamentView
from tournaments.services.entries import door_path
from tournaments.tournament_data import EntryRow


@dataclass(frozen=True)
class EntryList:
    entries: list[Entry]  # with their players, by name


def _entries(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__key")


def _by_name(entries: Iterable[Entry]) -> list[Entry]:
    """The entries by their players' names, in the collation of the page's language."""
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


def unregistered_players(*, tournament: Tournament) -> list[Player]:
    """The club's players not registered yet (for the organiser's registration page)."""
    players = Player.objects.filter(club_id=tournament.club_id, merged_into=None).exclude(
        entries__tournament=tournament
    )
    return sorted(players, key=lambda p: by_name(p.name))


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
    return _by_name(found)[:limit]


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
    games = table_games(ids)
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
