"""Export and import of a club's recorded data: one versioned JSON document
(docs/design/export-format.md, schema in ``tournaments/exchange_schema.json``) and a CSV of the
score sheets.

What is exported is what was *recorded*: the club's settings, its players (names only: no
accounts, no personal data), its games with their seats and hands (each hand's outcome as it
was typed), its tournaments (settings, entries, rounds with their tables and byes) and its
seasons' settings. Nothing derived (scores, results, ratings, standings): the import rebuilds
those with the same code that derives them on every write, so the numbers cannot disagree.

References inside a document are ordinals (``p1``, ``g3``, ``t1``), never database ids, so the
export of an imported club is the same document (apart from the club's own name and address).

The import validates everything first (the schema, every reference, every setting and every
game scored from its hands with the scoring package) and writes nothing when anything is
wrong: ``ImportInvalid`` carries the list of problems, each at its place in the document
(``games[3].hands[2]``: 0-based indexes, as in JSON). Then it writes everything in one
transaction and rebuilds the derived rows (results, ratings, season standings) inside it.
"""

from __future__ import annotations

import datetime
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from engine.errors import EngineError
from engine.rules import rule_set
from games.models import Club, Game, Hand, Player, Seat
from games.selectors.sheets import game_sheet
from games.services.clubs import RESERVED_SLUGS, check_club_name, club_create, club_update
from games.services.errors import ServiceError
from games.services.hands import MAX_HAND_POINTS
from games.services.players import check_name
from games.services.results import rebuild
from games.text.errors import error_message
from games.text.names import loose_key, name_key
from games.web.spreadsheet import SafeDictWriter
from scoring.game import score_game
from tournaments import derived
from tournaments.models import Bye, Entry, Round, Season, Table, TableSeat, Tournament, TournamentChange
from tournaments.services.penalties import (
    checked_penalty_points,
)
from tournaments.services.seasons import SeasonSettings, checked_season
from tournaments.services.tournaments import (
    Settings,
    checked_settings,
)
from tournaments.tournament_data import penalties

FORMAT = "rummy-club-export"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("exchange_schema.json")
CSV_COLUMNS = ("game", "date", "family", "event", "hand", "player", "points", "total")

Doc = Mapping[str, Any]


# ---------------------------------------------------------------------- export


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


# ---------------------------------------------------------------------- validation


class Problem(NamedTuple):
    """What is wrong where: ``path`` in the document (``games[3].hands[2]``, 0-based)."""

    path: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class ImportInvalid(Exception):
    """The document cannot be imported; nothing was written."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = list(problems)


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def prepare() -> None:
    """Read the export's schema now, before the process answers (not in its first import)."""
    _validator()


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "$"


@dataclass
class _Checker:
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: str, code: str, message: str) -> None:
        self.problems.append(Problem(path, code, message))

    def engine(self, path: str, error: EngineError) -> None:
        self.add(path, error.code, error_message(error))

    def moment(self, path: str, value: str | None) -> datetime.datetime | None:
        if value is None:
            return None
        try:
            parsed = datetime.datetime.fromisoformat(value)
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.add(path, "bad_datetime", _("Not a date and time with a time zone (ISO 8601): %s") % value)
            return None
        return parsed

    def day(self, path: str, value: str) -> datetime.date | None:
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            self.add(path, "bad_date", _("Not a date (YYYY-MM-DD): %s") % value)
            return None


def _unique_refs(check: _Checker, items: Sequence[Mapping[str, Any]], kind: str) -> dict[str, int]:
    refs: dict[str, int] = {}
    for i, item in enumerate(items):
        ref = item["ref"]
        if ref in refs:
            check.add(f"{kind}[{i}].ref", "duplicate_ref", _("The reference %s is used twice.") % ref)
        refs.setdefault(ref, i)
    return refs


def validate(doc: object) -> list[Problem]:
    """Every problem of ``doc`` as an import (empty: it can be imported). Writes nothing."""
    if not isinstance(doc, Mapping):
        return [Problem("$", "not_an_object", _("The document is not a JSON object."))]
    if doc.get("format") != FORMAT:
        return [
            Problem("format", "wrong_format", _("This is not a club export (format %s expected).") % FORMAT)
        ]
    if doc.get("version") != VERSION:
        return [
            Problem(
                "version",
                "wrong_version",
                _(
                    "Version %(found)s of the export format cannot be read; "
                    "this site reads version %(version)s."
                )
                % {"found": doc.get("version"), "version": VERSION},
            )
        ]
    structural = sorted(_validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if structural:
        return [Problem(_path(list(e.absolute_path)), "schema", e.message) for e in structural[:50]]
    check = _Checker()
    players = _check_players(check, doc["players"])
    games = _check_games(check, doc["games"], players)
    _check_tournaments(check, doc["tournaments"], players, games)
    _check_seasons(check, doc["seasons"])
    seasons = _unique_refs(check, [s for s in doc["seasons"] if "ref" in s], "seasons")
    for i, t in enumerate(doc["tournaments"]):
        wanted = t.get("final_season")
        if wanted is not None and wanted not in seasons:
            check.add(f"tournaments[{i}].final_season", "unknown_season", _("Unknown season %s.") % wanted)
    return check.problems


def _check_players(check: _Checker, players: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    refs = _unique_refs(check, players, "players")
    keys: dict[str, int] = {}
    for i, p in enumerate(players):
        try:
            name = check_name(p["name"])
        except EngineError as error:
            check.engine(f"players[{i}].name", error)
            continue
        target = p["merged_into"]
        if target is None:
            key = name_key(name)
            if key in keys:
                check.add(
                    f"players[{i}].name",
                    "duplicate_player",
                    _("Player %(name)s is listed twice (as players[%(first)s] too).")
                    % {"name": name, "first": keys[key]},
                )
            keys.setdefault(key, i)
            continue
        seen = {p["ref"]}
        while target is not None:
            if target not in refs:
                check.add(f"players[{i}].merged_into", "unknown_player", _("Unknown player %s.") % target)
                break
            if target in seen:
                check.add(
                    f"players[{i}].merged_into",
                    "merge_cycle",
                    _("The merges of this player go round in a circle."),
                )
                break
            seen.add(target)
            target = players[refs[target]]["merged_into"]
    return refs


def _check_games(
    check: _Checker, games: Sequence[Mapping[str, Any]], players: Mapping[str, int]
) -> dict[str, int]:
    refs = _unique_refs(check, games, "games")
    for i, game in enumerate(games):
        at = f"games[{i}]"
        check.moment(f"{at}.created_at", game["created_at"])
        check.moment(f"{at}.event_ends", game.get("event_ends"))
        for link in ("rematch_of", "evening"):
            if game.get(link) is not None and game[link] not in refs:
                check.add(f"{at}.{link}", "unknown_game", _("Unknown game %s.") % game[link])
        played = check.moment(f"{at}.played_at", game.get("played_at"))
        if played is not None and played > timezone.now():
            check.add(f"{at}.played_at", "played_in_future", _("A game cannot be played in the future."))
        try:
            rules = rule_set(game["family"], game["options"])
        except EngineError as error:
            check.engine(f"{at}.options", error)
            continue
        except (TypeError, ValueError, KeyError, AttributeError):
            # A document is anyone's file: a value the engine never meant to receive.
            check.add(f"{at}.options", "bad_options", _("These house rules cannot be read."))
            continue
        seats = game["seats"]
        names: list[str] = []
        ok = True
        if sorted(s["position"] for s in seats) != list(range(len(seats))):
            check.add(
                f"{at}.seats", "seat_positions", _("The seats' positions must be 0, 1, 2... each once.")
            )
            ok = False
        keys: set[str] = set()
        for j, seat in enumerate(sorted(seats, key=lambda s: s["position"])):
            if seat["player"] not in players:
                check.add(
                    f"{at}.seats[{j}].player", "unknown_player", _("Unknown player %s.") % seat["player"]
                )
                ok = False
            try:
                name = check_name(seat["name"])
            except EngineError as error:
                check.engine(f"{at}.seats[{j}].name", error)
                ok = False
                continue
            if name_key(name) in keys:
                check.add(
                    f"{at}.seats[{j}].name", "duplicate_player", _("Two seats have the name %s.") % name
                )
                ok = False
            keys.add(name_key(name))
            names.append(name)
        if not 0 <= game["first_dealer"] < max(len(seats), 1):
            check.add(f"{at}.first_dealer", "first_dealer", _("The first dealer is not one of the seats."))
        hands = game["hands"]
        numbers = [h["number"] for h in hands]
        if numbers != sorted(set(numbers)):
            check.add(f"{at}.hands", "hand_numbers", _("The hands' numbers must go up, each once."))
            ok = False
        elif numbers and game["next_hand_number"] <= numbers[-1]:
            check.add(
                f"{at}.next_hand_number",
                "hand_numbers",
                _("The next hand's number must be above every hand's."),
            )
        for j, hand in enumerate(hands):
            check.moment(f"{at}.hands[{j}].created_at", hand["created_at"])
        if not ok:
            continue
        try:
            state = score_game(
                rules=rules,
                players=names,
                hands=[h["outcome"] for h in hands],
                ended=game["ended"],
                hand_limit=game["hand_limit"],
            )
        except EngineError as error:
            hand_no = error.params.get("hand")
            where = (
                f"{at}.hands[{hand_no - 1}]"
                if isinstance(hand_no, int) and 1 <= hand_no <= len(hands)
                else at
            )
            check.engine(where, error)
            continue
        except (TypeError, ValueError, KeyError, AttributeError):
            check.add(f"{at}.hands", "bad_outcome", _("A hand's outcome cannot be read."))
            continue
        for j, result in enumerate(state.hands):
            if any(abs(points) > MAX_HAND_POINTS for points in result.points.values()):
                check.add(
                    f"{at}.hands[{j}]",
                    "points_too_big",
                    _("A hand scores more than %s points.") % MAX_HAND_POINTS,
                )
    return refs


def _tournament_settings(t: Mapping[str, Any], date: datetime.date) -> Settings:
    # A document from before the clock, the finals and the release gates leaves them out
    # (nothing hidden, nothing frozen). The final's season is
    # set once the seasons are written.
    return Settings.from_mapping({**t, "date": date, "final_season": None})


def _check_tournaments(
    check: _Checker,
    tournaments: Sequence[Mapping[str, Any]],
    players: Mapping[str, int],
    games: Mapping[str, int],
) -> None:
    _unique_refs(check, tournaments, "tournaments")
    used_games: dict[str, str] = {}
    for i, t in enumerate(tournaments):
        at = f"tournaments[{i}]"
        check.moment(f"{at}.created_at", t["created_at"])
        date = check.day(f"{at}.date", t["date"])
        if date is not None:
            try:
                checked_settings(_tournament_settings(t, date))
            except EngineError as error:
                check.engine(at, error)
        entered: set[str] = set()
        for j, entry in enumerate(t["entries"]):
            ref = entry["player"]
            if ref not in players:
                check.add(f"{at}.entries[{j}].player", "unknown_player", _("Unknown player %s.") % ref)
            elif ref in entered:
                check.add(
                    f"{at}.entries[{j}].player", "duplicate_entry", _("Player %s is registered twice.") % ref
                )
            entered.add(ref)
        for j, pair in enumerate(t.get("apart", [])):
            if pair[0] == pair[1] or not set(pair) <= entered:
                check.add(
                    f"{at}.apart[{j}]",
                    "apart_unregistered",
                    _("Players kept apart must be two different registered players."),
                )
        numbers: set[int] = set()
        for k, played in enumerate(t["seated_rounds"]):
            where = f"{at}.seated_rounds[{k}]"
            # A final's stages are numbered after the tournament's rounds.
            beyond = played["number"] > t["rounds"]
            if played["number"] in numbers or beyond != bool(played.get("final_stage", 0)):
                check.add(
                    f"{where}.number",
                    "round_number",
                    _(
                        "Round numbers go from 1 to the tournament's rounds, each once; a final's "
                        "stages come after them."
                    ),
                )
            numbers.add(played["number"])
            check.moment(f"{where}.started_at", played["started_at"])
            check.moment(f"{where}.ends_at", played.get("ends_at"))
            check.moment(f"{where}.confirmed_at", played["confirmed_at"])
            tables: set[int] = set()
            placed: set[str] = set()
            for n, table in enumerate(played["tables"]):
                there = f"{where}.tables[{n}]"
                if table["number"] in tables:
                    check.add(
                        f"{there}.number",
                        "table_number",
                        _("Two tables have the number %s.") % table["number"],
                    )
                tables.add(table["number"])
                for m, ref in enumerate(table["seats"]):
                    if ref not in entered:
                        check.add(
                            f"{there}.seats[{m}]", "not_entered", _("Player %s is not registered.") % ref
                        )
                    elif ref in placed:
                        check.add(
                            f"{there}.seats[{m}]",
                            "seated_twice",
                            _("Player %s is seated twice in the round.") % ref,
                        )
                    placed.add(ref)
                # A table's game is checked as a reference only: what the database holds (a
                # round seated but not started has none; a merge may have moved a seat to
                # another player) is imported as it is.
                game = table["game"]
                if game is None:
                    continue
                if game not in games:
                    check.add(f"{there}.game", "unknown_game", _("Unknown game %s.") % game)
                    continue
                if game in used_games:
                    check.add(
                        f"{there}.game",
                        "game_twice",
                        _("Game %(game)s is also the game of %(other)s.")
                        % {"game": game, "other": used_games[game]},
                    )
                used_games[game] = there
            for m, ref in enumerate(played["byes"]):
                if ref not in entered:
                    check.add(f"{where}.byes[{m}]", "not_entered", _("Player %s is not registered.") % ref)
                elif ref in placed:
                    check.add(
                        f"{where}.byes[{m}]",
                        "seated_twice",
                        _("Player %s is seated twice in the round.") % ref,
                    )
                placed.add(ref)
        for k, penalty in enumerate(t.get("penalties", [])):
            where = f"{at}.penalties[{k}]"
            if penalty["player"] not in entered:
                check.add(
                    f"{where}.player", "not_entered", _("Player %s is not registered.") % penalty["player"]
                )
            if penalty["round"] is not None and penalty["round"] not in numbers:
                check.engine(where, ServiceError("penalty_round", "no such round", round=penalty["round"]))
            try:
                checked_penalty_points(penalty["kind"], Fraction(penalty["points"]))
            except (ValueError, ZeroDivisionError):
                check.add(f"{where}.points", "penalty_points", _("Not a number: %s.") % penalty["points"])
            except EngineError as error:
                check.engine(where, error)


def _season_settings(s: Mapping[str, Any], starts: datetime.date, ends: datetime.date) -> SeasonSettings:
    return SeasonSettings.from_mapping({**s, "starts": starts, "ends": ends})


def _check_seasons(check: _Checker, seasons: Sequence[Mapping[str, Any]]) -> None:
    for i, s in enumerate(seasons):
        at = f"seasons[{i}]"
        check.moment(f"{at}.created_at", s["created_at"])
        starts, ends = check.day(f"{at}.starts", s["starts"]), check.day(f"{at}.ends", s["ends"])
        if starts is None or ends is None:
            continue
        try:
            checked_season(_season_settings(s, starts, ends))
        except EngineError as error:
            check.engine(at, error)


def _check_target(
    check: _Checker, *, name: str | None, slug: str | None, club: Club | None
) -> tuple[str, str | None]:
    """The new club's name and address, or the existing club that must be empty."""
    clean = ""
    if club is not None:
        if not club_is_empty(club):
            check.add(
                "club", "club_not_empty", _("The club already has players, games, tournaments or seasons.")
            )
        return club.name, None
    try:
        clean = check_club_name(name or "")
    except EngineError as error:
        check.engine("name", error)
    if slug:
        wanted = slugify(slug)[:50]
        if not wanted or wanted in RESERVED_SLUGS:
            check.add("slug", "slug_invalid", _("The address needs letters or digits."))
        elif Club.objects.filter(slug=wanted).exists():
            check.add("slug", "slug_taken", _("That address is taken."))
        return clean, wanted
    return clean, None


# ---------------------------------------------------------------------- import


@dataclass(frozen=True)
class Imported:
    club: Club
    players: int
    games: int
    hands: int
    tournaments: int
    seasons: int


def import_club(
    doc: object, *, user: User, name: str | None = None, slug: str | None = None, club: Club | None = None
) -> Imported:
    """Import ``doc`` into a new club named ``name`` (address ``slug``, else made from the name)
    with ``user`` as its organiser, or into ``club``, which must be empty. Validates everything
    first: ``ImportInvalid`` with every problem, nothing written. Then one transaction writes
    the recorded rows and rebuilds the derived ones (results, ratings, season standings)."""
    check = _Checker()
    clean_name, wanted_slug = _check_target(check, name=name, slug=slug, club=club)
    problems = [*check.problems, *validate(doc)]
    if problems:
        raise ImportInvalid(problems)
    assert isinstance(doc, Mapping)
    with transaction.atomic():
        if club is None:
            club = club_create(name=clean_name, user=user)
        club = club_update(
            club=club,
            name=club.name,
            slug=wanted_slug or club.slug,
            visibility=(doc["club"] or {}).get("visibility", Club.Visibility.PUBLIC),
            version=None,
            # Absent from older documents: the defaults are kept.
            provisional_games=(doc["club"] or {}).get("provisional_games"),
            inactive_days=(doc["club"] or {}).get("inactive_days"),
        )
        players = _write_players(club, doc["players"])
        games, hands = _write_games(club, doc["games"], players)
        tournaments = [_write_tournament(club, t, players, games, user) for t in doc["tournaments"]]
        seasons: dict[str, Season] = {}
        for s in doc["seasons"]:
            starts, ends = datetime.date.fromisoformat(s["starts"]), datetime.date.fromisoformat(s["ends"])
            season = Season.objects.create(
                club=club, created_by=user, **checked_season(_season_settings(s, starts, ends))
            )
            Season.objects.filter(pk=season.pk).update(
                created_at=datetime.datetime.fromisoformat(s["created_at"])
            )
            if "ref" in s:
                seasons[s["ref"]] = season
        for made, t in zip(tournaments, doc["tournaments"], strict=True):
            if t.get("final_season") in seasons:
                Tournament.objects.filter(pk=made.pk).update(final_season=seasons[t["final_season"]])
        for game in games.values():
            rebuild(game)
        derived.club_changed(club)
    return Imported(club, len(players), len(games), hands, len(doc["tournaments"]), len(doc["seasons"]))


def _write_players(club: Club, docs: Sequence[Mapping[str, Any]]) -> dict[str, Player]:
    made: dict[str, Player] = {}
    # In document order, so the export of the import lists them alike (and ties in standings
    # fall alike); a merged player is written once the player he was merged into exists.
    waiting = list(docs)
    while waiting:
        later = []
        for p in waiting:
            target = p["merged_into"]
            if target is not None and target not in made:
                later.append(p)
                continue
            name = check_name(p["name"])
            made[p["ref"]] = Player.objects.create(
                club=club,
                name=name,
                key=name_key(name),
                loose_key=loose_key(name),
                merged_into=made[target] if target is not None else None,
            )
        if len(later) == len(waiting):  # validated: cannot happen
            raise RuntimeError("unresolvable merges")
        waiting = later
    return made


def _write_games(
    club: Club, docs: Sequence[Mapping[str, Any]], players: Mapping[str, Player]
) -> tuple[dict[str, Game], int]:
    games: dict[str, Game] = {}
    count = 0
    for g in docs:
        rules = rule_set(g["family"], g["options"])
        game = Game.objects.create(
            family=g["family"],
            options=dict(rules.options),
            owner=None,
            club=club,
            first_dealer=g["first_dealer"],
            ended=g["ended"],
            hand_limit=g["hand_limit"],
            event_name=g["event_name"],
            event_round=g["event_round"],
            event_table=g["event_table"],
            event_path=g["event_path"],
            event_ends=_moment(g.get("event_ends")),
            next_hand_number=g["next_hand_number"],
        )
        created = datetime.datetime.fromisoformat(g["created_at"])
        # A document from before games had their own date: the game was played when started.
        played = datetime.datetime.fromisoformat(g.get("played_at") or g["created_at"])
        Game.objects.filter(pk=game.pk).update(created_at=created, played_at=played)
        game.created_at, game.played_at = created, played
        Seat.objects.bulk_create(
            Seat(game=game, position=s["position"], name=check_name(s["name"]), player=players[s["player"]])
            for s in g["seats"]
        )
        made = Hand.objects.bulk_create(
            Hand(game=game, number=h["number"], outcome=h["outcome"]) for h in g["hands"]
        )
        # auto_now_add stamped them now: the recorded moments go back in one statement.
        for hand, h in zip(made, g["hands"], strict=True):
            hand.created_at = datetime.datetime.fromisoformat(h["created_at"])
        Hand.objects.bulk_update(made, ["created_at"], batch_size=500)
        count += len(made)
        games[g["ref"]] = game
    for g in docs:  # the links between games, once every game is made
        links = {link: games[g[link]] for link in ("rematch_of", "evening") if g.get(link)}
        if links:
            Game.objects.filter(pk=games[g["ref"]].pk).update(**links)
    return games, count


def _moment(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _write_tournament(
    club: Club, t: Mapping[str, Any], players: Mapping[str, Player], games: Mapping[str, Game], user: User
) -> Tournament:
    fields = checked_settings(_tournament_settings(t, datetime.date.fromisoformat(t["date"])))
    tournament = Tournament.objects.create(
        club=club,
        created_by=user,
        seed=t["seed"],
        standings_revealed=t.get("standings_revealed", False),
        **fields,
    )
    Tournament.objects.filter(pk=tournament.pk).update(created_at=_moment(t["created_at"]))
    TournamentChange.objects.create(
        tournament=tournament,
        action=TournamentChange.Action.CREATED,
        user=user,
        data={"name": tournament.name, "imported": True},
    )
    path = reverse("tournaments:detail", kwargs={"public_id": tournament.public_id})
    entries = {
        e["player"]: Entry.objects.create(
            tournament=tournament,
            player=players[e["player"]],
            checked_in=e["checked_in"],
            from_round=e["from_round"],
            dropped_after=e["dropped_after"],
            pinned_table=e["pinned_table"],
        )
        for e in t["entries"]
    }
    pairs = [sorted([entries[a].pk, entries[b].pk]) for a, b in t.get("apart", [])]
    if pairs:
        tournament.apart = sorted(pairs)
        tournament.save(update_fields=["apart"])
    for r in t["seated_rounds"]:
        played = Round.objects.create(
            tournament=tournament,
            number=r["number"],
            final_stage=r.get("final_stage", 0),
            status=r["status"],
            seed=r["seed"],
            started_at=_moment(r["started_at"]),
            ends_at=_moment(r.get("ends_at")),
            confirmed_at=_moment(r["confirmed_at"]),
            published=r.get("published", True),
        )
        for table in r["tables"]:
            game = games[table["game"]] if table["game"] is not None else None
            made = Table.objects.create(round=played, number=table["number"], game=game)
            if game is not None:
                Game.objects.filter(pk=game.pk).update(event_path=path)
            TableSeat.objects.bulk_create(
                TableSeat(table=made, entry=entries[ref], position=position)
                for position, ref in enumerate(table["seats"])
            )
        Bye.objects.bulk_create(Bye(round=played, entry=entries[ref]) for ref in r["byes"])
    given = [
        {
            "id": number,
            "entry": entries[p["player"]].pk,
            "player": players[p["player"]].name,
            "kind": p["kind"],
            "points": str(Fraction(p["points"])),
            "round": p["round"],
            "reason": p["reason"],
            "undone": p["undone"],
        }
        for number, p in enumerate(t.get("penalties", []), start=1)
    ]
    if given:
        Tournament.objects.filter(pk=tournament.pk).update(penalties=given)
    return tournament


def club_is_empty(club: Club) -> bool:
    """Whether ``club`` has nothing an import would clash with."""
    return not (
        Player.objects.filter(club=club).exists()
        or Game.objects.filter(club=club).exists()
        or Tournament.objects.filter(club=club).exists()
        or Season.objects.filter(club=club).exists()
    )
