"""The federation's clubs as its organisers manage them: the members, the open invitations and
the past periods; inviting a club, and ending a membership or withdrawing an invitation."""

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
from federations.forms import EndForm, InviteForm, put_error
from federations.selectors import federations as selectors
from federations.services.memberships import club_invite, find_club, membership_end
from federations.views.common import federation_of
from games.services.errors import ServiceError
from games.text.errors import error_message


@never_cache
@login_required
def federation_clubs(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            membership = club_invite(
                federation=federation,
                club=find_club(form.cleaned_data["club"]),
                counts_from=form.cleaned_data["counts_from"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(
                request,
                _("%(club)s is invited: its organisers accept on their club's page.")
                % {"club": membership.club.name},
            )
            return redirect("federations:clubs", slug=slug)
    page = selectors.clubs_page(federation=federation)
    context = {
        "federation": federation,
        "page": page,
        # Each end its own request id: one id for two changes would be refused as reused.
        "members": [(m, uuid.uuid4()) for m in page.members],
        "invited": [(m, uuid.uuid4()) for m in page.invited],
        "form": form,
    }
    return render(request, "federations/clubs.html", context)


@login_required
@require_POST
def federation_club_end(request: HttpRequest, slug: str) -> HttpResponse:
    federation = federation_of(request, slug, manage=True)
    form = EndForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, " ".join(str(e) for e in form.non_field_errors()) or _("Check the form and try again.")
        )
        return redirect("federations:clubs", slug=slug)
    membership = selectors.membership_by_id(federation=federation, pk=form.cleaned_data["membership"])
    try:
        if membership is None:
            raise ServiceError("membership_gone", "no such membership")
        ended = membership_end(
            membership=membership,
            by_club=False,
            version=form.cleaned_data["version"],
            request_id=form.cleaned_data["request_id"],
            user=request.user,
        )
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _("%(club)s is no longer with the federation.") % {"club": ended.club.name})
    return redirect("federations:clubs", slug=slug)
