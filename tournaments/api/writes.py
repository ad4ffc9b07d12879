"""The conditional write of a tournament's own version (its settings, a pair kept apart, the
door, a penalty, the standings revealed): ``games.api.common.conditional_write`` with the
tournament's ETag, the request's target for the resend check, and the answer it is shown in.
Every such service takes the tournament, the version read, the user and the request id."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from rest_framework.request import Request

from games.api.common import conditional_write
from tournaments.api.lookups import replayed, stored_tournament
from tournaments.api.tournament_serializers import tournament_etag
from tournaments.models import Tournament


def tournament_write(
    request: Request,
    tournament: Tournament,
    *,
    key: uuid.UUID | None,
    target: str,
    shown: Callable[[Tournament], Any],
    change: Callable[..., Tournament],
    **changes: Any,
) -> Tournament:
    """Make the service's ``change`` (with ``changes``, and the tournament, the version read,
    the user and the request id) under the tournament's If-Match; ``shown`` is the body a 412
    carries, of the tournament as read and as stored now."""
    seen = tournament.version

    def current() -> tuple[str, Any]:
        now = stored_tournament(tournament)
        return tournament_etag(now), shown(now)

    return conditional_write(
        request,
        replayed=replayed(tournament, key, target),
        before=lambda: (tournament_etag(tournament), shown(tournament)),
        call=lambda: change(
            tournament=tournament, version=seen, user=request.user, request_id=key, **changes
        ),
        current=current,
    )
