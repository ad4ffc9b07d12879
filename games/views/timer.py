"""A table's turn timer (``/g/<id>/timer/``): a page of its own, so the hand-entry page carries
only a link to it; the timer runs in the phone (static/js/timer.js), offline too. Read by anyone
with the game's address, like the game."""

from __future__ import annotations

from dataclasses import asdict

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.families import family_name
from games.selectors.games import game_by_public_id
from games.selectors.timer import timer_setup


def game_timer_page(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    setup = timer_setup(game=game)
    context = {"game": game, "name": family_name(game.family), "setup": setup, "data": asdict(setup)}
    return render(request, "games/timer.html", context)
