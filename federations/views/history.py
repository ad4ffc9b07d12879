"""The federation's history for its organisers: its changes, newest first, a page at a time,
with the undo of a merge (or of its undo), and the whole log as CSV."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations.exports import history_file
from federations.forms import UndoForm
from federations.selectors import history as selectors
from federations.services.register import change_undo
from federations.views.common import federation_of
from games.services.errors import ServiceError
from games.text.errors import error_message
from games.web.input import read_int


@never_cache  # private: who did what
@login_required
def federation_history(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    page = selectors.history_page(
        federation=federation, page=read_int(request.GET.get("page"), lo=1, hi=100_000) or 1
    )
    for change in page.changes:
        change.request_id_for_undo = uuid.uuid4()  # type: ignore[attr-defined]
    context = {"federation": federation, "page": page}
    return render(request, "federations/history.html", context)


@login_required
@require_POST
def history_undo(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = UndoForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form and try again."))
        return redirect("federations:history", slug=slug)
    change = selectors.history_change(federation=federation, pk=form.cleaned_data["change"])
    try:
        if change is None:
            raise ServiceError("nothing_to_undo", "no such change")
        change_undo(change=change, request_id=form.cleaned_data["request_id"], user=request.user)
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _("Undone."))
    return redirect("federations:history", slug=slug)


@never_cache
@login_required
def federation_history_csv(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    return history_file(federation)
