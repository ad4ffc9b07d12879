"""Who may do what with a tournament: its club's organisers run it (every write here); who
sees the club sees the tournament's pages (a members-only club's answer 404 to strangers). A
table's scorekeeper needs no account: the table's game has its own edit link, which writes that
game only (games.services.access)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from games.models import Membership
from games.services.access import can_view_club, club_role, role_allows
from tournaments.models import Tournament


def tournament_role(*, user: User | AnonymousUser, tournament: Tournament) -> str | None:
    return club_role(user=user, club=tournament.club)


def can_view(*, tournament: Tournament, role: str | None) -> bool:
    return can_view_club(club=tournament.club, role=role)


def can_manage(*, role: str | None) -> bool:
    return role_allows(role, Membership.Role.ORGANISER)
