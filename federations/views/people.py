"""A person's pages in a federation: his claim of his register entry (his federation id and
his name as registered, for his players in the member clubs) and his entry's page (his linked
players and his latest games across the clubs), seen by whoever sees the federation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import EngineError
from federations.link_forms import ClaimForm
from federations.models import Federation
from federations.selectors.links import claim_rows
from federations.selectors.person import person_by_number, person_page, visible_federation
from federations.selectors.seasons import person_seasons
from federations.services.links import claim
from games.club_forms import put_error


def _federation(request: HttpRequest, slug: str) -> Federation:
    federation = visible_federation(slug=slug, user=request.user)
    if federation is None:
        raise Http404
    return federation


@login_required
def claim_page(request: HttpRequest, slug: str) -> HttpResponse:
    federation = _federation(request, slug)
    user = request.user
    assert isinstance(user, User)
    form = ClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = claim(
                federation=federation,
                person_id=form.cleaned_data["person"],
                name=form.cleaned_data["name"],
                user=user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            if made:
                messages.success(
                    request,
                    ngettext(
                        "Claim sent: the club's organisers confirm it.",
                        "Claims sent: each club's organisers confirm them.",
                        len(made),
                    ),
                )
            else:
                messages.info(request, _("Nothing new to claim: your players are linked or waiting already."))
            return redirect("federations:claim", slug=federation.slug)
    context = {"federation": federation, "form": form, "rows": claim_rows(federation=federation, user=user)}
    return render(request, "federations/claim.html", context)


def person_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    federation = _federation(request, slug)
    person = person_by_number(federation=federation, number=number)
    if person is None:
        raise Http404
    if person.merged_into is not None:
        return redirect("federations:person", slug=federation.slug, number=person.merged_into.number)
    page = person_page(federation=federation, person=person, user=request.user)
    context = {"federation": federation, "page": page, "seasons": person_seasons(person=person)}
    return render(request, "federations/person.html", context)
