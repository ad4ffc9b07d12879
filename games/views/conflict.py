"""Two phones, one hand: the screen shown when a new hand arrives for a place on the sheet that
another phone filled meanwhile (``hand_record(..., for_hand=N)`` raised ``hand_taken``).

Both versions are shown side by side, scored in that place, and the scorer chooses: keep
theirs (nothing is saved), replace theirs with mine (a correction of their hand, refused if it
changed again since this screen was drawn), or record mine as the next hand. What was typed
travels in hidden fields, so nothing is lost whichever way the screen is reached (htmx swaps it
into ``#game-body``; without JavaScript it is a page of its own, status 409).

The choices are plain forms posted to :func:`conflict_resolve`, which redirects to the score
sheet on success (with and without JavaScript alike) and draws the screen again when the
choice cannot be carried out (their hand changed again, yet another hand arrived...).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.forms import NewHandForm
from games.models import Game, Hand
from games.selectors.games import game_by_public_id
from games.selectors.sheets import game_sheet
from games.services.access import can_edit
from games.services.errors import HandGone, HandTaken, ServiceError, StaleEdit
from games.services.hands import hand_edit, hand_find, hand_record, hand_taken
from games.sheets.sheet import Sheet
from games.text.errors import error_message, write_refused
from games.web.input import read_json
from scoring.families import Role, family_info
from scoring.game import score_game

# The new-hand form's own fields that the screen sets itself (not carried from the post).
OWN_FIELDS = ("for_hand", "version")


@dataclass(frozen=True)
class Line:
    """One row of the side-by-side table: a question (who closed?) or a player, and each
    version's answer; ``points`` per version for a player's row (None if not scored)."""

    label: str
    theirs: str
    mine: str
    theirs_points: int | None = None
    mine_points: int | None = None
    player: bool = False


@dataclass(frozen=True)
class Theirs:
    hand: Hand
    ordinal: int


def _game(request: HttpRequest, public_id: str) -> Game:
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    if not can_edit(request=request, game=game):
        if game.results_locked:
            raise PermissionDenied(write_refused(game))
        raise PermissionDenied(_("Only the owner, or someone with the edit link, can change this game."))
    return game


def _count_text(outcome: Mapping[str, object], name: str) -> str:
    """What was typed for a player: the cards, or the points; '' if nothing (the closer)."""
    missing = outcome.get("missing")
    if isinstance(missing, list) and name in missing:
        return _("count missing")
    parts: list[str] = []
    for key in ("left", "deadwood", "hands"):
        counts = outcome.get(key)
        if isinstance(counts, Mapping) and name in counts:
            value = counts[name]
            parts.append(str(value) if isinstance(value, str) else _("%(points)s points") % {"points": value})
    laid = outcome.get("laid")
    if isinstance(laid, Mapping) and laid.get(name):
        parts.append(_("laid down %(value)s") % {"value": laid[name]})
    return "; ".join(parts)


def _lines(
    sheet: Sheet,
    players: Sequence[str],
    theirs: Mapping[str, object] | None,
    mine: Mapping[str, object],
    theirs_points: Mapping[str, int] | None,
    mine_points: Mapping[str, int] | None,
) -> list[Line]:
    info = family_info(sheet.rules.family)
    empty: Mapping[str, object] = {}
    other = theirs if theirs is not None else empty
    lines: list[Line] = []

    def role(outcome: Mapping[str, object], said: Role) -> str:
        name = outcome.get(said.name)
        return str(name) if name else (_(said.nobody) if said.nobody else "—")

    for said in info.words.roles:
        lines.append(Line(_(said.question), role(other, said) if theirs else "", role(mine, said)))
    for flag in info.words.flags:
        if flag.name in other or flag.name in mine:
            yes, no = _("yes"), _("no")
            lines.append(
                Line(
                    _(flag.label),
                    (yes if other.get(flag.name) else no) if theirs else "",
                    yes if mine.get(flag.name) else no,
                )
            )
    if other.get("melds") or mine.get("melds"):
        lines.append(Line(_("Knocker's melds"), str(other.get("melds") or ""), str(mine.get("melds") or "")))
    for name in players:
        lines.append(
            Line(
                name,
                _count_text(other, name),
                _count_text(mine, name),
                theirs_points.get(name) if theirs_points is not None else None,
                mine_points.get(name) if mine_points is not None else None,
                player=True,
            )
        )
    return lines


def _scored_in_place(sheet: Sheet, ordinal: int, mine: Mapping[str, object]) -> dict[str, int] | None:
    """My hand's points had it taken the place ``ordinal`` on the sheet (None if it does not
    score there: it is then refused whichever way it is recorded, with the reason)."""
    before = [row.hand.outcome for row in sheet.rows[: ordinal - 1]]
    try:
        state = score_game(
            rules=sheet.rules, players=list(sheet.players), hands=[*before, dict(mine)], ended=False
        )
    except EngineError:
        return None
    return dict(state.hands[-1].points)


def _posted(request: HttpRequest, form: NewHandForm) -> list[tuple[str, str]]:
    """The fields of my hand as posted (what was typed, the players it was typed for and my
    request id), to carry in hidden fields."""
    return [
        (form.add_prefix(name), value)
        for name in form.fields
        if name not in OWN_FIELDS
        for value in request.POST.getlist(form.add_prefix(name))
    ]


def _screen(
    request: HttpRequest,
    game: Game,
    form: NewHandForm,
    mine: Mapping[str, object],
    theirs: Theirs | None,
    notice: str = "",
) -> HttpResponse:
    """The conflict screen: #game-body for htmx, else a page of its own (409)."""
    sheet = game_sheet(game=game)
    if theirs is not None:
        row = next((r for r in sheet.rows if r.hand.number == theirs.hand.number), None)
        ordinal = row.ordinal if row is not None else theirs.ordinal
        theirs_points = dict(zip(sheet.players, row.points, strict=True)) if row is not None else None
        mine_points = _scored_in_place(sheet, ordinal, mine)
        players = sheet.players_before(ordinal)
        title = error_message(HandTaken(hand=ordinal))
    else:
        ordinal = len(sheet.rows) + 1
        theirs_points = None
        mine_points = _scored_in_place(sheet, ordinal, mine)
        players = sheet.players_before(ordinal)
        title = _("Your hand was not saved yet")
    context = {
        "game": game,
        "title": title,
        "notice": notice,
        "theirs": theirs,
        "ordinal": ordinal,
        "next_ordinal": len(sheet.rows) + 1,
        "next_number": game.next_hand_number,
        "can_add": not sheet.closed and not game.ended,
        # Mine was typed for the players dealt in next (else their hand put one out: replace only).
        "fits_next": _typed_for(request, form) in (None, sheet.dealt_in_next),
        "lines": _lines(
            sheet, players, theirs.hand.outcome if theirs else None, mine, theirs_points, mine_points
        ),
        "fields": _posted(request, form),
    }
    if getattr(request, "htmx", False):  # django-htmx's middleware: an htmx request
        return render(request, "games/_conflict.html", context)
    return render(request, "games/conflict.html", context, status=409)


def _typed_for(request: HttpRequest, form: NewHandForm) -> list[str] | None:
    """The players my hand was typed for (its hidden ``dealt_in``)."""
    try:
        names = read_json(request.POST.get(form.add_prefix("dealt_in"), ""))
    except ValueError:
        return None
    return names if isinstance(names, list) else None


def _theirs(game: Game, number: object) -> Theirs | None:
    if not isinstance(number, int):
        return None
    try:
        hand, ordinal = hand_find(game=game, number=number)
    except (Hand.DoesNotExist, ServiceError):
        return None
    return Theirs(hand, ordinal)


def conflict_page(
    request: HttpRequest, game: Game, form: NewHandForm, mine: Mapping[str, object], error: EngineError
) -> HttpResponse:
    """The answer to a new hand whose place was taken (``error``: the ``hand_taken`` raised)."""
    game.refresh_from_db()
    return _screen(request, game, form, mine, _theirs(game, error.params.get("number")))


def _number(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


@require_POST
def conflict_resolve(request: HttpRequest, public_id: str) -> HttpResponse:
    """Carry out the choice made on the conflict screen: ``choice=replace`` corrects their
    hand (``taken``, at the ``version`` shown) with mine; ``choice=next`` records mine as the
    next hand (``for_hand``: the next number when the screen was drawn)."""
    game = _game(request, public_id)
    choice = request.POST.get("choice")
    taken = _number(request.POST.get("taken", ""))
    if choice not in ("replace", "next"):
        message = _(
            "Part of the form was damaged on its way, so nothing was changed. Reload the page and try again."
        )
        return render(request, "games/bad_request.html", {"game": game, "message": message}, status=400)
    theirs = _theirs(game, taken)
    sheet = game_sheet(game=game)
    if choice == "replace" and theirs is not None:
        players = sheet.players_before(theirs.ordinal)
    else:
        players = sheet.dealt_in_next
    form = NewHandForm(
        request.POST,
        rules=sheet.rules,
        players=players,
        seating=sheet.players,
        initial={"request_id": uuid.uuid4()},
    )
    if not form.is_valid() or (mine := form.outcome()) is None:
        errors = [str(e) for e in form.non_field_errors()] or [str(e) for field in form for e in field.errors]
        return _screen(request, game, form, _as_typed(request, form, sheet), theirs, " ".join(errors))
    if choice == "replace":
        return _replace(request, game, form, mine, theirs)
    try:
        saved = hand_record(
            game=game,
            outcome=mine,
            request_id=form.cleaned_data["request_id"],
            user=request.user,
            for_hand=form.cleaned_data["for_hand"],
        )
    except HandTaken as taken:
        game.refresh_from_db()
        notice = _("Another hand was recorded meanwhile. Check it and choose again.")
        return _screen(request, game, form, mine, _theirs(game, taken.params.get("number")), notice)
    except EngineError as error:
        game.refresh_from_db()
        return _screen(request, game, form, mine, theirs, error_message(error))
    _hand, ordinal = hand_find(game=game, number=saved.hand.number)
    messages.success(request, _("Your hand was recorded as hand %(number)s.") % {"number": ordinal})
    return redirect("games:detail", public_id=game.public_id)


def _replace(
    request: HttpRequest, game: Game, form: NewHandForm, mine: dict[str, object], theirs: Theirs | None
) -> HttpResponse:
    if theirs is None:
        notice = _("The other hand was deleted meanwhile. You can record yours as the next hand.")
        return _screen(request, game, form, mine, None, notice)
    try:
        hand_edit(hand=theirs.hand, outcome=mine, version=form.cleaned_data["version"], user=request.user)
    except StaleEdit as stale:
        if stale.current == mine:  # a second tap: the first one replaced it already
            return _replaced(request, game, theirs)
        game.refresh_from_db()
        notice = _(
            "Hand %(number)s was changed again on another phone meanwhile, so nothing was saved. "
            "Its values now are shown below: choose again."
        ) % {"number": theirs.ordinal}
        return _screen(request, game, form, mine, _theirs(game, theirs.hand.number), notice)
    except HandGone:
        game.refresh_from_db()
        notice = _("The other hand was deleted meanwhile. You can record yours as the next hand.")
        return _screen(request, game, form, mine, None, notice)
    except EngineError as error:
        game.refresh_from_db()
        return _screen(request, game, form, mine, theirs, error_message(error))
    return _replaced(request, game, theirs)


def _replaced(request: HttpRequest, game: Game, theirs: Theirs) -> HttpResponse:
    messages.success(
        request, _("Hand %(number)s now holds your values (a correction).") % {"number": theirs.ordinal}
    )
    return redirect("games:detail", public_id=game.public_id)


def _typed_form(request: HttpRequest, form: NewHandForm, sheet: Sheet) -> NewHandForm | None:
    """The form read for the players it was typed for, when it no longer fits the game
    (another hand put a player out or brought one back); None if that list is not the game's."""
    shown = form.shown_with
    if shown is None or not set(shown) <= set(sheet.players):
        return None
    return NewHandForm(request.POST, rules=sheet.rules, players=shown, seating=sheet.players)


def _as_typed(request: HttpRequest, form: NewHandForm, sheet: Sheet) -> dict[str, object]:
    """My hand as typed, for showing it when the form was refused (its players changed, or a
    hidden field was damaged): read for the players it was typed for, without the hidden
    fields that may be damaged. Empty if even that cannot be read."""
    players = form.shown_with if form.shown_with is not None else form.players
    if not set(players) <= set(sheet.players):
        return {}
    data = request.POST.copy()
    for name in (*OWN_FIELDS, "request_id", "dealt_in"):
        data.pop(form.add_prefix(name), None)
    typed = NewHandForm(data, rules=sheet.rules, players=players, seating=sheet.players)
    return (typed.outcome() or {}) if typed.is_valid() else {}


def conflict_before_check(request: HttpRequest, game: Game, form: NewHandForm) -> HttpResponse | None:
    """The conflict screen for a new hand refused only because its players changed, when what
    changed them is a hand recorded meanwhile in its very place (their hand put a player out):
    mine still fits that place, so replacing theirs is offered. None otherwise (the form is
    then shown again with its message, as before)."""
    for_hand = _number(str(request.POST.get(form.add_prefix("for_hand"), "")))
    if form.shown_with is None or for_hand is None:
        return None
    taken = hand_taken(game=game, for_hand=for_hand)
    if taken is None:
        return None
    sheet = game_sheet(game=game)
    typed = _typed_form(request, form, sheet)
    if typed is None or not typed.is_valid() or (mine := typed.outcome()) is None:
        return None
    return _screen(request, game, typed, mine, Theirs(*taken))
