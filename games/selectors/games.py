"""Lists of games as pages read them."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from games.models import Change, Game


def user_games(*, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 50) -> list[Game]:
    """The games this user started, or this browser may edit, newest first, with seats and
    clubs (2 queries)."""
    wanted = Q(public_id__in=list(game_ids))
    if user.is_authenticated:
        wanted |= Q(owner_id=user.pk)
    return list(
        Game.objects.filter(wanted)
        .select_related("club")
        .prefetch_related("seats")
        .order_by("-updated_at")[:limit]
    )


def game_by_public_id(*, public_id: str) -> Game | None:
    """A game by the id in its address, with its owner and club (1 query)."""
    # No ORDER BY (the model's ordering, which .first() would add): public_id is unique.
    found = Game.objects.select_related("owner", "club").filter(public_id=public_id).order_by()[:1]
    return next(iter(found), None)


def game_change(*, game: Game, pk: int) -> Change | None:
    return Change.objects.filter(game=game, pk=pk).first()
