"""factory-boy factories for the site's models."""

from typing import Any

import factory
from django.contrib.auth.models import User

from games.models import Club, Game, Membership
from games.services.clubs import club_create
from games.services.games import game_start


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("table-Secret-1")


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game started as the site starts one (seats, players, results):
    ``GameFactory(family="gin", players=["Ann", "Bob"], club=club, owner=user)``."""

    class Meta:
        model = Game

    family = "zoliky"
    options: Any = factory.Dict({})
    players: Any = None
    owner: Any = None
    club: Any = None

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        family = kwargs.pop("family")
        names = kwargs.pop("players") or (["Ann", "Bob"] if family == "gin" else ["Ann", "Bob", "Cid"])
        return game_start(
            family=family,
            options=kwargs.pop("options"),
            players=names,
            owner=kwargs.pop("owner"),
            club=kwargs.pop("club"),
            first_dealer=kwargs.pop("first_dealer", 0),
        )


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    """A club with its organiser: ``ClubFactory(name="Tuesday club", organiser=user)``."""

    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    organiser: Any = factory.SubFactory(UserFactory)

    @classmethod
    def _create(cls, model_class: type[Club], *args: Any, **kwargs: Any) -> Club:
        return club_create(name=kwargs["name"], user=kwargs["organiser"])


def add_member(club: Club, user: User, role: str = Membership.Role.MEMBER) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)
