"""What the organiser's tournament pages share: the tournament a request names, as its reader
may see it; a refused form or write as a message; and the shape of the small form posts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from engine.errors import EngineError
from games.text.errors import error_message
from tournaments.access import can_manage, can_view, tournament_role
from tournaments.models import Tournament
from tournaments.selectors.tournaments import tournament_by_public_id


def tournament_of(
    request: HttpRequest, public_id: str, *, manage: bool = False
) -> tuple[Tournament, str | None]:
    """The tournament and the reader's role in it: 404 to whoever may not see it; with
    ``manage``, 403 to anyone but the club's organisers."""
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = tournament_role(user=request.user, tournament=tournament)
    if not can_view(tournament=tournament, role=role):
        raise Http404
    if manage and not can_manage(role=role):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    return tournament, role


def say_error(request: HttpRequest, error: EngineError) -> None:
    messages.error(request, error_message(error))


def form_errors(request: HttpRequest, form: forms.Form) -> None:
    errors = [str(e) for e in form.non_field_errors()] or [
        f"{form[name].label}: {' '.join(str(e) for e in errs)}"
        for name, errs in form.errors.items()
        if name != "__all__"
    ]
    messages.error(request, " ".join(errors) or _("Check the form and try again."))


def versioned(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    """What every write takes besides its own: the version the organiser saw, who writes, and
    the request id (a resend changes nothing twice)."""
    return {"version": data["version"], "user": request.user, "request_id": data["request_id"]}


def form_post(
    request: HttpRequest,
    form: forms.Form,
    write: Callable[[dict[str, Any]], object],
    then: str,
    *,
    done: str | None = None,
    refused: str | None = None,
) -> HttpResponse:
    """A small form post: a form that does not validate is a message and back to ``refused``
    (default ``then``); else ``write`` gets the form's data, a refused write is a message and a
    write that went through says ``done``; then back to ``then``."""
    if not form.is_valid():
        form_errors(request, form)
        return redirect(refused or then)
    try:
        write(form.cleaned_data)
    except EngineError as error:
        say_error(request, error)
    else:
        if done is not None:
            messages.success(request, done)
    return redirect(then)
