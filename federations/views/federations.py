"""The federations a user sees, a new federation, a federation's page and its settings with
its organisers. Thin views over federations.selectors and federations.services."""

from __future__ import annotations

import uuid
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations.forms import FederationForm, OrganiserForm, SettingsForm, put_error
from federations.models import Federation
from federations.selectors import federations as selectors
from federations.selectors import seasons as season_selectors
from federations.services.federations import (
    federation_create,
    federation_update,
    organiser_add,
    organiser_remove,
)
from federations.views.common import federation_of
from games.text.errors import error_message


def federation_list(request: HttpRequest) -> HttpResponse:
    context = {"federations": list(selectors.federation_list(user=request.user))}
    return render(request, "federations/list.html", context)


@login_required
def federation_new(request: HttpRequest) -> HttpResponse:
    form = FederationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            federation = federation_create(
                name=form.cleaned_data["name"],
                id_prefix=form.cleaned_data["id_prefix"],
                user=cast(User, request.user),  # signed in (login_required)
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Federation created. Invite its clubs next."))
            return redirect("federations:detail", slug=federation.slug)
    return render(request, "federations/new.html", {"form": form})


def federation_detail(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug)
    page = selectors.federation_page(federation=federation, user=request.user)
    seasons = season_selectors.federation_seasons(federation=federation)
    context = {"federation": federation, "page": page, "seasons": seasons}
    return render(request, "federations/detail.html", context)


def _settings_page(
    request: HttpRequest,
    federation: Federation,
    *,
    form: SettingsForm | None = None,
    adding: OrganiserForm | None = None,
) -> HttpResponse:
    context = {
        "federation": federation,
        "form": form or SettingsForm(initial=SettingsForm.initial_from(federation)),
        "adding": adding or OrganiserForm(),
        # Each removal its own request id: one id for two changes would be refused as reused.
        "organisers": [(o, uuid.uuid4()) for o in selectors.organisers(federation=federation)],
    }
    return render(request, "federations/settings.html", context)


@login_required
def federation_settings(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    if request.method != "POST":
        return _settings_page(request, federation)
    form = SettingsForm(request.POST)
    if form.is_valid():
        try:
            federation = federation_update(
                federation=federation,
                settings=form.settings(),
                version=form.cleaned_data["version"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("federations:settings", slug=federation.slug)
    return _settings_page(request, federation, form=form)


@login_required
@require_POST
def organiser_add_view(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = OrganiserForm(request.POST)
    if form.is_valid():
        try:
            organiser_add(
                federation=federation,
                username=form.cleaned_data["username"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Organiser added."))
            return redirect("federations:settings", slug=slug)
    return _settings_page(request, federation, adding=form)


@login_required
@require_POST
def organiser_remove_view(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = OrganiserForm(request.POST)
    if not form.is_valid():
        raise Http404
    found = selectors.find_organiser(federation=federation, username=form.cleaned_data["username"])
    if found is None:
        messages.error(request, _("That account is not an organiser of the federation."))
        return redirect("federations:settings", slug=slug)
    try:
        organiser_remove(
            federation=federation,
            organiser=found,
            request_id=form.cleaned_data["request_id"],
            user=request.user,
        )
    except EngineError as error:
        messages.error(request, error_message(error))
        return redirect("federations:settings", slug=slug)
    messages.success(request, _("Organiser removed."))
    if found.user_id == request.user.pk and not request.user.is_superuser:
        return redirect("federations:detail", slug=slug)  # stepped down: the tools are closed now
    return redirect("federations:settings", slug=slug)
