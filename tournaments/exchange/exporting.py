"""A club's recorded data (or a user's own games) as the export document, and its score
sheets as CSV."""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from games.models import Club, Game, Player
from games.selectors.sheets import game_sheet
from games.web.spreadsheet import SafeDictWriter
from tournaments.exchange.schema import FORMAT, VERSION
from tournaments.models import Entry, Round, Season, Table, Tournament
from tournaments.tournament_data import penalties

CSV_COLUMNS = ("game", "date", "family", "event", "hand", "player", "points", "total")


def _when(value: datetime.datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC (stable, whatever the site's time zone)."""
    if value is None:
        return None
    return value.astimezone(datetime.UTC).isoformat()


def _players(club: Club) -> list[Player]:
    """The club's players in document order: the order they were created in (what breaks
    the standings' ties among equals, so an import creates them in the same order), merged
    ones included (their seats moved to the player kept; kept for the names' history)."""
    return list(Player.objects.filter(club=club).order_by("pk"))


def _games(club: Club | None, owner: User | None = None) -> list[Game]:
    """The club's games (or, without a club, ``owner``'s own games outside clubs), in
    document order: by date of play. Not a deleted game: an import would bring it back."""
    games = (
        Game.objects.filter(club=club) if club is not None else Game.objects.filter(owner=owner, club=None)
    )
    games = games.filter(deleted_at=None)
    return list(games.order_by("played_at", "pk").prefetch_related("seats", "hands"))


def export_club(club: Club) -> dict[str, Any]:
    """The club's recorded data as one JSON-ready document (format version 1)."""
    return _document(club, _players(club), _games(club))


def export_user(user: User) -> dict[str, Any]:
    """A user's own data in the same format: the games he started outside any club and his
    roster (the players of those games), with ``club`` null and no tournaments or seasons.
    It imports like a club's export: into a new club of his."""
    games = _games(None, user)
    players = list(
        Player.objects.filter(Q(club=None, owner=user) | Q(seats__game__in=[g.pk for g in games]))
        .distinct()
        .order_by("pk")
    )
    return _document(None, players, games)


def _document(club: Club | None, players: Sequence[Player], games: Sequence[Game]) -> dict[str, Any]:
    player_ref = {p.pk: f"p{i}" for i, p in enumerate(players, start=1)}
    game_ref = {g.pk: f"g{i}" for i, g in enumerate(games, start=1)}
    seasons = list(Season.objects.filter(club=club).order_by("starts", "created_at", "pk")) if club else []
    season_ref = {s.pk: f"s{i}" for i, s in enumerate(seasons, start=1)}
    tables = set(Table.objects.filter(game_id__in=list(game_ref)).values_list("game_id", flat=True))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _when(timezone.now()),
        "club": None
        if club is None
        else {
            "name": club.name,
            "slug": club.slug,
            "visibility": club.visibility,
            "provisional_games": club.provisional_games,
            "inactive_days": club.inactive_days,
        },
        "players": [
            {
                "ref": player_ref[p.pk],
                "name": p.name,
                "merged_into": player_ref.get(p.merged_into_id) if p.merged_into_id else None,
            }
            for p in players
        ],
        "games": [
            {
                "ref": game_ref[g.pk],
                "family": g.family,
                "options": g.options,
                "first_dealer": g.first_dealer,
                "ended": g.ended,
                "hand_limit": g.hand_limit,
                "event_name": g.event_name,
                "event_round": g.event_round,
                "event_table": g.event_table,
                # A tournament table's path names the tournament's page: the import makes it.
                "event_path": "" if g.pk in tables else g.event_path,
                "event_ends": _when(g.event_ends),
                "created_at": _when(g.created_at),
                "played_at": _when(g.played_at),
                # The links that make an evening (a deleted game's: none, it is not exported).
                "rematch_of": game_ref.get(g.rematch_of_id) if g.rematch_of_id else None,
                "evening": game_ref.get(g.evening_id) if g.evening_id else None,
                "next_hand_number": g.next_hand_number,
                "seats": [
                    {"position": s.position, "name": s.name, "player": player_ref[s.player_id]}
                    for s in sorted(g.seats.all(), key=lambda s: s.position)
                ],
                "hands": [
                    {"number": h.number, "outcome": h.outcome, "created_at": _when(h.created_at)}
                    for h in sorted(g.hands.all(), key=lambda h: h.number)
                ],
            }
            for g in games
        ],
        "tournaments": [] if club is None else _export_tournaments(club, player_ref, game_ref, season_ref),
        "seasons": [
            {
                "ref": season_ref[s.pk],
                "name": s.name,
                "starts": s.starts.isoformat(),
                "ends": s.ends.isoformat(),
                "families": list(s.families),
                "counts": s.counts,
                "game_points": s.game_points,
                "tournament_points": s.tournament_points,
                "custom_points": list(s.custom_points),
                "best_events": s.best_events,
                "drop_worst": s.drop_worst,
                "min_games": s.min_games,
                "qualify": s.qualify,
                "tiebreaks": list(s.tiebreaks),
                "created_at": _when(s.created_at),
            }
            for s in seasons
        ],
    }
    return doc


def _export_tournaments(
    club: Club, player_ref: Mapping[int, str], game_ref: Mapping[int, str], season_ref: Mapping[int, str]
) -> list[dict[str, Any]]:
    order = {pk: int(ref[1:]) for pk, ref in player_ref.items()}
    out: list[dict[str, Any]] = []
    tournaments = Tournament.objects.filter(club=club).order_by("date", "created_at", "pk")
    for t in tournaments:
        entries = sorted(Entry.objects.filter(tournament=t), key=lambda e: order[e.player_id])
        of_entry = {e.pk: e.player_id for e in entries}
        rounds = (
            Round.objects.filter(tournament=t).order_by("number").prefetch_related("tables__seats", "byes")
        )
        out.append(
            {
                "ref": f"t{len(out) + 1}",
                "name": t.name,
                "date": t.date.isoformat(),
                "family": t.family,
                "options": t.options,
                "rounds": t.rounds,
                "round_hands": t.round_hands,
                "round_minutes": t.round_minutes,
                "table_confirm": t.table_confirm,
                "table_min": t.table_min,
                "table_max": t.table_max,
                "table_preferred": t.table_preferred,
                "byes_allowed": t.byes_allowed,
                "seating": t.seating,
                "seed_by_rating": t.seed_by_rating,
                "apart": sorted(
                    sorted([player_ref[of_entry[a]], player_ref[of_entry[b]]], key=lambda r: int(r[1:]))
                    for a, b in t.apart
                    if a in of_entry and b in of_entry
                ),
                "seat_order": t.seat_order,
                "points": t.points,
                "custom_points": t.custom_points,
                "tiebreaks": list(t.tiebreaks),
                "final": t.final,
                "final_size": t.final_size,
                "final_counts": t.final_counts,
                "final_season": season_ref.get(t.final_season_id) if t.final_season_id else None,
                "hide_seating": t.hide_seating,
                "freeze_rounds": t.freeze_rounds,
                "freeze_final": t.freeze_final,
                "frozen_shows": t.frozen_shows,
                "standings_revealed": t.standings_revealed,
                "seed": t.seed,
                "created_at": _when(t.created_at),
                "entries": [
                    {
                        "player": player_ref[e.player_id],
                        "checked_in": e.checked_in,
                        "from_round": e.from_round,
                        "dropped_after": e.dropped_after,
                        "pinned_table": e.pinned_table,
                    }
                    for e in entries
                ],
                "penalties": [
                    {
                        "player": player_ref[of_entry[p.entry]],
                        "kind": p.kind,
                        "points": str(p.points),
                        "round": p.round,
                        "reason": p.reason,
                        "undone": p.undone,
                    }
                    for p in penalties(t)
                    if p.entry in of_entry
                ],
                "seated_rounds": [
                    {
                        "number": r.number,
                        "final_stage": r.final_stage,
                        "status": r.status,
                        "seed": r.seed,
                        "started_at": _when(r.started_at),
                        "ends_at": _when(r.ends_at),
                        "confirmed_at": _when(r.confirmed_at),
                        "published": r.published,
                        "tables": [
                            {
                                "number": table.number,
                                "game": game_ref.get(table.game_id) if table.game_id else None,
                                "seats": [
                                    player_ref[of_entry[s.entry_id]]
                                    for s in sorted(table.seats.all(), key=lambda s: s.position)
                                ],
                            }
                            for table in sorted(r.tables.all(), key=lambda table: table.number)
                        ],
                        "byes": sorted(
                            (player_ref[of_entry[b.entry_id]] for b in r.byes.all()),
                            key=lambda ref: int(ref[1:]),
                        ),
                    }
                    for r in rounds
                ],
            }
        )
    return out


def score_sheet_rows(club: Club) -> Iterator[dict[str, Any]]:
    """One row per player per hand of every club game, as the score sheet shows it (scored
    from the hands, like the game's page): points and running total."""
    zone = timezone.get_current_timezone()
    for index, game in enumerate(_games(club), start=1):
        sheet = game_sheet(game=game)
        for row in sheet.rows:
            for player, points, total in zip(sheet.players, row.points, row.totals, strict=True):
                yield {
                    "game": f"g{index}",
                    "date": game.played_at.astimezone(zone).date().isoformat(),
                    "family": game.family,
                    "event": game.event_name,
                    "hand": row.ordinal,
                    "player": player,
                    "points": points,
                    "total": total,
                }


def export_csv(club: Club) -> str:
    """The score sheets of the club's games as CSV (the columns of ``CSV_COLUMNS``)."""
    out = io.StringIO()
    writer = SafeDictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in score_sheet_rows(club):
        writer.writerow(row)
    return out.getvalue()
