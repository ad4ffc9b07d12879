"""The federation's rating list: one rating per person across his clubs, exactly what openskill
gives when the counted games are replayed in order; every change (a game, a correction, a link,
a merge across clubs, a club joining or leaving) ends, through the real worker, where a fresh
derivation does."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, example, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from federations import derived
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationDirty,
    FederationRating,
    FederationRatingEvent,
    Person,
    PersonLink,
)
from federations.ratings import differences
from federations.services.links import link_make, link_remove
from federations.services.memberships import club_answer, club_invite, membership_end
from federations.services.register import change_undo, person_add, person_merge
from games.models import Club, Game, Player, Result
from games.services.players import player_merge
from scoring.ratings import START, RatedGame, replay
from tests.federations.support import world
from tests.tournaments.fault_club import correct, play
from tests.tournaments.pipeline import database_tasks, run_worker
from tests.tournaments.pipeline import drain as club_drain


def drain(federation: Federation) -> None:
    """What the worker does after the commits (tests whose writes never commit)."""
    derived.apply(federation.pk)


def linked(federation: Federation, club: Club, name: str, person: Person) -> None:
    player = Player.objects.get(club=club, name=name)
    link_make(federation=federation, club=club, player=player, person_id=str(person.number))


@pytest.mark.django_db
def test_a_person_linked_at_two_clubs_has_one_rating_moved_by_both() -> None:
    w = world()
    a, b = w.clubs
    play(a, w.organisers[0], ["Eva", "Jan", "Ola"], "Eva", back=0)
    play(b, w.organisers[1], ["Evička", "Piotr", "Kari"], "Evička", back=0)
    eva = person_add(federation=w.federation, name="Eva Svobodová")
    linked(w.federation, a, "Eva", eva)
    linked(w.federation, b, "Evička", eva)
    drain(w.federation)
    line = FederationRating.objects.get(federation=w.federation, person=eva)
    assert line.games == 2 and line.family == "rummikub"
    # Only register entries are listed; the unlinked players are rated but not listed.
    assert FederationRating.objects.filter(federation=w.federation).count() == 1
    assert FederationRatingEvent.objects.filter(federation=w.federation).count() == 6
    assert differences(w.federation) == []
    assert not FederationDirty.objects.exists()


@pytest.mark.django_db
def test_the_list_is_openskill_replayed_over_the_counted_games_in_order() -> None:
    """The replay equality: the stored list equals scoring's own replay of every counted game,
    computed here from the games' results alone, in the order they were played."""
    w = world(clubs=3)
    names = {0: ["Ann", "Bob", "Cid"], 1: ["Dan", "Eve", "Fay"], 2: ["Gus", "Hal", "Ivy"]}
    FederationClub.objects.update(counts_from=timezone.localdate() - datetime.timedelta(days=30))
    people = {n: person_add(federation=w.federation, name=n) for n in ["Ann", "Bob"]}
    # Ann is Dan is Gus: one person at three clubs; Bob only at the first.
    for day in range(6):
        for i, club in enumerate(w.clubs):
            seats = names[i][day % 3 :] + names[i][: day % 3]
            play(club, w.organisers[i], seats, seats[day % 2], back=10 - day)
    linked(w.federation, w.clubs[0], "Ann", people["Ann"])
    linked(w.federation, w.clubs[1], "Dan", people["Ann"])
    linked(w.federation, w.clubs[2], "Gus", people["Ann"])
    linked(w.federation, w.clubs[0], "Bob", people["Bob"])
    drain(w.federation)
    links = dict(PersonLink.objects.values_list("player_id", "person_id"))
    rated = []
    for game in Game.objects.filter(family="rummikub").order_by("played_at", "pk"):
        results = list(Result.objects.filter(game=game).order_by("place", "player_id"))
        rated.append(
            RatedGame(
                game.pk,
                tuple(links.get(r.player_id, -r.player_id) for r in results),
                tuple(r.place for r in results),
            )
        )
    expected: dict[int, Any] = {}
    for step in replay(rated, {}):
        expected[step.player] = step.after
    for line in FederationRating.objects.filter(federation=w.federation):
        assert (line.mu, line.sigma) == pytest.approx(
            (expected[line.person_id].mu, expected[line.person_id].sigma)
        )
    assert FederationRating.objects.get(person=people["Ann"]).games == 18
    assert expected[people["Ann"].pk] != START


@pytest.mark.django_db
def test_only_games_played_while_a_member_count_and_a_club_that_leaves_keeps_them() -> None:
    w = world(clubs=1)
    club, organiser = w.clubs[0], w.organisers[0]
    before = play(club, organiser, ["Ann", "Bob"], "Ann", back=3)  # before the club joined
    FederationClub.objects.filter(club=club).update(counts_from=timezone.localdate())
    derived.everything_changed(w.federation)
    drain(w.federation)
    assert not FederationRatingEvent.objects.filter(game=before).exists()
    counted = play(club, organiser, ["Ann", "Bob"], "Bob")
    drain(w.federation)
    assert FederationRatingEvent.objects.filter(game=counted).count() == 2
    membership = FederationClub.objects.get(club=club, state=FederationClub.State.MEMBER)
    membership_end(membership=membership, by_club=True, version=membership.version)
    after = play(club, organiser, ["Ann", "Bob"], "Ann")
    drain(w.federation)
    assert FederationRatingEvent.objects.filter(game=counted).count() == 2  # kept
    assert not FederationRatingEvent.objects.filter(game=after).exists()
    assert differences(w.federation) == []


@pytest.mark.django_db
def test_a_club_in_no_federation_marks_nothing() -> None:
    w = world(clubs=0)
    from tests.factories import ClubFactory, UserFactory

    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    play(club, user, ["Ann", "Bob"], "Ann")
    assert not FederationDirty.objects.exists()
    assert w.federation.pk


@pytest.mark.django_db
def test_what_counts_only_marked_tournaments() -> None:
    from federations.services.federations import Settings, federation_update

    w = world(clubs=1)
    play(w.clubs[0], w.organisers[0], ["Ann", "Bob"], "Ann")
    drain(w.federation)
    assert FederationRatingEvent.objects.exists()
    settings = Settings.of(w.federation)
    federation_update(
        federation=w.federation,
        settings=Settings(**{**settings.__dict__, "counts": Federation.Counts.EVENTS}),
        version=w.federation.version,
    )
    drain(w.federation)
    assert not FederationRatingEvent.objects.exists()  # club games no longer count
    w.federation.refresh_from_db()
    assert differences(w.federation) == []


# ---------------------------------------------------------------------- through the real worker

NAMES = ["Ann", "Bob", "Cid", "Dan"]
EXAMPLES = itertools.count()

change = st.one_of(
    st.tuples(
        st.just("play"), st.integers(0, 1), st.permutations(NAMES).map(lambda p: p[:3]),
        st.integers(0, 2), st.integers(0, 9),
    ),
    st.tuples(st.just("correct"), st.integers(0, 20), st.integers(0, 2)),
    st.tuples(st.just("link"), st.integers(0, 1), st.sampled_from(NAMES), st.integers(0, 2)),
    st.tuples(st.just("unlink"), st.integers(0, 10)),
    st.tuples(st.just("merge"), st.integers(0, 2), st.integers(0, 2)),
    st.tuples(st.just("undo_merge")),
    st.tuples(st.just("club_merge"), st.integers(0, 1), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("leave"), st.integers(0, 1)),
    st.tuples(st.just("join"), st.integers(0, 1), st.integers(0, 9)),
    st.tuples(st.just("work")),
)  # fmt: skip


def _apply(step: tuple[Any, ...], w: Any, people: list[Person], games: list[Game], merges: list[int]) -> None:
    kind = step[0]
    if kind == "play":
        club = w.clubs[step[1]]
        names = list(step[2])
        games.append(play(club, w.organisers[step[1]], names, names[step[3]], back=step[4]))
    elif kind == "correct" and games:
        game = games[step[1] % len(games)]
        names = list(game.seats.order_by("position").values_list("name", flat=True))
        correct(game, w.organisers[w.clubs.index(game.club)], names[step[2] % len(names)])
    elif kind == "link":
        club, person = w.clubs[step[1]], people[step[3]]
        player = Player.objects.filter(club=club, name=step[2]).first()
        if player is not None:
            try:
                link_make(federation=w.federation, club=club, player=player, person_id=str(person.number))
            except Exception as error:  # taken, or a club that left: refused, nothing changed
                assert getattr(error, "code", "") in {
                    "link_player_taken",
                    "link_person_taken",
                    "link_not_member",
                    "person_merged",
                }
    elif kind == "unlink":
        links = list(PersonLink.objects.filter(federation=w.federation).order_by("pk"))
        if links:
            link = links[step[1] % len(links)]
            link_remove(link=link, version=link.version)
    elif kind == "merge":
        source, into = (Person.objects.get(pk=people[i].pk) for i in step[1:3])
        try:
            merges.append(person_merge(source=source, into=into, versions=(source.version, into.version)).pk)
        except Exception as error:
            assert getattr(error, "code", "") in {"merge_same", "merge_same_club", "person_merged"}
    elif kind == "undo_merge" and merges:
        try:
            change_undo(change=FederationChange.objects.get(pk=merges.pop()))
        except Exception as error:
            assert getattr(error, "code", "") in {"undo_later_change", "nothing_to_undo"}
    elif kind == "club_merge":  # a club merges two of its players: their seats move
        club, organiser = w.clubs[step[1]], w.organisers[step[1]]
        keep = Player.objects.filter(club=club, name=step[2], merged_into=None).first()
        drop = Player.objects.filter(club=club, name=step[3], merged_into=None).first()
        if keep and drop and keep != drop:
            try:
                player_merge(
                    keep=keep, drop=drop, keep_version=keep.version, drop_version=drop.version,
                    request_id=None, user=organiser,
                )  # fmt: skip
            except Exception as error:  # they played together, or both are linked: refused
                assert getattr(error, "code", "") in {"merge_same_game"}, error
    elif kind == "leave":
        membership = FederationClub.objects.filter(
            club=w.clubs[step[1]], state=FederationClub.State.MEMBER
        ).first()
        if membership is not None:
            membership_end(membership=membership, by_club=True, version=membership.version)
    elif kind == "join":
        club = w.clubs[step[1]]
        if not FederationClub.objects.filter(club=club, state__in=["invited", "member"]).exists():
            day = timezone.localdate() - datetime.timedelta(days=step[2])
            invited = club_invite(federation=w.federation, club=club, counts_from=day)
            club_answer(membership=invited, accept=True, version=invited.version)
    elif kind == "work":
        run_worker()


@pytest.mark.django_db(transaction=True)
@given(st.lists(change, min_size=1, max_size=10))
@example(  # one person at both clubs, merged with a duplicate, a club leaving, the merge undone
    [
        ("play", 0, ("Ann", "Bob", "Cid"), 0, 5),
        ("play", 1, ("Ann", "Cid", "Dan"), 1, 3),
        ("link", 0, "Ann", 0),
        ("link", 1, "Ann", 1),
        ("work",),
        ("merge", 1, 0),
        ("correct", 0, 2),
        ("leave", 1),
        ("play", 1, ("Ann", "Bob", "Dan"), 0, 0),
        ("work",),
        ("undo_merge",),
    ]
)
@examples(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_sequence_of_changes_ends_where_a_fresh_derivation_would(changes: list[tuple[Any, ...]]) -> None:
    with database_tasks():
        w = world(tag=f"-{next(EXAMPLES)}")
        # The clubs count the last ten days, so back-dated games count too.
        FederationClub.objects.filter(federation=w.federation).update(
            counts_from=timezone.localdate() - datetime.timedelta(days=10)
        )
        people = [person_add(federation=w.federation, name=n) for n in ("Ann Svobodová", "Ann S.", "Bob")]
        games: list[Game] = []
        merges: list[int] = []
        for step in changes:
            _apply(step, w, people, games, merges)
        run_worker()
        assert differences(w.federation) == []
        assert not FederationDirty.objects.filter(federation=w.federation).exists()


@pytest.mark.django_db
def test_a_federation_counting_tournaments_rates_the_marked_ones_only() -> None:
    from federations.services.events import tournament_rate
    from federations.services.federations import Settings, federation_update
    from tests.tournaments.support import play_round, tournament

    w = world(clubs=1)
    club, organiser = w.clubs[0], w.organisers[0]
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    settings = Settings.of(w.federation)
    federation = federation_update(
        federation=w.federation,
        settings=Settings(**{**settings.__dict__, "counts": Federation.Counts.EVENTS}),
        version=w.federation.version,
    )
    cup, other = tournament(club, organiser, players=8), tournament(club, organiser, players=8, name="Other")
    for played in (cup, other):
        play_round(played, 1, organiser)
    play(club, organiser, ["Anna", "Bára"], "Anna")  # a club game: not counted
    assert tournament_rate(federation=federation, tournament=cup, rated=True, user=organiser)
    drain(federation)
    rated_games = set(FederationRatingEvent.objects.values_list("game_id", flat=True))
    assert rated_games == set(
        Game.objects.filter(tournament_table__round__tournament=cup).values_list("pk", flat=True)
    )
    assert differences(federation) == []
    assert not tournament_rate(federation=federation, tournament=cup, rated=False, user=organiser)
    drain(federation)
    assert not FederationRatingEvent.objects.exists()
    assert list(
        FederationChange.objects.filter(action__in=["marked", "unmarked"]).values_list("action", flat=True)
    ) == [
        "unmarked",
        "marked",
    ]


@pytest.mark.django_db
def test_rebuild_derived_rebuilds_and_checks_the_federations_lists() -> None:
    import io

    from django.core.management import CommandError, call_command

    w = world()
    FederationClub.objects.update(counts_from=datetime.date(2026, 1, 1))
    play(w.clubs[0], w.organisers[0], ["Eva", "Jan", "Ola"], "Eva", back=1)
    play(w.clubs[1], w.organisers[1], ["Evička", "Piotr"], "Piotr")
    eva = person_add(federation=w.federation, name="Eva")
    linked(w.federation, w.clubs[0], "Eva", eva)
    linked(w.federation, w.clubs[1], "Evička", eva)
    drain(w.federation)
    club_drain()  # the clubs' own numbers, which the check reads too
    FederationRating.objects.update(mu=1.0)
    FederationRatingEvent.objects.order_by("pk").first().delete()  # type: ignore[union-attr]
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_derived", "--check", stdout=out)
    assert "line" in out.getvalue() and "event" in out.getvalue()
    out = io.StringIO()
    call_command("rebuild_derived", "--federation", w.federation.slug, stdout=out)
    assert f"federation {w.federation.slug}: rummikub 5 ratings" in out.getvalue()
    assert differences(w.federation) == []
    call_command("rebuild_derived", "--check", stdout=io.StringIO())
    call_command("rebuild_derived", stdout=io.StringIO())  # the clubs' and every federation's
    assert differences(w.federation) == [] and not FederationDirty.objects.exists()
    with pytest.raises(CommandError):
        call_command("rebuild_derived", "--federation", "nowhere", stdout=io.StringIO())


@pytest.mark.django_db
def test_a_correction_re_rates_its_own_game_whatever_the_ids_of_its_events() -> None:
    """The rating events of a game are found by the game's id, not their own: here the events'
    ids are below the game's (as they come out when a site's games outnumber its events)."""
    w = world(clubs=1)
    game = play(w.clubs[0], w.organisers[0], ["Ann", "Bob", "Cid"], "Ann")
    drain(w.federation)
    for n, pk in enumerate(
        FederationRatingEvent.objects.filter(game=game).values_list("pk", flat=True), start=1
    ):
        FederationRatingEvent.objects.filter(pk=pk).update(id=-n)
    assert max(FederationRatingEvent.objects.filter(game=game).values_list("pk", flat=True)) < game.pk
    correct(game, w.organisers[0], "Cid")
    drain(w.federation)
    assert differences(w.federation) == []
