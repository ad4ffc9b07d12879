"""An open for the tests: the federation's first club hosts a Rummikub cup with no round yet;
two people registered at the second club (one linked to its player, one claiming nothing),
and a person with an account of his own."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from federations.models import FederationOpen, Person
from federations.services.links import link_make
from federations.services.opens import open_host
from federations.services.register import person_add
from games.models import Player
from games.text.names import loose_key, name_key
from tests.factories import UserFactory
from tests.federations.support import World, world
from tests.tournaments.support import tournament
from tournaments.models import Tournament


@dataclass
class OpenWorld:
    w: World
    cup: Tournament
    open_: FederationOpen
    ann: Person  # home club: the second club, linked to its player "Ann"
    bob: Person  # home club: the second club, not linked anywhere
    eve: Person  # has an account (``eve_user``), home club: none
    eve_user: User


def club_player(club_id: int, name: str) -> Player:
    return Player.objects.create(club_id=club_id, name=name, key=name_key(name), loose_key=loose_key(name))


def an_open(*, self_entry: bool = True, players: int = 4, clubs: int = 2, tag: str = "") -> OpenWorld:
    w = world(clubs=clubs, tag=tag)
    host, guest = w.clubs[0], w.clubs[1]
    cup = tournament(host, w.organisers[0], players=players, name="Velká cena federace")
    made = open_host(federation=w.federation, tournament=cup, self_entry=self_entry, user=w.organisers[0])
    ann = person_add(federation=w.federation, name="Ann Nováková", home_club=guest)
    bob = person_add(federation=w.federation, name="Bob Dvořák", home_club=guest)
    eve = person_add(federation=w.federation, name="Eve Malá")
    eve_user = UserFactory.create(username=f"eve{tag}")
    Person.objects.filter(pk=eve.pk).update(user=eve_user)
    eve.refresh_from_db()
    link_make(
        federation=w.federation,
        club=guest,
        player=club_player(guest.pk, "Ann"),
        person_id=str(ann.number),
    )
    return OpenWorld(w, cup, made, ann, bob, eve, eve_user)
