"""A club's audit log for its organisers: the page (newest first, a page at a time) and its
CSV. Members and everyone else are refused as on the club's other organiser pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from games.models import Membership
from games.selectors.audit import audit_page
from games.services.audit import audit_export
from games.views.clubs import _club
from games.web.input import read_int


@never_cache  # private: addresses and names
@login_required
def club_audit(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug, Membership.Role.ORGANISER)
    before = read_int(request.GET.get("before"), lo=1, hi=2**63 - 1)
    entries, older = audit_page(club=club, before=before)
    context = {"club": club, "role": role, "entries": entries, "older": older, "paged": before is not None}
    return render(request, "clubs/audit.html", context)


@never_cache
@login_required
def club_audit_csv(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = _club(request, slug, Membership.Role.ORGANISER)
    response = HttpResponse(
        audit_export(club=club, user=request.user), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{club.slug}-audit-log.csv"'
    return response
