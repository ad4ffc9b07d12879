"""Lists of games as pages read them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, Q

from games.models import Change, Game, Membership, Seat


def user_games(*, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 50) -> list[Game]:
    """The games this user started, or this browser may edit, newest first, with seats and
    clubs (2 queries)."""
    wanted = Q(public_id__in=list(game_ids))
    if user.is_authenticated:
        wanted |= Q(owner_id=user.pk)
    return list(
        Game.objects.filter(wanted)
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


def game_by_public_id(*, public_id: str) -> Game | None:
    """A game by the id in its address, with its owner and club (1 query)."""
    # No ORDER BY (the model's ordering, which .first() would add): public_id is unique.
    found = Game.objects.select_related("owner", "club").filter(public_id=public_id).order_by()[:1]
    return next(iter(found), None)


def game_change(*, game: Game, pk: int) -> Change | None:
    return Change.objects.filter(game=game, pk=pk).first()
