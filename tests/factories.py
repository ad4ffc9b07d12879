"""factory-boy factories for the site's models."""

from typing import Any, cast

import factory
from django.contrib.auth.models import User

from games.models import Game, Seat


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("table-Secret-1")


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game with seats: ``GameFactory(family="gin", players=["Ann", "Bob"])``."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    family = "zoliky"
    options: Any = factory.Dict({})

    @factory.post_generation
    def players(self, create: bool, extracted: list[str] | None, **kwargs: Any) -> None:
        names = extracted or (["Ann", "Bob"] if self.family == "gin" else ["Ann", "Bob", "Cid"])
        for position, name in enumerate(names):
            Seat.objects.create(game=cast(Game, self), position=position, name=name)
