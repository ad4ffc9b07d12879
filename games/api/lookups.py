"""The objects an API call names, found for its caller: a club or a game he may see (404
otherwise, as the pages answer), and one he may change or run (401 without credentials, 403
with them). The rules themselves are ``games.services.access``'s; this module only says which
refusal a caller gets, once for every resource (the tournaments' and seasons' too)."""

from __future__ import annotations

from typing import NoReturn

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.api.auth import GameLink
from games.models import Club, Game, Membership
from games.selectors.clubs import club_by_slug
from games.selectors.games import game_by_public_id
from games.services.access import (
    can_edit,
    can_manage_game,
    can_view_club,
    club_role,
    role_allows,
    session_game_ids,
    visible_games,
)
from games.text.errors import write_refused

MAX_ID = 2**31 - 1  # ids and numbers beyond this cannot exist


def caller(request: Request) -> User | AnonymousUser:
    """The calling user (anonymous for an edit link or nobody)."""
    user = request.user
    return user if isinstance(user, User) else AnonymousUser()


def refuse(request: Request, message: str) -> NoReturn:
    """Not allowed: 401 when no credential was given, else 403 with ``message`` (as DRF's own
    permissions answer: a game's edit link is a credential, for its game only)."""
    if request.successful_authenticator is None:
        raise exceptions.NotAuthenticated()
    raise exceptions.PermissionDenied(message)


def visible_club(request: Request, slug: str, *, manage: bool = False) -> tuple[Club, str | None]:
    """The club at ``slug`` and the caller's role in it; 404 when he may not see it (a
    members-only club to outsiders). ``manage``: only its organisers (and site admins)."""
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=caller(request), club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if manage:
        organiser_only(request, role)
    return club, role


def organiser_only(request: Request, role: str | None) -> None:
    """Refused unless ``role`` (the caller's in a club) is organiser (a site admin's is)."""
    if not role_allows(role, Membership.Role.ORGANISER):
        refuse(request, _("Only the club's organisers can do this."))


def recording_club(request: Request, slug: str) -> Club:
    """The club a game is started in: one the caller sees (else refused at the field, as a club
    that does not exist) and records for (403 otherwise)."""
    club = club_by_slug(slug=slug)
    role = club_role(user=caller(request), club=club) if club is not None else None
    if club is None or not can_view_club(club=club, role=role):
        raise exceptions.ValidationError({"club": [_("There is no such club.")]})
    if not role_allows(role, Membership.Role.SCOREKEEPER):
        refuse(request, _("Only the club's scorekeepers and organisers can start games in its name."))
    return club


def game_or_404(public_id: str) -> Game:
    """Any game by its address: whoever has the address reads it (a deleted one is gone)."""
    game = game_by_public_id(public_id=public_id)
    if game is None:
        raise Http404
    return game


def link_game_id(request: Request) -> int | None:
    """The game whose edit link the caller bears as his credential, if he does."""
    return request.auth.game_id if isinstance(request.auth, GameLink) else None


def may_write(request: Request, game: Game) -> bool:
    return can_edit(request=request._request, game=game, link_game_id=link_game_id(request))


def may_manage(request: Request, game: Game) -> bool:
    """An organiser of the game's club (never the bearer of an edit link)."""
    return link_game_id(request) is None and can_manage_game(request=request._request, game=game)


def writable_game(request: Request, public_id: str) -> Game:
    """A game the caller may record (404 unseen; 401 or 403 when not his to write)."""
    game = game_or_404(public_id)
    if not may_write(request, game):
        refuse(request, write_refused(game))
    if request.successful_authenticator is None:
        # Allowed by the edit link this browser's session holds: DRF checks CSRF only for a
        # logged-in session, so check it here (another site must not write with that session).
        authentication.SessionAuthentication().enforce_csrf(request)
    return game


def managed_game(request: Request, public_id: str) -> Game:
    """A club's game its club's organisers give on or delete (401/403 for anyone else)."""
    game = game_or_404(public_id)
    if not may_manage(request, game):
        refuse(request, _("Only an organiser of the game's club can do this."))
    return game


def game_with_deleted(request: Request, public_id: str) -> tuple[Game, bool | None]:
    """The game, deleted or not; a deleted one only for its club's organisers (404 for anyone
    else). With whether the caller organises its club, when that had to be asked (else None)."""
    game = game_by_public_id(public_id=public_id, deleted=True)
    if game is None:
        raise Http404
    if game.deleted_at is None:
        return game, None
    if not may_manage(request, game):
        raise Http404
    return game, True


def seen_games(request: Request) -> Q:
    """The games a list shows this caller: by his account, the edit link he called with or the
    ones his browser's session holds."""
    held = session_game_ids(request=request._request) if request.auth is None else []
    return visible_games(user=caller(request), link_game_id=link_game_id(request), held=held)
