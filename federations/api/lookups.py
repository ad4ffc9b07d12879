"""What a call to the federations API names, found for its caller: a federation he may see
(404 otherwise, as the pages answer), one he runs (401 without a credential, 403 with one), a
register entry, a membership; a club he runs, its invitation or membership of a federation, its
players' links; the page a list asks for; and whether a write is the resend of one already
made. The rules are ``federations.access``'s."""

from __future__ import annotations

import uuid

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.request import Request

from federations import access
from federations.models import Federation, FederationClub, PersonLink
from federations.selectors import federations as selectors
from federations.selectors import links as link_selectors
from federations.selectors import register as register_selectors
from federations.selectors.register import RegisterRow
from federations.services.register import person_label
from federations.services.writes import resent
from games.api.lookups import MAX_ID, caller, refuse, visible_club
from games.web.input import read_int

MAX_PAGE = 100_000


def visible_federation(request: Request, slug: str, *, manage: bool = False) -> Federation:
    federation = selectors.federation_by_slug(slug=slug)
    user = caller(request)
    if federation is None or not access.can_view(user=user, federation=federation):
        raise Http404
    if manage and not access.is_organiser(user=user, federation=federation):
        refuse(request, _("Only the federation's organisers can do this."))
    return federation


def stored_federation(federation: Federation) -> Federation:
    found = selectors.federation_by_slug(slug=federation.slug)
    if found is None:
        raise Http404
    return found


def entry(federation: Federation, number: int) -> RegisterRow:
    """The register entry of that number (merged or not), with its federation id."""
    found = (
        register_selectors.register_entry(federation=federation, number=number) if number <= MAX_ID else None
    )
    if found is None:
        raise Http404
    return RegisterRow(found, person_label(federation, found.number))


def open_membership(federation: Federation, club_slug: str) -> FederationClub:
    found = selectors.membership_of(federation=federation, club_slug=club_slug)
    if found is None:
        raise Http404
    return found


def club_membership(request: Request, slug: str, fed: str, *, member: bool = False) -> FederationClub:
    """The club's latest invitation or membership of the federation at ``fed`` (``member``: an
    open membership only), for the club's organisers; 404 when there is none."""
    club, _role = visible_club(request, slug, manage=True)
    found = link_selectors.latest_membership(club=club, federation_slug=fed)
    if found is None or (member and found.state != FederationClub.State.MEMBER):
        raise Http404
    return found


def club_link(membership: FederationClub, pk: int) -> PersonLink:
    link = link_selectors.club_link(club=membership.club, federation=membership.federation, pk=pk)
    if link is None:
        raise Http404
    return link


def page_query(request: Request) -> int:
    page = read_int(request.query_params.get("page", "1"), lo=1, hi=MAX_PAGE)
    if page is None:
        raise exceptions.ValidationError({"page": [_("A page is a whole number from 1.")]})
    return page


def replayed(federation: Federation, key: uuid.UUID | None, target: str) -> bool:
    """A resend of a change already made (the service will answer it and change nothing); the
    key of another operation or object is refused (422)."""
    return resent(federation=federation, request_id=key, target=target)
