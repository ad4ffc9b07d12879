"""The federation's rating lists: the live list of a family a page at a time, a published month
as it was published, their CSV files, and a tournament's rating report for the federation. Thin
views over ``federations.selectors.ratings``; whoever may see the federation reads them (a
members-only federation answers 404 to others, as a members-only club does)."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from federations import access, rating_files
from federations.models import Federation, PublishedList
from federations.selectors import ratings as selectors
from federations.selectors.federations import federation_by_slug
from games.web.input import read_int
from tournaments import access as tournament_access
from tournaments.models import Tournament
from tournaments.selectors.tournaments import tournament_by_public_id

MAX_PAGE = 100_000


def visible_federation(request: HttpRequest, slug: str) -> Federation:
    federation = federation_by_slug(slug=slug)
    if federation is None or not access.can_view(user=request.user, federation=federation):
        raise Http404
    return federation


def _page(request: HttpRequest) -> int:
    # A page past the last shows the last; anything not a page number, the first.
    return read_int(request.GET.get("page"), lo=1, hi=MAX_PAGE) or 1


def _live(
    request: HttpRequest, federation: Federation, family: str, *, page: int = 1, query: str = ""
) -> selectors.RatingPage:
    found = selectors.live_list(federation=federation, family=family, page=page, query=query)
    # A family named in the address must be one the federation rates.
    if family and found.family != family:
        raise Http404
    return found


def rating_list(request: HttpRequest, slug: str, family: str = "") -> HttpResponse:
    federation = visible_federation(request, slug)
    ratings = _live(request, federation, family, page=_page(request), query=request.GET.get("q", ""))
    months = selectors.published_months(federation, ratings.family) if ratings.family else []
    context = {"federation": federation, "ratings": ratings, "fresh": ratings.fresh, "months": months}
    return render(request, "federations/rating_list.html", context)


def rating_list_csv(request: HttpRequest, slug: str, family: str) -> HttpResponse:
    federation = visible_federation(request, slug)
    if family not in selectors.rated_families(federation):
        raise Http404
    return rating_files.live_file(federation, family)


def _published(
    request: HttpRequest, slug: str, family: str, month: datetime.date
) -> tuple[Federation, PublishedList]:
    federation = visible_federation(request, slug)
    published = selectors.published_list(federation, family, month)
    if published is None:
        raise Http404
    return federation, published


def published_list(request: HttpRequest, slug: str, family: str, month: datetime.date) -> HttpResponse:
    federation, published = _published(request, slug, family, month)
    found = selectors.published_page(federation=federation, published=published, page=_page(request))
    context = {"federation": federation, "found": found, "published": published}
    return render(request, "federations/published_list.html", context)


def published_list_csv(request: HttpRequest, slug: str, family: str, month: datetime.date) -> HttpResponse:
    federation, published = _published(request, slug, family, month)
    return rating_files.published_file(federation, published)


def visible_tournament(request: HttpRequest, public_id: str) -> Tournament:
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = tournament_access.tournament_role(user=request.user, tournament=tournament)
    if not tournament_access.can_view(tournament=tournament, role=role):
        raise Http404
    return tournament


def tournament_report(request: HttpRequest, public_id: str, fed_slug: str) -> HttpResponse:
    tournament = visible_tournament(request, public_id)
    federation = visible_federation(request, fed_slug)
    rows = selectors.tournament_report(federation=federation, tournament=tournament)
    context = {
        "federation": federation,
        "tournament": tournament,
        "rows": rows,
        "fresh": selectors.freshness(federation),
    }
    return render(request, "federations/tournament_report.html", context)
