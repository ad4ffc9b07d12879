"""The rules page of a game (``/g/<id>/rules/``) and of a family with its usual rules
(``/rules/<family>/``): see games/text/rules.py for what it shows."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from engine.rules import OPTIONS, RuleSet, rule_set
from games.families import family_name
from games.models import Game
from games.selectors.games import game_by_public_id
from games.sheets.sheet import game_rules
from games.text.rules import rules_shown
from scoring.families import family_info


def _page(request: HttpRequest, rules: RuleSet, game: Game | None, hand_limit: int = 0) -> HttpResponse:
    shown = rules_shown(rules, hand_limit)
    context = {
        "game": game,
        "family": rules.family,
        "name": family_name(rules.family),
        "rules": shown.rules,
        "how": shown.how,
        "hand_limit": hand_limit,
        "lower_is_better": family_info(rules.family).lower_is_better,
        "tiles": family_info(rules.family).count == "tiles",
        "example_said": shown.example.said if shown.example is not None else "",
        "example_rows": shown.example.rows if shown.example is not None else [],
    }
    return render(request, "games/rules.html", context)


def game_rules_page(request: HttpRequest, public_id: str) -> HttpResponse:
    """The rules a game is played under: its house rules, how a hand scores, an example."""
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    return _page(request, game_rules(game=game), game, game.hand_limit)


def family_rules_page(request: HttpRequest, family: str) -> HttpResponse:
    """A family's usual rules (before a game is started)."""
    if family not in OPTIONS:
        raise Http404
    return _page(request, rule_set(family), None)
