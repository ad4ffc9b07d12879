"""What the federations app adds to the other apps' pages (``games.extensions``): on a
tournament's page, a link to its rating report in each federation that rated it."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from federations.access import visible_federations
from federations.models import Federation, FederationRatingEvent
from tournaments.models import Tournament


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
    return None
