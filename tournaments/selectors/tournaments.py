"""Finding a club's tournaments. The readers of a tournament live beside this module (``view``:
the tournament as its pages show it; ``standings``, ``rounds``, ``entries``, ``player``,
``history``), and each page or API resource imports what it reads from there."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Club
from tournaments.models import Tournament


def tournament_by_public_id(*, public_id: str) -> Tournament | None:
    return Tournament.objects.select_related("club").filter(public_id=public_id).first()


def tournaments_of_club(*, club: Club) -> QuerySet[Tournament]:
    """All the club's tournaments, for a list that pages them itself (the API's cursor)."""
    return Tournament.objects.filter(club=club)


def club_tournaments(*, club: Club, limit: int = 50) -> list[Tournament]:
    """The club's latest tournaments, by date (1 query)."""
    return list(tournaments_of_club(club=club).order_by("-date", "-id")[:limit])
