"""League pages: a club's seasons, a season's standings (filter by family), its settings, a
player's ratings with their chart, and two players head to head. Thin views over
tournaments.selectors and tournaments.services; the same access rules as the club's pages
(a members-only club answers 404 to strangers; only organisers change a season)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.rules import FAMILIES
from games.models import Club, Membership, Player
from games.selectors.clubs import club_by_slug
from games.services.access import can_view_club, club_role, role_allows
from games.sheets.svg import rating_chart
from games.web.input import read_int
from tournaments.derived import freshness
from tournaments.forms import SeasonForm, VersionedForm
from tournaments.models import Season
from tournaments.selectors import seasons as selectors
from tournaments.services.seasons import season_create, season_update

Role = Membership.Role


def _club(request: HttpRequest, slug: str, *, manage: bool = False) -> tuple[Club, str | None]:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if manage and not role_allows(role, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    return club, role


def _season(request: HttpRequest, public_id: str, *, manage: bool = False) -> tuple[Season, str | None]:
    season = selectors.season_by_public_id(public_id=public_id)
    if season is None:
        raise Http404
    _in_club, role = _club(request, season.club.slug, manage=manage)
    return season, role


def club_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug)
    context = {
        "club": club,
        "role": role,
        "seasons": selectors.club_seasons(club=club),
        "can_manage": role_allows(role, Role.ORGANISER),
    }
    return render(request, "seasons/club_list.html", context)


@login_required
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug, manage=True)
    form = SeasonForm(request.POST or None, initial={"families": list(FAMILIES)})
    versioned = VersionedForm(request.POST or None, initial={"version": 0})
    if request.method == "POST" and form.is_valid() and versioned.is_valid():
        try:
            season = season_create(
                club=club,
                settings=form.settings(),
                user=request.user,
                request_id=versioned.cleaned_data["request_id"],
            )
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Season created: its standings are below."))
            return redirect("tournaments:season", public_id=season.public_id)
    context = {"club": club, "role": role, "form": form, "versioned": versioned}
    return render(request, "seasons/edit.html", context)


@login_required
def season_settings(request: HttpRequest, public_id: str) -> HttpResponse:
    season, role = _season(request, public_id, manage=True)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_from(season))
    versioned = VersionedForm(request.POST or None, initial={"version": season.version})
    if request.method == "POST" and form.is_valid() and versioned.is_valid():
        try:
            season_update(
                season=season,
                settings=form.settings(),
                version=versioned.cleaned_data["version"],
                user=request.user,
                request_id=versioned.cleaned_data["request_id"],
            )
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Settings saved; the standings are rebuilt."))
            return redirect("tournaments:season", public_id=season.public_id)
    elif request.method == "POST" and not versioned.is_valid():
        form.add_error(None, " ".join(str(e) for e in versioned.non_field_errors()))
    context = {"club": season.club, "season": season, "role": role, "form": form, "versioned": versioned}
    return render(request, "seasons/edit.html", context)


def _day(value: str) -> datetime.date | None:
    """A day picked from the season's evenings (anything else: the standings as they are)."""
    try:
        return datetime.date.fromisoformat(value) if len(value) == 10 else None
    except ValueError:
        return None


def season_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    season, role = _season(request, public_id)
    family = request.GET.get("family", "")
    page = read_int(request.GET.get("page"), lo=1, hi=100_000) or 1
    view = selectors.season_view(
        season=season,
        family=family if family in FAMILIES else "",
        page=page,
        evening=_day(request.GET.get("evening", "")),
    )
    context = {
        "club": season.club,
        "season": season,
        "view": view,
        "role": role,
        "can_manage": role_allows(role, Role.ORGANISER),
    }
    return render(request, "seasons/standings.html", context)


def _club_player(club: Club, pk: int) -> Player:
    player = selectors.club_player(club=club, pk=pk)
    if player is None:
        raise Http404
    return player


def player_ratings(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = _club(request, slug)
    player = _club_player(club, pk)
    page = selectors.player_rating_page(player=player, family=request.GET.get("family", ""))
    context = {
        "club": club,
        "role": role,
        "player": player,
        "page": page,
        "chart": rating_chart(page.points, label=_("Rating over time")) if page.points else None,
    }
    return render(request, "seasons/player_ratings.html", context)


def head_to_head(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Two players of the club against each other: ``pk`` and the one chosen (``?other=``)."""
    club, role = _club(request, slug)
    player = _club_player(club, pk)
    others = selectors.club_opponents(player=player)
    other_id = request.GET.get("other", "")
    other = next((o for o in others if str(o.pk) == other_id), None)
    record = selectors.head_to_head_page(player=player, other=other) if other is not None else None
    context = {
        "club": club,
        "role": role,
        "player": player,
        "others": others,
        "other": other,
        "record": record,
        "fresh": freshness(club.pk) if record is not None and record.ratings else None,
    }
    return render(request, "seasons/head_to_head.html", context)
