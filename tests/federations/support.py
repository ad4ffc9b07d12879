"""A small federation for the tests: two member clubs, each with an organiser, and a person who
plays at both (one account, a player of his own in each club)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from federations.models import Federation
from federations.services.federations import federation_create
from federations.services.memberships import club_answer, club_invite
from games.models import Club, Membership, Player
from games.text.names import loose_key, name_key
from tests.factories import ClubFactory, UserFactory, add_member


@dataclass
class World:
    federation: Federation
    director: User  # the federation's organiser
    clubs: list[Club]
    organisers: list[User]  # each club's organiser


def join(federation: Federation, club: Club, organiser: User, director: User) -> None:
    membership = club_invite(federation=federation, club=club, user=director)
    club_answer(membership=membership, accept=True, version=membership.version, user=organiser)


def world(clubs: int = 2, *, prefix: str = "CZ", tag: str = "") -> World:
    """``tag`` tells apart the worlds of one test's several examples."""
    director = UserFactory.create(username=f"director{tag}")
    federation = federation_create(name="Česká federace žolíků", user=director, id_prefix=prefix)
    made, organisers = [], []
    for n in range(clubs):
        organiser = UserFactory.create(username=f"organiser{n}{tag}")
        club = ClubFactory.create(name=f"Klub {n}{tag}", organiser=organiser)
        join(federation, club, organiser, director)
        made.append(club)
        organisers.append(organiser)
    return World(federation, director, made, organisers)


def own_player(club: Club, user: User, name: str) -> Player:
    """A member's own player in a club (as claimed in the club)."""
    add_member(club, user, Membership.Role.MEMBER)
    return Player.objects.create(
        club=club, name=name, key=name_key(name), loose_key=loose_key(name), user=user
    )
