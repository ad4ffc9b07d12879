"""Entering hands on a game's pages: a new hand, a correction, a deletion, the counts hands
miss, and the helpers a hand's form calls while it is filled in (a meld check, a count).
The page these answer with is drawn by games.views.games."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine import notation, values
from engine.errors import EngineError
from engine.laydown import check_laydown
from games.forms import HandForm, MissingCountsForm, NewHandForm
from games.models import Game, Hand
from games.selectors.after_save import corrected_line, correction_moves_settlement, saved_line
from games.selectors.sheets import game_sheet, game_table, recent_sheet
from games.services.errors import HandGone, HandTaken, ServiceError, StaleEdit
from games.services.hands import Fill, counts_fill, hand_delete, hand_edit, hand_find, hand_record
from games.sheets.sheet import Sheet, game_rules
from games.text.errors import error_message
from games.views.after_save import remember_saved
from games.views.conflict import conflict_before_check, conflict_page
from games.views.ending import confirmed, ending_refused
from games.views.games import HtmxHttpRequest, _detail_context, _game, _writable
from scoring.families import family_info


@require_POST
def hand_create(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _writable(request, public_id)
    table = game_table(game=game)
    form = NewHandForm(
        request.POST,
        rules=table.rules,
        players=table.dealt_in,
        seating=table.seating,
        initial={"request_id": uuid.uuid4()},
    )
    if form.shown_with is not None and (taken := conflict_before_check(request, game, form)) is not None:
        return taken  # another phone's hand took this place and changed who is dealt in
    ending = None  # the hand ends the game: said first, saved once confirmed (ending_views)
    if form.is_valid():
        outcome = form.outcome()
        if outcome is not None:
            try:
                saved = hand_record(
                    game=game,
                    outcome=outcome,
                    request_id=form.cleaned_data["request_id"],
                    user=request.user,
                    for_hand=form.cleaned_data["for_hand"],
                    confirm_end=confirmed(request),
                )
            except HandTaken as taken:  # another phone recorded this hand meanwhile
                return conflict_page(request, game, form, outcome, taken)
            except EngineError as error:
                ending = ending_refused(error)
                if ending is None:
                    form.add_engine_error(error)
            else:
                # Say what was saved, with an Undo (docs/design/table.md, "After a save").
                sheet = recent_sheet(game=game, scored=saved.sheet)  # a resend scored nothing
                line = saved_line(sheet=sheet, number=saved.hand.number, change_id=saved.change_id)
                if request.htmx:
                    context = _detail_context(request, game, sheet=sheet)
                    context["saved"] = line
                    # The end button sits outside the sheet: a hand that ends the game takes
                    # "End the game now" away with it (an out-of-band swap).
                    body = render_to_string("games/detail.html#game-body", context, request)
                    end = render_to_string("games/detail.html#game-end", {**context, "oob": True}, request)
                    return HttpResponse(body + end)
                if line is not None:
                    remember_saved(request, line)
                return redirect("games:detail", public_id=game.public_id)
    template = "games/detail.html#game-body" if request.htmx else "games/detail.html"
    return render(request, template, {**_detail_context(request, game, form), "ending": ending})


def _hand(game: Game, number: int) -> tuple[Hand, int]:
    """The hand and its place on the sheet; 404 for a number the game never had. A deleted
    hand raises ServiceError ``hand_gone``, which the views answer with :func:`_gone`."""
    try:
        return hand_find(game=game, number=number)
    except Hand.DoesNotExist:
        raise Http404 from None


def _gone(request: HtmxHttpRequest, game: Game, error: EngineError) -> HttpResponse:
    """Back to the score sheet, saying the hand was deleted (by another phone, or a double tap)."""
    messages.error(request, error_message(error))
    return redirect("games:detail", public_id=game.public_id)


def hand_edit_view(request: HtmxHttpRequest, public_id: str, number: int) -> HttpResponse:
    game = _writable(request, public_id)
    try:
        hand, ordinal = _hand(game, number)
    except ServiceError as gone:
        return _gone(request, game, gone)
    sheet = game_sheet(game=game)
    players = sheet.players_before(ordinal)
    kept = hand.outcome.get("missing") or []  # counts missing in this hand may stay missing
    notice = ""
    if request.method == "POST":
        form = HandForm(request.POST, rules=sheet.rules, players=players, seating=sheet.players, missing=kept)
        if form.is_valid():
            outcome = form.outcome()
            if outcome is not None:
                if request.POST.get("confirm") != "1" and (
                    moves := correction_moves_settlement(sheet=sheet, number=number, outcome=outcome)
                ):
                    # An ended game's settlement may have been paid: said first, saved once confirmed.
                    posted = [
                        (k, v)
                        for k, values in request.POST.lists()
                        if k != "csrfmiddlewaretoken"
                        for v in values
                    ]
                    context = {
                        "game": game,
                        "hand": hand,
                        "ordinal": ordinal,
                        "moves": moves,
                        "posted": posted,
                    }
                    return render(request, "games/hand_edit_confirm.html", context)
                try:
                    edited = hand_edit(
                        hand=hand, outcome=outcome, version=form.cleaned_data["version"], user=request.user
                    )
                except StaleEdit as stale:
                    hand.refresh_from_db()
                    initial = {
                        **HandForm.initial_from(stale.current or {}, sheet.players, sheet.rules),
                        "version": hand.version,
                    }
                    form = HandForm(
                        rules=sheet.rules,
                        players=players,
                        seating=sheet.players,
                        initial=initial,
                        missing=hand.outcome.get("missing") or [],
                    )
                    notice = error_message(stale)
                except HandGone as gone:
                    return _gone(request, game, gone)
                except EngineError as error:
                    form.add_engine_error(error)
                else:
                    if edited.version == hand.version:  # the same hand sent again: nothing changed
                        messages.success(request, _("Hand %(number)s corrected.") % {"number": ordinal})
                    else:  # say what the correction changed, with its Undo, as after a new hand
                        after = game_sheet(game=game)
                        remember_saved(
                            request, corrected_line(before=sheet, after=after, number=number, ordinal=ordinal)
                        )
                    return redirect("games:detail", public_id=game.public_id)
    else:
        initial = {**HandForm.initial_from(hand.outcome, sheet.players, sheet.rules), "version": hand.version}
        form = HandForm(
            rules=sheet.rules, players=players, seating=sheet.players, initial=initial, missing=kept
        )
    context = {
        "game": game,
        "hand": hand,
        "ordinal": ordinal,
        "form": form,
        "notice": notice,
        "rules": sheet.rules,
    }
    return render(request, "games/hand_edit.html", context)


@require_POST
def hand_delete_view(request: HtmxHttpRequest, public_id: str, number: int) -> HttpResponse:
    game = _writable(request, public_id)
    try:
        hand, ordinal = _hand(game, number)
    except ServiceError as gone:
        return _gone(request, game, gone)
    raw_version = request.POST.get("version", "")
    version = (
        int(raw_version)
        if raw_version.isascii() and raw_version.isdigit() and len(raw_version) < 10
        else None
    )
    try:
        hand_delete(hand=hand, version=version, user=request.user)
    except HandGone as gone:
        return _gone(request, game, gone)
    except EngineError as error:
        reason = error_message(error)
        messages.error(
            request, _("Hand %(number)s was not deleted: %(reason)s") % {"number": ordinal, "reason": reason}
        )
        return redirect("games:hand_edit", public_id=game.public_id, number=number)
    messages.success(
        request, _("Hand %(number)s deleted. You can undo this in the history.") % {"number": ordinal}
    )
    return redirect("games:detail", public_id=game.public_id)


def _fill_forms(sheet: Sheet) -> list[MissingCountsForm]:
    """A form for each hand that misses counts, as the sheet stands."""
    return [
        MissingCountsForm(
            number=row.hand.number,
            rules=sheet.rules,
            players=row.missing_players,
            seating=sheet.players,
            initial={"version": row.hand.version},
        )
        for row in sheet.rows
        if row.missing_players
    ]


def _posted_fill_forms(request: HtmxHttpRequest, sheet: Sheet) -> list[MissingCountsForm] | None:
    """The forms as they were posted (the hands and players they were shown with); None when
    that list is unreadable or names a hand the game no longer has."""
    raw = request.POST.get("hands", "").split(",")
    if not all(n.isascii() and n.isdigit() and len(n) < 10 for n in raw) or len(raw) > 500:
        return None
    hands = {row.hand.number for row in sheet.rows}
    forms: list[MissingCountsForm] = []
    for number in map(int, raw):
        players = MissingCountsForm.shown(request.POST, number)
        if number not in hands or not players or not set(players) <= set(sheet.players):
            return None
        forms.append(
            MissingCountsForm(
                request.POST, number=number, rules=sheet.rules, players=players, seating=sheet.players
            )
        )
    return forms


def missing_counts(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """One page to fill in the counts that hands miss (a correction brought back a player who
    had dropped out): a field per hand and missing player, one save. Each hand filled is a
    correction of its own in the history, so each can be undone."""
    game = _writable(request, public_id)
    sheet = game_sheet(game=game)
    notice = ""
    if request.method != "POST":
        forms = _fill_forms(sheet)
    elif (posted := _posted_fill_forms(request, sheet)) is None:
        notice = _("The hands that miss counts changed meanwhile. Check the counts and save again.")
        forms = _fill_forms(sheet)
    else:
        forms = posted
        valid = [form.is_valid() for form in forms]
        fills: dict[int, Fill] = {}
        for form in forms if all(valid) else []:
            left, laid = form.filled()
            if left:
                fills[form.number] = Fill(form.cleaned_data["version"], left, laid)
        if all(valid) and not fills:
            notice = _("Enter at least one count.")
        elif fills:
            try:
                counts_fill(game=game, fills=fills, user=request.user)
            except StaleEdit as stale:
                notice = error_message(stale)
                sheet = game_sheet(game=game)
                forms = _fill_forms(sheet)
            except HandGone as gone:
                return _gone(request, game, gone)
            except EngineError as error:
                shown = error.params.get("hand")  # the hand as the sheet shows it
                number = next((row.hand.number for row in sheet.rows if row.ordinal == shown), None)
                target = next((f for f in forms if f.number == number), None)
                if target is not None and error.params.get("player") in target.seat:
                    target.add_engine_error(error)
                else:
                    notice = error_message(error)
            else:
                filled = sum(len(fill.left) for fill in fills.values())
                messages.success(request, ngettext("Count saved.", "Counts saved.", filled))
                return redirect("games:detail", public_id=game.public_id)
    rows = {row.hand.number: row for row in sheet.rows}
    context = {
        "game": game,
        "rules": sheet.rules,
        "entries": [(form, rows[form.number]) for form in forms if form.number in rows],
        "numbers": ",".join(str(form.number) for form in forms),
        "notice": notice,
    }
    return render(request, "games/missing_counts.html", context)


def meld_check(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Check the melds a player declares against this game's house rules."""
    game = _game(public_id)
    rules = game_rules(game=game)
    text = request.POST.get("melds", "") if request.method == "POST" else request.GET.get("melds", "")
    opening = (request.POST if request.method == "POST" else request.GET).get("opening") == "1"
    result: dict[str, object] | None = None
    if text.strip():
        try:
            melds = notation.parse_melds(text, rules, notation.notation_for(get_language()))
            laydown = check_laydown(melds, rules, opening=opening)
        except EngineError as error:
            result = {"ok": False, "error": error_message(error)}
        else:
            result = {
                "ok": True,
                "points": laydown.points,
                "melds": [
                    {
                        "kind": meld.kind,
                        "cards": [notation.display(c, rules) for c in meld.cards],
                        "jokers": [notation.display(c, rules) for c in meld.jokers.values()],
                        "points": meld.points,
                    }
                    for meld in laydown.melds
                ],
            }
    context = {
        "game": game,
        "rules": rules,
        "family": family_info(game.family),
        "text": text,
        "opening": opening,
        "result": result,
    }
    template = "games/check.html#result" if request.htmx else "games/check.html"
    return render(request, template, context)


def count(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The value of the cards typed or tapped for one player (htmx, while entering a hand)."""
    game = _game(public_id)
    rules = game_rules(game=game)
    # cards_<seat>, or h<hand>-cards_<seat> on the page that fills in missing counts
    text = next((str(v) for k, v in request.GET.items() if k.rpartition("-")[2].startswith("cards_")), "")
    context: dict[str, object] = {"text": text}
    if text.strip():
        try:
            cards = notation.parse_hand(text, rules, notation.notation_for(get_language()))
        except EngineError as error:
            context["error"] = error_message(error)
        else:
            context["points"] = values.hand_value(cards, rules)
            context["cards"] = [(notation.display(c, rules), c.suit, c.is_joker) for c in cards]
    return render(request, "games/_count.html", context)
