"""Changing when a game was played (a score sheet typed in after the evening): its own page,
linked from the history, so that the hand-entry page stays as light as it is. A plain form
that posts and redirects to the history, where the change can be undone."""

from __future__ import annotations

import datetime
import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.errors import EngineError
from games.forms import GameDateForm
from games.models import Game
from games.selectors.games import game_by_public_id
from games.services.access import can_edit
from games.services.games import game_date_set
from games.text.errors import error_message


def _dated(request: HttpRequest, public_id: str) -> Game:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    if not can_edit(request=request, game=game):
        raise PermissionDenied(_("Only the game's scorekeepers can change its date."))
    return game


def _same_minute(a: datetime.datetime, b: datetime.datetime) -> bool:
    """The form shows minutes: the date saved unchanged is the game's own."""
    return a.replace(second=0, microsecond=0) == b.replace(second=0, microsecond=0)


def game_date(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _dated(request, public_id)
    if request.method == "POST":
        form = GameDateForm(request.POST)
        if form.is_valid() and _same_minute(form.cleaned_data["played_at"], game.played_at):
            return redirect("games:history", public_id=game.public_id)  # saved unchanged
        if form.is_valid():
            try:
                shown = datetime.datetime.fromisoformat(form.cleaned_data["shown"])
            except ValueError:
                shown = None
            try:
                change = game_date_set(
                    game=game,
                    played_at=form.cleaned_data["played_at"],
                    shown=shown,
                    user=request.user,
                    request_id=form.cleaned_data["request_id"],
                )
            except EngineError as error:
                form.add_error("played_at", error_message(error))
            else:
                if change is not None:
                    messages.success(request, _("The game's date was changed. You can undo this below."))
                return redirect("games:history", public_id=game.public_id)
    else:
        form = GameDateForm(
            initial={
                "played_at": timezone.localtime(game.played_at).replace(second=0, microsecond=0),
                "shown": game.played_at.isoformat(),
                "request_id": uuid.uuid4(),
            }
        )
    response = render(request, "games/date.html", {"game": game, "form": form})
    response["Cache-Control"] = "no-store"
    return response
