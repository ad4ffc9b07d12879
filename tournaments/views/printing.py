"""A tournament on paper: a round's pairings (for the wall), a score slip per table (with its
link's QR code, for the table) and the standings, each an A4 page set (static/css/print-tournament.css).

The pairings and standings are for everyone who may see the tournament; the slips carry the
tables' private links, so only the organisers get them.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.services.access import edit_url
from games.text.collation import by_name as name_order
from games.web.links import absolute_url, qr_svg
from tournaments.access import can_manage
from tournaments.selectors.view import RoundView, TournamentView, tournament_view
from tournaments.tournament_data import tiebreaks
from tournaments.views.common import tournament_of
from tournaments.views.public import _tournament

# Rows on a slip when a round is played to the family's end (no fixed number of hands).
SLIP_ROWS = 12


def _round_of(view: TournamentView, number: int) -> RoundView:
    played = view.round(number)
    if played is None:
        raise Http404
    return played


def pairings(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, role = _tournament(request, public_id)
    view = tournament_view(tournament=tournament, organiser=can_manage(role=role))
    played = _round_of(view, number)
    by_name = sorted(
        (
            (seat.name, table.number, position)
            for table in played.tables
            for position, seat in enumerate(table.seats, 1)
        ),
        key=lambda row: name_order(row[0]),
    )
    context = {"tournament": tournament, "played": played, "by_name": by_name}
    return render(request, "tournaments/print_pairings.html", context)


def slips(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, _role = tournament_of(request, public_id, manage=True)
    view = tournament_view(tournament=tournament, organiser=True)
    played = _round_of(view, number)
    rows = range(1, (tournament.round_hands or SLIP_ROWS) + 1)
    tables = []
    for table in played.tables:
        svg = ""
        if table.game is not None:
            url = absolute_url(request, edit_url(table.game))
            svg = qr_svg(url, label=_("QR code of table %(number)d's link") % {"number": table.number})
        tables.append((table, svg))
    context = {"tournament": tournament, "played": played, "tables": tables, "rows": rows}
    return render(request, "tournaments/print_slips.html", context)


def standings(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = _tournament(request, public_id)
    context = {
        "tournament": tournament,
        "view": tournament_view(tournament=tournament, organiser=can_manage(role=role)),
        "tiebreaks": [key for key in tiebreaks(tournament) if key != "points"],
        "role": role,
    }
    return render(request, "tournaments/print_standings.html", context)
