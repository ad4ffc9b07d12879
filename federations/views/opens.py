"""A federation's opens: their list, an open's page (its entries; "Enter" for a registered
person, a form for the clubs' organisers, withdrawing), ending an open, and hosting one from
the tournament's page. Whoever sees the federation reads them (404 otherwise); the services
say who may write, and their refusals are shown at the field."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations import access
from federations.models import Federation, FederationOpen
from federations.open_forms import EndForm, EntryForm, HostForm, PickForm
from federations.selectors import opens as selectors
from federations.services.opens import open_end, open_enter, open_host, open_withdraw
from federations.views.common import federation_of
from federations.views.ratings import visible_tournament
from games.club_forms import put_error
from games.text.errors import error_message


def opens_list(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug)
    page = selectors.opens_page(federation=federation)
    return render(request, "federations/opens.html", {"federation": federation, "page": page})


def _open(request: HttpRequest, slug: str, public_id: str) -> tuple[Federation, FederationOpen]:
    federation = federation_of(request, slug)
    found = selectors.open_of(federation=federation, public_id=public_id)
    if found is None:
        raise Http404
    return federation, found


def _render(
    request: HttpRequest,
    open_: FederationOpen,
    *,
    entry_form: EntryForm | None = None,
    pick_form: PickForm | None = None,
    status: int = 200,
) -> HttpResponse:
    page = selectors.open_page(open_=open_, user=request.user)
    context = {
        "federation": open_.federation,
        "open": open_,
        "tournament": open_.tournament,
        "page": page,
        "entry_form": entry_form or EntryForm(),
        "pick_form": pick_form or PickForm(choices=page.choices),
        "self_form": EntryForm(initial={"person": str(page.standing.own_number or "")}),
    }
    return render(request, "federations/open.html", context, status=status)


def open_detail(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    _federation, open_ = _open(request, slug, public_id)
    return _render(request, open_)


@require_POST
@login_required
def open_enter_view(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    """Enter a person: one's own entry, one picked from a club organiser's list, or any federation
    id (the federation's and the host's organisers)."""
    _federation, open_ = _open(request, slug, public_id)
    picked = request.POST.get("form") == "pick"
    form: EntryForm | PickForm
    if picked:
        choices = selectors.open_page(open_=open_, user=request.user).choices
        form = PickForm(request.POST, choices=choices)
    else:
        form = EntryForm(request.POST)
    if form.is_valid():
        try:
            entry = open_enter(
                open_=open_,
                person_id=form.cleaned_data["person"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("%(player)s is entered.") % {"player": entry.player.name})
            return redirect("federations:open", slug=open_.federation.slug, public_id=public_id)
    if isinstance(form, PickForm):
        return _render(request, open_, pick_form=form, status=400)
    return _render(request, open_, entry_form=form, status=400)


@require_POST
@login_required
def open_withdraw_view(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    _federation, open_ = _open(request, slug, public_id)
    form = EntryForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form and try again."))
    else:
        try:
            open_withdraw(
                open_=open_,
                person_id=form.cleaned_data["person"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            messages.error(request, error_message(error))
        else:
            messages.success(request, _("Withdrawn from the open."))
    return redirect("federations:open", slug=open_.federation.slug, public_id=public_id)


@require_POST
@login_required
def open_end_view(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    """The tournament is no longer an open (before round 1)."""
    _federation, open_ = _open(request, slug, public_id)
    form = EndForm(request.POST)
    try:
        open_end(
            open_=open_,
            user=request.user,
            request_id=form.cleaned_data["request_id"] if form.is_valid() else None,
        )
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("%(tournament)s is no longer an open of %(federation)s.")
            % {"tournament": open_.tournament.name, "federation": open_.federation.name},
        )
    return redirect("tournaments:detail", public_id=public_id)


@require_POST
@login_required
def open_host_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Host the club's tournament as an open of one of the club's federations."""
    tournament = visible_tournament(request, public_id)
    if not access.club_organiser(user=request.user, club=tournament.club):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    federations = selectors.host_federations(club=tournament.club)
    form = HostForm(request.POST, federations=[(f.slug, f.name) for f in federations])
    if not form.is_valid():
        messages.error(request, _("Check the form and try again."))
        return redirect("tournaments:detail", public_id=public_id)
    federation = next(f for f in federations if f.slug == form.cleaned_data["federation"])
    try:
        open_host(
            federation=federation,
            tournament=tournament,
            self_entry=form.cleaned_data["self_entry"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        messages.error(request, error_message(error))
        return redirect("tournaments:detail", public_id=public_id)
    messages.success(
        request,
        _("%(tournament)s is an open of %(federation)s: the register's people can enter it.")
        % {"tournament": tournament.name, "federation": federation.name},
    )
    return redirect("federations:open", slug=federation.slug, public_id=public_id)
