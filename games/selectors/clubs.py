"""Clubs as pages read them: a user's clubs, a club's recent games, members, history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import Change, Club, ClubChange, Game, Invite, Membership, Player, Result
from games.services.access import AnyUser, visible_clubs


def user_clubs(*, user: User) -> list[Membership]:
    """The user's memberships with their clubs, by club name (1 query)."""
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))


def recording_clubs(*, user: User) -> list[Club]:
    """Clubs in whose name the user may start games: scorekeeper or organiser (1 query)."""
    if user.is_superuser:
        return list(Club.objects.order_by("name"))
    roles = [Membership.Role.SCOREKEEPER, Membership.Role.ORGANISER]
    return list(Club.objects.filter(memberships__user=user, memberships__role__in=roles).order_by("name"))


def clubs_seen(*, user: AnyUser) -> QuerySet[Club]:
    """The clubs the user sees (``visible_clubs``), each with his role there as
    ``caller_role`` (None: not a member; a site admin organises every club he is not a member
    of)."""
    clubs = Club.objects.filter(visible_clubs(user=user))
    if user.is_authenticated:
        role = Membership.objects.filter(club=OuterRef("pk"), user_id=user.pk).values("role")[:1]
        mine: Any = Subquery(role)
        if user.is_superuser:
            mine = Coalesce(mine, Value(Membership.Role.ORGANISER.value))
        clubs = clubs.annotate(caller_role=mine)
    return clubs


def club_by_slug(*, slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def club_by_pk(*, pk: int) -> Club | None:
    """The club as it is now, whatever its address meanwhile (1 query)."""
    return Club.objects.filter(pk=pk).first()


def club_games(*, club: Club, limit: int = 30) -> list[Game]:
    """The club's most recent games with their results and players (2 queries); not the
    deleted ones."""
    results = Prefetch(
        "results",
        queryset=Result.objects.select_related("player", "seat").order_by("place", "seat__position"),
    )
    return list(
        Game.objects.filter(club=club, deleted_at=None)
        .order_by("-played_at", "-id")
        .prefetch_related(results)[:limit]
    )


@dataclass(frozen=True)
class MemberRow:
    membership: Membership
    player: Player | None  # the player he claimed in this club


def club_members(*, club: Club) -> list[MemberRow]:
    """Members with their roles and claimed players (2 queries)."""
    memberships = list(Membership.objects.filter(club=club).select_related("user").order_by("user__username"))
    claimed = {p.user_id: p for p in Player.objects.filter(club=club, merged_into=None, user__isnull=False)}
    return [MemberRow(membership=m, player=claimed.get(m.user_id)) for m in memberships]


def active_invites(*, club: Club) -> list[Invite]:
    return [i for i in Invite.objects.filter(club=club, revoked_at=None) if i.active]


def club_history(*, club: Club, limit: int = 100) -> list[ClubChange]:
    """The club's recorded changes, newest first, with who made them and what undid them (2 queries)."""
    return list(
        ClubChange.objects.filter(club=club).select_related("user").prefetch_related("undone_by")[:limit]
    )


def club_invite(*, club: Club, pk: int) -> Invite | None:
    return Invite.objects.filter(club=club, pk=pk).first()


def club_membership(*, club: Club, pk: int) -> Membership | None:
    """One membership of the club, with its user (1 query)."""
    return Membership.objects.select_related("user").filter(club=club, pk=pk).first()


def club_change(*, club: Club, pk: int) -> ClubChange | None:
    return ClubChange.objects.filter(club=club, pk=pk).first()


def club_recorders(*, club: Club, besides: int | None = None) -> list[User]:
    """The club's scorekeepers and organisers (who may start its games), by name, but the
    user ``besides`` (1 query): whom a club's game can be given to."""
    roles = [Membership.Role.SCOREKEEPER, Membership.Role.ORGANISER]
    found = User.objects.filter(memberships__club=club, memberships__role__in=roles)
    if besides is not None:
        found = found.exclude(pk=besides)
    return list(found.order_by("username"))


def game_removal(*, game: Game) -> Change | None:
    """The change that deleted the game, while it stays deleted (1 query)."""
    return (
        Change.objects.filter(game=game, action=Change.Action.REMOVED, undone_by__isnull=True)
        .select_related("user")
        .order_by("-pk")
        .first()
    )
