"""Who may do what.

A game: its owner, anyone holding its edit link (kept in the session), and for a club's game
the club's scorekeepers and organisers may change it; anyone with its address reads it.

A club: organisers run it (settings, members, invites, merges, renames), scorekeepers start
and record games in its name, members read it and claim their player. A members-only club is
invisible to everyone else (its pages answer 404). A site admin (superuser) may act as an
organiser of every club.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

from games.models import Club, Game, Membership, Player

SESSION_KEY = "editable_games"
Role = Membership.Role
RANK = {Role.MEMBER: 1, Role.SCOREKEEPER: 2, Role.ORGANISER: 3}
AnyUser = User | AnonymousUser


def club_role(*, user: AnyUser, club: Club) -> str | None:
    """The user's role in the club (``organiser`` for a site admin), or None (1 query)."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    return Membership.objects.filter(club=club, user_id=user.pk).values_list("role", flat=True).first()


def is_member(*, user: AnyUser, club: Club) -> bool:
    """A real member (of any role): a site admin who is not one cannot claim a player there."""
    return user.is_authenticated and Membership.objects.filter(club=club, user_id=user.pk).exists()


def role_allows(role: str | None, needed: str) -> bool:
    return role is not None and RANK[Role(role)] >= RANK[Role(needed)]


def can_view_club(*, club: Club, role: str | None) -> bool:
    return club.visibility == Club.Visibility.PUBLIC or role is not None


def can_view_player(*, player: Player, user: AnyUser, role: str | None) -> bool:
    """A club's player: whoever sees the club. A private roster's: only its owner (or an
    admin). A player of a game started without an account has no page."""
    if player.club_id is not None:
        return player.club is not None and can_view_club(club=player.club, role=role)
    if player.owner_id is None:
        return False
    if user.is_authenticated and user.is_superuser:
        return True
    return user.is_authenticated and player.owner_id == user.pk


def can_edit(*, request: HttpRequest, game: Game, role: str | None = None) -> bool:
    """``role``: the user's role in the game's club, if the caller knows it already."""
    if game.owner_id is not None and request.user.is_authenticated and request.user.pk == game.owner_id:
        return True
    if game.public_id in request.session.get(SESSION_KEY, []):
        return True
    if game.club_id is not None and request.user.is_authenticated:
        if role is None and game.club is not None:
            role = club_role(user=request.user, club=game.club)
        return role_allows(role, Role.SCOREKEEPER)
    return False


def grant_edit(*, request: HttpRequest, game: Game) -> None:
    """Remember in this browser's session that it may edit ``game``."""
    editable = list(request.session.get(SESSION_KEY, []))
    if game.public_id not in editable:
        editable.append(game.public_id)
        request.session[SESSION_KEY] = editable[-200:]


def token_matches(*, game: Game, token: str) -> bool:
    return secrets.compare_digest(game.edit_token.encode(), token.encode())


def session_game_ids(*, request: HttpRequest) -> list[str]:
    return list(request.session.get(SESSION_KEY, []))
