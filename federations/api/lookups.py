"""What a call to the federations API names, found for its caller: a club he runs (404 if he
may not see it, 401/403 if he does not run it), its invitation or membership of a federation,
its players' links, a federation he may see; and whether a write is the resend of one made."""

from __future__ import annotations

import uuid

from django.http import Http404
from rest_framework.request import Request

from federations.models import Federation, FederationClub, PersonLink
from federations.selectors import links as selectors
from federations.selectors.person import federation_by_slug
from federations.services.writes import resent
from games.api.lookups import caller, visible_club


def club_membership(request: Request, slug: str, fed: str, *, member: bool = False) -> FederationClub:
    """The club's latest invitation or membership of the federation at ``fed`` (``member``: an
    open membership only), for the club's organisers; 404 when there is none."""
    club, _role = visible_club(request, slug, manage=True)
    found = selectors.latest_membership(club=club, federation_slug=fed)
    if found is None or (member and found.state != FederationClub.State.MEMBER):
        raise Http404
    return found


def club_link(membership: FederationClub, pk: int) -> PersonLink:
    link = selectors.club_link(club=membership.club, federation=membership.federation, pk=pk)
    if link is None:
        raise Http404
    return link


def visible_federation(request: Request, slug: str) -> Federation:
    federation = federation_by_slug(slug=slug, user=caller(request))
    if federation is None:
        raise Http404
    return federation


def replayed(federation: Federation, key: uuid.UUID | None, target: str) -> bool:
    """A resend of a change already made (the service returns it and changes nothing); the key
    of another operation or object is refused (422)."""
    return resent(federation, key, target)
