"""The league's CSV downloads (the rating list, a season's standings, a player's league card),
for the pages and the API alike: UTF-8 with a BOM (``games.web.spreadsheet``), so spreadsheet
programs read Czech and Polish names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.models import Club
from games.web.spreadsheet import csv_text
from tournaments.models import Season, SeasonStanding
from tournaments.selectors import league as league_selectors
from tournaments.selectors.seasons import standing_order


def _csv(
    name: str, fields: Sequence[str], labels: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> HttpResponse:
    response = HttpResponse(csv_text(fields, rows, header=labels), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "list"}.csv"'
    return response


def rating_list_file(club: Club, ratings: league_selectors.RatingList) -> HttpResponse:
    """The rating list as a CSV download (the page's and the API's)."""
    fields = [
        "rank",
        "name",
        "rating",
        "uncertainty",
        "games",
        "last_played",
        "trend",
        "provisional",
        "inactive",
    ]
    labels = [
        _("Rank"),
        _("Player"),
        _("Rating"),
        _("Uncertainty"),
        _("Rated games"),
        _("Last played"),
        _("Last evening"),
        _("Provisional"),
        _("Inactive"),
    ]
    rows = (
        {
            "rank": r.rank,
            "name": r.name,
            "rating": r.rating,
            "uncertainty": r.uncertainty,
            "games": r.games,
            "last_played": timezone.localdate(r.last_played).isoformat(),
            "trend": "" if r.trend is None else r.trend,
            "provisional": int(r.provisional),
            "inactive": int(r.inactive),
        }
        for r in ratings.rows
    )
    return _csv(f"{club.name} {ratings.family}", fields, labels, rows)


def season_file(season: Season, family: str) -> HttpResponse:
    """Every row of the season's standings (not a page of them) as a CSV download."""
    if family not in season.families or len(season.families) == 1:
        family = ""
    rows_stored = SeasonStanding.objects.filter(season=season, family=family).select_related("player")
    standings = sorted(rows_stored, key=standing_order)  # players sharing a rank by name
    fields = ["rank", "name", "points", "games", "wins", "average_place", "events", "rating"]
    labels = [
        _("Rank"),
        _("Player"),
        _("Points"),
        _("Games"),
        _("Wins"),
        _("Average place"),
        _("Counted events"),
        _("Rating"),
    ]
    rows = (
        {
            "rank": r.rank if r.ranked else "",
            "name": r.player.name,
            "points": league_selectors.exact_text(r.points),
            "games": r.games,
            "wins": r.wins,
            "average_place": "" if r.average_place is None else round(r.average_place, 2),
            "events": r.events,
            "rating": "" if r.rating is None else r.rating,
        }
        for r in standings
    )
    return _csv(f"{season.name} {family}", fields, labels, rows)


def league_card_file(card: league_selectors.LeagueCard) -> HttpResponse:
    """A player's league card as a CSV download, its total in the last row; every row names the
    player, the season and (but the total) the event, so that rows pasted together still say
    whose and which they are."""
    fields = ["player", "season", "date", "event", "event_id", "place", "players", "points", "counted"]
    labels = [
        _("Player"),
        _("Season"),
        _("Date"),
        _("Game or tournament"),
        _("Game or tournament id"),
        _("Place"),
        _("Players"),
        _("Points"),
        _("Counted"),
    ]
    why = {
        "counted": _("yes"),
        "dropped_worst": _("no: among the worst, dropped"),
        "not_best": _("no: not among the best"),
    }
    whose = {"player": card.player.name, "season": card.season.name}
    rows = [
        {
            **whose,
            "date": timezone.localdate(e.when).isoformat(),
            "event": e.name or _("Club game"),
            "event_id": e.public_id,
            "place": e.place,
            "players": e.players,
            "points": league_selectors.exact_text(e.points),
            "counted": why[e.mark],
        }
        for e in card.events
    ]
    rows.append(
        {
            **whose,
            "date": "",
            "event": _("Total of the counted events"),
            "points": league_selectors.exact_text(card.total),
        }
    )
    return _csv(f"{card.season.name} {card.player.name}", fields, labels, rows)
