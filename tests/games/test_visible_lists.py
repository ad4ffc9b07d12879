"""The lists (the API's clubs and games) show what the pages would: the filters of
``games.services.access`` agree with its rule for one club or game, for every kind of caller."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games.models import Club, Game, Membership
from games.services.access import can_view_club, club_role, visible_clubs, visible_games
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def callers() -> dict[str, User | AnonymousUser]:
    return {
        "anonymous": AnonymousUser(),
        "outsider": UserFactory.create(),
        "member": UserFactory.create(),
        "admin": User.objects.create_superuser("root", "root@example.com", "x-Secret-123"),
    }


def _clubs(callers: dict[str, User | AnonymousUser]) -> list[Club]:
    public = ClubFactory.create(name="Tuesday club")
    private = ClubFactory.create(name="Back room")
    private.visibility = Club.Visibility.MEMBERS
    private.save()
    other = ClubFactory.create(name="Other room")
    other.visibility = Club.Visibility.MEMBERS
    other.save()
    add_member(private, callers["member"], Membership.Role.MEMBER)  # type: ignore[arg-type]
    return [public, private, other]


def test_the_club_list_shows_the_clubs_whose_pages_open(callers: dict[str, User | AnonymousUser]) -> None:
    clubs = _clubs(callers)
    for who, user in callers.items():
        listed = set(Club.objects.filter(visible_clubs(user=user)).values_list("pk", flat=True))
        opened = {c.pk for c in clubs if can_view_club(club=c, role=club_role(user=user, club=c))}
        assert listed == opened, who
    assert len(Club.objects.filter(visible_clubs(user=callers["member"]))) == 2


def test_the_game_list_shows_club_games_as_their_clubs_and_private_games_to_their_owner(
    callers: dict[str, User | AnonymousUser],
) -> None:
    clubs = _clubs(callers)
    owner = callers["outsider"]
    club_games = [GameFactory.create(club=c, owner=c.memberships.first().user) for c in clubs]  # type: ignore[union-attr]
    mine = GameFactory.create(owner=owner)
    theirs = GameFactory.create(owner=callers["member"])
    for who, user in callers.items():
        listed = set(Game.objects.filter(visible_games(user=user)).values_list("pk", flat=True))
        shown = {
            g.pk
            for g, c in zip(club_games, clubs, strict=True)
            if can_view_club(club=c, role=club_role(user=user, club=c))
        }
        shown |= {g.pk for g in (mine, theirs) if user.is_authenticated and g.owner_id == user.pk}
        assert listed == shown, who
    # An edit link, or the session that holds one, adds that private game and no other.
    anonymous = callers["anonymous"]
    assert set(Game.objects.filter(visible_games(user=anonymous, link_game_id=theirs.pk))) == {
        club_games[0],
        theirs,
    }
    assert set(Game.objects.filter(visible_games(user=anonymous, held=[mine.public_id]))) == {
        club_games[0],
        mine,
    }
