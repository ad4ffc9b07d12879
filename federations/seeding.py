"""Round 1 of a federation open is seeded by the federation's live list (registered with
``tournaments.seeding`` when the app loads): each entry's player's register entry, its line of
the tournament's family. An entry whose player is linked to no register entry, or whose entry
has no line yet, is unrated."""

from __future__ import annotations

from collections.abc import Sequence

from federations.models import FederationOpen, FederationRating, PersonLink
from tournaments.models import Tournament
from tournaments.tournament_data import EntryRow


def open_ratings(tournament: Tournament, entries: Sequence[EntryRow]) -> dict[int, int] | None:
    """{player id: federation rating} for an open (two queries), None for any other tournament."""
    federation_id = (
        FederationOpen.objects.filter(tournament_id=tournament.pk)
        .values_list("federation_id", flat=True)
        .first()
    )
    if federation_id is None:
        return None
    persons = {
        person: player
        for player, person in PersonLink.objects.filter(
            federation_id=federation_id,
            player_id__in=[e.player_id for e in entries],
            state=PersonLink.State.LINKED,
        ).values_list("player_id", "person_id")
    }
    return {
        persons[person]: rating
        for person, rating in FederationRating.objects.filter(
            federation_id=federation_id, family=tournament.family, person_id__in=list(persons)
        ).values_list("person_id", "rating")
    }
