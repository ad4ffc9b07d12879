"""The monthly published lists: frozen from the games before the 1st, never changed by a later
correction (which moves the live list and the next month's), with rank, provisional and
inactive marks and the trend against the previous list; never made while the worker is behind,
and never left half made."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from federations import derived
from federations.models import (
    FederationRating,
    PublishedLine,
    PublishedList,
)
from federations.publication import due, month_of, publish, publish_due
from federations.ratings import differences, refresh
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from tests.federations.support import a_federation, at, game_on, lines, link_all, world
from tests.tournaments.fault_club import correct, play

pytestmark = pytest.mark.django_db
FAMILY = "rummikub"


def test_a_published_list_never_changes_and_a_late_correction_moves_the_next_one() -> None:
    w, people, founded = a_federation()
    last_month = (month_of() - datetime.timedelta(days=1)).replace(day=1)
    early = [
        game_on(w, 0, ["Ann", "Bob", "Cid"], "Ann", founded + datetime.timedelta(days=3)),
        game_on(w, 1, ["Ann", "Dan", "Bob"], "Dan", founded + datetime.timedelta(days=4)),
        game_on(w, 0, ["Cid", "Dan", "Bob"], "Cid", last_month + datetime.timedelta(days=2)),
    ]
    link_all(w, people)
    refresh(w.federation)  # re-rated; no list published yet
    first = publish(w.federation, FAMILY, last_month)
    assert first is not None and first.cutoff == at(last_month, 0)
    frozen = lines(first)
    # The last game was played after the list's midnight: the list counts only the first two.
    assert {row[0]: row[5] for row in frozen} == {1: 2, 2: 2, 3: 1, 4: 1}
    assert [row[2] for row in frozen] == sorted(row[2] for row in frozen)
    assert all(row[6] for row in frozen)  # fewer than five games: provisional
    # A late correction of a game before the cutoff: the live list moves, the published one not.
    before_live = dict(FederationRating.objects.values_list("person_id", "mu"))
    correct(early[0], w.organisers[0], "Cid")
    refresh(w.federation)  # re-rated; no list published yet
    assert dict(FederationRating.objects.values_list("person_id", "mu")) != before_live
    assert lines(PublishedList.objects.get(pk=first.pk)) == frozen
    assert publish(w.federation, FAMILY, last_month) == first  # made once
    # This month's list counts the correction and every game, with the trend against the first.
    second = publish(w.federation, FAMILY, month_of())
    assert second is not None and second.previous == first
    now_lines = {row[0]: row for row in lines(second)}
    assert now_lines[people[2].number][5] == 2  # Cid: the game after the first list too
    for number, *_rest in frozen:
        then = next(row for row in frozen if row[0] == number)
        assert (now_lines[number][8], now_lines[number][9]) == (then[3], then[2])
    assert differences(w.federation) == []


def test_a_list_waits_while_the_family_is_marked() -> None:
    w, people, founded = a_federation()
    game_on(w, 0, ["Ann", "Bob"], "Ann", founded + datetime.timedelta(days=1))
    link_all(w, people)
    assert publish(w.federation, FAMILY, month_of()) is None  # marked: the worker is behind
    derived.apply(w.federation.pk)  # re-rates, then publishes what is due
    assert PublishedList.objects.filter(federation=w.federation, month=month_of()).count() == 1
    assert due() == {}


def test_a_new_federation_publishes_its_first_list_on_the_next_first_of_the_month() -> None:
    w = world(clubs=1)
    play(w.clubs[0], w.organisers[0], ["Ann", "Bob"], "Ann")
    ann = person_add(federation=w.federation, name="Ann")
    link_make(federation=w.federation, club=w.clubs[0], player=Player.objects.get(name="Ann"), person_id="1")
    derived.apply(w.federation.pk)
    assert not PublishedList.objects.exists()
    next_month = (month_of() + datetime.timedelta(days=32)).replace(day=1)
    made = publish_due(w.federation, now=at(next_month, 0) + datetime.timedelta(minutes=1))
    assert [(p.month, p.family) for p in made] == [(next_month, FAMILY)]
    assert [line.person_id for line in made[0].lines.all()] == [ann.pk]


def test_inactive_and_ranks_shared_by_equal_ratings() -> None:
    w, people, founded = a_federation(months_back=14)
    w.federation.inactive_days = 30
    w.federation.save()
    game_on(w, 0, ["Ann", "Bob"], "Ann", founded + datetime.timedelta(days=1))
    link_all(w, people)
    derived.apply(w.federation.pk)
    published = publish(w.federation, FAMILY, month_of())
    assert published is not None
    rows = lines(published)
    assert all(row[7] for row in rows)  # a year without a game: inactive
    assert [row[2] for row in rows] == [1, 2]


def test_a_failure_mid_publication_leaves_no_half_list(monkeypatch: pytest.MonkeyPatch) -> None:
    w, people, founded = a_federation()
    game_on(w, 0, ["Ann", "Bob"], "Ann", founded + datetime.timedelta(days=1))
    link_all(w, people)
    derived.apply(w.federation.pk)
    month = month_of()
    PublishedList.objects.filter(month=month).delete()
    real = PublishedLine.objects.bulk_create

    def broken(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise RuntimeError("the worker died")

    monkeypatch.setattr(PublishedLine.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        publish(w.federation, FAMILY, month)
    assert not PublishedList.objects.filter(month=month).exists()
    assert not PublishedLine.objects.filter(published__month=month).exists()
    monkeypatch.undo()
    assert publish(w.federation, FAMILY, month) is not None
