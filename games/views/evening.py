"""The whole evening's settlement page: the games of one table's evening settled at once, and
for its scorekeepers the games they may put in it (or take out again)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from engine.errors import EngineError
from games.forms import EveningForm
from games.selectors.evening import evening_candidates, evening_of
from games.selectors.games import game_by_public_id
from games.services.access import can_edit
from games.services.evening import evening_join, evening_part
from games.text.errors import error_message


def _change(request: HttpRequest, game_id: str) -> HttpResponse:
    game = game_by_public_id(public_id=game_id)
    if game is None:
        raise Http404
    form = EveningForm(request.POST)
    other = game_by_public_id(public_id=form.cleaned_data["game"]) if form.is_valid() else None
    if other is None or not can_edit(request=request, game=game) or not can_edit(request=request, game=other):
        messages.error(request, _("You cannot change this game's evening."))
        return redirect("games:evening", public_id=game.public_id)
    joining = form.cleaned_data["action"] == "join"
    write = evening_join if joining else evening_part
    try:
        write(game=game, other=other, user=request.user, request_id=form.cleaned_data["request_id"])
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        when = date_format(timezone.localtime(other.played_at), "SHORT_DATETIME_FORMAT")
        done = (
            _("The game of %(when)s is settled in this evening now.")
            if joining
            else _("The game of %(when)s is out of this evening.")
        )
        messages.success(request, done % {"when": when})
    return redirect("games:evening", public_id=game.public_id)


def evening(request: HttpRequest, public_id: str) -> HttpResponse:
    if request.method == "POST":
        return _change(request, public_id)
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    found = evening_of(game=game)
    if found is None:
        raise Http404
    editable = can_edit(request=request, game=game)
    offered = evening_candidates(evening=found) if editable else []
    candidates = [g for g in offered if can_edit(request=request, game=g)]
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
    context = {
        "game": game,
        "evening": found,
        "settled": settled,
        "rows": rows,
        "editable": editable,
        "candidates": candidates,
    }
    return render(request, "games/evening.html", context)
