"""Who may do what.

A game: anyone holding its edit link (kept in the session) may change it; a private game's
owner too, and a club's game its club's scorekeepers and organisers. A club's game follows the
club's roles alone: its starter (``owner``) writes while he is a scorekeeper or organiser
there, and not once he is set back to member or removed (a role ends, and what it gave ends
with it). Anyone with its address reads it. A private game's owner (or, for a game started
without an account, the browser that started it), a club game's starter while he records for
the club, and the club's organisers may replace the edit link: the old one then stops working
at once, also in the sessions that opened it, since a session remembers a digest of the token
it was given, not just the game. A club's organisers may also give a club's game another
starter and delete it (undo brings it back).

A club: organisers run it (settings, members, invites, merges, renames), scorekeepers start
and record games in its name, members read it and claim their player. A members-only club is
invisible to everyone else (its pages answer 404). A site admin (superuser) may act as an
organiser of every club.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.urls import reverse

from games.models import Change, Club, Game, Membership, Player

# public id -> digest of the edit token this session was given (ends with a new link).
SESSION_KEY = "edit_links"
# Sessions from before links could be replaced: a list of public ids, honoured only for a
# game whose link was never replaced (and then upgraded to SESSION_KEY).
LEGACY_SESSION_KEY = "editable_games"
# Games this browser started without an account: it may replace their edit link.
STARTED_KEY = "started_games"
SESSION_LIMIT = 200
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


def visible_clubs(*, user: AnyUser) -> Q:
    """``can_view_club`` as a filter of clubs, for a list: the public ones and the user's own (a
    site admin's: all)."""
    if user.is_authenticated and user.is_superuser:
        return Q()
    shown = Q(visibility=Club.Visibility.PUBLIC)
    if user.is_authenticated:
        shown |= Q(Exists(Membership.objects.filter(club=OuterRef("pk"), user_id=user.pk)))
    return shown


def visible_games(*, user: AnyUser, link_game_id: int | None = None, held: Sequence[str] = ()) -> Q:
    """The games a list shows: the games of the clubs the user sees, his own private games, the
    game his edit link opens (``link_game_id``) and the private games this browser holds the
    edit link of (``held``: their public ids, ``session_game_ids``)."""
    shown = Q(club__in=Club.objects.filter(visible_clubs(user=user)))
    if user.is_authenticated:
        shown |= Q(club__isnull=True, owner_id=user.pk)
    if link_game_id is not None:
        shown |= Q(pk=link_game_id)
    if held:
        shown |= Q(club__isnull=True, public_id__in=list(held))
    return shown


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


def _is_owner(request: HttpRequest, game: Game) -> bool:
    """The user started the game (a club's game: whatever his role there is now)."""
    return game.owner_id is not None and request.user.is_authenticated and request.user.pk == game.owner_id


def _link_digest(game: Game) -> str:
    """What a session keeps of the edit token it was given (not the token itself)."""
    return hashlib.sha256(game.edit_token.encode()).hexdigest()[:32]


def holds_link(*, request: HttpRequest, game: Game) -> bool:
    """This session opened the game's *current* edit link (or started the game with it)."""
    held = request.session.get(SESSION_KEY)
    digest = held.get(game.public_id) if isinstance(held, dict) else None
    if isinstance(digest, str):
        return secrets.compare_digest(digest, _link_digest(game))
    if game.public_id in request.session.get(LEGACY_SESSION_KEY, []):
        # Granted before links could be replaced: valid while the link is the first one.
        if Change.objects.filter(game=game, action=Change.Action.NEW_LINK).exists():
            return False
        grant_edit(request=request, game=game)
        return True
    return False


def can_edit(
    *, request: HttpRequest, game: Game, role: str | None = None, link_game_id: int | None = None
) -> bool:
    """``role``: the user's role in the game's club, if the caller knows it already. A club's
    game: starting it gave no right of its own (the club's roles decide). A game whose results
    its event confirmed: only the club's organisers (a correction changes the standings).
    ``link_game_id``: the caller's credential is that game's edit link (a program's, not a
    session's), which writes that game alone, and not once its event confirmed it."""
    if link_game_id is not None:
        return link_game_id == game.pk and not game.results_locked
    if game.results_locked:
        return _club_allows(request, game, role, Role.ORGANISER)
    if game.club_id is None and _is_owner(request, game):
        return True
    if holds_link(request=request, game=game):
        return True
    return _club_allows(request, game, role, Role.SCOREKEEPER)


def _club_allows(request: HttpRequest, game: Game, role: str | None, needed: str) -> bool:
    """The user's role in the game's club (``role`` if the caller knows it) reaches ``needed``."""
    if game.club_id is None or not request.user.is_authenticated:
        return False
    if role is None and game.club is not None:
        role = club_role(user=request.user, club=game.club)
    return role_allows(role, needed)


def grant_edit(*, request: HttpRequest, game: Game, started: bool = False) -> None:
    """Remember in this browser's session that it holds ``game``'s current edit link (until a
    new link is made). ``started``: this browser started the game (without an account, it
    may then replace the link)."""
    held = request.session.get(SESSION_KEY)
    links = {k: v for k, v in held.items() if k != game.public_id} if isinstance(held, dict) else {}
    links[game.public_id] = _link_digest(game)
    request.session[SESSION_KEY] = dict(list(links.items())[-SESSION_LIMIT:])
    if started and game.owner_id is None:
        started_here = [*request.session.get(STARTED_KEY, []), game.public_id]
        request.session[STARTED_KEY] = started_here[-SESSION_LIMIT:]


def can_renew_link(*, request: HttpRequest, game: Game, role: str | None = None) -> bool:
    """May make a new edit link (ending the old one): a private game's owner, the browser that
    started a game without an account, a club game's starter while he is a scorekeeper or
    organiser there, and the club's organisers (site admins included).
    ``role``: the user's role in the game's club, if the caller knows it already."""
    if game.club_id is not None:
        if role is None and game.club is not None and request.user.is_authenticated:
            role = club_role(user=request.user, club=game.club)
        needed = Role.SCOREKEEPER if _is_owner(request, game) else Role.ORGANISER
        return request.user.is_authenticated and role_allows(role, needed)
    if _is_owner(request, game):
        return True
    return game.owner_id is None and game.public_id in request.session.get(STARTED_KEY, [])


def can_manage_game(*, request: HttpRequest, game: Game, role: str | None = None) -> bool:
    """May give a club's game another starter or delete it: the club's organisers (site admins
    included). A private game has nobody above its owner: none of this applies to it.
    ``role``: the user's role in the game's club, if the caller knows it already."""
    return _club_allows(request, game, role, Role.ORGANISER)


def can_rematch(*, request: HttpRequest, game: Game, role: str | None = None, known: bool = False) -> bool:
    """May start a rematch of the game (the same players in a new game): whoever could start
    it anew. A club's game: the club's scorekeepers and organisers (a game in the club's name);
    a private game: its owner; a game started without an account: a browser holding its edit
    link. ``role``: the user's role in the game's club, if the caller knows it already (then
    ``known``: None means none). A table of an event is not played again outside it."""
    if game.event_name or game.event_path:
        return False
    if game.club_id is not None:
        if known:
            return request.user.is_authenticated and role_allows(role, Role.SCOREKEEPER)
        return _club_allows(request, game, role, Role.SCOREKEEPER)
    if game.owner_id is not None:
        return _is_owner(request, game)
    return holds_link(request=request, game=game)


def token_matches(*, game: Game, token: str) -> bool:
    return secrets.compare_digest(game.edit_token.encode(), token.encode())


def edit_url(game: Game) -> str:
    """The path of the game's edit link (the one place that builds it). The token travels in the
    fragment, which browsers never send, so it stays out of access logs (games/views/links.py)."""
    return reverse("games:edit_link_page", kwargs={"public_id": game.public_id}) + "#" + game.edit_token


def session_game_ids(*, request: HttpRequest) -> list[str]:
    """The games this browser was given an edit link to (possibly replaced since)."""
    held = request.session.get(SESSION_KEY)
    ids = list(held) if isinstance(held, dict) else []
    return ids + [i for i in request.session.get(LEGACY_SESSION_KEY, []) if i not in ids]
