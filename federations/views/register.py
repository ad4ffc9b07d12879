"""The federation's register: its entries (searched by name or federation id, a page at a
time) for whoever sees the federation; for its organisers, a new entry, the likely duplicates
with their merge, and an entry's edit page."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations import access
from federations.forms import MergeForm, PersonAddForm, PersonEditForm, put_error
from federations.models import Federation, Person
from federations.selectors import federations as federation_selectors
from federations.selectors import register as selectors
from federations.services.register import person_add, person_edit, person_label, person_merge
from federations.views.common import federation_of
from games.services.errors import ServiceError
from games.text.errors import error_message
from games.web.input import read_int


def _page(request: HttpRequest, federation: Federation, form: PersonAddForm | None = None) -> HttpResponse:
    organiser = access.is_organiser(user=request.user, federation=federation)
    page = selectors.register_page(
        federation=federation,
        query=request.GET.get("q", ""),
        page=read_int(request.GET.get("page"), lo=1, hi=100_000) or 1,
    )
    context = {
        "federation": federation,
        "page": page,
        "organiser": organiser,
    }
    if organiser:
        clubs = federation_selectors.home_club_choices(federation=federation)
        groups = selectors.duplicates(federation=federation)
        context |= {
            "form": form or PersonAddForm(clubs=clubs),
            "merges": _merges(federation, groups),
        }
    return render(request, "federations/register.html", context)


def _merges(federation: Federation, groups: list[list[Person]]) -> list[dict[str, Any]]:
    """Each group of look-alike entries with the merges it offers: every other entry into the
    first, or the first into it, each form with its own request id."""
    shown = []
    for group in groups:
        first, others = group[0], group[1:]
        pairs = [
            {
                "source": source,
                "into": into,
                "source_label": person_label(federation, source.number),
                "into_label": person_label(federation, into.number),
                "request_id": uuid.uuid4(),
            }
            for other in others
            for source, into in ((other, first), (first, other))
        ]
        entries = [(p, person_label(federation, p.number)) for p in group]
        shown.append({"entries": entries, "pairs": pairs})
    return shown


def federation_register(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=request.method == "POST")
    if request.method != "POST":
        return _page(request, federation)
    form = PersonAddForm(request.POST, clubs=federation_selectors.home_club_choices(federation=federation))
    if form.is_valid():
        try:
            person = person_add(
                federation=federation,
                name=form.cleaned_data["name"],
                home_club=form.cleaned_data["home_club"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            label = person_label(federation, person.number)
            messages.success(
                request, _("%(name)s is in the register as %(id)s.") % {"name": person.name, "id": label}
            )
            return redirect("federations:register", slug=slug)
    return _page(request, federation, form)


@login_required
@require_POST
def register_merge(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form and try again."))
        return redirect("federations:register", slug=slug)
    data = form.cleaned_data
    source = selectors.register_entry(federation=federation, number=data["source"])
    into = selectors.register_entry(federation=federation, number=data["into"])
    try:
        if source is None or into is None:
            missing = data["source"] if source is None else data["into"]
            raise ServiceError("person_unknown", "no such entry", number=person_label(federation, missing))
        person_merge(
            source=source,
            into=into,
            versions=(data["source_version"], data["into_version"]),
            request_id=data["request_id"],
            user=request.user,
        )
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("%(source)s is merged into %(into)s. The history can undo it.")
            % {
                "source": person_label(federation, source.number),
                "into": person_label(federation, into.number),
            },
        )
    return redirect("federations:register", slug=slug)


@login_required
def register_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    person = selectors.register_entry(federation=federation, number=number)
    if person is None:
        raise Http404
    clubs = federation_selectors.home_club_choices(federation=federation)
    initial = {"name": person.name, "home_club": person.home_club_id, "version": person.version}
    form = PersonEditForm(request.POST or None, initial=initial, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            person_edit(
                person=person,
                name=form.cleaned_data["name"],
                home_club=form.cleaned_data["home_club"],
                version=form.cleaned_data["version"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Entry saved."))
            return redirect("federations:register", slug=slug)
    context = {
        "federation": federation,
        "person": person,
        "label": person_label(federation, person.number),
        "form": form,
    }
    return render(request, "federations/person_edit.html", context)
