"""A federation's seasons (a Grand Prix): the member clubs' federation-rated tournaments rank
the register's people, through the real worker, as an independent reference says; the writes
are recorded once per request id and refuse a stale version; a members-only federation's
seasons are not seen by outsiders."""

from __future__ import annotations

import datetime
import itertools
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, example, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from federations import derived
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationSeason,
    FederationSeasonDirty,
    FederationSeasonStanding,
    Person,
)
from federations.seasons import differences, reranked
from federations.services.links import link_make
from federations.services.memberships import club_answer, club_invite, membership_end
from federations.services.register import person_add, person_merge
from federations.services.seasons import (
    GrandPrixSettings,
    current_settings,
    season_create,
    season_delete,
    season_update,
)
from games.models import Player
from games.services.errors import ServiceError, StaleVersion
from tests.factories import UserFactory
from tests.federations.seasons_support import cup, grand_prix, reference, stored
from tests.federations.support import World, world
from tests.tournaments.pipeline import database_tasks, run_worker
from tests.tournaments.support import NAMES

pytestmark = pytest.mark.django_db


def drain(federation: Federation) -> None:
    derived.apply(federation.pk)


def a_gp_world() -> tuple[World, list[Person]]:
    w = world()
    FederationClub.objects.update(counts_from=timezone.localdate() - datetime.timedelta(days=60))
    people = [person_add(federation=w.federation, name=f"{n} Velmi Dlouhé Příjmení") for n in NAMES[:6]]
    return w, people


def link(w: World, club: int, name: str, person: Person) -> None:
    player = Player.objects.get(club=w.clubs[club], name=name)
    link_make(federation=w.federation, club=w.clubs[club], player=player, person_id=str(person.number))


def test_reranked_keeps_competition_places_among_the_registered() -> None:
    assert reranked([2, 3, 5]) == (1, 2, 3)
    assert reranked([1, 3, 3, 6]) == (1, 2, 2, 4)
    assert reranked([4, 4]) == (1, 1)


def test_a_guest_does_not_take_the_registered_peoples_points() -> None:
    w, people = a_gp_world()
    today = timezone.localdate()
    names = NAMES[:4]
    played = cup(w, 0, names, today)
    # Link every player but the tournament's winner: the others move up among themselves.
    from tournaments.tournament_data import compute_standings, tournament_data

    data = tournament_data(played)
    order = [data.entries[r.player] for r in sorted(compute_standings(data), key=lambda r: r.rank)]
    for person, entry in zip(people, order[1:], strict=False):
        link(w, 0, entry.player.name, person)
    season = grand_prix(w)
    drain(w.federation)
    lines = stored(season)
    assert lines == reference(season)
    first = FederationSeasonStanding.objects.get(season=season, family="", rank=1)
    assert first.person.links.get().player_id == order[1].player_id
    assert first.exact_points == "25"
    assert differences(w.federation) == []
    assert not FederationSeasonDirty.objects.exists()


def test_only_rated_confirmed_tournaments_of_members_in_the_season_count() -> None:
    w, people = a_gp_world()
    today = timezone.localdate()
    names = NAMES[:4]
    cup(w, 0, names, today)  # counts
    cup(w, 1, names, today, rated=False)  # not rated
    cup(w, 1, names, today - datetime.timedelta(days=45))  # before the season
    waiting = cup(w, 0, names, today - datetime.timedelta(days=1), confirm=False)  # not over
    for club in (0, 1):
        for person, name in zip(people, names, strict=False):
            link(w, club, name, person)
    season = grand_prix(w, starts=today - datetime.timedelta(days=30))
    drain(w.federation)
    assert {line.played for line in stored(season).values()} == {1}
    assert stored(season) == reference(season)
    # Its round confirmed, the tournament counts: the worker is told by the tournament.
    from tournaments.models import Round
    from tournaments.services.rounds import round_confirm

    played = Round.objects.get(tournament=waiting, number=1)
    round_confirm(played=played, round_version=played.version, user=w.organisers[0])
    assert FederationSeasonDirty.objects.filter(season=season).exists()
    drain(w.federation)
    assert {line.played for line in stored(season).values()} == {2}
    assert stored(season) == reference(season)


def test_a_penalty_moving_the_final_places_moves_the_season() -> None:
    w, people = a_gp_world()
    today = timezone.localdate()
    names = NAMES[:4]
    played = cup(w, 0, names, today)
    for person, name in zip(people, names, strict=False):
        link(w, 0, name, person)
    season = grand_prix(w)
    drain(w.federation)
    leader = FederationSeasonStanding.objects.filter(season=season, family="", rank=1).order_by("pk").first()
    assert leader is not None
    entry = played.entries.get(player__federation_links__person=leader.person)
    from tournaments.models import Tournament
    from tournaments.services.penalties import penalty_give

    played = Tournament.objects.get(pk=played.pk)
    penalty_give(
        tournament=played, entry_id=entry.pk, kind="points", points=50, round_number=None,
        reason="Late", version=played.version, user=w.organisers[0],
    )  # fmt: skip
    # No table's results changed: the tournament tells the federation it moved.
    assert FederationSeasonDirty.objects.filter(season=season).exists()
    drain(w.federation)
    assert stored(season) == reference(season)
    assert FederationSeasonStanding.objects.get(season=season, family="", person=leader.person).rank > 1


def test_settings_changes_are_recorded_once_and_a_stale_version_is_refused() -> None:
    w, _people = a_gp_world()
    season = grand_prix(w)
    key = uuid.uuid4()
    settings = GrandPrixSettings.from_mapping({**current_settings(season), "best_events": 3, "qualify": 8})
    changed = season_update(season=season, settings=settings, version=season.version, request_id=key)
    again = season_update(season=season, settings=settings, version=season.version, request_id=key)
    assert changed.version == again.version == 2 and again.best_events == 3
    assert FederationChange.objects.filter(action="season_edited").count() == 1
    with pytest.raises(StaleVersion):
        season_update(season=season, settings=settings, version=1, request_id=uuid.uuid4())
    with pytest.raises(ServiceError) as refused:
        season_update(
            season=season,
            settings=GrandPrixSettings.from_mapping(
                {**current_settings(season), "tiebreaks": ["points", "games"]}
            ),
            version=2,
        )
    assert refused.value.code == "grand_prix_tiebreak_games"
    # A resent creation gives the season it made.
    key = uuid.uuid4()
    made = grand_prix(w, name="Open series")
    created = [
        season_create(
            federation=w.federation,
            settings=GrandPrixSettings.from_mapping(current_settings(made) | {"name": "Twice"}),
            request_id=key,
        )
        for _ in range(2)
    ]
    assert created[0].pk == created[1].pk
    assert FederationSeason.objects.filter(name="Twice").count() == 1
    season_delete(season=made, version=made.version, user=w.director)
    assert not FederationSeason.objects.filter(pk=made.pk).exists()
    assert FederationChange.objects.filter(action="season_deleted").count() == 1


def test_a_members_only_federations_seasons_are_not_seen_by_outsiders() -> None:
    w, _people = a_gp_world()
    Federation.objects.filter(pk=w.federation.pk).update(visibility=Federation.Visibility.MEMBERS)
    season = grand_prix(w)
    slug = w.federation.slug
    pages = [
        reverse("federations:seasons", kwargs={"slug": slug}),
        reverse("federations:season", kwargs={"slug": slug, "public_id": season.public_id}),
        reverse("federations:season_card", kwargs={"slug": slug, "public_id": season.public_id, "number": 1}),
    ]
    outsider = Client()
    outsider.force_login(UserFactory.create())
    director = Client()
    director.force_login(w.director)
    for page in pages:
        assert outsider.get(page).status_code == 404
        assert Client().get(page).status_code == 404
        assert director.get(page).status_code == 200, page
    api = f"/api/v1/federations/{slug}/seasons/"
    assert outsider.get(api).status_code == 404
    assert outsider.get(f"{api}{season.public_id}/standings/").status_code == 404


# ---------------------------------------------------------------------- through the real worker

EXAMPLES = itertools.count()
PLAYERS = NAMES[:6]

step = st.one_of(
    st.tuples(
        st.just("cup"), st.integers(0, 1), st.integers(3, 6), st.integers(0, 40), st.booleans(),
        st.booleans(), st.randoms(use_true_random=False),
    ),
    st.tuples(st.just("link"), st.integers(0, 1), st.sampled_from(PLAYERS), st.integers(0, 3)),
    st.tuples(st.just("merge"), st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.just("leave"), st.integers(0, 1)),
    st.tuples(st.just("join"), st.integers(0, 1), st.integers(0, 20)),
    st.tuples(
        st.just("settings"), st.integers(0, 3), st.integers(0, 2), st.integers(0, 3), st.booleans(),
        st.sampled_from([["points", "wins", "average_place"], ["points", "average_place", "wins"]]),
    ),
    st.tuples(st.just("work")),
)  # fmt: skip


def _apply(step: tuple[Any, ...], w: World, people: list[Person], season: FederationSeason) -> None:
    kind = step[0]
    today = timezone.localdate()
    if kind == "cup":
        _kind, club, size, back, rated, confirm, rng = step
        member = FederationClub.objects.filter(club=w.clubs[club], state="member").exists()
        names = rng.sample(PLAYERS, size)
        cup(w, club, names, today - datetime.timedelta(days=back), rated=rated and member, confirm=confirm)
    elif kind == "link":
        player = Player.objects.filter(club=w.clubs[step[1]], name=step[2]).first()
        if player is not None:
            try:
                link_make(
                    federation=w.federation, club=w.clubs[step[1]], player=player,
                    person_id=str(people[step[3]].number),
                )  # fmt: skip
            except ServiceError as error:
                assert error.code in {
                    "link_player_taken",
                    "link_person_taken",
                    "link_not_member",
                    "person_merged",
                }
    elif kind == "merge":
        source, into = (Person.objects.get(pk=people[i].pk) for i in step[1:3])
        try:
            person_merge(source=source, into=into, versions=(source.version, into.version))
        except ServiceError as error:
            assert error.code in {"merge_same", "merge_same_club", "person_merged"}
    elif kind == "leave":
        membership = FederationClub.objects.filter(club=w.clubs[step[1]], state="member").first()
        if membership is not None:
            membership_end(membership=membership, by_club=True, version=membership.version)
    elif kind == "join":
        club = w.clubs[step[1]]
        if not FederationClub.objects.filter(club=club, state__in=["invited", "member"]).exists():
            invited = club_invite(
                federation=w.federation, club=club, counts_from=today - datetime.timedelta(days=step[2])
            )
            club_answer(membership=invited, accept=True, version=invited.version)
    elif kind == "settings":
        _kind, best, drop, minimum, custom, tiebreaks = step
        now = FederationSeason.objects.get(pk=season.pk)
        values = current_settings(now) | {
            "best_events": best, "drop_worst": drop, "min_events": minimum, "tiebreaks": tiebreaks,
            "tournament_points": "custom" if custom else "preset", "custom_points": "10 7 7 3 1/2",
        }  # fmt: skip
        season_update(season=now, settings=GrandPrixSettings.from_mapping(values), version=now.version)
    elif kind == "work":
        run_worker()


@pytest.mark.django_db(transaction=True)
@given(st.lists(step, min_size=1, max_size=8))
@example(
    [
        ("link", 0, "Anna", 0),
        ("settings", 2, 1, 1, False, ["points", "wins", "average_place"]),
        ("merge", 1, 0),
        ("leave", 1),
        ("join", 1, 3),
    ]
)
@examples(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_standings_through_the_worker_are_the_references(changes: list[tuple[Any, ...]]) -> None:
    with database_tasks():
        w = world(tag=f"-gp{next(EXAMPLES)}")
        today = timezone.localdate()
        FederationClub.objects.filter(federation=w.federation).update(
            counts_from=today - datetime.timedelta(days=25)
        )
        people = [person_add(federation=w.federation, name=n) for n in ("Anna", "Bára", "Cyril", "Dana")]
        season = grand_prix(
            w,
            starts=today - datetime.timedelta(days=30),
            ends=today,
            tiebreaks=["points", "wins", "average_place"],
        )
        # Some tournaments whatever the steps, their players linked at the first club.
        import random

        cup(w, 0, PLAYERS[:5], today - datetime.timedelta(days=2), confirm=True)
        cup(w, 1, random.Random(1).sample(PLAYERS, 4), today - datetime.timedelta(days=1))
        for person, name in zip(people[:3], PLAYERS, strict=False):
            link(w, 0, name, person)
        for change in changes:
            _apply(change, w, people, season)
        run_worker()
        season.refresh_from_db()
        assert not FederationSeasonDirty.objects.filter(season=season).exists()
        assert stored(season) == reference(season)
        assert stored(season)  # the tournaments before the steps always rank someone
        assert differences(w.federation) == []
