"""Game pages: the list, a new game, the score sheet (with its new-hand form), the history, the
end and settlement of the evening, and the edit link; entering hands is games.views.hand_entry.
Reads come from games.selectors, writes from games.services, who may do what from
games.services.access; what stays here is drawing the page and its ETag (an unchanged page
answers 304).

Every form works without JavaScript (post, redirect, get); with htmx the same views answer
with just the part of the page that changed.
"""

from __future__ import annotations

import hashlib
import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from engine.errors import EngineError
from engine.rules import OPTIONS
from games.extensions import panels
from games.families import family_table
from games.forms import HandForm, NewGameForm, NewHandForm
from games.models import Change, Game
from games.selectors.after_save import undo_asks, undo_preview
from games.selectors.clubs import club_recorders, recording_clubs
from games.selectors.evening import evening_of
from games.selectors.games import (
    game_by_public_id,
    game_change,
    game_rows,
    game_to_revalidate,
    user_club_roles,
    user_games,
)
from games.selectors.players import recent_players
from games.selectors.sheets import game_history, game_sheet, recent_sheet
from games.services.access import (
    Role,
    can_edit,
    can_manage_game,
    can_rematch,
    can_renew_link,
    can_view_club,
    club_role,
    edit_url,
    grant_edit,
    role_allows,
    session_game_ids,
    token_matches,
)
from games.services.games import edit_link_renew, game_end, game_start
from games.services.hands import change_undo
from games.services.players import similar_players
from games.sheets.cache import FIELDS, PARTS, sheet_version
from games.sheets.etag import csrf_secret, live_etag
from games.sheets.sheet import Sheet
from games.text.errors import error_message, write_refused
from games.views.after_save import saved_from_messages
from games.views.manage import deleted_page
from games.web.links import ShareLinks, site_url
from games.web.release import release_id
from games.web.round_clock import clock_tag, round_clock
from scoring.families import family_info


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _game(public_id: str, *, deleted: bool = False) -> Game:
    """The game (404 if there is none; also if it was deleted, unless ``deleted``)."""
    game = game_by_public_id(public_id=public_id, deleted=deleted)
    if game is None:
        raise Http404
    return game


def _to_revalidate(public_id: str, *, deleted: bool = False) -> Game:
    """The game as a page's ETag check reads it (selectors.games.game_to_revalidate)."""
    game = game_to_revalidate(public_id=public_id, deleted=deleted)
    if game is None:
        raise Http404
    return game


def _writable(request: HtmxHttpRequest, public_id: str) -> Game:
    game = _game(public_id)
    if not can_edit(request=request, game=game):
        raise PermissionDenied(write_refused(game))
    return game


def _manages(game: Game, role: str | None) -> bool:
    """The viewer (whose role in the game's club is ``role``) organises the game's club."""
    return game.club_id is not None and role_allows(role, Role.ORGANISER)


def _new_hand_form(sheet: Sheet, data: QueryDict | None = None) -> HandForm:
    players = sheet.dealt_in_next
    initial = {"request_id": uuid.uuid4(), "for_hand": sheet.game.next_hand_number}
    return NewHandForm(data, rules=sheet.rules, players=players, seating=sheet.players, initial=initial)


def game_list(request: HtmxHttpRequest) -> HttpResponse:
    games = user_games(user=request.user, game_ids=session_game_ids(request=request))
    roles = user_club_roles(user=request.user)
    admin = request.user.is_authenticated and request.user.is_superuser
    rows = []
    for row in game_rows(games):
        role = "organiser" if admin else roles.get(row.game.club_id or 0)
        rows.append((row, can_rematch(request=request, game=row.game, role=role, known=True)))
    return render(request, "games/list.html", {"rows": rows, "rematch_request_id": uuid.uuid4()})


def game_new(request: HtmxHttpRequest) -> HttpResponse:
    club = request.GET.get("club", "")
    return render(request, "games/new.html", {"families": family_table(), "club": club[:50]})


def game_new_family(request: HtmxHttpRequest, family: str) -> HttpResponse:
    if family not in OPTIONS:
        raise Http404
    clubs = recording_clubs(user=request.user) if request.user.is_authenticated else []
    data = request.POST if request.method == "POST" else None
    wanted = (data or request.GET).get("club", "")
    club = next((c for c in clubs if c.slug == wanted), None)
    form = NewGameForm(data, family=family, clubs=clubs, initial={"club": club.slug if club else ""})
    if data is not None and form.is_valid():
        names = form.players()
        alike = similar_players(club=club, owner=request.user, names=names)
        if form.ask_did_you_mean(alike):
            pass  # shown once at the seats; saving again creates the new players
        else:
            try:
                game = game_start(
                    family=family,
                    options=form.options(),
                    players=names,
                    owner=request.user,
                    first_dealer=form.first_dealer(),
                    club=club,
                    played_at=form.cleaned_data.get("played_at"),
                )
            except EngineError as error:
                form.add_engine_error(error)
            else:
                grant_edit(request=request, game=game, started=True)
                return redirect("games:detail", public_id=game.public_id)
    recent = recent_players(club=club, user=request.user, game_ids=session_game_ids(request=request))
    context = {"form": form, "family": family, "recent": recent, "club": club, "clubs": clubs}
    return render(request, "games/new_family.html", context)


def _sheet_parts(sheet: Sheet, editable: bool) -> tuple[tuple[object, ...], dict[str, SafeString]]:
    """The totals, table and chart as drawn (sheet_cache.PARTS), with their key."""

    def draw() -> dict[str, SafeString]:
        context = {"game": sheet.game, "sheet": sheet, "editable": editable}
        names = ("totals", "sheet", "chart")  # chart: games/sheets/charts.py
        return {name: render_to_string(f"games/_{name}.html", context) for name in names}

    key = (*sheet_version(sheet.game), editable, get_language())
    return key, PARTS.get_or_make(key, draw)


def _viewer(request: HtmxHttpRequest, game: Game) -> tuple[str | None, bool]:
    """The user's role in the game's club (1 query for a member of a club's game) and whether
    he may record hands."""
    role = club_role(user=request.user, club=game.club) if game.club is not None else None
    return role, can_edit(request=request, game=game, role=role)


def _etag(request: HtmxHttpRequest, game: Game, *parts: object) -> str | None:
    """The ETag of a game's page as this viewer gets it, or None when the page must be drawn
    anew (messages are waiting to be shown). It changes with every write to the game (its
    ``updated_at``), and with whatever else the page shows: who asks and what he may do, the
    language, the CSRF cookie the forms' tokens come from, the owner's and the club's names."""
    if len(messages.get_messages(request)):  # type: ignore[arg-type]
        return None
    owner = game.owner
    club = game.club
    seen = (
        release_id(),
        *sheet_version(game),
        request.user.pk,
        get_language(),
        csrf_secret(request),
        owner and (owner.username, owner.first_name),
        club and (club.slug, club.name, club.visibility, club.version),
        *parts,
    )
    return '"' + hashlib.sha256(repr(seen).encode()).hexdigest()[:32] + '"'


def _not_modified(request: HtmxHttpRequest, etag: str | None) -> bool:
    # META, not request.headers: that builds a dict of every header on first use, which was a
    # tenth of a 304's own time (every phone at the table polls this).
    wanted = request.META.get("HTTP_IF_NONE_MATCH", "")
    return etag is not None and etag in (tag.strip().removeprefix("W/") for tag in wanted.split(","))


def _with_etag(response: HttpResponse, etag: str | None, editable: bool) -> HttpResponse:
    """An editor's page shows the edit link: never stored (the answer to a poller that sends
    its ETag itself can still be 304). Anyone else's may be kept and asked for again."""
    if etag is not None:
        response["ETag"] = etag
    if editable:
        add_never_cache_headers(response)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


# What the new-hand form's button says on the score sheet.
SAVE_HAND = gettext_lazy("Save hand")


def _form_fields(sheet: Sheet, form: HandForm) -> tuple[tuple[object, ...], SafeString]:
    """The new-hand form's fields as drawn (sheet_cache.FIELDS), with their key."""
    rules = sheet.rules
    key = (
        sheet.game.public_id,  # the game (its address is in the fields)
        rules.family,
        tuple(sorted(rules.options.items())),
        tuple(form.players),
        tuple(sheet.players),
        get_language(),
    )

    def draw() -> SafeString:
        context = {"form": form, "rules": rules, "game": sheet.game, "htmx": True, "submit_label": SAVE_HAND}
        return render_to_string("games/_hand_form_fields.html", context)

    return key, FIELDS.get_or_make(key, draw)


def _detail_context(
    request: HtmxHttpRequest,
    game: Game,
    form: HandForm | None = None,
    sheet: Sheet | None = None,
    viewer: tuple[str | None, bool] | None = None,
) -> dict[str, object]:
    """The score sheet page; ``sheet`` when the caller already scored the game as it stands."""
    sheet = sheet or recent_sheet(game=game)
    role, editable = viewer or _viewer(request, game)
    finished = sheet.closed  # an end condition is met: no more hands, even with counts missing
    fields = None
    if editable and form is None and not finished:
        form = _new_hand_form(sheet)
        fields = _form_fields(sheet, form)
    parts = _sheet_parts(sheet, editable)
    club = game.club if game.club is not None and can_view_club(club=game.club, role=role) else None
    manage = _manages(game, role)
    return {
        # A club's organisers: give the game another starter, delete it (games/views/manage.py).
        "manage": manage,
        "recorders": club_recorders(club=game.club, besides=game.owner_id) if manage and game.club else [],
        "deletable": manage and not (game.event_path or game.event_name),
        "manage_request_id": uuid.uuid4(),
        "game": game,
        "sheet": sheet,
        "parts": parts[1],
        "live_etag": live_etag(request, sheet.game, role, editable),  # games/views/polling.py
        "editable": editable,
        "form": form,
        "form_fields": fields and fields[1],
        "save_label": SAVE_HAND,
        "rules": sheet.rules,
        "club": club,
        # Only for those who may write: the link carries the token.
        "edit_url": edit_url(game) if editable else None,
        "share": ShareLinks(request, game, editable=editable),  # templates/games/_share.html
        "can_renew_link": editable
        and not game.results_locked
        and can_renew_link(request=request, game=game, role=role),
        "can_rematch": can_rematch(request=request, game=game, role=role, known=True),
        "rematch_request_id": uuid.uuid4(),
        "end_request_id": uuid.uuid4(),
        "renew_request_id": uuid.uuid4(),
    }


def game_detail(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _to_revalidate(public_id, deleted=True)
    if game.deleted_at is not None:
        return deleted_page(request, _game(public_id, deleted=True))
    role, editable = _viewer(request, game)
    renew = editable and can_renew_link(request=request, game=game, role=role)
    visible = game.club is not None and can_view_club(club=game.club, role=role)
    rematch = can_rematch(request=request, game=game, role=role, known=True)
    manage = _manages(game, role)
    # site_url: the share card's links name it (a LAN address found anew after a network change).
    clock = clock_tag(round_clock(game.event_ends))
    etag = _etag(request, game, "detail", editable, renew, visible, rematch, manage, site_url(request), clock)
    if _not_modified(request, etag):
        return _with_etag(HttpResponse(status=304), etag, editable)
    game = _game(public_id)  # the whole game, to draw the page
    context = _detail_context(request, game, viewer=(role, editable))
    context["saved"] = saved_from_messages(request) if editable else None
    # What apps built on games add (a tournament's win chances): not part of the ETag, which
    # must stay one query; such panels change rarely and only before the first hand.
    context["panels"] = panels("game", request, game)
    response = render(request, "games/detail.html", context)
    return _with_etag(response, etag, editable)


def history(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _to_revalidate(public_id)
    role = club_role(user=request.user, club=game.club) if game.club is not None else None
    editable = can_edit(request=request, game=game, role=role)
    manage = _manages(game, role)
    etag = _etag(request, game, "history", editable, manage)
    if _not_modified(request, etag):
        return _with_etag(HttpResponse(status=304), etag, editable=False)
    game = _game(public_id)  # the whole game, to draw the page
    found = game_history(game=game)
    response = render(
        request,
        "games/history.html",
        {
            "game": game,
            "changes": found.changes,
            "editable": editable,
            # A new link is never undone; a new starter or a deletion only by the organisers.
            "undoable": {
                c.pk
                for c in found.changes
                if (
                    manage
                    if c.action in Change.MANAGE_ACTIONS
                    else editable and c.action != Change.Action.NEW_LINK
                )
            },
            "players": found.players,
            "labels": found.labels,
        },
    )
    return _with_etag(response, etag, editable=False)


@require_POST
def undo(request: HtmxHttpRequest, public_id: str, change_id: int) -> HttpResponse:
    """Undo a change: a hand's or the game's end by whoever may change the game; a change only
    organisers make (a new starter, a deletion) by the club's organisers, also on a deleted
    game (which is gone for everyone else)."""
    game = _game(public_id, deleted=True)
    manage: bool | None = None
    if game.deleted_at is not None:
        manage = can_manage_game(request=request, game=game)
        if not manage:
            raise Http404
    change = game_change(game=game, pk=change_id)
    if change is not None and change.action in Change.MANAGE_ACTIONS:
        if not (manage if manage is not None else can_manage_game(request=request, game=game)):
            raise PermissionDenied(_("Only an organiser of the game's club can do this."))
    elif game.deleted_at is not None:
        raise Http404
    elif not can_edit(request=request, game=game):
        raise PermissionDenied(write_refused(game))
    if change is None:
        raise Http404
    back = "game" if request.POST.get("back") == "game" else "history"
    if request.POST.get("confirm") != "1" and undo_asks(change=change):
        # An old change: say which hands it changes and how the totals move, then ask.
        context = {"game": game, "change": change, "preview": undo_preview(change=change), "back": back}
        return render(request, "games/undo_confirm.html", context)
    try:
        change_undo(change=change, user=request.user)
    except EngineError as error:
        reason = error_message(error)
        messages.error(request, _("The change was not undone: %(reason)s") % {"reason": reason})
    else:
        messages.success(request, _("Change undone."))
    return redirect("games:detail" if back == "game" else "games:history", public_id=game.public_id)


def _bad_request(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A form that reached us damaged (a hidden field changed or cut): nothing was done."""
    message = _(
        "Part of the form was damaged on its way, so nothing was changed. Reload the page and try again."
    )
    return render(request, "games/bad_request.html", {"game": game, "message": message}, status=400)


def _posted_request_id(request: HtmxHttpRequest) -> uuid.UUID | None:
    """The form's request id (None if it sent none); ValueError for a malformed one."""
    raw = request.POST.get("request_id", "")
    return uuid.UUID(raw) if raw else None


@require_http_methods(["GET", "POST"])
def end(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    if request.method == "GET":
        # The address a browser is left at after ending (back button, a restored tab): the game
        # as it now stands, not an empty 405.
        game = _game(public_id)
        if family_info(game.family).settles_in_crowns and game.ended:
            return redirect("games:settlement", public_id=game.public_id)
        return redirect("games:detail", public_id=game.public_id)
    game = _writable(request, public_id)
    ended = {"1": True, "0": False}.get(request.POST.get("ended", ""))
    try:
        request_id = _posted_request_id(request)
    except ValueError:
        return _bad_request(request, game)
    if ended is None:
        return _bad_request(request, game)
    if ended and not game.ended and request.POST.get("confirm") != "1":
        # Hard to take back at the table: asked first, without JavaScript too.
        context = {"game": game, "request_id": request_id or uuid.uuid4()}
        return render(request, "games/end_confirm.html", context)
    change = game_end(game=game, ended=ended, user=request.user, request_id=request_id)
    if change is not None:
        if game.ended:
            messages.success(request, _("The game was ended. You can undo this in the history."))
        else:
            messages.success(request, _("The game was reopened."))
    if family_info(game.family).settles_in_crowns and game.ended:
        return redirect("games:settlement", public_id=game.public_id)
    return redirect("games:detail", public_id=game.public_id)


@require_POST
def edit_link_renew_view(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A new edit link; the old one stops working for everyone who has it."""
    game = _game(public_id)
    if not can_renew_link(request=request, game=game):
        raise PermissionDenied(
            _("Only the person who started this game, or an organiser of its club, can make a new edit link.")
        )
    try:
        request_id = _posted_request_id(request)
    except ValueError:
        return _bad_request(request, game)
    edit_link_renew(game=game, user=request.user, request_id=request_id)
    grant_edit(request=request, game=game)  # whoever made it keeps recording with the new one
    messages.success(
        request, _("A new edit link was made and the old one no longer works. Share the new one below.")
    )
    return redirect(reverse("games:detail", kwargs={"public_id": game.public_id}) + "#share")


def settlement(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    sheet = game_sheet(game=game)
    if sheet.incomplete:
        messages.error(request, _("Some counts are missing: fill them in before settling the evening."))
        return redirect("games:detail", public_id=game.public_id)
    if sheet.state is None or sheet.state.settlement is None:
        raise Http404
    settled = sheet.state.settlement
    rows = [(p, settled.totals[p], settled.crowns[p], settled.net[p]) for p in sheet.players]
    return render(
        request,
        "games/settlement.html",
        {
            "game": game,
            "sheet": sheet,
            "settled": settled,
            "rows": rows,
            "editable": can_edit(request=request, game=game),
            "evening": evening_of(game=game),
        },
    )


@never_cache
def edit_link(request: HtmxHttpRequest, public_id: str, token: str) -> HttpResponse:
    game = _game(public_id)
    if not token_matches(game=game, token=token):
        raise Http404
    grant_edit(request=request, game=game)
    messages.success(request, _("You can now record hands in this game."))
    return redirect("games:detail", public_id=game.public_id)


def game_url(game: Game) -> str:
    return reverse("games:detail", kwargs={"public_id": game.public_id})
