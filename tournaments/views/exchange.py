"""The page that brings a club's exported data in as a new club (the export itself is a link
on the club's settings page to the API's export, which the session authenticates)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.exchange.importing import import_club
from tournaments.exchange.validation import ImportInvalid, Problem
from tournaments.forms import ImportForm


@login_required
def club_import(request: HttpRequest) -> HttpResponse:
    """A club's exported data becomes a new club, the user its organiser; every problem in the
    file is listed and nothing is written if there is one (tournaments.exchange)."""
    form = ImportForm(request.POST or None, request.FILES or None)
    problems: list[Problem] = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = import_club(
                form.cleaned_data["document"],
                user=request.user,  # type: ignore[arg-type]
                name=form.cleaned_data["name"],
            )
        except ImportInvalid as invalid:
            problems = invalid.problems
        else:
            messages.success(
                request, _("Club imported: its totals, standings and ratings are worked out again.")
            )
            return redirect("games:club", slug=imported.club.slug)
    return render(request, "tournaments/import.html", {"form": form, "problems": problems})
