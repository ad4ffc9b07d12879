"""scoring.ratings against openskill's Plackett–Luce model called directly."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring.ratings import START, RatedGame, Rating, display, rate, replay, win_chances


def direct(ratings: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def close(a: Rating, b: tuple[float, float]) -> bool:
    return math.isclose(a.mu, b[0], rel_tol=0, abs_tol=1e-12) and math.isclose(
        a.sigma, b[1], rel_tol=0, abs_tol=1e-12
    )


@pytest.mark.parametrize(
    ("ratings", "places"),
    [
        ([(25.0, 25 / 3)] * 4, [1, 2, 3, 4]),
        ([(25.0, 25 / 3)] * 4, [1, 2, 2, 4]),  # a tie for second
        ([(30.0, 5.0), (22.0, 7.0), (25.0, 25 / 3), (18.0, 3.0)], [3, 1, 4, 2]),
        ([(30.0, 5.0), (22.0, 7.0), (25.0, 25 / 3)], [1, 1, 3]),  # a tie for first
        ([(25.0, 25 / 3), (25.0, 25 / 3)], [2, 1]),
        ([(28.0, 4.0), (21.0, 6.0)], [1, 2]),
    ],
)
def test_rate_is_openskill_plackett_luce(ratings: list[tuple[float, float]], places: list[int]) -> None:
    got = rate([Rating(mu, sigma) for mu, sigma in ratings], places)
    expected = direct(ratings, places)
    assert len(got) == len(expected)
    assert all(close(g, e) for g, e in zip(got, expected, strict=True))


def test_rate_moves_the_winner_up_and_the_loser_down() -> None:
    winner, loser = rate([START, START], [1, 2])
    assert winner.mu > START.mu > loser.mu
    assert winner.sigma < START.sigma and loser.sigma < START.sigma


def test_a_tie_between_equals_keeps_them_equal() -> None:
    a, b = rate([START, START], [1, 1])
    assert a == b
    assert a.mu == pytest.approx(START.mu)


def test_rate_refuses_mismatched_or_lonely_input() -> None:
    with pytest.raises(ValueError):
        rate([START, START], [1])
    with pytest.raises(ValueError):
        rate([START], [1])


def test_start_and_display() -> None:
    assert START == Rating(25.0, 25 / 3)
    assert START.ordinal == pytest.approx(0.0)
    assert display(START) == 1000
    assert display(Rating(30.0, 2.0)) == round(1000 + 40 * 24.0)
    assert display(Rating(10.0, 5.0)) == 1000 + 40 * -5


def test_win_chances_sum_to_one_and_favour_the_stronger() -> None:
    strong, weak = Rating(32.0, 3.0), Rating(20.0, 3.0)
    chances = win_chances([weak, strong, START])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[1] > chances[2] > chances[0]
    model = PlackettLuce()
    expected = model.predict_win([[model.rating(mu=r.mu, sigma=r.sigma)] for r in (weak, strong, START)])
    assert chances == pytest.approx(expected, abs=1e-12)
    assert win_chances([START, START]) == pytest.approx([0.5, 0.5])


games_strategy = st.lists(
    st.integers(min_value=2, max_value=4).flatmap(
        lambda n: st.tuples(
            st.permutations(["Ann", "Bob", "Cid", "Dan", "Eva"]).map(lambda p: tuple(p[:n])),
            st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n).map(tuple),
        )
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(games=games_strategy, bob=st.floats(min_value=10, max_value=40))
def test_replay_is_a_loop_over_openskill(
    games: list[tuple[tuple[str, ...], tuple[int, ...]]], bob: float
) -> None:
    start = {"Bob": Rating(bob, 4.0)}
    steps = replay([RatedGame(i, players, places) for i, (players, places) in enumerate(games)], start)

    model = PlackettLuce()
    current = {"Bob": model.rating(mu=bob, sigma=4.0)}
    expected = []
    for i, (players, places) in enumerate(games):
        teams = [[current.get(p) or model.rating()] for p in players]
        before = [(t[0].mu, t[0].sigma) for t in teams]
        rated = model.rate(teams, ranks=list(places))
        for player, place, old, team in zip(players, places, before, rated, strict=True):
            current[player] = team[0]
            expected.append((i, player, place, len(players), old, (team[0].mu, team[0].sigma)))

    assert len(steps) == len(expected)
    for step, (key, player, place, count, old, new) in zip(steps, expected, strict=True):
        assert (step.key, step.player, step.place, step.players) == (key, player, place, count)
        assert close(step.before, old)
        assert close(step.after, new)


def test_replay_of_nothing_is_nothing() -> None:
    assert replay([], {}) == []
