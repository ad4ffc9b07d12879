"""A person's page in a federation's register: his entry, his players linked in the clubs (a
club's own player name only where the reader may see that club) and his latest finished games
of all those players together. A fixed number of queries, whatever the number of links."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery

from federations.access import visible_federations
from federations.models import Federation, Person, PersonLink
from federations.selectors.ratings import PersonRating, person_ratings
from federations.services.register import person_label
from games.models import Club, Result, Seat
from games.services.access import visible_clubs

RECENT = 30
# Ids and numbers beyond this cannot be stored (an address may name any).
MAX_ID = 2**31 - 1


def visible_federation(*, slug: str, user: User | AnonymousUser) -> Federation | None:
    """The federation at that address if the user may see it (1 query)."""
    return Federation.objects.filter(visible_federations(user=user), slug=slug[:50]).first()


def person_by_number(*, federation: Federation, number: int) -> Person | None:
    if not 0 < number <= MAX_ID:
        return None
    return (
        Person.objects.select_related("home_club", "merged_into")
        .filter(federation=federation, number=number)
        .first()
    )


@dataclass(frozen=True)
class PersonClub:
    """One of the person's linked players: the club's name always, the club's address and its
    own player (name, id) only for a reader who sees the club."""

    club_name: str
    club_slug: str | None
    player_name: str | None
    player_id: int | None


@dataclass(frozen=True)
class PersonResult:
    played_at: datetime.datetime
    club_name: str
    family: str
    family_name: str
    place: int
    players: int


@dataclass(frozen=True)
class PersonPage:
    person: Person
    label: str
    clubs: list[PersonClub]
    results: list[PersonResult]
    is_me: bool  # the reader's own entry
    ratings: list[PersonRating]  # his line in each family's live list


def person_page(*, federation: Federation, person: Person, user: User | AnonymousUser) -> PersonPage:
    """The person's entry, his rating in each family's list, his linked players and latest
    finished games, newest first (3 queries, 4 once he is rated)."""
    links = list(
        PersonLink.objects.filter(person=person, state=PersonLink.State.LINKED)
        .select_related("club", "player")
        .annotate(seen=Exists(Club.objects.filter(visible_clubs(user=user), pk=OuterRef("club_id"))))
        .order_by("club__name", "pk")
    )
    clubs = [
        PersonClub(
            club_name=link.club.name,
            club_slug=link.club.slug if link.seen else None,
            player_name=link.player.name if link.seen else None,
            player_id=link.player_id if link.seen else None,
        )
        for link in links
    ]
    seats = (
        Seat.objects.filter(game=OuterRef("game_id"))
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        Result.objects.filter(
            player_id__in=[link.player_id for link in links], finished=True, game__deleted_at=None
        )
        .select_related("game__club")
        .annotate(players=Subquery(seats, output_field=IntegerField()))
        .order_by("-game__played_at", "-game_id")[:RECENT]
        if links
        else []
    )
    results = [
        PersonResult(
            played_at=r.game.played_at,
            club_name=r.game.club.name if r.game.club is not None else "",
            family=r.game.family,
            family_name=r.game.get_family_display(),
            place=r.place,
            players=r.players,  # type: ignore[attr-defined]
        )
        for r in rows
    ]
    is_me = user.is_authenticated and person.user_id == user.pk
    return PersonPage(
        person, person_label(federation, person.number), clubs, results, is_me, person_ratings(person)
    )
