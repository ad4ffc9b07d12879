"""A club's federations page, for its organisers: the invitations waiting (accept, decline),
its memberships (leave) and, per federation it belongs to, its players' links (link a player
by his federation id, remove a link) and the claims waiting for the club (confirm, refuse).
Others than the club's organisers get what the club's other organiser pages give them (404
to whoever may not see the club, 403 to its other members)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from federations.link_forms import LinkForm, RateForm, VersionedForm
from federations.models import FederationClub, PersonLink
from federations.selectors import links as selectors
from federations.services.events import tournament_rate
from federations.services.links import claim_answer, link_make, link_remove
from federations.services.memberships import club_answer, membership_end
from games.club_forms import put_error
from games.models import Club, Membership
from games.selectors.clubs import club_by_slug
from games.services.access import can_view_club, club_role, role_allows
from games.text.errors import error_message


def _club(request: HttpRequest, slug: str) -> tuple[Club, str | None]:
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if not role_allows(role, Membership.Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    return club, role


def _membership(club: Club, fed_slug: str, *, member: bool = False) -> FederationClub:
    found = selectors.club_membership(club=club, federation_slug=fed_slug)
    if found is None or (member and found.state != FederationClub.State.MEMBER):
        raise Http404
    return found


def _render(
    request: HttpRequest, club: Club, role: str | None, bound: tuple[int, LinkForm] | None = None
) -> HttpResponse:
    page = selectors.club_federations(club=club)
    sides = []
    for side in page.sides:
        if bound is not None and bound[0] == side.federation.pk:
            form = bound[1]
        else:
            form = LinkForm(players=side.unlinked, prefix=f"f{side.federation.pk}")
        sides.append((side, form))
    context = {"club": club, "role": role, "page": page, "sides": sides}
    return render(request, "federations/club.html", context)


@login_required
def club_federations(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug)
    return _render(request, club, role)


def _back(club: Club) -> HttpResponse:
    return redirect("federations:club", slug=club.slug)


def _small_post(
    request: HttpRequest, club: Club, write: Callable[[dict[str, Any]], object], done: str
) -> HttpResponse:
    """An answer, a removal: a damaged form or a refused write is a message; back to the page."""
    form = VersionedForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, " ".join(str(e) for e in form.non_field_errors()) or _("Check the form and try again.")
        )
        return _back(club)
    try:
        write(form.cleaned_data)
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, done)
    return _back(club)


def _writes(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"version": data["version"], "request_id": data["request_id"], "user": request.user}


@require_POST
@login_required
def membership_answer(request: HttpRequest, slug: str, fed: str, answer: str) -> HttpResponse:
    """Accept or decline an invitation, or leave the federation."""
    club, _role = _club(request, slug)
    membership = _membership(club, fed)
    name = membership.federation.name
    if answer == "leave":
        return _small_post(
            request,
            club,
            lambda d: membership_end(membership=membership, by_club=True, **_writes(request, d)),
            _("The club has left %(federation)s.") % {"federation": name},
        )
    accept = answer == "accept"
    done = (
        _("The club is a member of %(federation)s.")
        if accept
        else _("Invitation of %(federation)s declined.")
    )
    return _small_post(
        request,
        club,
        lambda d: club_answer(membership=membership, accept=accept, **_writes(request, d)),
        done % {"federation": name},
    )


@require_POST
@login_required
def link_new(request: HttpRequest, slug: str, fed: str) -> HttpResponse:
    """Link one of the club's players by the federation id; a refusal is shown at its field."""
    club, role = _club(request, slug)
    membership = _membership(club, fed, member=True)
    federation = membership.federation
    side = next(s for s in selectors.club_federations(club=club).sides if s.federation.pk == federation.pk)
    form = LinkForm(request.POST, players=side.unlinked, prefix=f"f{federation.pk}")
    if form.is_valid():
        player = selectors.club_player(club=club, pk=form.cleaned_data["player"])
        if player is None:
            raise Http404
        try:
            link = link_make(
                federation=federation,
                club=club,
                player=player,
                person_id=form.cleaned_data["person"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(
                request,
                _("%(player)s is linked to %(person)s.")
                % {"player": player.name, "person": link.person.name},
            )
            return _back(club)
    return _render(request, club, role, bound=(federation.pk, form))


def _link(club: Club, fed: str, pk: int) -> PersonLink:
    membership = _membership(club, fed, member=True)
    link = selectors.club_link(club=club, federation=membership.federation, pk=pk)
    if link is None:
        raise Http404
    return link


@require_POST
@login_required
def link_delete(request: HttpRequest, slug: str, fed: str, pk: int) -> HttpResponse:
    club, _role = _club(request, slug)
    link = _link(club, fed, pk)
    return _small_post(
        request,
        club,
        lambda d: link_remove(link=link, **_writes(request, d)),
        _("The link of %(player)s is removed.") % {"player": link.player.name},
    )


@require_POST
@login_required
def claim_decide(request: HttpRequest, slug: str, fed: str, pk: int, answer: str) -> HttpResponse:
    """Confirm or refuse a claim waiting for the club."""
    club, _role = _club(request, slug)
    link = _link(club, fed, pk)
    confirm = answer == "confirm"
    done = _("Claim confirmed: %(player)s is linked to %(person)s.") if confirm else _("Claim refused.")
    return _small_post(
        request,
        club,
        lambda d: claim_answer(link=link, confirm=confirm, **_writes(request, d)),
        done % {"player": link.player.name, "person": link.person.name} if confirm else done,
    )


@require_POST
@login_required
def tournament_rate_view(request: HttpRequest, slug: str, fed: str, public_id: str) -> HttpResponse:
    """Mark one of the club's tournaments federation-rated, or take the mark back."""
    club, _role = _club(request, slug)
    membership = _membership(club, fed)
    tournament = selectors.club_tournament(club=club, public_id=public_id)
    if tournament is None:
        raise Http404
    form = RateForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the form and try again."))
        return _back(club)
    rated = form.cleaned_data["rated"]
    try:
        tournament_rate(
            federation=membership.federation,
            tournament=tournament,
            rated=rated,
            request_id=form.cleaned_data["request_id"],
            user=request.user,
        )
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        done = (
            _("%(tournament)s counts for %(federation)s.")
            if rated
            else _("%(tournament)s no longer counts for %(federation)s.")
        )
        messages.success(
            request, done % {"tournament": tournament.name, "federation": membership.federation.name}
        )
    return _back(club)
