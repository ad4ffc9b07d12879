"""games.sheets.rows: a game's rows read with their SQL written out are the ORM's own, value for value
and type for type, on SQLite and on PostgreSQL (CI runs this file on both)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import models, transaction
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.models import Change, Game, Hand, Seat
from games.selectors.games import game_by_public_id
from games.services.hands import _locked, hand_record
from games.sheets import rows
from tests.factories import ClubFactory, GameFactory, UserFactory
from tests.games.test_results import FAST

pytestmark = pytest.mark.django_db


def values(instance: models.Model) -> list[tuple[str, Any, type]]:
    """Every concrete field's value and its type: a JSON 1 and 1.0, or a UUID and its text,
    are equal but not the same."""
    return [
        (field.attname, getattr(instance, field.attname), type(getattr(instance, field.attname)))
        for field in instance._meta.concrete_fields
    ]


def same(read: models.Model, orm: models.Model) -> bool:
    return values(read) == values(orm) and not read.get_deferred_fields() and not read._state.adding


def test_a_game_with_its_owner_and_club_is_the_orm_s() -> None:
    owner = UserFactory.create(first_name="Eva")
    club = ClubFactory.create(organiser=owner)
    rematched = GameFactory.create(family="gin", players=["Ann", "Bob"])
    game = GameFactory.create(
        family="zoliky",
        options={"elimination": 60},
        players=["Ann", "Bob", "Cid"],
        owner=owner,
        club=club,
    )
    Game.objects.filter(pk=game.pk).update(
        options={"elimination": 60, "nested": {"a": [1, 2.5, None, "ž"]}},  # any JSON comes back
        event_name="Spring cup",
        event_round=2,
        event_table=3,
        rematch_of=rematched,
        request_id=uuid.uuid4(),
        ended=True,
    )
    read = game_by_public_id(public_id=game.public_id)
    orm = Game.objects.select_related("owner", "club").get(pk=game.pk)
    assert read is not None and same(read, orm)
    assert same(read.owner, orm.owner) and same(read.club, orm.club)  # type: ignore[arg-type]
    assert read.ended is True and read.options["nested"]["a"][1] == 2.5


def test_a_game_without_owner_or_club_has_neither() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    read = game_by_public_id(public_id=game.public_id)
    assert read is not None and same(read, Game.objects.get(pk=game.pk))
    assert read.owner is None and read.club is None
    assert game_by_public_id(public_id="nosuchgame") is None


# PostgreSQL's jsonb holds no NUL character; every other one round-trips.
TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=5)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


@FAST
@given(outcomes=st.lists(st.dictionaries(TEXT, JSON, max_size=4), max_size=5), data=st.data())
def test_hands_and_seats_are_the_orm_s(outcomes: list[dict[str, Any]], data: st.DataObject) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    for number, outcome in enumerate(outcomes, start=1):
        request_id = uuid.uuid4() if data.draw(st.booleans(), "request id") else None
        Hand.objects.create(game=game, number=number, outcome=outcome, request_id=request_id)
    read, orm = rows.hands(game), list(Hand.objects.filter(game=game))
    assert len(read) == len(orm) == len(outcomes)
    assert all(same(a, b) for a, b in zip(read, orm, strict=True))
    seats = rows.seats(game)
    assert [values(s) for s in seats] == [values(s) for s in Seat.objects.filter(game=game)]


def test_the_locked_game_is_the_stored_one_and_a_deleted_game_is_not_found() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"], options={"target": 40})
    hand_record(
        game=game,
        outcome={"knocker": "Ann", "gin": True, "deadwood": {"Ann": 0, "Bob": 12}},
        request_id=None,
        user=None,
    )
    with transaction.atomic():
        assert same(_locked(game), Game.objects.get(pk=game.pk))
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        _locked(game)


def test_what_is_read_saves_as_an_orm_instance_does() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome={"winner": "Ann", "left": {"Bob": 7}}, request_id=None, user=None)
    hand = rows.hands(game)[0]
    hand.outcome = {"winner": "Bob", "left": {"Ann": 3}}
    hand.save(update_fields=["outcome"])
    assert Hand.objects.get(pk=hand.pk).outcome == {"winner": "Bob", "left": {"Ann": 3}}
    assert hand == Hand.objects.get(pk=hand.pk)


def stored_as(instance: models.Model, *differ: str) -> list[tuple[str, Any, type]]:
    """The row as read back, but for the fields that must differ between two rows."""
    row = type(instance)._default_manager.get(pk=instance.pk)
    return [value for value in values(row) if value[0] not in ("id", *differ)]


def test_an_inserted_hand_and_change_are_stored_as_the_orm_stores_them() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    user = UserFactory.create()
    outcome = {"winner": "Ann", "left": {"Bob": 7}, "note": "ž"}
    before = timezone.now()
    hand = rows.insert(Hand(game=game, number=1, outcome=outcome, request_id=uuid.uuid4()))
    twin = Hand.objects.create(game=game, number=2, outcome=outcome, request_id=uuid.uuid4())
    times = ("number", "request_id", "created_at", "updated_at")
    assert stored_as(hand, *times) == stored_as(twin, *times)
    assert same(Hand.objects.get(pk=hand.pk), hand)  # its id read back, its times as it set them
    assert before <= hand.created_at <= hand.updated_at <= twin.created_at and not hand._state.adding
    made = {"game": game, "hand_number": 1, "action": Change.Action.ADDED, "after": outcome, "user": user}
    change = rows.insert(Change(**made, request_id=uuid.uuid4()))
    orm = Change.objects.create(**made, request_id=uuid.uuid4())
    assert stored_as(change, "request_id", "created_at") == stored_as(orm, "request_id", "created_at")
    assert Change.objects.get(pk=change.pk).request_id == change.request_id


def test_a_request_id_is_found_as_the_orm_finds_it() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    request_id = uuid.uuid4()
    Change.objects.create(game=game, hand_number=3, action=Change.Action.ADDED, request_id=request_id)
    where = "t.game_id = %s AND t.request_id = %s AND t.hand_number IS NOT NULL"
    assert rows.exists(Change, where, [game.pk, rows.param(Change, "request_id", request_id)])
    assert not rows.exists(Change, where, [game.pk, rows.param(Change, "request_id", uuid.uuid4())])
