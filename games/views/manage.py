"""What a club's organisers do to one of its games from the game's page: give it another
starter (a scorekeeper or organiser of the club, whose rights then follow his role) and
delete it (asked first; undo brings it back, from the page the deleted game still has for
them). Plain forms that post and redirect to the game's page."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.models import Game
from games.selectors.clubs import game_removal
from games.selectors.games import game_by_public_id
from games.selectors.users import user_by_pk
from games.services.access import can_manage_game
from games.services.games import game_delete, game_transfer
from games.text.errors import error_message


def _refused() -> PermissionDenied:
    return PermissionDenied(_("Only an organiser of the game's club can do this."))


def _managed(request: HttpRequest, public_id: str, *, deleted: bool = False) -> Game:
    """The club's game, if the user organises its club (403 otherwise; 404 for a game that
    does not exist, or is deleted and ``deleted`` is not asked for)."""
    game = game_by_public_id(public_id=public_id, deleted=deleted)
    if game is None:
        raise Http404
    if not can_manage_game(request=request, game=game):
        if game.deleted_at is not None:
            raise Http404  # a deleted game is gone for everyone else
        raise _refused()
    return game


def _request_id(request: HttpRequest) -> uuid.UUID | None:
    """The form's request id (None if it sent none); ValueError for a malformed one."""
    raw = request.POST.get("request_id", "")
    return uuid.UUID(raw) if raw else None


def _bad_request(request: HttpRequest, game: Game) -> HttpResponse:
    message = _(
        "Part of the form was damaged on its way, so nothing was changed. Reload the page and try again."
    )
    return render(request, "games/bad_request.html", {"game": game, "message": message}, status=400)


@require_POST
def transfer(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _managed(request, public_id)
    raw = request.POST.get("to", "")
    try:
        request_id = _request_id(request)
    except ValueError:
        return _bad_request(request, game)
    to = user_by_pk(pk=int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
    if to is None:
        messages.error(request, _("Choose whom to give the game to."))
        return redirect("games:detail", public_id=game.public_id)
    try:
        game_transfer(game=game, to=to, user=request.user, request_id=request_id)
    except EngineError as error:
        messages.error(
            request, _("The game was not handed over: %(reason)s") % {"reason": error_message(error)}
        )
    else:
        messages.success(
            request,
            _("%(name)s is now the game's starter. You can undo this in the history.")
            % {"name": to.get_full_name() or to.username},
        )
    return redirect("games:detail", public_id=game.public_id)


@require_POST
def delete(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _managed(request, public_id)
    try:
        request_id = _request_id(request)
    except ValueError:
        return _bad_request(request, game)
    if request.POST.get("confirm") != "1":
        context = {"game": game, "request_id": request_id or uuid.uuid4()}
        return render(request, "games/delete_confirm.html", context)
    try:
        game_delete(game=game, user=request.user, request_id=request_id)
    except EngineError as error:
        messages.error(request, _("The game was not deleted: %(reason)s") % {"reason": error_message(error)})
    else:
        messages.success(request, _("The game was deleted. You can bring it back with Undo below."))
    return redirect("games:detail", public_id=game.public_id)


def deleted_page(request: HttpRequest, game: Game) -> HttpResponse:
    """A deleted game's page: to its club's organisers, when and by whom, with Undo; to
    everyone else the game is gone (404)."""
    if not can_manage_game(request=request, game=game):
        raise Http404
    removal = game_removal(game=game)
    response = render(request, "games/deleted.html", {"game": game, "removal": removal})
    response["Cache-Control"] = "no-store"
    return response
