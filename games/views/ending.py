"""A hand that ends the game says so before it is saved (docs/design/table.md, "Hand form and
new game").

Without JavaScript the first post of such a hand is not saved: the form comes back with the
notice and a "Save and end the game" button (which sends ``confirm_end=1``). With JavaScript the
notice is shown while the hand is filled in (:func:`hand_ending_preview`, htmx), and the Save
button then carries the confirmation itself.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from engine.errors import EngineError
from games.forms import HandForm
from games.selectors.games import game_by_public_id
from games.selectors.sheets import recent_sheet
from games.services.access import can_edit
from games.services.ending import Ending, hand_ending
from games.services.errors import EndUnconfirmed

CONFIRM_FIELD = "confirm_end"


def confirmed(request: HttpRequest) -> bool:
    """Whether the post confirmed that its hand may end the game (the notice's button, or Save
    relabelled by the preview)."""
    return request.POST.get(CONFIRM_FIELD) == "1"


def ending_refused(error: EngineError) -> Ending | None:
    """The notice for a save refused only because its hand ends the game unconfirmed
    (``hand_record(confirm_end=False)``); None for any other error."""
    if not isinstance(error, EndUnconfirmed):
        return None
    winners = error.params.get("winners")
    names = tuple(str(name) for name in winners) if isinstance(winners, list) else ()
    return Ending(reason=str(error.params.get("reason")), winners=names)


def hand_ending_preview(request: HttpRequest, public_id: str) -> HttpResponse:
    """The notice for the new-hand form as filled in so far (GET with the form's fields):
    empty while the hand would not end the game, or cannot be scored yet."""
    game = game_by_public_id(public_id=public_id)
    if game is None or not can_edit(request=request, game=game):
        raise Http404
    sheet = recent_sheet(game=game)
    ending: Ending | None = None
    if not sheet.closed:
        players = sheet.dealt_in_next
        form = HandForm(request.GET, rules=sheet.rules, players=players, seating=sheet.players)
        outcome = form.outcome() if form.is_valid() else None
        if outcome is not None:
            ending = hand_ending(sheet=sheet, outcome=outcome)
    response = render(request, "games/_ending.html", {"ending": ending, "live": True})
    response["Cache-Control"] = "no-store"
    return response
