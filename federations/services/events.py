"""What counts for a federation that counts only federation-rated tournaments: a member club's
organisers mark their tournament as rated for the federation, or take the mark back. Either
re-rates the federation's list from the tournament's first table."""

from __future__ import annotations

import uuid

from federations import derived
from federations.models import Federation, FederationChange, FederationClub, RatedTournament
from games.services.errors import ServiceError
from tournaments.models import Tournament

from .writes import Actor, record, write_once

Action = FederationChange.Action


def tournament_rate(
    *,
    federation: Federation,
    tournament: Tournament,
    rated: bool,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> bool:
    """Mark the tournament federation-rated (or not); returns whether it is rated now. The
    tournament's club must be a member to mark it; a mark can be taken back after it left."""
    target = f"rate:{tournament.pk}:{int(rated)}"

    def write(locked: Federation) -> bool:
        current = RatedTournament.objects.filter(federation=locked, tournament=tournament).first()
        if rated == (current is not None):
            return rated
        if rated:
            if not FederationClub.objects.filter(
                federation=locked, club_id=tournament.club_id, state=FederationClub.State.MEMBER
            ).exists():
                raise ServiceError("link_not_member", "not a member", club=tournament.club.name)
            current = RatedTournament.objects.create(federation=locked, tournament=tournament)
        assert current is not None
        derived.tournament_marked(current)
        if not rated:
            current.delete()
        record(
            locked,
            Action.MARKED if rated else Action.UNMARKED,
            user,
            request_id,
            target=target,
            club=tournament.club_id,
            tournament=tournament.public_id,
            tournament_name=tournament.name,
        )
        return rated

    result = write_once(federation, request_id, target, write)
    return result if isinstance(result, bool) else rated
