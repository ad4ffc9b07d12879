"""What the organiser does to the standings: warnings and point penalties (and taking them
back), and revealing or freezing them for the players."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.services.errors import StaleVersion
from tournaments.forms import PenaltyForm, PenaltyUndoForm, VersionedForm
from tournaments.selectors import standings as standing_selectors
from tournaments.selectors.view import tournament_view
from tournaments.services.penalties import penalty_give, penalty_undo
from tournaments.services.rounds import standings_reveal
from tournaments.views.common import form_post, tournament_of, versioned


@never_cache
@login_required
def penalties_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Give a warning or a point penalty (the form, its errors at their fields), and the list of
    those given with a button to take each back."""
    tournament, role = tournament_of(request, public_id, manage=True)
    view = tournament_view(tournament=tournament)
    players = sorted(((e.pk, e.player.name) for e in view.data.entries.values()), key=lambda p: p[1])
    rounds = [r.number for r in view.data.rounds]
    form = PenaltyForm(
        request.POST or None, players=players, rounds=rounds, initial={"version": tournament.version}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty_give(
                tournament=tournament,
                entry_id=data["entry"],
                kind=data["kind"],
                points=data["points"],
                round_number=data["round"],
                reason=data["reason"],
                version=data["version"],
                user=request.user,
                request_id=data["request_id"],
            )
        except EngineError as error:
            if isinstance(error, StaleVersion):
                # Sent again from here, the form changes the tournament as now shown.
                tournament.refresh_from_db()
                fresh = request.POST.copy()
                fresh["version"] = str(tournament.version)
                form.data = fresh
            form.add_engine_error(error)
        else:
            messages.success(request, _("Recorded: the standings show it."))
            return redirect("tournaments:penalties", public_id=tournament.public_id)
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "form": form,
        "given": standing_selectors.penalties_view(tournament=tournament).penalties,
        "can_manage": True,
        "section": "penalties",
    }
    return render(request, "tournaments/penalties.html", context, status=400 if form.errors else 200)


@require_POST
@login_required
def penalty_undo_view(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, _role = tournament_of(request, public_id, manage=True)

    def write(data: dict[str, Any]) -> None:
        penalty_undo(tournament=tournament, penalty_id=data["penalty"], **versioned(request, data))

    then = reverse("tournaments:penalties", kwargs={"public_id": tournament.public_id})
    done = _("Taken back: the standings no longer count it.")
    return form_post(request, PenaltyUndoForm(request.POST), write, then, done=done)


def _reveal(request: HttpRequest, public_id: str, revealed: bool) -> HttpResponse:
    tournament, _role = tournament_of(request, public_id, manage=True)

    def write(data: dict[str, Any]) -> None:
        standings_reveal(tournament=tournament, revealed=revealed, **versioned(request, data))

    then = reverse("tournaments:standings", kwargs={"public_id": tournament.public_id})
    if revealed:
        done = _("The standings are revealed to the players.")
    else:
        done = _("The standings are frozen again for the players.")
    return form_post(request, VersionedForm(request.POST), write, then, done=done)


@require_POST
@login_required
def standings_reveal_view(request: HttpRequest, public_id: str) -> HttpResponse:
    return _reveal(request, public_id, True)


@require_POST
@login_required
def standings_freeze_view(request: HttpRequest, public_id: str) -> HttpResponse:
    return _reveal(request, public_id, False)
