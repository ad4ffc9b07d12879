"""The derived-numbers pipeline run for real: writes commit and queue jobs in the database, the
db worker's own loop runs them, and the stored ratings and standings then equal a fresh
derivation (``tournaments.derived.differences``), on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import datetime
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection, connections, transaction
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from hypothesis import HealthCheck, example, given
from hypothesis import settings as examples
from hypothesis import strategies as st

import tournaments.rating_history as ratings_module
from games.models import Club, ClubChange, Game, Player
from games.services.clubs import club_change_undo
from games.services.games import game_end
from games.services.hands import hand_edit
from games.services.players import player_merge
from games.signals import results_changed
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.fault_club import correct, play
from tests.tournaments.pipeline import database_tasks, run_worker
from tests.tournaments.support import play_round, rummikub_hand, season_settings, settings, tournament
from tournaments import derived
from tournaments.models import (
    CurrentRating,
    DerivedState,
    RatingDirty,
    RatingEvent,
    Season,
    SeasonDirty,
    SeasonStanding,
    Table,
)
from tournaments.selectors.league import rating_list
from tournaments.services.rounds import round_confirm
from tournaments.services.seasons import season_create, season_update
from tournaments.services.tournament_settings import tournament_update

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("queue_in_database")]

FAMILY = "rummikub"


@pytest.fixture
def queue_in_database() -> Any:
    with database_tasks():
        yield


def new_club() -> tuple[Club, User]:
    user = UserFactory.create()
    return ClubFactory.create(organiser=user), user


def queued() -> int:
    return DBTaskResult.objects.ready().count()


def a_world() -> tuple[Club, User, list[Game]]:
    club, user = new_club()
    season_create(club=club, settings=season_settings(), user=user)
    games = [
        play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=3),
        play(club, user, ["Bob", "Cid", "Dan"], "Bob", back=2),
        play(club, user, ["Ann", "Cid", "Dan"], "Dan", back=1),
        play(club, user, ["Ann", "Bob", "Dan"], "Ann"),
    ]
    run_worker()
    assert derived.differences(club) == []
    return club, user, games


def test_a_correction_is_applied_by_the_worker_after_the_request() -> None:
    club, user, games = a_world()
    as_of = derived.freshness(club.pk).as_of
    assert as_of is not None
    correct(games[0], user, "Cid")
    # The write has answered: the game's own results are new, what spans games is queued.
    assert games[0].results.get(player__name="Cid").place == 1
    assert queued() >= 1
    assert derived.freshness(club.pk) == derived.Freshness(True, as_of)
    assert derived.differences(club) != []  # the ratings and standings are behind
    season = club.seasons.get()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "updating" in page.lower()
    run_worker()
    assert derived.differences(club) == []
    fresh = derived.freshness(club.pk)
    assert not fresh.pending and fresh.as_of is not None and fresh.as_of > as_of
    assert queued() == 0


def test_a_burst_of_corrections_is_one_rebuild_from_the_earliest_game(monkeypatch: Any) -> None:
    club, user, games = a_world()
    calls: list[Any] = []
    real = ratings_module._write

    def counted(club: Club, family: str, since: Any, made: Any) -> None:
        calls.append(since)
        real(club, family, since, made)

    monkeypatch.setattr(ratings_module, "_write", counted)
    seasons: list[int] = []
    real_season = derived.store_standings

    def counted_season(season: Any, rows: Any, counted_until: Any = None) -> None:
        seasons.append(season.pk)
        real_season(season, rows, counted_until)

    monkeypatch.setattr(derived, "store_standings", counted_season)
    for i in range(50):
        game = games[3 - i % 4]
        names = sorted(game.seats.values_list("name", flat=True))
        correct(game, user, names[i % 3])
    assert queued() > 40  # one job per saved correction (a correction that changes nothing saves nothing)
    run_worker()
    assert calls == [ratings_module.game_key(Game.objects.get(pk=games[0].pk))]
    assert seasons == [club.seasons.get().pk]
    assert derived.differences(club) == []


def test_a_failing_job_keeps_the_old_numbers_retries_later_and_blocks_no_other_club(
    monkeypatch: Any,
) -> None:
    club, user, games = a_world()
    other, other_user, other_games = a_world()
    before = sorted(RatingEvent.objects.filter(club=club).values_list("game_id", "player_id", "mu"))
    standings = sorted(SeasonStanding.objects.filter(season__club=club).values_list("player_id", "points"))
    real = ratings_module._events

    def broken(club_: Club, *args: Any) -> Any:
        if club_.pk == club.pk:
            raise RuntimeError("the database went away")
        return real(club_, *args)

    monkeypatch.setattr(ratings_module, "_events", broken)
    correct(games[0], user, "Bob")
    correct(other_games[0], other_user, "Bob")
    run_worker()
    # The failed club: every number as before (the rebuild's transaction rolled back), the
    # mark kept, the failure noted and a retry queued for later.
    assert sorted(RatingEvent.objects.filter(club=club).values_list("game_id", "player_id", "mu")) == before
    assert (
        sorted(SeasonStanding.objects.filter(season__club=club).values_list("player_id", "points"))
        == standings
    )
    assert RatingDirty.objects.filter(club=club).exists()
    state = DerivedState.objects.get(club=club)
    assert state.failures == 1 and "went away" in state.last_error
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1
    retry = DBTaskResult.objects.get(status="READY")
    assert retry.run_after is not None and retry.run_after > timezone.now()
    health = Client().get("/healthz").json()["derived"]
    assert health["failing_clubs"] == 1 and health["oldest_pending_seconds"] is not None
    assert [(c["club"], c["failures"]) for c in health["failing"]] == [(club.slug, 1)]
    assert health["failing"][0]["pending_seconds"] >= 0 and health["stuck"] == []
    # The other club was brought up to date all the same.
    assert derived.differences(other) == []
    # Fixed, the retry (due now) applies the mark.
    monkeypatch.setattr(ratings_module, "_events", real)
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    run_worker()
    assert derived.differences(club) == []
    assert DerivedState.objects.get(club=club).failures == 0
    health = Client().get("/healthz").json()["derived"]
    assert (health["oldest_pending_seconds"], health["failing_clubs"], health["failing"]) == (None, 0, [])


def test_a_merge_and_its_undo_re_rate_and_re_rank() -> None:
    club, user, _games = a_world()
    # Eve and Eva never met: one person under two names.
    play(club, user, ["Eve", "Ann", "Bob"], "Eve", back=2)
    play(club, user, ["Eva", "Cid", "Dan"], "Eva")
    run_worker()
    eve, eva = Player.objects.get(club=club, name="Eve"), Player.objects.get(club=club, name="Eva")
    change = player_merge(
        keep=eve, drop=eva, keep_version=eve.version, drop_version=eva.version, request_id=None, user=user
    )
    assert queued() >= 1 and derived.differences(club) != []
    run_worker()
    assert derived.differences(club) == []
    listed = set(SeasonStanding.objects.filter(season__club=club).values_list("player__name", flat=True))
    assert "Eve" in listed and "Eva" not in listed
    club_change_undo(change=ClubChange.objects.get(pk=change.pk), user=user)
    run_worker()
    assert derived.differences(club) == []
    listed = set(SeasonStanding.objects.filter(season__club=club).values_list("player__name", flat=True))
    assert {"Eve", "Eva"} <= listed


def test_a_season_edit_is_rebuilt_by_the_worker() -> None:
    club, user, _games = a_world()
    season = club.seasons.get()
    season_update(season=season, settings=season_settings(min_games=4), version=season.version, user=user)
    assert SeasonDirty.objects.filter(season=season).exists()
    assert SeasonStanding.objects.filter(season=season, ranked=True).exists()  # until the worker runs
    run_worker()
    assert derived.differences(club) == []
    assert not SeasonStanding.objects.filter(season=season, ranked=True).exists()  # nobody played 4


@pytest.mark.skipif(connection.vendor != "postgresql", reason="advisory locks are PostgreSQL's")
def test_two_workers_never_apply_one_club_at_once() -> None:
    club, user, games = a_world()
    correct(games[1], user, "Dan")
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:  # another worker, at this club
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [derived.LOCK_SPACE, club.pk])
        run_worker()
        assert RatingDirty.objects.filter(club=club).exists()  # left to the worker holding it
        retry = DBTaskResult.objects.get(status="READY")  # and asked again shortly
        assert retry.run_after is not None and retry.run_after > timezone.now()
    finally:
        other.close()
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    run_worker()
    assert derived.differences(club) == []


def test_rebuild_derived_check_lists_differences_and_fails() -> None:
    club, _user, _games = a_world()
    out = io.StringIO()
    call_command("rebuild_derived", "--check", stdout=out)
    assert "matches" in out.getvalue()
    RatingEvent.objects.filter(club=club).order_by("pk").first().delete()  # type: ignore[union-attr]
    SeasonStanding.objects.filter(season__club=club).update(points=99)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_derived", "--check", stdout=out)
    assert "missing" in out.getvalue() and "points" in out.getvalue()
    assert not RatingDirty.objects.exists()  # checking wrote nothing, marked nothing


# ---------------------------------------------------------------------- random sequences

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]

change = st.one_of(
    st.tuples(
        st.just("play"), st.permutations(NAMES).map(lambda p: p[:3]), st.integers(0, 2), st.integers(0, 20)
    ),
    st.tuples(st.just("correct"), st.integers(0, 30), st.integers(0, 2)),
    st.tuples(st.just("points"), st.integers(0, 30), st.integers(1, 9)),
    st.tuples(st.just("reopen"), st.integers(0, 30)),
    st.tuples(st.just("merge"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("undo_merge")),
    st.tuples(st.just("season"), st.integers(0, 3), st.integers(0, 1)),
    st.tuples(st.just("work")),
)


def points_only(game: Game, user: User, more: int) -> None:
    """Correct the hand's racks, the winner and the order of the others kept: the places stay."""
    hand = game.hands.get()
    outcome = dict(hand.outcome)
    left = {name: points + more for name, points in outcome["left"].items()}
    hand_edit(hand=hand, outcome=outcome | {"left": left}, version=hand.version, user=user)


@examples(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(change, min_size=1, max_size=10))
@example(  # two names of one person who never met, merged, corrected, then the merge undone
    [
        ("play", ("Ann", "Bob", "Cid"), 0, 9),
        ("play", ("Dan", "Eve", "Cid"), 1, 3),
        ("work",),
        ("merge", "Ann", "Dan"),
        ("correct", 1, 2),
        ("work",),
        ("undo_merge",),
    ]
)
@example(  # a points-only correction of a game in both seasons, then a game in the later one only
    [
        ("play", ("Ann", "Bob", "Cid"), 0, 9),
        ("play", ("Dan", "Bob", "Cid"), 1, 1),
        ("work",),
        ("points", 0, 3),
        ("play", ("Ann", "Dan", "Eve"), 2, 0),
        ("work",),
        ("correct", 0, 1),
    ]
)
def test_any_sequence_of_changes_ends_where_a_full_rebuild_would(changes: list[tuple[Any, ...]]) -> None:
    club, user = new_club()
    today = timezone.localdate()
    earlier = season_settings(
        name="Spring", starts=today - datetime.timedelta(days=25), ends=today - datetime.timedelta(days=6)
    )
    seasons = [
        season_create(club=club, settings=season_settings(), user=user),
        season_create(club=club, settings=earlier, user=user),  # ends before the later games
    ]
    games: list[Game] = []
    merges: list[int] = []
    for step in changes:
        kind = step[0]
        if kind == "play":
            names, winner, back = list(step[1]), step[2], step[3]
            games.append(play(club, user, names, names[winner], back=back))
        elif kind == "correct" and games:
            game = games[step[1] % len(games)]
            names = list(game.seats.order_by("position").values_list("name", flat=True))
            if game.results.filter(finished=True).exists():
                correct(game, user, names[step[2] % len(names)])
        elif kind == "points" and games:
            game = games[step[1] % len(games)]
            if game.results.filter(finished=True).exists():
                points_only(game, user, step[2])
        elif kind == "reopen" and games:
            game = Game.objects.get(pk=games[step[1] % len(games)].pk)
            finished = game.results.filter(finished=True).exists()
            game_end(game=game, ended=not finished, user=user)
        elif kind == "merge":
            keep = Player.objects.filter(club=club, name=step[1], merged_into=None).first()
            drop = Player.objects.filter(club=club, name=step[2], merged_into=None).first()
            if keep and drop and keep != drop:
                try:
                    made = player_merge(
                        keep=keep,
                        drop=drop,
                        keep_version=keep.version,
                        drop_version=drop.version,
                        request_id=None,
                        user=user,
                    )
                except Exception as error:  # they played together: refused, nothing changed
                    assert getattr(error, "code", "") == "merge_same_game"
                else:
                    merges.append(made.pk)
        elif kind == "undo_merge" and merges:
            club_change_undo(change=ClubChange.objects.get(pk=merges.pop()), user=user)
        elif kind == "season":
            season = seasons[step[2]]
            season.refresh_from_db()
            base = (season_settings(), earlier)[step[2]]
            seasons[step[2]] = season_update(
                season=season,
                settings=dataclasses.replace(base, min_games=step[1]),
                version=season.version,
                user=user,
            )
        elif kind == "work":
            run_worker()
    run_worker()
    assert derived.differences(club) == []
    assert not RatingDirty.objects.filter(club=club).exists()
    assert not SeasonDirty.objects.filter(club=club).exists()


def test_the_api_says_pending_and_as_of_and_answers_304_while_unchanged() -> None:
    club, user, games = a_world()
    url = f"/api/v1/clubs/{club.slug}/derived/"
    first = Client().get(url)
    assert first.json()["pending"] is False and first.json()["as_of"] is not None
    assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    correct(games[0], user, "Cid")
    changed = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json() == {"pending": True, "as_of": first.json()["as_of"]}
    ann = Player.objects.get(club=club, name="Ann")
    ratings = Client().get(f"/api/v1/clubs/{club.slug}/players/{ann.pk}/ratings/").json()
    assert ratings["pending"] is True and ratings["as_of"] == first.json()["as_of"]
    season = Client().get(f"/api/v1/seasons/{club.seasons.get().public_id}/").json()
    assert season["standings"]["pending"] is True
    run_worker()
    done = Client().get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert done.status_code == 200 and done.json()["pending"] is False


def test_a_tournament_counts_once_confirmed_and_follows_its_corrections_and_settings() -> None:
    club, user, _games = a_world()
    season = club.seasons.get()
    cup = tournament(club, user, players=6, rounds=2, date=timezone.localdate())
    play_round(cup, 1, user)
    run_worker()
    assert derived.differences(club) == []
    assert (
        SeasonStanding.objects.filter(season=season, family="").exclude(events=0).count() == 4
    )  # games only
    last = play_round(cup, 2, user, confirm=False)
    run_worker()
    assert not SeasonStanding.objects.filter(season=season, family="", player__name="Filip").exists()
    round_confirm(played=last, round_version=last.version, user=user)  # now the season counts it
    assert SeasonDirty.objects.filter(season=season).exists()
    run_worker()
    assert derived.differences(club) == []
    assert SeasonStanding.objects.filter(season=season, family="", player__name="Filip").exists()
    # A correction at a table after the confirmation moves the final standings.
    table = Table.objects.filter(round__tournament=cup, round__number=1).select_related("game").first()
    assert table is not None and table.game is not None
    names = list(table.game.seats.order_by("position").values_list("name", flat=True))
    hand = table.game.hands.get()
    hand_edit(hand=hand, outcome=rummikub_hand(names[::-1]), version=hand.version, user=user)
    run_worker()
    assert derived.differences(club) == []
    # The tournament moved out of the season: it no longer counts there.
    cup.refresh_from_db()
    tournament_update(
        tournament=cup,
        settings=settings("rummikub", rounds=2, date=timezone.localdate() + datetime.timedelta(days=90)),
        version=cup.version,
        user=user,
    )
    run_worker()
    assert derived.differences(club) == []
    assert not SeasonStanding.objects.filter(season=season, family="", player__name="Filip").exists()
    # And back into it.
    cup.refresh_from_db()
    tournament_update(
        tournament=cup,
        settings=settings("rummikub", rounds=2, date=timezone.localdate()),
        version=cup.version,
        user=user,
    )
    run_worker()
    assert derived.differences(club) == []
    assert SeasonStanding.objects.filter(season=season, family="", player__name="Filip").exists()


@pytest.mark.parametrize("told", ["before", "after"])
def test_a_deleted_game_leaves_the_ratings_and_standings(told: str) -> None:
    club, _user, games = a_world()
    doomed = Game.objects.get(pk=games[1].pk)
    with transaction.atomic():
        if told == "before":
            results_changed.send(sender=Game, game=doomed, finished=False)
        doomed.delete()
        if told == "after":
            results_changed.send(sender=Game, game=doomed, finished=False)
    run_worker()
    assert derived.differences(club) == []
    bob = SeasonStanding.objects.get(season__club=club, family="", player__name="Bob")
    assert bob.games == 2  # of his three, the deleted one no longer counts


def test_a_correction_that_keeps_the_places_moves_no_rating_and_no_other_season() -> None:
    club, user = new_club()
    today = timezone.localdate()
    days = datetime.timedelta
    spring = season_settings(name="Spring", starts=today - days(25), ends=today - days(6))
    season_create(club=club, settings=spring, user=user)
    autumn_settings = season_settings(name="Autumn", starts=today - days(5), ends=today + days(30))
    autumn = season_create(club=club, settings=autumn_settings, user=user)
    early = play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=10)  # in Spring
    play(club, user, ["Ann", "Bob", "Dan"], "Bob")  # in Autumn
    run_worker()
    fields = ("game_id", "player_id", "mu", "sigma")
    ratings = sorted(RatingEvent.objects.filter(club=club).values_list(*fields))
    computed = Season.objects.get(pk=autumn.pk).computed_at
    lines = sorted(SeasonStanding.objects.filter(season=autumn).values_list("player_id", "points", "rating"))

    points_only(early, user, 4)  # Spring's standings are looked at again, Autumn's are not
    assert not SeasonDirty.objects.filter(season=autumn).exists()
    run_worker()
    assert sorted(RatingEvent.objects.filter(club=club).values_list(*fields)) == ratings
    assert Season.objects.get(pk=autumn.pk).computed_at == computed
    assert derived.differences(club) == []

    correct(early, user, "Cid")  # the places move: every later game re-rated, Autumn's ratings move
    run_worker()
    assert sorted(RatingEvent.objects.filter(club=club).values_list(*fields)) != ratings
    moved = sorted(SeasonStanding.objects.filter(season=autumn).values_list("player_id", "points", "rating"))
    assert [line[:2] for line in moved] == [line[:2] for line in lines] and moved != lines
    assert derived.differences(club) == []


def test_the_rating_list_follows_the_worker_and_a_stale_line_is_reported() -> None:
    club, user, games = a_world()
    first = {r.name: r for r in rating_list(club=club, family=games[0].family).rows}
    correct(games[0], user, "Cid")
    run_worker()
    after = {r.name: r for r in rating_list(club=club, family=games[0].family).rows}
    assert after["Cid"].rating > first["Cid"].rating  # his win in the first game now counts
    assert derived.differences(club) == []
    line = CurrentRating.objects.get(club=club, player__name="Cid")
    CurrentRating.objects.filter(pk=line.pk).update(mu=line.mu + 1, games=line.games + 1)
    found = derived.differences(club)
    assert any("rating list" in f and "mu is" in f for f in found)
    assert any("rating list" in f and "games is" in f for f in found)


def _derivations(monkeypatch: Any) -> list[int]:
    """The seasons the worker derives again from the results (not brought up to date)."""
    derived_again: list[int] = []
    real = derived.derived_standings

    def counted(season: Any) -> Any:
        derived_again.append(season.pk)
        return real(season)

    monkeypatch.setattr(derived, "derived_standings", counted)
    return derived_again


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"min_games": 2, "tiebreaks": ["points", "average_place", "wins"]},
        {"game_points": "wdl", "families": ["rummikub", "zoliky"], "counts": "games"},
    ],
)
def test_a_game_finished_after_the_season_s_others_is_added_to_its_lines(
    monkeypatch: Any, changes: dict[str, Any]
) -> None:
    club, user = new_club()
    season = season_create(club=club, settings=season_settings(**changes), user=user)
    play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=3)
    play(club, user, ["Bob", "Cid", "Dan"], "Cid", back=2)
    run_worker()
    derived_again = _derivations(monkeypatch)
    # Evenings go on: each game finished later than the others, the worker between or not.
    play(club, user, ["Ann", "Cid", "Dan"], "Dan", back=1)
    run_worker()
    play(club, user, ["Ann", "Bob", "Eve"], "Eve")
    play(club, user, ["Bob", "Dan", "Eve"], "Bob")
    run_worker()
    assert derived_again == []
    assert derived.differences(club) == []
    lines = SeasonStanding.objects.filter(season=season, family="")
    assert {line.player.name for line in lines} == {"Ann", "Bob", "Cid", "Dan", "Eve"}


def test_what_the_lines_cannot_take_is_derived_again(monkeypatch: Any) -> None:
    club, user = new_club()
    best = season_create(club=club, settings=season_settings(name="Best five", best_events=5), user=user)
    plain = season_create(club=club, settings=season_settings(name="Plain"), user=user)
    play(club, user, ["Ann", "Bob", "Cid"], "Ann", back=3)
    played = play(club, user, ["Bob", "Cid", "Dan"], "Cid", back=2)
    run_worker()
    derived_again = _derivations(monkeypatch)
    play(club, user, ["Ann", "Cid", "Dan"], "Dan", back=1)  # best-N needs each player's events
    run_worker()
    assert derived_again == [best.pk]
    derived_again.clear()
    play(club, user, ["Ann", "Bob", "Dan"], "Bob", back=5)  # before games already counted
    correct(played, user, "Dan")  # a correction
    run_worker()
    assert sorted(derived_again) == sorted([best.pk, plain.pk])
    assert derived.differences(club) == []
