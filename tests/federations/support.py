"""A small federation for the tests: two member clubs, each with an organiser, and a person who
plays at both (one account, a player of his own in each club)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from federations import derived
from federations.models import Federation, FederationClub, Person, PublishedList
from federations.publication import month_of
from federations.services.federations import federation_create
from federations.services.links import link_make
from federations.services.memberships import club_answer, club_invite
from federations.services.register import person_add
from games.models import Club, Game, Membership, Player
from games.text.names import loose_key, name_key
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.fault_club import play
from tests.tournaments.support import play_round, tournament
from tournaments.models import Tournament


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


def lines(published: PublishedList) -> list[tuple[Any, ...]]:
    return list(
        published.lines.order_by("rank", "number").values_list(
            "number", "name", "rank", "rating", "uncertainty", "games", "provisional", "inactive",
            "previous_rating", "previous_rank",
        )
    )  # fmt: skip


def at(day: datetime.date, hour: int = 20) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def dated(game: Game, when: datetime.datetime) -> Game:
    """A game played on another day (as the date page sets it), re-rated from there."""
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(played_at=when)
        game.refresh_from_db()
        derived.game_dated(game, before=when, after=when)
    return game


def game_on(w: World, club: int, names: list[str], winner: str, day: datetime.date) -> Game:
    """A finished game at one of the clubs, played on ``day``."""
    return dated(play(w.clubs[club], w.organisers[club], names, winner), at(day))


def a_federation(months_back: int = 3) -> tuple[World, list[Person], datetime.date]:
    """A federation founded months ago, its two clubs counting from then, four people linked."""
    w = world()
    this_month = month_of()
    founded = (this_month - datetime.timedelta(days=31 * months_back)).replace(day=1)
    Federation.objects.filter(pk=w.federation.pk).update(created_at=at(founded, 9))
    w.federation.refresh_from_db()
    FederationClub.objects.update(counts_from=founded)
    people = [
        person_add(federation=w.federation, name=n) for n in ("Ann Nováková", "Bob Dvořák", "Cid", "Dan")
    ]
    return w, people, founded


def link_all(w: World, people: list[Person]) -> None:
    for club in w.clubs:
        for person in people:
            player = Player.objects.filter(club=club, name=person.name.split()[0]).first()
            if player is not None:
                link_make(federation=w.federation, club=club, player=player, person_id=str(person.number))


def a_rated_cup(w: World) -> Tournament:
    """A Rummikub tournament of eight at the federation's first club, two rounds played, its
    club counting its games from the start of the year."""
    club, organiser = w.clubs[0], w.organisers[0]
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    cup = tournament(club, organiser, players=8)
    play_round(cup, 1, organiser)
    play_round(cup, 2, organiser)
    return cup
