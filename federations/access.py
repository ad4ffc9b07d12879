"""Who may do what in a federation: its organisers run it (settings, organisers, clubs, the
register, merges); a member club's organisers accept or end their club's membership, link
their players to the register and confirm their players' claims; a person claims his own
entry from his account. A members-only federation is seen by its organisers and by the
members of its member clubs; others get a 404, as for a members-only club."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q

from federations.models import Federation, FederationClub, FederationOrganiser
from games.models import Club, Membership

AnyUser = User | AnonymousUser


def is_organiser(*, user: AnyUser, federation: Federation) -> bool:
    """A federation organiser (a site admin counts as one)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return FederationOrganiser.objects.filter(federation=federation, user_id=user.pk).exists()


def _in_member_club(user: User) -> Q:
    return Q(
        Exists(
            FederationClub.objects.filter(
                federation=OuterRef("pk"),
                state=FederationClub.State.MEMBER,
                club__memberships__user_id=user.pk,
            )
        )
    )


def visible_federations(*, user: AnyUser) -> Q:
    """The federations a user sees, as a filter: the public ones, the ones he organises and
    those of his clubs (a site admin's: all)."""
    if user.is_authenticated and user.is_superuser:
        return Q()
    shown = Q(visibility=Federation.Visibility.PUBLIC)
    if user.is_authenticated:
        shown |= Q(Exists(FederationOrganiser.objects.filter(federation=OuterRef("pk"), user_id=user.pk)))
        shown |= _in_member_club(cast(User, user))
    return shown


def can_view(*, user: AnyUser, federation: Federation) -> bool:
    if federation.visibility == Federation.Visibility.PUBLIC:
        return True
    return Federation.objects.filter(visible_federations(user=user), pk=federation.pk).exists()


def club_organiser(*, user: AnyUser, club: Club) -> bool:
    """Whether the user runs the club (its organiser, or a site admin)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(club=club, user_id=user.pk, role=Membership.Role.ORGANISER).exists()
