"""The final's seeding and places against brute-force references."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.finals import (
    bracket,
    final_places,
    first_matches,
    knockout_groups,
    next_matches,
    qualifiers,
)


def _favourites_win(slots: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Every round's matches (as seed pairs) when the better seed always wins."""
    rounds = []
    alive = list(slots)
    while len(alive) > 1:
        pairs = [(alive[i], alive[i + 1]) for i in range(0, len(alive), 2)]
        rounds.append(pairs)
        alive = [min(pair) for pair in pairs]
    return rounds


def _is_standard(slots: tuple[int, ...]) -> bool:
    """Standard seeding as a definition: with favourites winning, every round pairs the k-th
    best left with the k-th worst left."""
    for pairs in _favourites_win(slots):
        n = 2 * len(pairs)
        if any(a + b != n + 1 for a, b in pairs):
            return False
    return True


@pytest.mark.parametrize("size", [2, 4, 8])
def test_bracket_is_the_standard_seeding_found_by_brute_force(size: int) -> None:
    standard = {slots for slots in permutations(range(1, size + 1)) if _is_standard(slots)}
    assert bracket(size) in standard
    # Seed 1 opens the top half and the strongest seeds keep the top of each match.
    assert bracket(size)[0] == 1
    assert all(bracket(size)[i] < bracket(size)[i + 1] for i in range(0, size, 2))


def test_eight_are_seeded_one_against_eight_four_against_five() -> None:
    assert first_matches([11, 12, 13, 14, 15, 16, 17, 18, 19], 8) == ((11, 18), (14, 15), (12, 17), (13, 16))
    assert first_matches([5, 6, 7, 8], 4) == ((5, 8), (6, 7))


def test_a_knockout_of_six_or_a_final_of_more_than_the_field_is_refused() -> None:
    with pytest.raises(ScoringError) as error:
        bracket(6)
    assert error.value.code == "final_knockout_size"
    with pytest.raises(ScoringError) as error:
        qualifiers([1, 2, 3], 4)
    assert error.value.code == "final_too_few"
    with pytest.raises(ScoringError) as error:
        qualifiers([1, 2, 3], 1)  # one player is no final
    assert error.value.code == "final_size"


def _reference_places(order: list[int], final: list[list[int]], counts: str) -> list[tuple[int, int]]:
    """Sort by (finalist group or after all groups, standings position); places shared in a group."""
    if counts == "adds":
        return [(p, i + 1) for i, p in enumerate(order)]
    group_of = {p: g for g, group in enumerate(final) for p in group}
    ranked = sorted(order, key=lambda p: (group_of.get(p, len(final)), order.index(p)))
    out: list[tuple[int, int]] = []
    for index, player in enumerate(ranked):
        if player in group_of and index and group_of.get(ranked[index - 1]) == group_of[player]:
            out.append((player, out[-1][1]))
        else:
            out.append((player, index + 1))
    return out


@st.composite
def _evening(draw: st.DrawFn) -> tuple[list[int], list[list[int]], str]:
    players = draw(st.integers(min_value=2, max_value=12))
    order = draw(st.permutations(list(range(100, 100 + players))))
    size = draw(st.integers(min_value=2, max_value=players))
    finalists = draw(st.permutations(order[:size]))
    cuts = sorted(draw(st.sets(st.integers(min_value=1, max_value=size - 1), max_size=size - 1)))
    groups = [list(finalists[a:b]) for a, b in zip([0, *cuts], [*cuts, size], strict=True)]
    return list(order), groups, draw(st.sampled_from(["decides", "adds"]))


@given(_evening())
def test_final_places_match_the_sorting_reference(case: tuple[list[int], list[list[int]], str]) -> None:
    order, groups, counts = case
    got = final_places(order, groups, counts=counts)  # type: ignore[arg-type]
    assert list(got) == _reference_places(order, groups, counts)
    assert sorted(p for p, _ in got) == sorted(order)


@given(st.sampled_from([4, 8]), st.randoms())
def test_a_knockout_played_out_places_champion_runner_up_then_losers(size: int, rnd) -> None:  # type: ignore[no-untyped-def]
    order = list(range(1, size + 3))
    matches = list(first_matches(order, size))
    rounds = []
    while True:
        played = [(a, b) if rnd.random() < 0.5 else (b, a) for a, b in matches]
        rounds.append(played)
        if len(played) == 1:
            break
        matches = list(next_matches([w for w, _ in played]))
    groups = knockout_groups(rounds)
    places = dict(final_places(order, groups, counts="decides"))
    assert places[rounds[-1][0][0]] == 1
    assert places[rounds[-1][0][1]] == 2
    assert all(places[loser] == 3 for _w, loser in rounds[-2])
    # Non-finalists follow in standings order.
    assert [places[p] for p in order[size:]] == [size + 1, size + 2]


def test_players_outside_a_deciding_final_keep_their_shared_ranks() -> None:
    order = [1, 2, 3, 4, 5, 6]
    ranks = [1, 2, 3, 4, 4, 6]
    # The final of 3 went 3, 1, 2; players 4 and 5 were level and stay level behind it.
    got = final_places(order, [[3], [1], [2]], counts="decides", ranks=ranks)
    assert got == ((3, 1), (1, 2), (2, 3), (4, 4), (5, 4), (6, 6))
    added = final_places(order, [[3], [1], [2]], counts="adds", ranks=ranks)
    assert added == tuple(zip(order, ranks, strict=True))
