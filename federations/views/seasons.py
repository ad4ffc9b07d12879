"""A federation's seasons (a Grand Prix): their list, a season's standings (per family), a
person's league card, and for the federation's organisers a new season, its settings and its
deletion. Thin views over ``federations.selectors.seasons`` and ``federations.services.seasons``;
whoever may see the federation reads (a members-only federation answers 404 to others)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations import access
from federations.forms import put_error
from federations.models import Federation, FederationSeason
from federations.season_forms import DeleteForm, GrandPrixForm
from federations.selectors import seasons as selectors
from federations.services.seasons import season_create, season_delete, season_update
from federations.views.common import federation_of
from games.text.errors import error_message
from games.web.input import read_int


def _season(request: HttpRequest, slug: str, public_id: str, *, manage: bool = False) -> FederationSeason:
    federation = federation_of(request, slug, manage=manage)
    season = selectors.season_by_public_id(federation=federation, public_id=public_id)
    if season is None:
        raise Http404
    return season


def _can_manage(request: HttpRequest, federation: Federation) -> bool:
    return access.is_organiser(user=request.user, federation=federation)


def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug)
    context = {
        "federation": federation,
        "seasons": selectors.federation_seasons(federation=federation),
        "can_manage": _can_manage(request, federation),
    }
    return render(request, "federations/seasons.html", context)


@login_required
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = GrandPrixForm(request.POST or None, initial={"version": 0})
    if request.method == "POST" and form.is_valid():
        try:
            season = season_create(
                federation=federation,
                settings=form.settings(),
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Season created: its standings are being computed."))
            return redirect("federations:season", slug=federation.slug, public_id=season.public_id)
    return render(request, "federations/season_edit.html", {"federation": federation, "form": form})


@login_required
def season_settings(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    season = _season(request, slug, public_id, manage=True)
    federation = season.federation
    form = GrandPrixForm(request.POST or None, initial=GrandPrixForm.initial_from(season))
    if request.method == "POST" and form.is_valid():
        try:
            season_update(
                season=season,
                settings=form.settings(),
                version=form.cleaned_data["version"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Settings saved; the standings are being computed again."))
            return redirect("federations:season", slug=federation.slug, public_id=season.public_id)
    context = {
        "federation": federation,
        "season": season,
        "form": form,
        "deleting": DeleteForm(initial={"version": season.version}),
    }
    return render(request, "federations/season_edit.html", context)


@login_required
@require_POST
def season_delete_view(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    season = _season(request, slug, public_id, manage=True)
    form = DeleteForm(request.POST)
    if form.is_valid():
        try:
            season_delete(
                season=season,
                version=form.cleaned_data["version"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            messages.error(request, error_message(error))
            return redirect("federations:season_settings", slug=slug, public_id=public_id)
        messages.success(request, _("Season deleted."))
    return redirect("federations:seasons", slug=slug)


def _family(request: HttpRequest) -> str:
    return request.GET.get("family", "")[:16]


def season_detail(request: HttpRequest, slug: str, public_id: str) -> HttpResponse:
    season = _season(request, slug, public_id)
    page = read_int(request.GET.get("page"), lo=1, hi=100_000) or 1
    view = selectors.season_view(season=season, family=_family(request), page=page)
    context = {
        "federation": season.federation,
        "season": season,
        "view": view,
        "fresh": view,
        "can_manage": _can_manage(request, season.federation),
    }
    return render(request, "federations/season.html", context)


def season_card(request: HttpRequest, slug: str, public_id: str, number: int) -> HttpResponse:
    season = _season(request, slug, public_id)
    person = selectors.season_person(season=season, number=number)
    if person is None:
        raise Http404
    if person.number != number:  # a merged entry: his card is the survivor's
        return redirect("federations:season_card", slug=slug, public_id=public_id, number=person.number)
    card = selectors.league_card(season=season, person=person, family=_family(request))
    context = {"federation": season.federation, "season": season, "card": card, "fresh": card}
    return render(request, "federations/season_card.html", context)
