"""The live view: ``/g/<id>/live/`` answers a phone polling a game page (``static/js/live.js``)
with the part of the page a save changes, or 304 while nothing did.

The 304 costs the game's row (one query for someone without a session; the session, and the
user if logged in, otherwise): the tag (:func:`games.sheets.etag.live_etag`) is made from that row and
the request alone, so any application server answers it. A 200 draws exactly what the game page
draws (the same partials of ``games/detail.html``), through the same per-version caches.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.sheets.etag import live_etag
from games.views.games import (
    HtmxHttpRequest,
    _detail_context,
    _game,
    _not_modified,
    _to_revalidate,
    _viewer,
    _with_etag,
)


@require_safe
def game_live(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _to_revalidate(public_id)
    role, editable = _viewer(request, game)
    etag = live_etag(request, game, role, editable)
    if _not_modified(request, etag):
        return _with_etag(HttpResponse(status=304), etag, editable)
    game = _game(public_id)  # the whole game, to draw the part
    context = _detail_context(request, game, viewer=(role, editable))
    response = render(request, "games/_live.html", context)
    return _with_etag(response, etag, editable)
