"""What the federations app adds to the other apps' pages (``games.extensions``): on a
tournament's page, a link to its rating report in each federation that rated it, and its
federation open (or, for its organisers, the form that hosts it as one)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from federations import access
from federations.access import visible_federations
from federations.models import Federation, FederationOpen, FederationRatingEvent
from federations.open_forms import HostForm
from federations.selectors.opens import host_federations
from tournaments.models import Round, Tournament


def tournament_reports(request: HttpRequest, tournament: Tournament) -> SafeString | None:
    """The federations the reader sees whose lists count the tournament's tables (one query;
    none for a club in no federation)."""
    rated = FederationRatingEvent.objects.filter(game__tournament_table__round__tournament=tournament)
    federations = list(
        Federation.objects.filter(
            visible_federations(user=request.user), pk__in=rated.values("federation_id")
        ).order_by("name")
    )
    if not federations:
        return None
    context = {"tournament": tournament, "federations": federations}
    return SafeString(render_to_string("federations/_tournament_reports.html", context, request=request))


def tournament_open(request: HttpRequest, tournament: Tournament) -> SafeString | None:
    """The open the tournament is (a link to its page; ending it, for the host's organisers
    before round 1), or, for the host's organisers of a tournament with no round yet in a club
    that belongs to a federation, the form that hosts it as an open. One query for a reader who
    does not run the club."""
    found = FederationOpen.objects.filter(tournament=tournament).select_related("federation").first()
    shown = found is not None and access.can_view(user=request.user, federation=found.federation)
    runs = access.club_organiser(user=request.user, club=tournament.club)
    if not shown and not runs:
        return None
    started = Round.objects.filter(tournament=tournament).exists() if runs else True
    context: dict[str, object] = {"tournament": tournament, "open": found if shown else None}
    if found is None:
        if started:
            return None
        federations = host_federations(club=tournament.club)
        if not federations:
            return None
        context["host_form"] = HostForm(federations=[(f.slug, f.name) for f in federations])
    context["can_end"] = runs and not started
    return SafeString(render_to_string("federations/_tournament_open.html", context, request=request))
