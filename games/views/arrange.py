"""Arrange a hand (``g/<id>/arrange/``): tap or type a whole hand and see the engine's best
arrangement under this game's house rules, so a dispute over a count or a knock ends at the
table. Nothing is written: a GET form that works without JavaScript (docs/design/cards.md)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.errors import EngineError
from engine.notation import notation_for
from games.selectors.games import game_by_public_id
from games.sheets.sheet import game_rules
from games.solver import MAX_TEXT, TooManyCards, advise
from games.text import cards as card_names
from games.text.errors import error_message


def arrange_page(request: HttpRequest, public_id: str) -> HttpResponse:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    rules = game_rules(game=game)
    text = request.GET.get("hand", "")[:MAX_TEXT]
    context: dict[str, object] = {"game": game, "rules": rules, "text": text, "advice": None, "error": None}
    if text.strip():
        try:
            advice = advise(text, rules, notation_for(get_language()))
        except EngineError as error:
            context["error"] = error_message(error)
        except TooManyCards as error:
            context["error"] = _("At most %(maximum)d cards or tiles.") % {"maximum": error.maximum}
        else:
            context["advice"] = advice
            context["hand"] = card_names.chips(advice.cards, rules)
            arrangement = advice.arrangement
            context["melds"] = [card_names.chips(meld, rules) for meld in arrangement.melds]
            context["deadwood"] = card_names.chips(arrangement.deadwood, rules)
            knock = advice.knock
            if knock is not None and knock.discard is not None:
                context["discard"] = card_names.chips([knock.discard], rules)
                context["knock_melds"] = [card_names.chips(meld, rules) for meld in knock.melds]
                context["knock_deadwood"] = card_names.chips(knock.deadwood, rules)
            if advice.opening is not None:
                opening = advice.opening
                context["opening_melds"] = [
                    (card_names.chips(m, rules), points) for m, points in opening.melds
                ]
                context["opening_reason"] = (
                    _("the first laydown needs a run without a joker.")
                    if opening.error is not None and opening.error.params.get("reason") == "no_pure_run"
                    else None
                )
    return render(request, "games/arrange.html", context)
