"""Every problem of a federation's document as an import, each at its place in the document,
and the site's clubs, players and tournaments it names; nothing is written here.

A federation's records name its clubs (by address), their players (by name) and their
tournaments (by name and date): those must exist on this site, imported first with
``import_club``. A name that is missing is refused with its place, never skipped, so an import
is never a federation with half its links."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine.errors import EngineError
from federations.exchange.schema import FORMAT, VERSION, validator
from federations.models import FederationOpen
from federations.services.federations import RESERVED_SLUGS, Settings, checked_settings
from federations.services.seasons import GrandPrixSettings, checked
from games.models import Club, Player
from games.services.errors import ServiceError
from games.services.players import check_name
from games.text.names import name_key
from tournaments.exchange.validation import Checker, ImportInvalid, Problem
from tournaments.models import Tournament

__all__ = ["Found", "ImportInvalid", "Problem", "validate"]


@dataclass
class Found:
    """What the document names on this site: clubs by address, players by (address, name),
    the rated tournaments and the opens' tournaments in the document's order, and each
    season's model fields as the seasons' service checked them."""

    clubs: dict[str, Club] = field(default_factory=dict)
    players: dict[tuple[str, str], Player] = field(default_factory=dict)
    tournaments: list[Tournament] = field(default_factory=list)
    opens: list[Tournament] = field(default_factory=list)
    seasons: list[dict[str, Any]] = field(default_factory=list)


def _path(parts: Sequence[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "$"


def validate(doc: object) -> tuple[list[Problem], Found]:
    """Every problem of ``doc`` (an empty list: it can be imported) and what it names here."""
    found = Found()
    if not isinstance(doc, Mapping):
        return [Problem("$", "not_object", _("The document is not a JSON object."))], found
    if doc.get("format") != FORMAT:
        return [
            Problem(
                "format", "wrong_format", _("This is not a federation export (format %s expected).") % FORMAT
            )
        ], found
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
        ], found
    structural = sorted(validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if structural:
        return [Problem(_path(list(e.absolute_path)), "schema", e.message) for e in structural[:50]], found
    check = Checker()
    _check_settings(check, doc["federation"])
    numbers = _check_register(check, doc["register"], doc["federation"]["next_number"])
    found.clubs = _clubs(doc)
    for i, person in enumerate(doc["register"]):
        _known_club(check, found, f"register[{i}].home_club", person["home_club"])
    _check_periods(check, found, doc["clubs"])
    _check_links(check, found, doc["links"], numbers)
    found.tournaments = _check_tournaments(check, found, doc["rated_tournaments"], "rated_tournaments")
    # Documents written before opens and seasons were exported lack them: none.
    found.opens = _check_tournaments(check, found, doc.get("opens", []), "opens")
    _check_opens_free(check, found.opens)
    _check_published(check, doc["published"])
    found.seasons = _check_seasons(check, doc.get("seasons", []))
    return check.problems, found


def settings_of(federation: Mapping[str, Any]) -> Settings:
    """The document's settings; its address only a wish (the import makes a free one)."""
    slug = slugify(federation["slug"])[:50] or slugify(federation["name"])[:50] or "federation"
    return Settings(
        name=federation["name"],
        # A reserved address is a route of the site's, never a federation's.
        slug=f"{slug[:39]}-federation" if slug in RESERVED_SLUGS else slug,
        visibility=federation["visibility"],
        counts=federation["counts"],
        id_prefix=federation["id_prefix"],
        provisional_games=federation["provisional_games"],
        inactive_days=federation["inactive_days"],
    )


def _check_settings(check: Checker, federation: Mapping[str, Any]) -> None:
    try:
        checked_settings(settings_of(federation))
    except EngineError as error:
        check.engine(f"federation.{error.params.get('field', 'name')}", error)


def _check_register(
    check: Checker, register: Sequence[Mapping[str, Any]], next_number: int
) -> dict[int, int]:
    numbers: dict[int, int] = {}
    for i, person in enumerate(register):
        number = person["number"]
        if number in numbers:
            check.add(
                f"register[{i}].number",
                "duplicate_number",
                _("Number %(number)s is in the register twice (as register[%(first)s] too).")
                % {"number": number, "first": numbers[number]},
            )
        numbers.setdefault(number, i)
        try:
            check_name(person["name"])
        except EngineError as error:
            check.engine(f"register[{i}].name", error)
        if number >= next_number:
            check.add(
                "federation.next_number",
                "next_number_low",
                _("The next number must be above every number of the register (%s).") % number,
            )
    for i, person in enumerate(register):
        target, seen = person["merged_into"], {person["number"]}
        while target is not None:
            if target not in numbers:
                check.add(
                    f"register[{i}].merged_into", "unknown_person", _("No entry has the number %s.") % target
                )
                break
            if target in seen:
                check.add(
                    f"register[{i}].merged_into",
                    "merge_cycle",
                    _("The merges of this entry go round in a circle."),
                )
                break
            seen.add(target)
            target = register[numbers[target]]["merged_into"]
    return numbers


def _clubs(doc: Mapping[str, Any]) -> dict[str, Club]:
    named = {p["home_club"] for p in doc["register"] if p["home_club"]}
    for part in ("clubs", "links", "rated_tournaments", "opens"):
        named |= {row["club"] for row in doc.get(part, [])}
    return {club.slug: club for club in Club.objects.filter(slug__in=named)}


def _known_club(check: Checker, found: Found, path: str, slug: str | None) -> Club | None:
    if slug is None:
        return None
    club = found.clubs.get(slug)
    if club is None:
        check.add(
            path,
            "unknown_club",
            _("No club has the address %s on this site: import the club's export first.") % slug,
        )
    return club


def _check_periods(check: Checker, found: Found, periods: Sequence[Mapping[str, Any]]) -> None:
    open_at: dict[str, int] = {}
    for i, period in enumerate(periods):
        at = f"clubs[{i}]"
        _known_club(check, found, f"{at}.club", period["club"])
        if period["counts_from"] is not None:
            check.day(f"{at}.counts_from", period["counts_from"])
        for key in ("invited_at", "joined_at", "ended_at"):
            check.moment(f"{at}.{key}", period.get(key))
        if period["state"] in ("invited", "member"):
            if period["club"] in open_at:
                check.add(
                    f"{at}.state",
                    "club_open_twice",
                    _("Club %(club)s is invited or a member twice (as clubs[%(first)s] too).")
                    % {"club": period["club"], "first": open_at[period["club"]]},
                )
            open_at.setdefault(period["club"], i)


def _player(club: Club, name: str) -> Player | None:
    """The club's player of that name: as written, else the same name in another case or
    spacing; a player kept before one merged away."""
    candidates = sorted(
        Player.objects.filter(club=club, key=name_key(name)),
        key=lambda p: (p.name != name, p.merged_into_id is not None, p.pk),
    )
    return candidates[0] if candidates else None


def _check_links(
    check: Checker, found: Found, links: Sequence[Mapping[str, Any]], numbers: Mapping[int, int]
) -> None:
    players: dict[int, int] = {}
    people: dict[tuple[int, str], int] = {}
    for i, link in enumerate(links):
        at = f"links[{i}]"
        if link["person"] not in numbers:
            check.add(f"{at}.person", "unknown_person", _("No entry has the number %s.") % link["person"])
        club = _known_club(check, found, f"{at}.club", link["club"])
        if club is None:
            continue
        player = _player(club, link["player"])
        if player is None:
            check.add(
                f"{at}.player",
                "unknown_player",
                _("Club %(club)s has no player named %(name)s.")
                % {"club": link["club"], "name": link["player"]},
            )
            continue
        found.players[(link["club"], link["player"])] = player
        if player.pk in players or (link["person"], link["club"]) in people:
            check.add(
                f"{at}",
                "duplicate_link",
                _("A player is linked to one entry, and an entry to one player per club (as links[%s] too).")
                % players.get(player.pk, people.get((link["person"], link["club"]))),
            )
        players.setdefault(player.pk, i)
        people.setdefault((link["person"], link["club"]), i)


def _check_tournaments(
    check: Checker, found: Found, rows: Sequence[Mapping[str, Any]], part: str
) -> list[Tournament]:
    """The club's tournament of each row's name and date, in the rows' order."""
    matched: list[Tournament] = []
    taken: set[int] = set()
    for i, row in enumerate(rows):
        at = f"{part}[{i}]"
        club = _known_club(check, found, f"{at}.club", row["club"])
        day = check.day(f"{at}.date", row["date"])
        if club is None or day is None:
            continue
        # Two tournaments of one name on one day are told apart by the order they were made in.
        match = (
            Tournament.objects.filter(club=club, name=row["name"], date=day)
            .exclude(pk__in=taken)
            .order_by("pk")
            .first()
        )
        if match is None:
            check.add(
                at,
                "unknown_tournament",
                _("Club %(club)s has no tournament %(name)s on %(date)s.")
                % {"club": row["club"], "name": row["name"], "date": row["date"]},
            )
            continue
        taken.add(match.pk)
        matched.append(match)
    return matched


def _check_opens_free(check: Checker, tournaments: Sequence[Tournament]) -> None:
    """A tournament is an open of one federation: one that is already another's here (the
    document's federation still on this site, say) is refused."""
    if not tournaments:
        return
    held = dict(
        FederationOpen.objects.filter(tournament__in=list(tournaments)).values_list(
            "tournament_id", "federation__name"
        )
    )
    for i, tournament in enumerate(tournaments):
        if tournament.pk in held:
            # The hosting service's own refusal and message.
            check.engine(
                f"opens[{i}]",
                ServiceError("open_taken", "another federation's open", federation=held[tournament.pk]),
            )


def _season_field(error: EngineError) -> str:
    """The setting a season's error is about (scoring's errors name none)."""
    if "field" in error.params:
        return str(error.params["field"])
    if error.code.startswith("league_places"):
        return "custom_points"
    return "tiebreaks" if error.code.startswith("tiebreak") else "name"


def _check_seasons(check: Checker, seasons: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each season's settings through the seasons' service's own check: its model fields."""
    fields: list[dict[str, Any]] = []
    for i, season in enumerate(seasons):
        at = f"seasons[{i}]"
        starts = check.day(f"{at}.starts", season["starts"])
        ends = check.day(f"{at}.ends", season["ends"])
        if starts is None or ends is None:
            continue
        try:
            fields.append(checked(GrandPrixSettings.from_mapping({**season, "starts": starts, "ends": ends})))
        except EngineError as error:
            check.engine(f"{at}.{_season_field(error)}", error)
    return fields


def _check_published(check: Checker, published: Sequence[Mapping[str, Any]]) -> None:
    months: dict[tuple[str, str], int] = {}
    for i, listed in enumerate(published):
        at = f"published[{i}]"
        key = (listed["family"], listed["month"])
        if key in months:
            check.add(
                f"{at}.month",
                "duplicate_list",
                _("The list of this family and month is in the document twice (as published[%s] too).")
                % months[key],
            )
        months.setdefault(key, i)
        month = check.day(f"{at}.month", listed["month"])
        if month is not None and month.day != 1:
            check.add(f"{at}.month", "bad_month", _("A list's month is its 1st day: %s") % listed["month"])
        check.moment(f"{at}.cutoff", listed["cutoff"])
        check.moment(f"{at}.published_at", listed["published_at"])
        seen: set[int] = set()
        # A line names a number as it was then: the register need not have it any more.
        for j, line in enumerate(listed["lines"]):
            if line["number"] in seen:
                check.add(
                    f"{at}.lines[{j}].number",
                    "duplicate_line",
                    _("Number %s is on the list twice.") % line["number"],
                )
            seen.add(line["number"])
            check.moment(f"{at}.lines[{j}].last_played", line["last_played"])
    for i, listed in enumerate(published):
        previous = listed.get("previous")
        if previous is not None and (
            previous >= listed["month"] or (listed["family"], previous) not in months
        ):
            check.add(
                f"published[{i}].previous",
                "unknown_list",
                _("The document has no list of %s to compare with.") % previous,
            )


def parse_moment(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)
