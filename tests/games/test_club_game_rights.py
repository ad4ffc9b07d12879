"""A club's game follows the club's roles: its starter writes it while he is a scorekeeper or
organiser of the club, and not once he is set back to member or removed (nor after he is
invited back as a member), until he is made a scorekeeper again. Every write of a club's game,
on the pages and in the API, against every step of the starter's role history; a refused write
stores nothing. Giving the game on and deleting it are the organisers' (the starter made an
organiser may)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import Change, Club, Game, Hand, Membership, Result
from games.services.clubs import club_join, invite_create, membership_remove, membership_set_role
from games.services.games import game_end, game_start
from games.services.hands import hand_record
from games.services.tokens import token_create
from tests.factories import ClubFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db

Role = Membership.Role
GIN = {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}
CORRECTED = {"knocker": "Bob", "gin": False, "deadwood": {"Ann": 20, "Bob": 4}}

# The starter's role history, in order: each stage is reached through the ones before it.
STAGES = ("scorekeeper", "member", "removed", "re-invited", "scorekeeper again", "organiser")
WRITES_WHILE = {"scorekeeper", "scorekeeper again", "organiser"}
MANAGES_WHILE = {"organiser"}


@dataclass
class World:
    club: Club
    organiser: User
    starter: User
    keeper: User  # another scorekeeper, whom the game can be given to
    game: Game
    hand: Hand
    added: Change  # the change that recorded the hand (what undo takes back)
    token: str  # the starter's read-write API token


def _to_stage(club: Club, organiser: User, starter: User, stage: str) -> None:
    """Walk the starter through the role history up to ``stage``, as the club's pages do."""
    for step in STAGES[1 : STAGES.index(stage) + 1]:
        current = Membership.objects.filter(club=club, user=starter).first()
        if step == "member":
            assert current is not None
            membership_set_role(
                membership=current, role=Role.MEMBER, version=None, request_id=None, user=organiser
            )
        elif step == "removed":
            assert current is not None
            membership_remove(membership=current)
        elif step == "re-invited":
            invite = invite_create(club=club, user=organiser, days=None)
            club_join(token=invite.token, user=starter)
        else:
            assert current is not None
            role = Role.ORGANISER if step == "organiser" else Role.SCOREKEEPER
            membership_set_role(membership=current, role=role, version=None, request_id=None, user=organiser)


def build(stage: str, *, ended: bool = False) -> World:
    organiser = UserFactory.create(username="organiser")
    club = ClubFactory.create(name="Tuesday club", organiser=organiser)
    starter = UserFactory.create(username="starter")
    add_member(club, starter, Role.SCOREKEEPER)
    keeper = add_member(club, UserFactory.create(username="keeper"), Role.SCOREKEEPER).user
    token = token_create(user=starter, name="phone", scope="write")[1]
    game = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=starter, club=club)
    saved = hand_record(game=game, outcome=GIN, request_id=None, user=starter)
    assert saved.change_id is not None
    if ended:
        game_end(game=game, ended=True, user=starter)
    _to_stage(club, organiser, starter, stage)
    game.refresh_from_db()
    return World(
        club=club,
        organiser=organiser,
        starter=starter,
        keeper=keeper,
        game=game,
        hand=saved.hand,
        added=Change.objects.get(pk=saved.change_id),
        token=token,
    )


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row a write of a game could change."""
    return {
        "games": list(
            Game.objects.order_by("pk").values_list("pk", "owner_id", "ended", "edit_token", "deleted_at")
        ),
        "hands": list(
            Hand.objects.order_by("pk").values_list("pk", "game_id", "number", "version", "outcome")
        ),
        "changes": list(Change.objects.order_by("pk").values_list("pk", "action", "undoes_id")),
        "results": list(Result.objects.order_by("pk").values_list("pk", "total", "place", "finished")),
    }


def gp(w: World, tail: str = "") -> str:
    return f"/g/{w.game.public_id}/{tail}"


def ap(w: World, tail: str = "") -> str:
    return f"/api/v1/games/{w.game.public_id}/{tail}"


def fresh(w: World) -> Game:
    return Game.objects.get(pk=w.game.pk)


def hand_version(w: World) -> int:
    return Hand.objects.get(pk=w.hand.pk).version


def html_post(
    tail: Callable[[World], str], data: Callable[[World], dict[str, str]]
) -> Callable[[World, Client], Any]:
    return lambda w, c: c.post(gp(w, tail(w)), data(w))


def api_etag(w: World, c: APIClient) -> str:
    return str(c.get(ap(w, f"hands/{w.hand.number}/"))["ETag"])


@dataclass(frozen=True)
class Write:
    via: str  # "html" or "api"
    send: Callable[[World, Any], Any]
    done: Callable[[World], bool]  # what the write stores
    ok: int  # the status of a write allowed
    ended: bool = False  # the world's game was ended first (to reopen it)
    manage: bool = False  # an organiser's write (not the starter's as a scorekeeper)


def hand_gone(w: World) -> bool:
    return not Hand.objects.filter(pk=w.hand.pk).exists()


WRITES: dict[str, Write] = {
    "html record hand": Write(
        "html",
        html_post(
            lambda w: "hands/",
            lambda w: {"request_id": str(uuid.uuid4()), "knocker": "Ann", "points_0": "3", "points_1": "30"},
        ),
        lambda w: Hand.objects.filter(game=w.game).count() == 2,
        302,
    ),
    "html correct hand": Write(
        "html",
        html_post(
            lambda w: f"hands/{w.hand.number}/",
            lambda w: {"version": str(hand_version(w)), "knocker": "Ann", "points_0": "3", "points_1": "40"},
        ),
        lambda w: hand_version(w) == 2,
        302,
    ),
    "html delete hand": Write(
        "html",
        html_post(lambda w: f"hands/{w.hand.number}/delete/", lambda w: {"version": str(hand_version(w))}),
        hand_gone,
        302,
    ),
    "html undo": Write(
        "html", html_post(lambda w: f"history/{w.added.pk}/undo/", lambda w: {"confirm": "1"}), hand_gone, 302
    ),
    "html end": Write(
        "html",
        html_post(
            lambda w: "end/", lambda w: {"ended": "1", "confirm": "1", "request_id": str(uuid.uuid4())}
        ),
        lambda w: fresh(w).ended,
        302,
    ),
    "html reopen": Write(
        "html",
        html_post(lambda w: "end/", lambda w: {"ended": "0", "request_id": str(uuid.uuid4())}),
        lambda w: not fresh(w).ended,
        302,
        ended=True,
    ),
    "html renew link": Write(
        "html",
        html_post(lambda w: "new-edit-link/", lambda w: {"request_id": str(uuid.uuid4())}),
        lambda w: fresh(w).edit_token != w.game.edit_token,
        302,
    ),
    "html rematch": Write(
        "html",
        html_post(lambda w: "rematch/", lambda w: {"request_id": str(uuid.uuid4())}),
        lambda w: Game.objects.filter(rematch_of=w.game).exists(),
        302,
    ),
    "html transfer": Write(
        "html",
        html_post(lambda w: "transfer/", lambda w: {"to": str(w.keeper.pk), "request_id": str(uuid.uuid4())}),
        lambda w: fresh(w).owner_id == w.keeper.pk,
        302,
        manage=True,
    ),
    "html delete game": Write(
        "html",
        html_post(lambda w: "delete/", lambda w: {"confirm": "1", "request_id": str(uuid.uuid4())}),
        lambda w: fresh(w).deleted_at is not None,
        302,
        manage=True,
    ),
    "api record hand": Write(
        "api",
        lambda w, c: c.post(ap(w, "hands/"), GIN, format="json"),
        lambda w: Hand.objects.filter(game=w.game).count() == 2,
        201,
    ),
    "api correct hand": Write(
        "api",
        lambda w, c: c.put(
            ap(w, f"hands/{w.hand.number}/"), CORRECTED, format="json", HTTP_IF_MATCH=api_etag(w, c)
        ),
        lambda w: hand_version(w) == 2,
        200,
    ),
    "api delete hand": Write(
        "api",
        lambda w, c: c.delete(ap(w, f"hands/{w.hand.number}/"), HTTP_IF_MATCH=api_etag(w, c)),
        hand_gone,
        204,
    ),
    "api undo": Write("api", lambda w, c: c.post(ap(w, f"history/{w.added.pk}/undo/")), hand_gone, 201),
    "api end": Write("api", lambda w, c: c.post(ap(w, "end/")), lambda w: fresh(w).ended, 200),
    "api reopen": Write(
        "api", lambda w, c: c.post(ap(w, "reopen/")), lambda w: not fresh(w).ended, 200, ended=True
    ),
    "api rematch": Write(
        "api",
        lambda w, c: c.post(ap(w, "rematch/")),
        lambda w: Game.objects.filter(rematch_of=w.game).exists(),
        201,
    ),
    "api transfer": Write(
        "api",
        lambda w, c: c.post(ap(w, "transfer/"), {"to": "keeper"}, format="json"),
        lambda w: fresh(w).owner_id == w.keeper.pk,
        201,
        manage=True,
    ),
    "api delete game": Write(
        "api",
        lambda w, c: c.delete(ap(w)),
        lambda w: fresh(w).deleted_at is not None,
        200,
        manage=True,
    ),
}


def client(w: World, via: str, user: User) -> Any:
    if via == "html":
        c = Client()
        c.force_login(user)
        return c
    api = APIClient()
    if user == w.starter:
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {w.token}")
    else:
        api.force_login(user)
    return api


def allowed(write: Write, stage: str) -> bool:
    return stage in (MANAGES_WHILE if write.manage else WRITES_WHILE)


ROWS = [
    pytest.param(name, stage, allowed(write, stage), id=f"{name.replace(' ', '_')}-{stage.replace(' ', '_')}")
    for name, write in WRITES.items()
    for stage in STAGES
]


@pytest.mark.parametrize(("name", "stage", "expected"), ROWS)
def test_the_starter_writes_while_his_role_allows(name: str, stage: str, expected: bool) -> None:
    write = WRITES[name]
    world = build(stage, ended=write.ended)
    before = snapshot()
    response = write.send(world, client(world, write.via, world.starter))
    if expected:
        assert response.status_code == write.ok, response.content[:300]
        assert write.done(world), "the write was answered but not stored"
        return
    assert response.status_code == 403, response.content[:300]
    assert snapshot() == before, "a refused write changed the database"
    assert not write.done(world)


@pytest.mark.parametrize("name", list(WRITES))
def test_the_club_s_organiser_makes_every_write(name: str) -> None:
    """The control of the table: the same requests by an organiser are carried out, whatever
    became of the starter."""
    write = WRITES[name]
    world = build("removed", ended=write.ended)
    response = write.send(world, client(world, write.via, world.organiser))
    assert response.status_code == write.ok, response.content[:300]
    assert write.done(world)


@pytest.mark.parametrize("name", [n for n, w in WRITES.items() if w.manage])
def test_another_scorekeeper_neither_gives_on_nor_deletes(name: str) -> None:
    write = WRITES[name]
    world = build("scorekeeper")
    before = snapshot()
    response = write.send(world, client(world, write.via, world.keeper))
    assert response.status_code == 403
    assert snapshot() == before
