"""The live list as its pages read it: ranks over the whole list (equal ratings share one, on
every page and in a search), the marks and the trend since the last published list, in a fixed
number of queries at 20 and at 20,000 register entries; a person's ratings; a tournament's
rating report."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from federations.models import Federation, FederationRating, Person, PublishedList
from federations.ratings import refresh
from federations.selectors import ratings as selectors
from federations.selectors.ratings import live_list, person_ratings, tournament_report
from federations.services.federations import federation_create
from federations.services.links import link_make
from federations.services.register import person_add
from games.models import Player
from games.text.names import loose_key
from tests.factories import UserFactory
from tests.federations.support import a_rated_cup, world

pytestmark = pytest.mark.django_db
FAMILY = "rummikub"
NOW = timezone.now()


def register(federation: Federation, ratings: list[int], *, games: int = 10) -> list[Person]:
    """Register entries with live lines of the given shown ratings (bulk: the list is derived
    data, made here directly to test how it is read)."""
    start = Person.objects.filter(federation=federation).count() + 1
    people = Person.objects.bulk_create(
        [
            Person(
                federation=federation,
                number=start + i,
                name=f"Hráč {start + i:05d}",
                key=loose_key(f"Hráč {start + i:05d}"),
            )
            for i in range(len(ratings))
        ]
    )
    FederationRating.objects.bulk_create(
        [
            FederationRating(
                federation=federation, family=FAMILY, person=person, mu=25.0, sigma=1.0, rating=rating,
                key=person.key, games=games, last_played=NOW,
            )
            for person, rating in zip(people, ratings, strict=True)
        ]
    )  # fmt: skip
    return people


def a_federation() -> Federation:
    return federation_create(name="Polski Związek Remika", user=UserFactory.create(), id_prefix="PL")


@examples(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(900, 1100), min_size=1, max_size=30), st.integers(2, 7))
def test_ranks_on_every_page_equal_one_plus_the_number_rated_higher(ratings: list[int], size: int) -> None:
    federation = a_federation()
    register(federation, ratings)
    seen = []
    original = selectors.PAGE
    selectors.PAGE = size
    try:
        page = 1
        while True:
            shown = live_list(federation=federation, page=page, now=NOW)
            seen += shown.rows
            if page >= shown.pages:
                break
            page += 1
    finally:
        selectors.PAGE = original
    assert [row.rank for row in seen] == [1 + sum(r > row.rating for r in ratings) for row in seen]
    assert [row.rating for row in seen] == sorted(ratings, reverse=True)
    # A search keeps each one's rank in the whole list.
    target = seen[len(seen) // 2]
    found = live_list(federation=federation, query=target.name, now=NOW)
    assert [(row.number, row.rank) for row in found.rows] == [(target.number, target.rank)]
    assert live_list(federation=federation, query=target.label, now=NOW).rows[0].number == target.number


def test_marks_and_trend_against_the_last_published_list() -> None:
    federation = a_federation()
    federation.inactive_days = 30
    federation.save()
    people = register(federation, [1100, 1050, 1000], games=3)
    FederationRating.objects.filter(person=people[2]).update(
        games=9, last_played=NOW - datetime.timedelta(days=40)
    )
    published = PublishedList.objects.create(
        federation=federation, family=FAMILY, month=datetime.date(2026, 11, 1), cutoff=NOW
    )
    published.lines.create(
        person=people[0], number=1, name="x", rank=1, rating=1080, uncertainty=40, mu=25, sigma=1, games=2,
        last_played=NOW, provisional=True, inactive=False,
    )  # fmt: skip
    rows = {row.person: row for row in live_list(federation=federation, now=NOW).rows}
    assert (rows[people[0].pk].trend, rows[people[0].pk].new) == (20, False)
    assert (rows[people[1].pk].trend, rows[people[1].pk].new) == (None, True)
    assert rows[people[0].pk].provisional and not rows[people[2].pk].provisional
    assert rows[people[2].pk].inactive and not rows[people[0].pk].inactive


@pytest.mark.parametrize("size", [20, 20_000])
def test_the_list_page_reads_a_fixed_number_of_queries(size: int, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    federation = a_federation()
    people = register(federation, [900 + (i * 7919) % 400 for i in range(size)])
    PublishedList.objects.create(
        federation=federation, family=FAMILY, month=datetime.date(2026, 11, 1), cutoff=NOW
    )
    with django_assert_num_queries(9):
        page = live_list(federation=federation, page=2 if size > 100 else 1, now=NOW)
    assert page.total == size and len(page.rows) == min(size, 100)
    with django_assert_num_queries(9):
        live_list(federation=federation, query=people[-1].name, now=NOW)
    with django_assert_num_queries(2):
        person_ratings(people[-1])


def test_a_persons_ratings_and_a_tournaments_report() -> None:
    w = world(clubs=1)
    club = w.clubs[0]
    cup = a_rated_cup(w)
    anna = person_add(federation=w.federation, name="Anna Nováková")
    link_make(
        federation=w.federation, club=club, player=Player.objects.get(club=club, name="Anna"), person_id="1"
    )
    refresh(w.federation)
    report = tournament_report(federation=w.federation, tournament=cup)
    assert [row.person for row in report] == [anna.pk]
    assert report[0].games == 2 and report[0].before == 1000
    mine = person_ratings(anna)
    assert [(r.family, r.rating, r.games) for r in mine] == [(FAMILY, report[0].after, 2)]
    ranks = sorted(FederationRating.objects.values_list("rating", flat=True), reverse=True)
    assert mine[0].rank == 1 + sum(r > mine[0].rating for r in ranks)
