"""Every problem of a document as an import, each at its place in the document; nothing is
written here."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.rules import rule_set
from games.models import Club, Game, Player
from games.services.clubs import RESERVED_SLUGS, check_club_name
from games.services.errors import ServiceError
from games.services.hands import MAX_HAND_POINTS
from games.services.players import check_name
from games.text.errors import error_message
from games.text.names import name_key
from scoring.game import score_game
from tournaments.exchange.schema import FORMAT, VERSION, validator
from tournaments.models import Season, Tournament
from tournaments.services.penalties import checked_penalty_points
from tournaments.services.seasons import SeasonSettings, checked_season
from tournaments.services.tournament_settings import Settings, checked_settings


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


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "$"


@dataclass
class Checker:
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


def _unique_refs(check: Checker, items: Sequence[Mapping[str, Any]], kind: str) -> dict[str, int]:
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
    structural = sorted(validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if structural:
        return [Problem(_path(list(e.absolute_path)), "schema", e.message) for e in structural[:50]]
    check = Checker()
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


def _check_players(check: Checker, players: Sequence[Mapping[str, Any]]) -> dict[str, int]:
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
    check: Checker, games: Sequence[Mapping[str, Any]], players: Mapping[str, int]
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


def tournament_settings_of(t: Mapping[str, Any], date: datetime.date) -> Settings:
    # A document from before the clock, the finals and the release gates leaves them out
    # (nothing hidden, nothing frozen). The final's season is
    # set once the seasons are written.
    return Settings.from_mapping({**t, "date": date, "final_season": None})


def _check_tournaments(
    check: Checker,
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
                checked_settings(tournament_settings_of(t, date))
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


def season_settings_of(s: Mapping[str, Any], starts: datetime.date, ends: datetime.date) -> SeasonSettings:
    return SeasonSettings.from_mapping({**s, "starts": starts, "ends": ends})


def _check_seasons(check: Checker, seasons: Sequence[Mapping[str, Any]]) -> None:
    for i, s in enumerate(seasons):
        at = f"seasons[{i}]"
        check.moment(f"{at}.created_at", s["created_at"])
        starts, ends = check.day(f"{at}.starts", s["starts"]), check.day(f"{at}.ends", s["ends"])
        if starts is None or ends is None:
            continue
        try:
            checked_season(season_settings_of(s, starts, ends))
        except EngineError as error:
            check.engine(at, error)


def check_target(
    check: Checker, *, name: str | None, slug: str | None, club: Club | None
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


def club_is_empty(club: Club) -> bool:
    """Whether ``club`` has nothing an import would clash with."""
    return not (
        Player.objects.filter(club=club).exists()
        or Game.objects.filter(club=club).exists()
        or Tournament.objects.filter(club=club).exists()
        or Season.objects.filter(club=club).exists()
    )
