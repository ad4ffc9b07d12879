"""Finding a club's tournaments. The readers of a tournament live beside this module (``view``:
the tournament as its pages show it; ``standings``, ``rounds``, ``entries``, ``player``,
``history``); the API's tournament resources read them all through this one module."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Club
from tournaments.models import Tournament
from tournaments.selectors.entries import (
    ApartPair,
    DoorSearch,
    DoorView,
    EntryList,
    SeatFound,
    SeatSearch,
    apart_pairs,
    check_in_matches,
    door_search,
    door_view,
    entries_of,
    find_seat,
    players_to_register,
    seat_search,
    tournament_entries,
    tournament_entry,
    unregistered_players,
)
from tournaments.selectors.history import HistoryItem, TournamentHistory, history_of, tournament_history
from tournaments.selectors.player import PlayerRound, PlayerView, player_rounds
from tournaments.selectors.rounds import RoundReport, SeatView, TableView, tournament_round
from tournaments.selectors.standings import PenaltiesView, StandingRow, penalties_view
from tournaments.selectors.view import (
    RoundView,
    TournamentOverview,
    TournamentView,
    tournament_overview,
    tournament_view,
)

__all__ = [
    "ApartPair",
    "DoorSearch",
    "DoorView",
    "EntryList",
    "HistoryItem",
    "PenaltiesView",
    "PlayerRound",
    "PlayerView",
    "RoundReport",
    "RoundView",
    "SeatFound",
    "SeatSearch",
    "SeatView",
    "StandingRow",
    "TableView",
    "TournamentHistory",
    "TournamentOverview",
    "TournamentView",
    "apart_pairs",
    "check_in_matches",
    "club_tournaments",
    "door_search",
    "door_view",
    "entries_of",
    "find_seat",
    "history_of",
    "penalties_view",
    "player_rounds",
    "players_to_register",
    "seat_search",
    "tournament_by_public_id",
    "tournament_entries",
    "tournament_entry",
    "tournament_history",
    "tournament_overview",
    "tournament_round",
    "tournament_view",
    "tournaments_of_club",
    "unregistered_players",
]


def tournament_by_public_id(*, public_id: str) -> Tournament | None:
    return Tournament.objects.select_related("club").filter(public_id=public_id).first()


def tournaments_of_club(*, club: Club) -> QuerySet[Tournament]:
    """All the club's tournaments, for a list that pages them itself (the API's cursor)."""
    return Tournament.objects.filter(club=club)


def club_tournaments(*, club: Club, limit: int = 50) -> list[Tournament]:
    """The club's latest tournaments, by date (1 query)."""
    return list(tournaments_of_club(club=club).order_by("-date", "-id")[:limit])
