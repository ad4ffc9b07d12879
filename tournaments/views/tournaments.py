"""The organiser's tournament pages, reading through tournaments.selectors and writing through
tournaments.services. Every write is a POST with a request id (a resend changes nothing twice)
and the version the organiser saw (a stale one is refused with a message), then a redirect.
A members-only club's tournaments answer 404 to strangers; writes answer 403 to anyone but the
club's organisers. Everything works without JavaScript."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from engine.rules import FAMILIES
from games.club_forms import put_error
from games.models import Membership
from games.selectors.clubs import club_by_slug
from games.services.access import can_view_club, club_role, edit_url, role_allows
from games.services.errors import StaleVersion
from games.services.players import similar_players
from games.text.errors import error_message
from games.web.links import absolute_url, qr_svg
from scoring.families import family_info
from scoring.seating import table_sizes
from tournaments.access import can_manage, can_view, tournament_role
from tournaments.forms import (
    AddPlayersForm,
    ApartForm,
    DoorForm,
    EntryActionForm,
    MoveForm,
    PenaltyForm,
    PenaltyUndoForm,
    StartForm,
    TournamentForm,
    VersionedForm,
)
from tournaments.models import Round, Tournament
from tournaments.selectors import seasons as season_selectors
from tournaments.selectors import tournaments as selectors
from tournaments.services.penalties import (
    penalty_give,
    penalty_undo,
)
from tournaments.services.tournaments import (
    apart_set,
    check_in_door,
    door_path,
    eligible,
    entries_add,
    entry_check_in,
    entry_drop,
    entry_pin,
    final_seat,
    final_undo,
    limits,
    round_confirm,
    round_move,
    round_publish,
    round_seat,
    round_start,
    standings_reveal,
    tournament_create,
    tournament_update,
)
from tournaments.table_answers import own_path

# A round's tables a phone shows at once: a big open's round is paged (tournaments/round.html).
ROUND_PAGE = 16


def _tournament(
    request: HttpRequest, public_id: str, *, manage: bool = False
) -> tuple[Tournament, str | None]:
    tournament = selectors.tournament_by_public_id(public_id=public_id)
    if tournament is None:
        raise Http404
    role = tournament_role(user=request.user, tournament=tournament)
    if not can_view(tournament=tournament, role=role):
        raise Http404
    if manage and not can_manage(role=role):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    return tournament, role


def _error(request: HttpRequest, error: EngineError) -> None:
    messages.error(request, error_message(error))


def _form_errors(
    request: HttpRequest,
    form: VersionedForm | StartForm | EntryActionForm | MoveForm | DoorForm | PenaltyUndoForm | ApartForm,
) -> None:
    errors = [str(e) for e in form.non_field_errors()] or [
        f"{form[name].label}: {' '.join(str(e) for e in errs)}"
        for name, errs in form.errors.items()
        if name != "__all__"
    ]
    messages.error(request, " ".join(errors) or _("Check the form and try again."))


def club_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    context = {
        "club": club,
        "role": role,
        "tournaments": selectors.club_tournaments(club=club),
        "can_manage": role_allows(role, Membership.Role.ORGANISER),
        "families": [(f, family_info(f)) for f in FAMILIES],
    }
    return render(request, "tournaments/club_list.html", context)


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if not role_allows(role, Membership.Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    family = request.GET.get("family") or request.POST.get("family")
    if family is None or family not in FAMILIES:
        return redirect("tournaments:club_list", slug=club.slug)
    seasons = season_selectors.qualifying_seasons(club=club)
    form = TournamentForm(request.POST or None, family=family, seasons=seasons)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(club=club, settings=form.settings(), user=request.user)
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Tournament created. Now register the players."))
            return redirect("tournaments:players", public_id=tournament.public_id)
    context = {"club": club, "form": form, "family": family, "info": family_info(family)}
    return render(request, "tournaments/new.html", context)


def _fit_note(tournament: Tournament, players: int) -> str | None:
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


def detail(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = _tournament(request, public_id)
    view = selectors.tournament_view(tournament=tournament, organiser=can_manage(role=role))
    upcoming = view.next_round
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "can_manage": can_manage(role=role),
        "section": "overview",
        "next_round": upcoming,
        "fit_note": _fit_note(tournament, len(eligible(view.data, upcoming))) if upcoming else None,
        "seat_form": VersionedForm(initial={"version": 0}),
    }
    return render(request, "tournaments/detail.html", context)


@login_required
def settings_view(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = _tournament(request, public_id, manage=True)
    initial = TournamentForm.initial_from(tournament)
    seasons = season_selectors.qualifying_seasons(club=tournament.club)
    form = TournamentForm(request.POST or None, family=tournament.family, initial=initial, seasons=seasons)
    versioned = VersionedForm(request.POST or None, initial={"version": tournament.version})
    if request.method == "POST" and form.is_valid() and versioned.is_valid():
        try:
            tournament_update(
                tournament=tournament,
                settings=form.settings(),
                version=versioned.cleaned_data["version"],
                user=request.user,
                request_id=versioned.cleaned_data["request_id"],
            )
        except EngineError as error:
            form.add_engine_error(error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("tournaments:detail", public_id=tournament.public_id)
    elif request.method == "POST" and not versioned.is_valid():
        form.add_error(None, " ".join(str(e) for e in versioned.non_field_errors()))
    context = {
        "tournament": tournament,
        "view": selectors.tournament_view(tournament=tournament, organiser=True),
        "role": role,
        "form": form,
        "versioned": versioned,
        "info": family_info(tournament.family),
        "can_manage": True,
        "section": "settings",
    }
    return render(request, "tournaments/settings.html", context)


@never_cache
@login_required
def players(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, role = _tournament(request, public_id, manage=True)
    candidates = selectors.unregistered_players(tournament=tournament)
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
    view = selectors.tournament_view(tournament=tournament, organiser=True)
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
        "fit_note": _fit_note(tournament, len(eligible(view.data, upcoming))) if upcoming else None,
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
    tournament, _role = _tournament(request, public_id, manage=True)
    form = DoorForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
    else:
        try:
            check_in_door(
                tournament=tournament,
                opened=form.cleaned_data["action"] == "open",
                version=form.cleaned_data["version"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            _error(request, error)
    return redirect(f"{_players_url(tournament)}#door")


@require_POST
@login_required
def entry_action(request: HttpRequest, public_id: str, pk: int) -> HttpResponse:
    tournament, _role = _tournament(request, public_id, manage=True)
    entry = selectors.tournament_entry(tournament=tournament, entry_id=pk)
    if entry is None:
        raise Http404
    form = EntryActionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("tournaments:players", public_id=tournament.public_id)
    data = form.cleaned_data
    common = {
        "entry": entry,
        "version": data["version"],
        "user": request.user,
        "request_id": data["request_id"],
    }
    try:
        match data["action"]:
            case "check_in" | "check_out":
                entry_check_in(checked_in=data["action"] == "check_in", **common)
            case "drop" | "rejoin":
                entry_drop(dropped=data["action"] == "drop", **common)
            case _:
                entry_pin(table=data.get("table") or None, **common)
    except EngineError as error:
        _error(request, error)
    return redirect(f"{_players_url(tournament)}#entry-{entry.pk}")


def apart_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Pairs of players kept at different tables (couples, a parent and child): the list, a
    form to add one and a button to take each back."""
    tournament, role = _tournament(request, public_id, manage=True)
    view = selectors.tournament_view(tournament=tournament)
    choices = [(e.pk, e.player.name) for e in view.entries]
    form = ApartForm(request.POST or None, choices=choices, initial={"version": tournament.version})
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            entries = {
                e.pk: e
                for e in selectors.tournament_entries(tournament=tournament).entries
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
                return redirect(reverse("tournaments:apart", kwargs={"public_id": tournament.public_id}))
        if not keep_form_open(form):
            _form_errors(request, form)
            return redirect(reverse("tournaments:apart", kwargs={"public_id": tournament.public_id}))
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "form": form,
        "can_manage": True,
        "section": "apart",
        "pairs": selectors.apart_pairs(view=view),
    }
    return render(request, "tournaments/apart.html", context)


def keep_form_open(form: ApartForm) -> bool:
    """A refused "keep apart" shows the form again with its errors; a refused "end" (a stale
    page) is a message above the list."""
    return form.data.get("action", "keep") == "keep"


def _players_url(tournament: Tournament) -> str:
    return reverse("tournaments:players", kwargs={"public_id": tournament.public_id})


def round_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, role = _tournament(request, public_id)
    view = selectors.tournament_view(tournament=tournament, organiser=can_manage(role=role))
    played = view.round(number)
    if played is None:
        raise Http404
    manage = can_manage(role=role)
    page = played.page(request.GET.get("page"), ROUND_PAGE)
    context = {
        "tournament": tournament,
        "view": view,
        "played": played,
        "page": page.page,
        "tables": page.tables,
        "ranges": page.numbers,
        "role": role,
        "can_manage": manage,
        "section": f"round-{number}",
        "form": VersionedForm(initial={"version": played.round.version}),
        "start_form": StartForm(
            initial={"version": played.round.version, "minutes": tournament.round_minutes}
        ),
        "table_numbers": [t.number for t in played.states],
    }
    return render(request, "tournaments/round.html", context)


def _round(tournament: Tournament, number: int) -> Round:
    played = selectors.tournament_round(tournament=tournament, number=number)
    if played is None:
        raise Http404
    return played


def _round_url(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:round", kwargs={"public_id": tournament.public_id, "number": number})


@require_POST
@login_required
def round_seat_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Seat a round (version 0: a new round) or seat it again (the round's version)."""
    tournament, _role = _tournament(request, public_id, manage=True)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    version = form.cleaned_data["version"] or None
    try:
        round_seat(
            tournament=tournament,
            number=number,
            round_version=version,
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        _error(request, error)
        if selectors.tournament_round(tournament=tournament, number=number) is None:
            return redirect("tournaments:detail", public_id=tournament.public_id)
    else:
        messages.success(request, _("Round %(number)d seated.") % {"number": number})
        _warn_apart(request, tournament, number)
    return redirect(_round_url(tournament, number))


def _warn_apart(request: HttpRequest, tournament: Tournament, number: int) -> None:
    """Say at once when no seating could keep every pair apart (the report names them)."""
    if not tournament.apart:
        return
    played = selectors.tournament_view(tournament=tournament).round(number)
    report = played.report if played is not None else None
    if report is not None and report.apart_met:
        count = len(report.apart_met)
        messages.warning(
            request,
            ngettext(
                "No seating keeps one pair that must not meet apart: see the seating report.",
                "No seating keeps %(count)d pairs that must not meet apart: see the seating report.",
                count,
            )
            % {"count": count},
        )


@require_POST
@login_required
def round_move_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    tournament, _role = _tournament(request, public_id, manage=True)
    played = _round(tournament, number)
    form = MoveForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(_round_url(tournament, number))
    entry = selectors.tournament_entry(tournament=tournament, entry_id=form.cleaned_data["entry"])
    if entry is None:
        raise Http404
    try:
        round_move(
            played=played,
            entry=entry,
            to_table=form.cleaned_data["to_table"],
            round_version=form.cleaned_data["version"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        _error(request, error)
    return redirect(_round_url(tournament, number))


def _round_step(
    request: HttpRequest,
    public_id: str,
    number: int,
    step: Callable[..., Round],
    done: str,
    then: str,
    form_class: type[VersionedForm | StartForm] = VersionedForm,
) -> HttpResponse:
    """Start or confirm a round (``step``): the version the organiser saw and a request id,
    then ``done`` (a message with the round's number) and the page ``then``; on an error, the
    round's page with the message. A start may name the minutes on its clock."""
    tournament, _role = _tournament(request, public_id, manage=True)
    played = _round(tournament, number)
    form = form_class(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(_round_url(tournament, number))
    extra = {"minutes": form.cleaned_data["minutes"]} if isinstance(form, StartForm) else {}
    try:
        step(
            played=played,
            round_version=form.cleaned_data["version"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
            **extra,
        )
    except EngineError as error:
        _error(request, error)
        return redirect(_round_url(tournament, number))
    messages.success(request, done % {"number": number})
    return redirect(then)


@require_POST
@login_required
def round_publish_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    done = _("Round %(number)d's seating is published: the players see their tables.")
    step = partial(round_publish, published=True)
    return _round_step(request, public_id, number, step, done, _round_url_of(public_id, number))


@require_POST
@login_required
def round_unpublish_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    done = _("Round %(number)d's seating is hidden from the players again.")
    step = partial(round_publish, published=False)
    return _round_step(request, public_id, number, step, done, _round_url_of(public_id, number))


def _round_url_of(public_id: str, number: int) -> str:
    return reverse("tournaments:round", kwargs={"public_id": public_id, "number": number})


def _reveal(request: HttpRequest, public_id: str, revealed: bool) -> HttpResponse:
    tournament, _role = _tournament(request, public_id, manage=True)
    form = VersionedForm(request.POST)
    then = reverse("tournaments:standings", kwargs={"public_id": tournament.public_id})
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(then)
    try:
        standings_reveal(
            tournament=tournament,
            revealed=revealed,
            version=form.cleaned_data["version"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        _error(request, error)
    else:
        messages.success(
            request,
            _("The standings are revealed to the players.")
            if revealed
            else _("The standings are frozen again for the players."),
        )
    return redirect(then)


@require_POST
@login_required
def standings_reveal_view(request: HttpRequest, public_id: str) -> HttpResponse:
    return _reveal(request, public_id, True)


@require_POST
@login_required
def standings_freeze_view(request: HttpRequest, public_id: str) -> HttpResponse:
    return _reveal(request, public_id, False)


@require_POST
@login_required
def round_start_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    links = reverse("tournaments:round_links", kwargs={"public_id": public_id, "number": number})
    done = _("Round %(number)d started: give each table its link.")
    return _round_step(request, public_id, number, round_start, done, links, StartForm)


@require_POST
@login_required
def round_confirm_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    standings = reverse("tournaments:standings", kwargs={"public_id": public_id})
    if request.POST.get("confirm") != "1":
        # Tables still playing would be ended: name them and ask first (the same request id
        # and version go back with the answer, so the confirmed post stays idempotent).
        tournament, role = _tournament(request, public_id, manage=True)
        view = selectors.tournament_view(tournament=tournament, organiser=True)
        played = view.round(number)
        if played is None:
            raise Http404
        open_tables = [t for t in played.tables if t.game is not None and not t.finished]
        # Tables whose players have not all confirmed the result they have now (the setting).
        unsettled = [t for t in played.tables if t.agreement is not None and t.agreement.state != "confirmed"]
        if (open_tables or unsettled) and played.round.status == Round.Status.PLAYING:
            context = {
                "tournament": tournament,
                "view": view,
                "played": played,
                "role": role,
                "can_manage": True,
                "section": f"round-{number}",
                "open_tables": open_tables,
                "unsettled": unsettled,
                "request_id": request.POST.get("request_id", ""),
                "version": request.POST.get("version", ""),
            }
            return render(request, "tournaments/round_confirm.html", context)
    done = _("Round %(number)d confirmed: its results are final.")
    return _round_step(request, public_id, number, round_confirm, done, standings)


@never_cache  # private, no-store: shows the tables' edit links
@login_required
def round_links(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Each table's private link, with its QR code, for the table's phone (no account needed)."""
    tournament, role = _tournament(request, public_id, manage=True)
    view = selectors.tournament_view(tournament=tournament, organiser=True)
    played = view.round(number)
    if played is None:
        raise Http404
    links: list[tuple[selectors.TableView, str, str, list[tuple[selectors.SeatView, str]]]] = []
    locked = played.round.status == Round.Status.CONFIRMED  # the links no longer write
    for table in played.tables:
        if table.game is None:
            continue
        if locked:
            links.append((table, "", "", []))
            continue
        url = absolute_url(request, edit_url(table.game))  # the address the tables' phones reach
        svg = qr_svg(url, label=_("QR code of table %(number)d's link") % {"number": table.number})
        own = []
        if tournament.table_confirm:
            # Each player's own link, where he confirms the table's result from his phone.
            for seat in table.seats:
                own.append((seat, absolute_url(request, own_path(tournament, seat.entry_id))))
        links.append((table, url, svg, own))
    context = {
        "tournament": tournament,
        "view": view,
        "played": played,
        "role": role,
        "can_manage": True,
        "section": f"round-{number}",
        "links": links,
    }
    return render(request, "tournaments/round_links.html", context)


@require_POST
@login_required
def final_seat_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Seat the final's next stage (a final table, or a knockout's matches)."""
    tournament, _role = _tournament(request, public_id, manage=True)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    try:
        played = final_seat(
            tournament=tournament, user=request.user, request_id=form.cleaned_data["request_id"]
        )
    except EngineError as error:
        _error(request, error)
        return redirect("tournaments:detail", public_id=tournament.public_id)
    messages.success(request, _("The final is seated."))
    return redirect(_round_url(tournament, played.number))


@require_POST
@login_required
def final_undo_view(request: HttpRequest, public_id: str, number: int) -> HttpResponse:
    """Take back a stage of the final that has not started."""
    tournament, _role = _tournament(request, public_id, manage=True)
    played = _round(tournament, number)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(_round_url(tournament, number))
    try:
        final_undo(
            played=played,
            round_version=form.cleaned_data["version"],
            user=request.user,
            request_id=form.cleaned_data["request_id"],
        )
    except EngineError as error:
        _error(request, error)
        return redirect(_round_url(tournament, number))
    messages.success(request, _("The final's seating is taken back."))
    return redirect("tournaments:detail", public_id=tournament.public_id)


@never_cache
@login_required
def penalties_view(request: HttpRequest, public_id: str) -> HttpResponse:
    """Give a warning or a point penalty (the form, its errors at their fields), and the list of
    those given with a button to take each back."""
    tournament, role = _tournament(request, public_id, manage=True)
    view = selectors.tournament_view(tournament=tournament)
    players = sorted(((e.pk, e.player.name) for e in view.data.entries.values()), key=lambda p: p[1])
    rounds = [r.number for r in view.data.rounds]
    form = PenaltyForm(
        request.POST or None, players=players, rounds=rounds, initial={"version": tournament.version}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty_give(
                tournament=tournament,
                entry_id=data["entry"],
                kind=data["kind"],
                points=data["points"],
                round_number=data["round"],
                reason=data["reason"],
                version=data["version"],
                user=request.user,
                request_id=data["request_id"],
            )
        except EngineError as error:
            if isinstance(error, StaleVersion):
                # Sent again from here, the form changes the tournament as now shown.
                tournament.refresh_from_db()
                fresh = request.POST.copy()
                fresh["version"] = str(tournament.version)
                form.data = fresh
            form.add_engine_error(error)
        else:
            messages.success(request, _("Recorded: the standings show it."))
            return redirect("tournaments:penalties", public_id=tournament.public_id)
    context = {
        "tournament": tournament,
        "view": view,
        "role": role,
        "form": form,
        "given": selectors.penalties_view(tournament=tournament).penalties,
        "can_manage": True,
        "section": "penalties",
    }
    return render(request, "tournaments/penalties.html", context, status=400 if form.errors else 200)


@require_POST
@login_required
def penalty_undo_view(request: HttpRequest, public_id: str) -> HttpResponse:
    tournament, _role = _tournament(request, public_id, manage=True)
    form = PenaltyUndoForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
    else:
        try:
            penalty_undo(
                tournament=tournament,
                penalty_id=form.cleaned_data["penalty"],
                version=form.cleaned_data["version"],
                user=request.user,
                request_id=form.cleaned_data["request_id"],
            )
        except EngineError as error:
            _error(request, error)
        else:
            messages.success(request, _("Taken back: the standings no longer count it."))
    return redirect("tournaments:penalties", public_id=tournament.public_id)
