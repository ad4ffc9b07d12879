"""The games pages read: a user's list of games, one game with its owner and club, the row a
page's ETag check needs (both written out in SQL with the columns read from the models'
``_meta``, since every poll makes one), and one change of a game's history."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import Model, Prefetch, Q

from games import rows
from games.models import Change, Club, Game, Membership, Seat


def user_games(*, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 50) -> list[Game]:
    """The games this user started, or this browser may edit, newest first, with seats and
    clubs (2 queries); a deleted game is in no list."""
    wanted = Q(public_id__in=list(game_ids))
    if user.is_authenticated:
        wanted |= Q(owner_id=user.pk)
    return list(
        Game.objects.filter(wanted, deleted_at=None)
        .select_related("club")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("result")))
        .order_by("-updated_at")[:limit]
    )


class GameRow(NamedTuple):
    """A line of My games: the game, its players (seats in order), whether it is over (the
    evening was ended, or the family's end was reached) and who won (none while in play, or
    when it ended without a winner)."""

    game: Game
    seats: list[Seat]
    over: bool
    winners: list[str]


def game_rows(games: Sequence[Game]) -> list[GameRow]:
    """What My games shows of ``user_games``' games (no query)."""
    rows = []
    for game in games:
        seats = list(game.seats.all())
        results = [r for r in (getattr(seat, "result", None) for seat in seats) if r is not None]
        finished = any(r.finished for r in results)
        winners = [r.seat.name for r in results if r.winner] if finished else []
        rows.append(GameRow(game, seats, game.ended or finished, winners))
    return rows


def user_club_roles(*, user: User | AnonymousUser) -> dict[int, str]:
    """The user's role in each of his clubs (1 query; none for an anonymous user). A site
    admin's is organiser everywhere: ask ``access.club_role`` for a club not listed."""
    if not user.is_authenticated:
        return {}
    return dict(Membership.objects.filter(user_id=user.pk).values_list("club_id", "role"))


def game_by_public_id(*, public_id: str, deleted: bool = False) -> Game | None:
    """A game by the id in its address, with its owner and club (1 query, written out: every
    save and every page drawn reads it; games.rows). A game deleted by an organiser is None,
    as if it never was, unless ``deleted`` (the pages that offer to bring it back)."""
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(), [public_id])
        row = cursor.fetchone()
    if row is None:
        return None
    owner_at, club_at = rows.width(Game), rows.width(Game) + rows.width(User)
    game = rows.instance(Game, row[:owner_at])
    if game.deleted_at is not None and not deleted:
        return None
    if game.owner_id is not None:
        game.owner = rows.instance(User, row[owner_at:club_at])
    if game.club_id is not None:
        game.club = rows.instance(Club, row[club_at:])
    return game


def _owner_and_club() -> str:
    """The game's owner (u) and club (c), joined to the game (g)."""
    owner, club = rows.column(Game, "owner", "g"), rows.column(Game, "club", "g")
    return (
        f" LEFT JOIN {rows.table(User)} u ON {rows.column(User, 'id', 'u')} = {owner}"
        f" LEFT JOIN {rows.table(Club)} c ON {rows.column(Club, 'id', 'c')} = {club}"
    )


@cache
def _game_sql() -> str:
    return (
        f"SELECT {rows.columns(Game, 'g')}, {rows.columns(User, 'u')}, {rows.columns(Club, 'c')}"
        f" FROM {rows.table(Game)} g{_owner_and_club()} WHERE {rows.column(Game, 'public_id', 'g')} = %s"
    )


@cache  # the same text for every 304: written once, not on each poll
def _revalidation_sql() -> str:
    game = [rows.column(Game, name, "g") for name in _REVALIDATED]
    user = [rows.column(User, name, "u") for name in ("username", "first_name")]
    club = [rows.column(Club, name, "c") for name in ("slug", "name", "visibility", "version")]
    return (
        f"SELECT {', '.join(game + user + club)} FROM {rows.table(Game)} g{_owner_and_club()}"
        f" WHERE {rows.column(Game, 'public_id', 'g')} = %s"
    )


# The game's fields an ETag check reads, in the order game_to_revalidate unpacks them.
_REVALIDATED = (
    "id",
    "public_id",
    "owner",
    "club",
    "edit_token",
    "updated_at",
    "deleted_at",
    # What decides who writes (a confirmed event's table) and whether a rematch is offered.
    "results_locked",
    "event_name",
    "event_path",
    # The page's tag follows a round clock's minutes (games.round_clock.clock_tag).
    "event_ends",
)


def _partial[M: Model](model: type[M], **given: object) -> M:
    """An instance of ``model`` as a row read from the database with only these fields: the
    others are deferred (read on first use), as with ``QuerySet.only``."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in given]
    return model.from_db(connection.alias, names, [given[name] for name in names])


def game_to_revalidate(*, public_id: str, deleted: bool = False) -> Game | None:
    """A game page's ETag check (1 query): the game with only what the tag and the access
    checks read — its ids, edit token, version (``updated_at``) and deletion, its owner's names, its club's
    names, visibility and version. Its other fields, and the owner's and club's, are deferred
    (read from the database if anything asks for them); a page drawn after the check loads the
    whole game with :func:`game_by_public_id`.

    Every phone at a table polls its game this way, so the query is written out: building the
    ORM's query for the whole game with its owner and club costs about 0.3 ms, more than the
    rest of a 304 together (docs/design/performance.md). A deleted game: as
    :func:`game_by_public_id`."""
    with connection.cursor() as cursor:
        cursor.execute(_revalidation_sql(), [public_id])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, public_id, owner_id, club_id, token, updated_at, deleted_at, locked, event, path, ends, *people = row
    username, first_name, *club = people
    if deleted_at is not None and not deleted:
        return None
    game = _partial(
        Game,
        id=pk,
        public_id=public_id,
        owner_id=owner_id,
        club_id=club_id,
        edit_token=token,
        updated_at=rows.aware(updated_at),
        deleted_at=rows.aware(deleted_at),
        results_locked=bool(locked),
        event_name=event,
        event_path=path,
        event_ends=rows.aware(ends),
    )
    if owner_id is not None:
        game.owner = _partial(User, id=owner_id, username=username, first_name=first_name)
    if club_id is not None:
        slug, name, visibility, version = club
        game.club = _partial(Club, id=club_id, slug=slug, name=name, visibility=visibility, version=version)
    return game


def game_change(*, game: Game, pk: int) -> Change | None:
    return Change.objects.filter(game=game, pk=pk).first()
