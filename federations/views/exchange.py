"""A federation's records exported from its settings page (a JSON download, organisers only),
and the page that brings an export in as a new federation (federations.exchange)."""

from __future__ import annotations

import json
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federations.exchange.exporting import export_federation
from federations.exchange.importing import import_federation
from federations.exchange.validation import ImportInvalid, Problem
from federations.forms import ImportForm
from federations.views.common import federation_of


@login_required
def federation_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The federation's document, as a file to keep."""
    federation = federation_of(request, slug, manage=True)
    text = json.dumps(export_federation(federation), ensure_ascii=False, indent=2) + "\n"
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{federation.slug}-federation.json"'
    return response


@login_required
def federation_import(request: HttpRequest) -> HttpResponse:
    """An exported federation becomes a new one, the user its organiser; every problem in the
    file is listed and nothing is written if there is one."""
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[Problem] = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = import_federation(form.cleaned_data["document"], user=cast(User, request.user))
        except ImportInvalid as invalid:
            problems = invalid.problems
        else:
            messages.success(request, _("Federation imported: its live rating list is worked out again."))
            return redirect("federations:detail", slug=imported.federation.slug)
    return render(request, "federations/import.html", {"form": form, "problems": problems})
