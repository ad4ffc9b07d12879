"""The club rating list, a player's league card in a season, and the CSV of these and of a
season's standings. Thin views over tournaments.selectors.league, with the league pages' access
rules (tournaments.views.seasons: a members-only club answers 404 to strangers)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.rules import FAMILIES
from tournaments import league_files
from tournaments.selectors import league as league_selectors
from tournaments.views.seasons import _club, _club_player, _season


def _family(request: HttpRequest) -> str:
    family = request.GET.get("family", "")
    return family if family in FAMILIES else ""


def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug)
    ratings = league_selectors.rating_list(club=club, family=_family(request))
    context = {"club": club, "role": role, "ratings": ratings}
    return render(request, "seasons/rating_list.html", context)


def rating_list_csv(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = _club(request, slug)
    return league_files.rating_list_file(
        club, league_selectors.rating_list(club=club, family=_family(request))
    )


def season_csv(request: HttpRequest, public_id: str) -> HttpResponse:
    season, _role = _season(request, public_id)
    return league_files.season_file(season, _family(request))


def _card(request: HttpRequest, public_id: str, pk: int) -> league_selectors.LeagueCard:
    season, _role = _season(request, public_id)
    player = _club_player(season.club, pk)
    return league_selectors.league_card(season=season, player=player, family=_family(request))


def league_card(request: HttpRequest, public_id: str, pk: int) -> HttpResponse:
    card = _card(request, public_id, pk)
    context = {"club": card.season.club, "season": card.season, "card": card, "player": card.player}
    return render(request, "seasons/league_card.html", context)


def league_card_csv(request: HttpRequest, public_id: str, pk: int) -> HttpResponse:
    return league_files.league_card_file(_card(request, public_id, pk))
