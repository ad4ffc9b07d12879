"""The organiser's players page: registering players, the door's self check-in, each entry's
check-in, drop-out and pinned table, and the pairs kept apart."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.club_forms import put_error
from games.services.players import similar_players
from games.text.errors import error_message
from games.web.links import absolute_url, qr_svg
from scoring.seating import table_sizes
from tournaments.forms import AddPlayersForm, ApartForm, DoorForm, EntryActionForm, VersionedForm
from tournaments.models import Tournament
from tournaments.selectors.entries import (
    apart_pairs,
    tournament_entries,
    tournament_entry,
    unregistered_players,
)
from tournaments.selectors.view import tournament_view
from tournaments.services.entries import (
    check_in_door,
    door_path,
    entries_add,
    entry_check_in,
    entry_drop,
    entry_pin,
)
from tournaments.services.round_seating import apart_set, eligible, limits
from tournaments.views.common import form_errors, form_post, tournament_of, versioned


def fit_note(tournament: Tournament, players: int) -> str | None:
    """What the organiser should know about how ``players`` fit the tables: byes each round,
    or no arrangement at all (and what to change)."""
    if players == 0:
        return None
    try:
        sizes, byes = table_sizes(players, limits(tournament), byes_allowed=tournament.byes_allowed)
    except EngineError as error:
        return error_message(error)
    if byes:
        return ngettext(
            "%(players)d players at these tables: %(byes)d player sits out each round (a bye, worth the "
            "average table points). Register or check in one more player, or change the table sizes, "
            "to avoid it.",
            "%(players)d players at these tables: %(byes)d players sit out each round (a bye, worth the "
            "average table points). Change the number of players or the table sizes to avoid it.",
            byes,
        ) % {"players": players, "byes": byes}
    del sizes
    return None


@never_cache
@login_required
def players(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = tournament_of(request, public_id, manage=True)
    candidates = unregistered_players(tournament=tournament)
    choices = [(str(p.pk), p.name) for p in candidates]
    form = AddPlayersForm(request.POST or None, choices=choices)
    if request.method == "POST":
        alike = (
            similar_players(club=tournament.club, owner=None, names=form.new_names())
            if form.is_valid()
            else {}
        )
        if form.is_valid() and not form.ask_did_you_mean(alike):
            chosen = {int(pk) for pk in form.cleaned_data["players"]}
            try:
                added = entries_add(
                    tournament=tournament,
                    players=[p for p in candidates if p.pk in chosen],
                    names=form.new_names(),
                    checked_in=form.cleaned_data["checked_in"],
                    user=request.user,
                    request_id=form.cleaned_data["request_id"],
                )
            except EngineError as error:
                put_error(form, error)
                form.errors.setdefault("names", form.error_class()).append(error_message(error))
            else:
                messages.success(
                    request,
                    ngettext("%(count)d player registered.", "%(count)d players registered.", len(added))
                    % {"count": len(added)},
                )
                # The form was sent to its own section (#add-title); the list and the message
                # are at the top. An empty fragment, or the browser keeps the form's.
                return redirect(
                    reverse("tournaments:players", kwargs={"public_id": tournament.public_id}) + "#"
                )
    view = tournament_view(tournament=tournament, organiser=True)
    upcoming = view.next_round
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "form": form,
        "can_manage": True,
        "section": "players",
        "next_round": upcoming,
        "seat_form": VersionedForm(initial={"version": 0}),
        "door_form": VersionedForm(initial={"version": tournament.version}),
        "door": _door_link(request, tournament),
        "fit_note": fit_note(tournament, len(eligible(view.data, upcoming))) if upcoming else None,
    }
    return render(request, "tournaments/players.html", context)


def _door_link(request: HttpRequest, tournament: Tournament) -> dict[str, str] | None:
    """The check-in link, with its QR code, while the door is open (the page shows it then)."""
    path = door_path(tournament)
    if path is None or not tournament.check_in_open:
        return None
    url = absolute_url(request, path)  # the address the players' phones reach
    return {"url": url, "svg": qr_svg(url, label=_("QR code of the check-in link"))}


@require_POST
@login_required
def door_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Open or close the self check-in at the door."""
    tournament, _role = tournament_of(request, public_id, manage=True)

    def write(data: dict[str, Any]) -> None:
        check_in_door(tournament=tournament, opened=data["action"] == "open", **versioned(request, data))

    return form_post(request, DoorForm(request.POST), write, f"{_players_url(tournament)}#door")


@require_POST
@login_required
def entry_action(request: HttpRequest, public_id: str, pk: int) -> HttpResponse:
    tournament, _role = tournament_of(request, public_id, manage=True)
    entry = tournament_entry(tournament=tournament, entry_id=pk)
    if entry is None:
        raise Http404

    def write(data: dict[str, Any]) -> None:
        common = {"entry": entry, **versioned(request, data)}
        match data["action"]:
            case "check_in" | "check_out":
                entry_check_in(checked_in=data["action"] == "check_in", **common)
            case "drop" | "rejoin":
                entry_drop(dropped=data["action"] == "drop", **common)
            case _:
                entry_pin(table=data.get("table") or None, **common)

    then = f"{_players_url(tournament)}#entry-{entry.pk}"
    return form_post(request, EntryActionForm(request.POST), write, then, refused=_players_url(tournament))


def apart_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Pairs of players kept at different tables (couples, a parent and child): the list, a
    form to add one and a button to take each back."""
    tournament, role = tournament_of(request, public_id, manage=True)
    view = tournament_view(tournament=tournament)
    choices = [(e.pk, e.player.name) for e in view.entries]
    form = ApartForm(request.POST or None, choices=choices, initial={"version": tournament.version})
    here = reverse("tournaments:apart", kwargs={"public_id": tournament.public_id})
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            entries = {
                e.pk: e
                for e in tournament_entries(tournament=tournament).entries
                if e.pk in (data["first"], data["second"])
            }
            keep = data["action"] == "keep"
            try:
                apart_set(
                    tournament=tournament,
                    first=entries[data["first"]],
                    second=entries[data["second"]],
                    keep=keep,
                    version=data["version"],
                    user=request.user,
                    request_id=data["request_id"],
                )
            except EngineError as error:
                named = error.params.get("field")
                form.add_error(named if named in form.fields else None, error_message(error))
            else:
                messages.success(
                    request,
                    _("They sit at different tables from the next seating on.")
                    if keep
                    else _("They may sit together again."),
                )
                return redirect(here)
        if not keep_form_open(form):
            form_errors(request, form)
            return redirect(here)
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "form": form,
        "can_manage": True,
        "section": "apart",
        "pairs": apart_pairs(view=view),
    }
    return render(request, "tournaments/apart.html", context)


def keep_form_open(form: ApartForm) -> bool:
    """A refused "keep apart" shows the form again with its errors; a refused "end" (a stale
    page) is a message above the list."""
    return form.data.get("action", "keep") == "keep"


def _players_url(tournament: Tournament) -> str:
    return reverse("tournaments:players", kwargs={"public_id": tournament.public_id})
