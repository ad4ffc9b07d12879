"""The organiser's tournament pages: a club's list of tournaments, a new tournament, its overview
and its settings. They read through tournaments.selectors and write through
tournaments.services. Every write is a POST with a request id (a resend changes nothing twice)
and the version the organiser saw (a stale one is refused with a message), then a redirect.
A members-only club's tournaments answer 404 to strangers; writes answer 403 to anyone but the
club's organisers. Everything works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.rules import FAMILIES
from games import extensions
from games.models import Membership
from games.selectors.clubs import club_by_slug
from games.services.access import can_view_club, club_role, role_allows
from scoring.families import family_info
from tournaments.access import can_manage
from tournaments.forms import TournamentForm, VersionedForm
from tournaments.selectors import seasons as season_selectors
from tournaments.selectors.tournaments import club_tournaments
from tournaments.selectors.view import tournament_view
from tournaments.services.round_seating import eligible
from tournaments.services.tournament_settings import tournament_create, tournament_update
from tournaments.views.common import tournament_of
from tournaments.views.players import fit_note


def club_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    context = {
        "club": club,
        "role": role,
        "tournaments": club_tournaments(club=club),
        "can_manage": role_allows(role, Membership.Role.ORGANISER),
        "families": [(f, family_info(f)) for f in FAMILIES],
    }
    return render(request, "tournaments/club_list.html", context)


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if not role_allows(role, Membership.Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    family = request.GET.get("family") or request.POST.get("family")
    if family is None or family not in FAMILIES:
        return redirect("tournaments:club_list", slug=club.slug)
    seasons = season_selectors.qualifying_seasons(club=club)
    form = TournamentForm(request.POST or None, family=family, seasons=seasons)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(club=club, settings=form.settings(), user=request.user)
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Tournament created. Now register the players."))
            return redirect("tournaments:players", public_id=tournament.public_id)
    context = {"club": club, "form": form, "family": family, "info": family_info(family)}
    return render(request, "tournaments/new.html", context)


def detail(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = tournament_of(request, public_id)
    view = tournament_view(tournament=tournament, organiser=can_manage(role=role))
    upcoming = view.next_round
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "can_manage": can_manage(role=role),
        "section": "overview",
        "next_round": upcoming,
        "fit_note": fit_note(tournament, len(eligible(view.data, upcoming))) if upcoming else None,
        "seat_form": VersionedForm(initial={"version": 0}),
        "panels": extensions.panels("tournament", request, tournament),
    }
    return render(request, "tournaments/detail.html", context)


@login_required
def settings_view(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = tournament_of(request, public_id, manage=True)
    initial = TournamentForm.initial_from(tournament)
    seasons = season_selectors.qualifying_seasons(club=tournament.club)
    form = TournamentForm(request.POST or None, family=tournament.family, initial=initial, seasons=seasons)
    versioned = VersionedForm(request.POST or None, initial={"version": tournament.version})
    if request.method == "POST" and form.is_valid() and versioned.is_valid():
        try:
            tournament_update(
                tournament=tournament,
                settings=form.settings(),
                version=versioned.cleaned_data["version"],
                user=request.user,
                request_id=versioned.cleaned_data["request_id"],
            )
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("tournaments:detail", public_id=tournament.public_id)
    elif request.method == "POST" and not versioned.is_valid():
        form.add_error(None, " ".join(str(e) for e in versioned.non_field_errors()))
    context = {
        "tournament": tournament,
        "view": tournament_view(tournament=tournament, organiser=True),
        "role": role,
        "form": form,
        "versioned": versioned,
        "info": family_info(tournament.family),
        "can_manage": True,
        "section": "settings",
    }
    return render(request, "tournaments/settings.html", context)
