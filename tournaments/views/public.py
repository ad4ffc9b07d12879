"""The tournament's pages for everyone who may see its club: the standings, "Where do I sit?",
the projector screen, the history and each player's own page. Read-only; a members-only
club's tournament answers 404 to outsiders (like the club's own pages), so nobody learns it
exists.

Each page reads the tournament once (``tournament_view``): a fixed number of queries,
whatever the number of players.
"""

from __future__ import annotations

import hashlib
import io
from fractions import Fraction
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.web.release import release_id
from games.web.round_clock import clock_tag, round_clock
from games.web.spreadsheet import SafeDictWriter
from scoring.families import family_info
from tournaments import access
from tournaments.models import Tournament
from tournaments.selectors.entries import find_seat
from tournaments.selectors.history import tournament_history
from tournaments.selectors.player import player_rounds
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.selectors.view import TournamentView, tournament_view
from tournaments.templatetags.tournament_tags import penalty_text
from tournaments.tournament_data import tiebreaks

# The projector asks for changes this often (seconds, static/js/screen.js); without
# JavaScript it reloads itself every SCREEN_REFRESH seconds (a <noscript> refresh).
SCREEN_POLL = 4
SCREEN_REFRESH = 30
# A phone shows this many standings rows at once (a big open's standings are paged); the
# projector this many tables and rows, and turns to its next page every SCREEN_TURN seconds.
STANDINGS_PAGE = 50
SCREEN_TABLES = 12
SCREEN_ROWS = 20
SCREEN_TURN = 15
# Fewer rows when the screen is too short for them with their notes: screen.js measures the
# page and asks for as many as fit (``?rows=``), at least one per column.
SCREEN_MIN_ROWS = 2


def _tournament(request: HttpRequest, public_id: str) -> tuple[Tournament, str | None]:
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = access.tournament_role(user=request.user, tournament=tournament)
    if not access.can_view(tournament=tournament, role=role):
        raise Http404
    return tournament, role


def _context(request: HttpRequest, public_id: str, section: str) -> dict[str, Any]:
    tournament, role = _tournament(request, public_id)
    return {
        "tournament": tournament,
        "view": tournament_view(tournament=tournament, organiser=access.can_manage(role=role)),
        "role": role,
        "can_manage": access.can_manage(role=role),
        "section": section,
    }


def standings(request: HttpRequest, public_id: str) -> HttpResponse:
    context = _context(request, public_id, "standings")
    view: TournamentView = context["view"]
    paginator = Paginator(view.standings, STANDINGS_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    count = len(view.standings)
    context.update(
        tiebreaks=[key for key in tiebreaks(context["tournament"]) if key != "points"],
        page=page,
        start=page.start_index() - 1 if count else 0,
        size=STANDINGS_PAGE,
        ranges=[
            (n, (n - 1) * STANDINGS_PAGE + 1, min(n * STANDINGS_PAGE, count)) for n in paginator.page_range
        ],
    )
    return render(request, "tournaments/standings.html", context)


def find_seat_view(request: HttpRequest, public_id: str) -> HttpResponse:
    context = _context(request, public_id, "find_seat")
    query = request.GET.get("q", "").strip()[:80]
    found = find_seat(view=context["view"], query=query) if query else []
    context.update(query=query, results=[{"seat": seat, "bye": seat.bye} for seat in found])
    return render(request, "tournaments/find_seat.html", context)


def _asked_page(asked: str | None) -> int:
    try:
        return max(1, int(asked or 1))
    except ValueError:
        return 1


def _asked_rows(asked: str | None) -> int:
    """The standings rows a screen shows: as many as the projector's page found room for."""
    try:
        return min(SCREEN_ROWS, max(SCREEN_MIN_ROWS, int(asked or SCREEN_ROWS)))
    except ValueError:
        return SCREEN_ROWS


def _screen_pages(view: TournamentView, asked: int, rows: int) -> tuple[int, int]:
    """(the page shown, pages): the projector turns through the round's tables and the
    standings a screenful at a time, both from their first page again after the last."""
    current = view.current
    tables = current.table_count if current else 0
    pages = max(1, -(-tables // SCREEN_TABLES), -(-len(view.standings) // rows))
    return (asked - 1) % pages + 1, pages


def _screen_etag(view: TournamentView, page: int, rows: int) -> str:
    """What the projector shows, as a tag: the tournament's live version (every write to it or
    its tables' games names a new one), the page asked for, the language, the release and, while a round
    is timed, the clock's minute. Read before anything is drawn, so an unchanged screen
    answers 304 for the cost of three small queries."""
    current = view.current
    parts = (
        release_id(),
        get_language(),
        view.versions.live,
        view.organiser,
        page,
        rows,
        # Drawn anew as the clock's minutes change, for a projector without JavaScript.
        clock_tag(round_clock(current.round.ends_at))
        if current and current.round.status == "playing"
        else None,
    )
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'


def _cycled(count: int, size: int, page: int) -> tuple[int, int]:
    """(start, limit) of the ``page``-th screenful of ``count`` items, from the first again."""
    pages = max(1, -(-count // size))
    return ((page - 1) % pages) * size, size


def screen(request: HttpRequest, public_id: str) -> HttpResponse:
    """The projector: static/js/screen.js asks again every few seconds with the tag of what it
    shows and swaps the page's content only when the answer is not 304 (no full reload)."""
    context = _context(request, public_id, "screen")
    view: TournamentView = context["view"]
    asked_page = _asked_page(request.GET.get("page"))
    rows = _asked_rows(request.GET.get("rows"))
    etag = _screen_etag(view, asked_page, rows)
    # A compressing proxy or middleware may have made the tag weak (W/"…"): the same tag.
    asked = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in asked:
        response = HttpResponse(status=304)
    else:
        page, pages = _screen_pages(view, asked_page, rows)
        current = view.current
        tables = []
        if current is not None:
            first, size = _cycled(current.table_count, SCREEN_TABLES, page)
            tables = current.draw(current.states[first : first + size])
        start, size = _cycled(len(view.standings), rows, page)
        shown = min(size, len(view.standings) - start)
        half = (shown + 1) // 2
        context.update(
            tables=tables,
            start=start,
            half=half,
            second=start + half,
            shown=shown,
            page=page,
            pages=pages,
            next_page=page % pages + 1,
            refresh=SCREEN_REFRESH,
            every=SCREEN_POLL,
            turn=SCREEN_TURN,
            rows=rows,
            rows_query=f"&rows={rows}" if rows != SCREEN_ROWS else "",
            etag=etag,
        )
        response = render(request, "tournaments/screen.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def history(request: HttpRequest, public_id: str) -> HttpResponse:
    context = _context(request, public_id, "history")
    context["items"] = tournament_history(tournament=context["tournament"], organiser=context["can_manage"])
    return render(request, "tournaments/history.html", context)


def player(request: HttpRequest, public_id: str, entry_id: int) -> HttpResponse:
    """One player's tournament, round by round (linked from the standings and "Where do I
    sit?")."""
    tournament, role = _tournament(request, public_id)
    organiser = access.can_manage(role=role)
    found = player_rounds(tournament=tournament, entry_id=entry_id, organiser=organiser)
    if found is None:
        raise Http404
    context = {
        "tournament": tournament,
        "role": role,
        "can_manage": access.can_manage(role=role),
        "section": "standings",
        "found": found,
        "view": found.view,
    }
    return render(request, "tournaments/player.html", context)


def _number(value: Fraction | int | None) -> float | int | str:
    """A cell a spreadsheet reads as a number in any language (a fraction "9/2" reads as a
    date): whole numbers as they are, others to two decimals; nothing: empty."""
    if value is None:
        return ""
    rounded = round(float(value), 2)
    return int(rounded) if rounded.is_integer() else rounded


def standings_csv(request: HttpRequest, public_id: str) -> HttpResponse:
    """The standings as a CSV file (UTF-8 with a byte order mark, so that a spreadsheet reads
    accented names right; every text cell made safe from formulas)."""
    context = _context(request, public_id, "standings")
    tournament: Tournament = context["tournament"]
    view: TournamentView = context["view"]
    lower = family_info(tournament.family).lower_is_better
    columns = {
        "rank": _("Rank"),
        "name": _("Player"),
        "points": _("Points"),
        "game_score": _("Game score"),
        "game_score_average": _("Game score per table"),
        "average_place": _("Average place"),
        "firsts": _("First places"),
        "opponents_points": _("Opponents' points"),
        "tables": _("Tables"),
        "byes": _("Byes"),
        "dropped": _("Dropped out"),
        "penalty": _("Penalty points"),
        "penalties": _("Penalties and warnings"),
    }
    out = io.StringIO()
    out.write("\ufeff")
    writer = SafeDictWriter(out, fieldnames=list(columns.values()))
    writer.writeheader()
    sign = -1 if lower else 1  # the totals as the players know them from their score sheets
    for row in view.standings:
        s = row.standing
        average = s.game_score_average
        values = {
            "rank": s.rank,
            "name": row.name,
            "points": _number(s.points),
            "game_score": sign * s.game_score,
            "game_score_average": _number(None if average is None else sign * average),
            "average_place": _number(s.average_place),
            "firsts": s.firsts,
            "opponents_points": _number(s.opponents_points),
            "tables": s.tables,
            "byes": s.byes,
            "dropped": _("yes") if row.dropped else "",
            "penalty": _number(s.penalty),
            "penalties": "; ".join(
                f"{penalty_text(p.kind, p.points, p.round)}: {p.reason}" for p in row.penalties
            ),
        }
        writer.writerow({columns[key]: value for key, value in values.items()})
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or "tournament"
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
    return response
