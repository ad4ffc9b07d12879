"""What the federation pages read: the federations a user sees (with their member counts), one
federation's page (its member clubs, which the reader may open, the size of its register),
its organisers and its clubs' memberships, current and past."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from federations import access
from federations.access import AnyUser
from federations.models import Federation, FederationChange, FederationClub, FederationOrganiser, Person
from games.models import Club
from games.services.access import visible_clubs

State = FederationClub.State


def federation_list(*, user: AnyUser) -> QuerySet[Federation]:
    """The federations ``user`` sees, by name, each with ``member_count`` (one query)."""
    return (
        Federation.objects.filter(access.visible_federations(user=user))
        .annotate(member_count=Count("clubs", filter=Q(clubs__state=State.MEMBER), distinct=True))
        .order_by("name", "pk")
    )


def federation_by_slug(*, slug: str) -> Federation | None:
    return Federation.objects.filter(slug=slug[:50]).first()


def member_clubs(*, federation: Federation, user: AnyUser) -> list[FederationClub]:
    """The member clubs by name, each with ``club_visible``: whether ``user`` may open the
    club's page (one query)."""
    seen = Club.objects.filter(visible_clubs(user=user), pk=OuterRef("club_id"))
    return list(
        FederationClub.objects.filter(federation=federation, state=State.MEMBER)
        .select_related("club")
        .annotate(club_visible=Exists(seen))
        .order_by("club__name", "pk")
    )


@dataclass(frozen=True)
class FederationPage:
    federation: Federation
    clubs: list[FederationClub]
    register_count: int
    organiser: bool


def federation_page(*, federation: Federation, user: AnyUser) -> FederationPage:
    """The federation's page: its member clubs, how many live entries its register holds (the
    merged ones aside), and whether the reader runs it."""
    return FederationPage(
        federation=federation,
        clubs=member_clubs(federation=federation, user=user),
        register_count=Person.objects.filter(federation=federation, merged_into=None).count(),
        organiser=access.is_organiser(user=user, federation=federation),
    )


def organisers(*, federation: Federation) -> list[FederationOrganiser]:
    return list(
        FederationOrganiser.objects.filter(federation=federation)
        .select_related("user")
        .order_by("user__username")
    )


def find_organiser(*, federation: Federation, username: str) -> FederationOrganiser | None:
    return (
        FederationOrganiser.objects.filter(federation=federation, user__username=username[:150])
        .select_related("user")
        .first()
    )


@dataclass(frozen=True)
class ClubsPage:
    members: list[FederationClub]
    invited: list[FederationClub]
    past: list[FederationClub]


def memberships(*, federation: Federation) -> QuerySet[FederationClub]:
    """Every period of every club, open ones first, then by club and newest first."""
    return (
        FederationClub.objects.filter(federation=federation)
        .select_related("club")
        .order_by("club__name", "club_id", "-invited_at", "-pk")
    )


def clubs_page(*, federation: Federation) -> ClubsPage:
    """The federation's clubs as its organisers manage them (one query)."""
    rows = list(memberships(federation=federation))
    return ClubsPage(
        members=[m for m in rows if m.state == State.MEMBER],
        invited=[m for m in rows if m.state == State.INVITED],
        past=[m for m in rows if m.state in (State.DECLINED, State.ENDED)],
    )


def membership_of(*, federation: Federation, club_slug: str) -> FederationClub | None:
    """The club's open period (invited or member), if any."""
    return (
        FederationClub.objects.filter(
            federation=federation, club__slug=club_slug[:50], state__in=(State.INVITED, State.MEMBER)
        )
        .select_related("club")
        .first()
    )


def membership_by_id(*, federation: Federation, pk: int) -> FederationClub | None:
    return FederationClub.objects.filter(federation=federation, pk=pk).select_related("club").first()


def home_club_choices(*, federation: Federation) -> list[Club]:
    """The clubs a register entry's home may be: the member clubs, by name."""
    return list(
        Club.objects.filter(federations__federation=federation, federations__state=State.MEMBER).order_by(
            "name", "pk"
        )
    )


def account_id(*, username: str) -> int | None:
    """The id of the account of that name (an organiser's removal resent after it is gone)."""
    return User.objects.filter(username=username[:150]).values_list("pk", flat=True).first()


def membership_by_request(*, federation: Federation, request_id: uuid.UUID) -> FederationClub | None:
    """The membership a write of that request id changed (its resend after it was ended)."""
    change = FederationChange.objects.filter(federation=federation, request_id=request_id).first()
    pk = (change.data or {}).get("membership") if change is not None else None
    return membership_by_id(federation=federation, pk=pk) if isinstance(pk, int) else None
