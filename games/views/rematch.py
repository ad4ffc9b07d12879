"""A rematch: the next game at the same table (the same players and house rules, the deal moved
on by one seat), started from the game's page or from My games. A plain form that posts and
redirects to the new game."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Game
from games.selectors.games import game_by_public_id
from games.services.access import can_rematch, grant_edit
from games.services.games import game_rematch


def _bad_request(request: HttpRequest, game: Game) -> HttpResponse:
    message = _(
        "Part of the form was damaged on its way, so nothing was changed. Reload the page and try again."
    )
    return render(request, "games/bad_request.html", {"game": game, "message": message}, status=400)


@require_POST
def rematch(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    if not can_rematch(request=request, game=game):
        raise PermissionDenied(
            _("Only its owner, or its club's scorekeepers, can start a rematch of this game.")
        )
    raw = request.POST.get("request_id", "")
    try:
        request_id = uuid.UUID(raw) if raw else None
    except ValueError:
        return _bad_request(request, game)
    new = game_rematch(game=game, user=request.user, request_id=request_id)
    grant_edit(request=request, game=new, started=True)
    messages.success(
        request, _("A rematch was started: the same players and house rules, the next dealer deals.")
    )
    return redirect("games:detail", public_id=new.public_id)
