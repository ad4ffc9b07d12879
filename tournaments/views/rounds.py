"""The organiser's rounds: seating, moving a player, publishing, starting and confirming a
round, the tables' links, and the final's stages."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.services.access import edit_url
from games.web.links import absolute_url, qr_svg
from tournaments.access import can_manage
from tournaments.forms import MoveForm, StartForm, VersionedForm
from tournaments.models import Round, Tournament
from tournaments.selectors.entries import tournament_entry
from tournaments.selectors.rounds import SeatView, TableView, tournament_round
from tournaments.selectors.view import tournament_view
from tournaments.services.final_stages import final_seat, final_undo
from tournaments.services.round_seating import round_move, round_seat
from tournaments.services.rounds import round_confirm, round_publish, round_start
from tournaments.table_answers import own_path
from tournaments.views.common import form_errors, form_post, say_error, tournament_of

# A round's tables a phone shows at once: a big open's round is paged (tournaments/round.html).
ROUND_PAGE = 16


def round_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, role = tournament_of(request, public_id)
    view = tournament_view(tournament=tournament, organiser=can_manage(role=role))
    played = view.round(number)
    if played is None:
        raise Http404
    manage = can_manage(role=role)
    page = played.page(request.GET.get("page"), ROUND_PAGE)
    context = {
        "tournament": tournament,
        "view": view,
        "played": played,
        "page": page.page,
        "tables": page.tables,
        "ranges": page.numbers,
        "role": role,
        "can_manage": manage,
        "section": f"round-{number}",
        "form": VersionedForm(initial={"version": played.round.version}),
        "start_form": StartForm(
            initial={"version": played.round.version, "minutes": tournament.round_minutes}
        ),
        "table_numbers": [t.number for t in played.states],
    }
    return render(request, "tournaments/round.html", context)


def _round(tournament: Tournament, number: int) -> Round:
    played = tournament_round(tournament=tournament, number=number)
    if played is None:
        raise Http404
    return played


def _round_url(public_id: str, number: int) -> str:
    return reverse("tournaments:round", kwargs={"public_id": public_id, "number": number})


@require_POST
@login_required
def round_seat_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Seat a round (version 0: a new round) or seat it again (the round's version)."""
    tournament, _role = tournament_of(request, public_id, manage=True)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    version = form.cleaned_data["version"] or None
    try:
        round_seat(
            tournament=tournament,
            number=number,
            round_version=version,
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        say_error(request, error)
        if tournament_round(tournament=tournament, number=number) is None:
            return redirect("tournaments:detail", public_id=tournament.public_id)
    else:
        messages.success(request, _("Round %(number)d seated.") % {"number": number})
        _warn_apart(request, tournament, number)
    return redirect(_round_url(tournament.public_id, number))


def _warn_apart(request: HttpRequest, tournament: Tournament, number: int) -> None:
    """Say at once when no seating could keep every pair apart (the report names them)."""
    if not tournament.apart:
        return
    played = tournament_view(tournament=tournament).round(number)
    report = played.report if played is not None else None
    if report is not None and report.apart_met:
        count = len(report.apart_met)
        messages.warning(
            request,
            ngettext(
                "No seating keeps one pair that must not meet apart: see the seating report.",
                "No seating keeps %(count)d pairs that must not meet apart: see the seating report.",
                count,
            )
            % {"count": count},
        )


@require_POST
@login_required
def round_move_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, _role = tournament_of(request, public_id, manage=True)
    played = _round(tournament, number)

    def write(data: dict[str, Any]) -> None:
        entry = tournament_entry(tournament=tournament, entry_id=data["entry"])
        if entry is None:
            raise Http404
        round_move(
            played=played,
            entry=entry,
            to_table=data["to_table"],
            round_version=data["version"],
            user=request.user,
            request_id=data["request_id"],
        )

    return form_post(request, MoveForm(request.POST), write, _round_url(tournament.public_id, number))


def _round_step(
    request: HttpRequest,
    public_id: str,
    number: int,
    step: Callable[..., object],
    done: str,
    then: str,
    form_class: type[VersionedForm | StartForm] = VersionedForm,
) -> HttpResponse:
    """Start, confirm or publish a round, or take back a final's stage (``step``): the version
    the organiser saw and a request id, then the message ``done`` and the page ``then``; on an
    error, the round's page with the message. A start may name the minutes on its clock."""
    tournament, _role = tournament_of(request, public_id, manage=True)
    played = _round(tournament, number)
    form = form_class(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(_round_url(tournament.public_id, number))
    extra = {"minutes": form.cleaned_data["minutes"]} if isinstance(form, StartForm) else {}
    try:
        step(
            played=played,
            round_version=form.cleaned_data["version"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
            **extra,
        )
    except EngineError as error:
        say_error(request, error)
        return redirect(_round_url(tournament.public_id, number))
    messages.success(request, done)
    return redirect(then)


@require_POST
@login_required
def round_publish_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    done = _("Round %(number)d's seating is published: the players see their tables.") % {"number": number}
    step = partial(round_publish, published=True)
    return _round_step(request, public_id, number, step, done, _round_url(public_id, number))


@require_POST
@login_required
def round_unpublish_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    done = _("Round %(number)d's seating is hidden from the players again.") % {"number": number}
    step = partial(round_publish, published=False)
    return _round_step(request, public_id, number, step, done, _round_url(public_id, number))


@require_POST
@login_required
def round_start_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    links = reverse("tournaments:round_links", kwargs={"public_id": public_id, "number": number})
    done = _("Round %(number)d started: give each table its link.") % {"number": number}
    return _round_step(request, public_id, number, round_start, done, links, StartForm)


@require_POST
@login_required
def round_confirm_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    standings = reverse("tournaments:standings", kwargs={"public_id": public_id})
    if request.POST.get("confirm") != "1":
        # Tables still playing would be ended: name them and ask first (the same request id
        # and version go back with the answer, so the confirmed post stays idempotent).
        tournament, role = tournament_of(request, public_id, manage=True)
        view = tournament_view(tournament=tournament, organiser=True)
        played = view.round(number)
        if played is None:
            raise Http404
        open_tables = [t for t in played.tables if t.game is not None and not t.finished]
        # Tables whose players have not all confirmed the result they have now (the setting).
        unsettled = [t for t in played.tables if t.agreement is not None and t.agreement.state != "confirmed"]
        if (open_tables or unsettled) and played.round.status == Round.Status.PLAYING:
            context = {
                "tournament": tournament,
                "view": view,
                "played": played,
                "role": role,
                "can_manage": True,
                "section": f"round-{number}",
                "open_tables": open_tables,
                "unsettled": unsettled,
                "request_id": request.POST.get("request_id", ""),
                "version": request.POST.get("version", ""),
            }
            return render(request, "tournaments/round_confirm.html", context)
    done = _("Round %(number)d confirmed: its results are final.") % {"number": number}
    return _round_step(request, public_id, number, round_confirm, done, standings)


@never_cache  # private, no-store: shows the tables' edit links
@login_required
def round_links(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Each table's private link, with its QR code, for the table's phone (no account needed)."""
    tournament, role = tournament_of(request, public_id, manage=True)
    view = tournament_view(tournament=tournament, organiser=True)
    played = view.round(number)
    if played is None:
        raise Http404
    links: list[tuple[TableView, str, str, list[tuple[SeatView, str]]]] = []
    locked = played.round.status == Round.Status.CONFIRMED  # the links no longer write
    for table in played.tables:
        if table.game is None:
            continue
        if locked:
            links.append((table, "", "", []))
            continue
        url = absolute_url(request, edit_url(table.game))  # the address the tables' phones reach
        svg = qr_svg(url, label=_("QR code of table %(number)d's link") % {"number": table.number})
        own = []
        if tournament.table_confirm:
            # Each player's own link, where he confirms the table's result from his phone.
            for seat in table.seats:
                own.append((seat, absolute_url(request, own_path(tournament, seat.entry_id))))
        links.append((table, url, svg, own))
    context = {
        "tournament": tournament,
        "view": view,
        "played": played,
        "role": role,
        "can_manage": True,
        "section": f"round-{number}",
        "links": links,
    }
    return render(request, "tournaments/round_links.html", context)


@require_POST
@login_required
def final_seat_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Seat the final's next stage (a final table, or a knockout's matches)."""
    tournament, _role = tournament_of(request, public_id, manage=True)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    try:
        played = final_seat(
            tournament=tournament, user=request.user, request_id=form.cleaned_data["request_id"]
        )
    except EngineError as error:
        say_error(request, error)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    messages.success(request, _("The final is seated."))
    return redirect(_round_url(tournament.public_id, played.number))


@require_POST
@login_required
def final_undo_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Take back a stage of the final that has not started."""
    done = _("The final's seating is taken back.")
    detail = reverse("tournaments:detail", kwargs={"public_id": public_id})
    return _round_step(request, public_id, number, final_undo, done, detail)
