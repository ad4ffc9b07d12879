"""What the federation pages share: the federation a request names, as its reader may see it
(404 to whoever may not; 403 on the organisers' tools to anyone else who sees it)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from federations import access
from federations.models import Federation
from federations.selectors.federations import federation_by_slug


def federation_of(request: HttpRequest, slug: str, *, manage: bool = False) -> Federation:
    federation = federation_by_slug(slug=slug)
    if federation is None or not access.can_view(user=request.user, federation=federation):
        raise Http404
    if manage and not access.is_organiser(user=request.user, federation=federation):
        raise PermissionDenied(_("Only the federation's organisers can do this."))
    return federation
