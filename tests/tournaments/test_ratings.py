"""Ratings per club and family (tournaments.rating_history): rebuilt from the games' results, equal to
openskill called directly, and incremental rebuilds equal to full ones."""

from __future__ import annotations

import datetime
import io
import itertools
import math
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

import scoring.ratings
import tournaments.rating_history as ratings_module
from games.models import Club, Game, Result
from games.services.games import game_start
from games.services.hands import hand_edit, hand_record
from scoring.ratings import START, Rating
from tests.factories import ClubFactory, UserFactory
from tournaments.models import RatingDirty, RatingEvent
from tournaments.rating_history import (
    game_key,
    history,
    mark_dirty,
    ratings_of,
    rebuild,
    rebuild_club,
    refresh,
    updating,
)

pytestmark = pytest.mark.django_db

FAMILY = "rummikub"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eva"]

Order = tuple[str, ...]  # the players from first to last; "=" joins a tie: ("Ann", "Bob=Cid")


def outcome(order: Sequence[str]) -> dict[str, object]:
    """A Rummikub hand in which the players finish in ``order`` (the first goes out; a tie is
    the same tiles left)."""
    left: dict[str, int] = {}
    for rank, group in enumerate(order):
        for name in group.split("="):
            if rank:
                left[name] = 10 * rank
    first = order[0].split("=")
    assert len(first) == 1, "one player goes out"
    return {"winner": first[0], "left": left}


def seated(order: Sequence[str]) -> list[str]:
    return sorted(name for group in order for name in group.split("="))


def play(club: Club, user: User, order: Sequence[str], *, finish: bool = True) -> Game:
    """A club game of ``seated(order)`` played to its end in one hand (or left open)."""
    game = game_start(
        family=FAMILY, options={}, players=seated(order), owner=user, club=club, hand_limit=1 if finish else 0
    )
    hand_record(game=game, outcome=outcome(order), request_id=None, user=user)
    return game


def new_club() -> tuple[Club, User]:
    user = UserFactory.create()
    return ClubFactory.create(organiser=user), user


def snapshot(club: Club) -> list[tuple[Any, ...]]:
    return sorted(
        RatingEvent.objects.filter(club=club, family=FAMILY).values_list(
            "game_id",
            "player_id",
            "played_at",
            "place",
            "players",
            "mu",
            "sigma",
            "mu_before",
            "sigma_before",
        )
    )


def assert_same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x[:5] == y[:5]
        assert all(math.isclose(u, v, rel_tol=0, abs_tol=1e-9) for u, v in zip(x[5:], y[5:], strict=True))


def expected_by_openskill(club: Club) -> dict[int, tuple[float, float]]:
    """Every finished game of the club, in key order, rated by openskill directly."""
    model = PlackettLuce()
    current: dict[int, Any] = {}
    games = sorted(Game.objects.filter(club=club, family=FAMILY), key=game_key)
    for game in games:
        results = list(Result.objects.filter(game=game))
        if not results or not all(r.finished for r in results):
            continue
        teams = [[current.get(r.player_id) or model.rating()] for r in results]
        rated = model.rate(teams, ranks=[r.place for r in results])
        for r, team in zip(results, rated, strict=True):
            current[r.player_id] = team[0]
    return {pk: (r.mu, r.sigma) for pk, r in current.items()}


# ------------------------------------------------------------------------------- rebuild


def test_rebuild_equals_openskill_called_directly() -> None:
    club, user = new_club()
    play(club, user, ["Ann", "Bob", "Cid", "Dan"])
    play(club, user, ["Bob", "Ann=Cid"])  # a tie for second
    play(club, user, ["Cid", "Ann"])
    play(club, user, ["Dan", "Cid", "Bob"], finish=False)  # under way: not rated
    play(club, user, ["Ann", "Dan", "Eva"])
    other_club, other_user = new_club()
    play(other_club, other_user, ["Eva", "Ann"])  # another club: not counted

    assert rebuild(club=club, family=FAMILY) == 4

    expected = expected_by_openskill(club)
    ids = list(expected)
    got = ratings_of(club=club, family=FAMILY, player_ids=ids)
    assert set(got) == set(expected)
    for pk, (mu, sigma) in expected.items():
        assert got[pk].mu == pytest.approx(mu, abs=1e-12)
        assert got[pk].sigma == pytest.approx(sigma, abs=1e-12)
    assert RatingEvent.objects.filter(club=club).count() == 4 + 3 + 2 + 3
    assert not RatingEvent.objects.filter(club=other_club).exists()

    ann = Result.objects.filter(game__club=club, seat__name="Ann").first()
    assert ann is not None
    steps = history(player=ann.player, family=FAMILY)
    assert [e.place for e in steps] == [1, 2, 2, 1]
    assert [e.players for e in steps] == [4, 3, 2, 3]
    assert (steps[0].mu_before, steps[0].sigma_before) == (START.mu, START.sigma)
    for earlier, later in itertools.pairwise(steps):
        assert (later.mu_before, later.sigma_before) == (earlier.mu, earlier.sigma)
        assert (later.played_at, later.game_id) > (earlier.played_at, earlier.game_id)


def test_ratings_of_a_player_never_rated_is_start() -> None:
    club, user = new_club()
    game = play(club, user, ["Ann", "Bob"])
    rebuild(club=club, family=FAMILY)
    ann, bob = (r.player_id for r in Result.objects.filter(game=game).order_by("place"))
    got = ratings_of(club=club, family=FAMILY, player_ids=[ann, bob, 999_999])
    assert got[999_999] == START
    assert got[ann].mu > START.mu > got[bob].mu
    assert ratings_of(club=club, family="gin", player_ids=[ann]) == {ann: START}


def test_rebuild_from_a_point_equals_a_full_rebuild() -> None:
    club, user = new_club()
    games = [
        play(club, user, order) for order in (["Ann", "Bob", "Cid"], ["Bob", "Cid"], ["Cid", "Ann", "Bob"])
    ]
    rebuild(club=club, family=FAMILY)
    full = snapshot(club)
    assert rebuild(club=club, family=FAMILY, since=game_key(games[1])) == 2
    assert_same(snapshot(club), full)
    assert rebuild(club=club, family=FAMILY, since=game_key(games[2])) == 1
    assert_same(snapshot(club), full)


# ------------------------------------------------------------------ incremental = full


def edit_places(game: Game, order: Sequence[str], user: User) -> None:
    hand = game.hands.get()
    hand_edit(hand=hand, outcome=outcome(order), version=hand.version, user=user)


orders = st.integers(min_value=2, max_value=4).flatmap(
    lambda n: st.permutations(NAMES).map(lambda names: tuple(names[:n]))
)
ties = st.booleans()


def with_tie(order: tuple[str, ...], tie: bool) -> tuple[str, ...]:
    """Make the last two share a place (when that leaves one player going out first)."""
    if tie and len(order) >= 3:
        return (*order[:-2], f"{order[-2]}={order[-1]}")
    return order


edits = st.one_of(
    st.tuples(st.just("correct"), st.integers(min_value=0), st.permutations(range(4)), ties),
    st.tuples(
        st.just("redate"), st.integers(min_value=0), st.integers(min_value=0), st.sampled_from([-1, 0, 1])
    ),
    st.tuples(st.just("add"), orders, ties),
    st.tuples(st.just("open"), orders, ties),
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=st.lists(st.tuples(orders, ties), min_size=1, max_size=5),
    changes=st.lists(edits, min_size=1, max_size=5),
)
def test_incremental_rebuilds_equal_a_full_rebuild(
    first: list[tuple[tuple[str, ...], bool]], changes: list[tuple[Any, ...]]
) -> None:
    club, user = new_club()  # a club per example: the examples share the test's transaction
    games = [play(club, user, with_tie(order, tie)) for order, tie in first]
    refresh(club=club)
    for change in changes:
        match change:
            case ("correct", index, permutation, tie):
                game = games[index % len(games)]
                names = seated([s.name for s in game.seats.all()])
                order = tuple(names[i] for i in permutation if i < len(names))
                if not Result.objects.filter(game=game, finished=True).exists():
                    continue  # an open game: its hand cannot be corrected into a finish
                edit_places(game, with_tie(order, tie), user)
            case ("redate", index, target, step):
                game = games[index % len(games)]
                other = Game.objects.get(pk=games[target % len(games)].pk)
                when = other.created_at + datetime.timedelta(seconds=step)
                Game.objects.filter(pk=game.pk).update(played_at=when)
            case ("add", order, tie):
                game = play(club, user, with_tie(order, tie))
                games.append(game)
            case ("open", order, tie):
                game = play(club, user, with_tie(order, tie), finish=False)
                games.append(game)
        mark_dirty(game)
        assert updating(club=club)
        assert refresh(club=club) == [FAMILY]
        assert not updating(club=club)
        incremental = snapshot(club)
        rebuild(club=club, family=FAMILY, since=None)
        assert_same(incremental, snapshot(club))


def test_moving_a_game_later_re_rates_the_games_between() -> None:
    club, user = new_club()
    first = play(club, user, ["Ann", "Bob"])
    play(club, user, ["Bob", "Ann"])
    play(club, user, ["Ann", "Cid", "Bob"])
    refresh(club=club)
    Game.objects.filter(pk=first.pk).update(played_at=first.played_at + datetime.timedelta(days=1))
    mark_dirty(first)
    refresh(club=club)
    incremental = snapshot(club)
    rebuild(club=club, family=FAMILY)
    assert_same(incremental, snapshot(club))
    assert [e.game_id for e in RatingEvent.objects.filter(club=club).order_by("played_at", "game_id")][
        -2:
    ] == [
        first.pk,
        first.pk,
    ]


def test_a_correction_of_the_last_game_re_rates_only_that_game(monkeypatch: pytest.MonkeyPatch) -> None:
    club, user = new_club()
    for order in (["Ann", "Bob", "Cid"], ["Bob", "Cid", "Ann"], ["Cid", "Ann", "Bob"]):
        play(club, user, order)
    last = play(club, user, ["Ann", "Bob", "Cid", "Dan"])
    refresh(club=club)
    fields = ("pk", "place", "mu", "sigma")
    before = {
        (e.game_id, e.player_id): tuple(getattr(e, f) for f in fields)
        for e in RatingEvent.objects.filter(club=club)
    }

    calls: list[int] = []
    original = scoring.ratings.rate

    def counting(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
        calls.append(len(ratings))
        return original(ratings, places)

    monkeypatch.setattr(scoring.ratings, "rate", counting)
    edit_places(last, ["Dan", "Cid", "Bob", "Ann"], user)  # the signal marks it
    assert updating(club=club)
    assert refresh(club=club) == [FAMILY]

    assert calls == [4]
    after = {
        (e.game_id, e.player_id): tuple(getattr(e, f) for f in fields)
        for e in RatingEvent.objects.filter(club=club)
    }
    assert after.keys() == before.keys()
    unchanged = {k for k in before if before[k] == after[k]}
    assert unchanged == {k for k in before if k[0] != last.pk}
    assert {after[k][0] for k in after} == {before[k][0] for k in before}  # rewritten in place
    assert [e.place for e in RatingEvent.objects.filter(game=last).order_by("place")] == [1, 2, 3, 4]
    incremental = snapshot(club)
    rebuild(club=club, family=FAMILY)
    assert_same(incremental, snapshot(club))


def test_reopening_a_game_drops_its_ratings() -> None:
    club, user = new_club()
    play(club, user, ["Ann", "Bob"])
    open_later = play(club, user, ["Bob", "Cid"])
    refresh(club=club)
    assert RatingEvent.objects.filter(game=open_later).count() == 2
    Result.objects.filter(game=open_later).update(finished=False)
    mark_dirty(open_later)
    refresh(club=club)
    assert not RatingEvent.objects.filter(game=open_later).exists()
    assert RatingEvent.objects.filter(club=club).count() == 2


# ------------------------------------------------------------------------ interrupted


def test_an_interrupted_rebuild_leaves_the_old_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    club, user = new_club()
    games = [play(club, user, order) for order in (["Ann", "Bob"], ["Bob", "Cid", "Ann"], ["Cid", "Ann"])]
    refresh(club=club)
    old = snapshot(club)
    old_pks = set(RatingEvent.objects.filter(club=club).values_list("pk", flat=True))

    original = scoring.ratings.rate
    calls: list[int] = []

    def failing(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("power cut")
        return original(ratings, places)

    monkeypatch.setattr(scoring.ratings, "rate", failing)
    with pytest.raises(RuntimeError):
        rebuild(club=club, family=FAMILY)
    assert snapshot(club) == old
    assert set(RatingEvent.objects.filter(club=club).values_list("pk", flat=True)) == old_pks

    calls.clear()
    edit_places(games[0], ["Bob", "Ann"], user)
    with pytest.raises(RuntimeError):
        refresh(club=club)
    assert snapshot(club) == old
    assert updating(club=club)  # the mark stays for the next try

    monkeypatch.setattr(scoring.ratings, "rate", original)
    assert refresh(club=club) == [FAMILY]
    assert not updating(club=club)
    assert snapshot(club) != old


# ---------------------------------------------------------------------------- marks


def test_mark_dirty_keeps_the_earliest_point_and_refresh_clears_it() -> None:
    club, user = new_club()
    games = [play(club, user, order) for order in (["Ann", "Bob"], ["Bob", "Cid"], ["Cid", "Ann"])]
    refresh(club=club)
    assert not updating(club=club)

    mark_dirty(games[2])
    mark_dirty(games[0])
    mark_dirty(games[1])
    mark = RatingDirty.objects.get(club=club, family=FAMILY)
    assert (mark.since_at, mark.since_game) == game_key(games[0])
    assert updating(club=club)

    seen: list[tuple[Club, list[str]]] = []
    assert refresh(club=club, after=lambda c, families: seen.append((c, families))) == [FAMILY]
    assert seen == [(club, [FAMILY])]
    assert not updating(club=club)
    assert refresh(club=club, after=lambda c, families: seen.append((c, families))) == []
    assert len(seen) == 1  # nothing rebuilt: no callback


def test_mark_dirty_ignores_private_games() -> None:
    user = UserFactory.create()
    game = game_start(family=FAMILY, options={}, players=["Ann", "Bob"], owner=user, hand_limit=1)
    hand_record(game=game, outcome=outcome(["Ann", "Bob"]), request_id=None, user=user)
    mark_dirty(game)
    assert not RatingDirty.objects.exists()


def test_two_writes_creating_the_mark_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other write creates the mark between our look and our insert: ours meets the unique
    constraint, and then moves that mark back to our earlier game."""
    club, user = new_club()
    early = play(club, user, ["Ann", "Bob"])
    late = play(club, user, ["Bob", "Ann"])
    refresh(club=club)
    create = ratings_module._create_mark
    results: list[bool] = []

    def racing(club_id: int, family: str, since: tuple[datetime.datetime, int]) -> bool:
        monkeypatch.setattr(ratings_module, "_create_mark", create)
        assert create(club_id, family, game_key(late))  # the other write, a moment before ours
        results.append(create(club_id, family, since))  # ours: the unique constraint
        return results[-1]

    monkeypatch.setattr(ratings_module, "_create_mark", racing)
    mark_dirty(early)
    assert results == [False]
    mark = RatingDirty.objects.get(club=club, family=FAMILY)
    assert (mark.since_at, mark.since_game) == game_key(early)


def test_refresh_rebuilds_again_when_an_earlier_point_was_marked_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club, user = new_club()
    games = [play(club, user, order) for order in (["Ann", "Bob"], ["Bob", "Cid"], ["Cid", "Ann"])]
    refresh(club=club)
    mark_dirty(games[2])

    original = ratings_module._plan
    points: list[object] = []

    def derive_while_marked(club_: Club, family: str, since: Any) -> Any:
        points.append(since)
        if len(points) == 1:
            mark_dirty(games[0])  # another write, while the first rebuild is derived
        return original(club_, family, since)

    monkeypatch.setattr(ratings_module, "_plan", derive_while_marked)
    assert refresh(club=club) == [FAMILY]
    assert points == [game_key(games[2]), game_key(games[0])]
    assert not updating(club=club)


def test_refresh_derives_again_when_a_later_game_changed_meanwhile(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that marks a point after the mark's keeps the point but counts a new version:
    the events derived before it are not stored."""
    club, user = new_club()
    games = [play(club, user, order) for order in (["Ann", "Bob"], ["Bob", "Cid"], ["Cid", "Ann"])]
    refresh(club=club)
    mark_dirty(games[0])
    original = ratings_module._plan
    points: list[object] = []

    def derive_while_corrected(club_: Club, family: str, since: Any) -> Any:
        points.append(since)
        if len(points) == 1:  # the last game corrected while the first rebuild is derived
            hand = games[2].hands.get()
            hand_edit(hand=hand, outcome=outcome(["Ann", "Cid"]), version=hand.version, user=user)
        return original(club_, family, since)

    monkeypatch.setattr(ratings_module, "_plan", derive_while_corrected)
    assert refresh(club=club) == [FAMILY]
    assert points == [game_key(games[0]), game_key(games[0])]
    fresh = snapshot(club)
    rebuild(club=club, family=FAMILY)
    assert_same(fresh, snapshot(club))


def test_rebuild_club_rebuilds_everything_and_clears_the_marks() -> None:
    club, user = new_club()
    play(club, user, ["Ann", "Bob"])
    gin = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=user, club=club, hand_limit=0)
    assert updating(club=club)
    assert rebuild_club(club=club) == {"gin": 0, FAMILY: 1}
    assert not updating(club=club)
    assert not RatingEvent.objects.filter(game=gin).exists()


def test_mark_integrity_error_is_not_swallowed_forever(monkeypatch: pytest.MonkeyPatch) -> None:
    club, user = new_club()
    game = play(club, user, ["Ann", "Bob"])
    RatingDirty.objects.all().delete()

    def always(**fields: Any) -> RatingDirty:
        raise IntegrityError("unique")

    monkeypatch.setattr(RatingDirty.objects, "create", always)
    with pytest.raises(RuntimeError):
        mark_dirty(game)


# -------------------------------------------------------------------- the command


def test_rebuild_derived_command_rates() -> None:
    club, user = new_club()
    other, other_user = new_club()
    play(club, user, ["Ann", "Bob", "Cid"])
    play(club, user, ["Bob", "Ann"])
    play(other, other_user, ["Eva", "Dan"])
    assert updating(club=club) and updating(club=other)

    out = io.StringIO()
    call_command("rebuild_derived", "--club", club.slug, stdout=out)
    assert f"{club.slug}: 2 games rated (rummikub 2)" in out.getvalue()
    assert RatingEvent.objects.filter(club=club).count() == 5
    assert not updating(club=club)
    assert updating(club=other)

    out = io.StringIO()
    call_command("rebuild_derived", stdout=out)
    assert "3 games rated in" in out.getvalue()
    assert not updating(club=other)
    assert RatingEvent.objects.filter(club=other).count() == 2

    with pytest.raises(CommandError):
        call_command("rebuild_derived", "--club", "no-such-club")
