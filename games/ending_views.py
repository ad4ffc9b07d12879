"""A hand that ends the game says so before it is saved (docs/design/table.md, "Hand form and
new game").

Without JavaScript the first post of such a hand is not saved: the form comes back with the
notice and a "Save and end the game" button (which sends ``confirm_end=1``). With JavaScript the
notice is shown while the hand is filled in (:func:`hand_ending_preview`, htmx), and the Save
button then carries the confirmation itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.forms import HandForm
from games.models import Game
from games.selectors.games import game_by_public_id
from games.selectors.sheets import recent_sheet
from games.services.access import can_edit
from games.services.ending import Ending, hand_ending

CONFIRM_FIELD = "confirm_end"


def unconfirmed_ending(request: HttpRequest, game: Game, outcome: Mapping[str, object]) -> Ending | None:
    """How the game ends with this hand, unless the post confirmed it (then None: save)."""
    if request.POST.get(CONFIRM_FIELD) == "1":
        return None
    return hand_ending(sheet=recent_sheet(game=game), outcome=outcome)


def hand_ending_preview(request: HttpRequest, public_id: str) -> HttpResponse:
    """The notice for the new-hand form as filled in so far (GET with the form's fields):
    empty while the hand would not end the game, or cannot be scored yet."""
    game = game_by_public_id(public_id=public_id)
    if game is None or not can_edit(request=request, game=game):
        raise Http404
    sheet = recent_sheet(game=game)
    ending: Ending | None = None
    if not sheet.closed:
        players = sheet.players_before(len(sheet.rows) + 1)
        form = HandForm(request.GET, rules=sheet.rules, players=players, seating=sheet.players)
        outcome = form.outcome() if form.is_valid() else None
        if outcome is not None:
            ending = hand_ending(sheet=sheet, outcome=outcome)
    response = render(request, "games/_ending.html", {"ending": ending, "live": True})
    response["Cache-Control"] = "no-store"
    return response
