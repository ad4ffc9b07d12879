"""What a call to the tournaments app's API names, found for its caller: a tournament or a
season (404 if he may not see it, 401/403 if he may not change it), a tournament's entries and
rounds as stored now, a club's player, the query parameters more than one resource reads (a
name, a rule family), and whether a write is the resend of one already made."""

from __future__ import annotations

import uuid

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.request import Request

from engine.rules import FAMILIES
from games.api.lookups import refuse, visible_club
from games.models import Club, Player
from tournaments.access import can_manage, can_view, tournament_role
from tournaments.models import Entry, Round, Season, Tournament
from tournaments.selectors import seasons as season_selectors
from tournaments.selectors.entries import tournament_entry
from tournaments.selectors.rounds import tournament_round
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.selectors.view import RoundView, tournament_view
from tournaments.services.writes import resent


def visible_tournament(
    request: Request, public_id: str, *, manage: bool = False
) -> tuple[Tournament, str | None]:
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = tournament_role(user=request.user, tournament=tournament)
    if not can_view(tournament=tournament, role=role):
        raise Http404
    if manage and not can_manage(role=role):
        refuse(request, _("Only the club's organisers can do this."))
    return tournament, role


def stored_tournament(tournament: Tournament) -> Tournament:
    """The tournament as stored now (after someone else's change)."""
    found = tournament_by_public_id(public_id=tournament.public_id)
    if found is None:
        raise Http404
    return found


def stored_entry(tournament: Tournament, entry: Entry) -> Entry:
    found = tournament_entry(tournament=tournament, entry_id=entry.pk)
    if found is None:
        raise Http404
    return found


def replayed(tournament: Tournament, key: uuid.UUID | None, target: str) -> bool:
    """A resend of a change already made (the service will return it and change nothing); the
    key of another operation or object is refused (422)."""
    return resent(tournament=tournament, request_id=key, target=target)


def round_view(tournament: Tournament, number: int, *, organiser: bool = True) -> RoundView:
    found = tournament_view(tournament=tournament, organiser=organiser).round(number)
    if found is None:
        raise Http404
    return found


def round_or_404(tournament: Tournament, number: int) -> Round:
    played = tournament_round(tournament=tournament, number=number)
    if played is None:
        raise Http404
    return played


def name_query(request: Request) -> str:
    query = request.query_params.get("q", "").strip()
    if not query:
        raise exceptions.ValidationError({"q": [_("Type a name (or a part of it).")]})
    return query[:80]


def visible_season(request: Request, public_id: str, *, manage: bool = False) -> Season:
    season = season_selectors.season_by_public_id(public_id=public_id)
    if season is None:
        raise Http404
    visible_club(request, season.club.slug, manage=manage)
    return season


def family_query(request: Request) -> str:
    """The rule family a call asks for (``?family=``), "" for none; 400 for an unknown one."""
    family = request.query_params.get("family", "")
    if family and family not in FAMILIES:
        raise exceptions.ValidationError({"family": [_("No such rule family.")]})
    return family


def club_player(club: Club, pk: int) -> Player:
    player = season_selectors.club_player(club=club, pk=pk)
    if player is None:
        raise Http404
    return player
