"""The whole evening's settlement page: the games of one table's evening settled at once."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors.evening import evening_of
from games.selectors.games import game_by_public_id


def evening(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    found = evening_of(game=game)
    if found is None:
        raise Http404
    settled = found.settlement
    rows = (
        [
            (
                name,
                [g.totals[name] for g in found.games],
                settled.totals[name],
                settled.crowns[name],
                settled.net[name],
            )
            for name in found.players
        ]
        if settled is not None
        else []
    )
    return render(
        request, "games/evening.html", {"game": game, "evening": found, "settled": settled, "rows": rows}
    )
