"""Table points and tournament standings: hand-worked tables and tournaments, and properties
(hypothesis) against a brute-force pairwise reference."""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.ranking import competition_places
from scoring.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    Standing,
    TableResult,
    Tiebreak,
    bye_points,
    parse_custom_points,
    parse_tiebreaks,
    standings,
    table_points,
)

Draw = Callable[..., Any]
# The tie-breaks with the game score summed over the tables (the worked examples below).
SUMMED: tuple[Tiebreak, ...] = (
    "points",
    "game_score",
    "average_place",
    "firsts",
    "opponents_points",
    "head_to_head",
)
F = Fraction


def table(round_: int, totals: Mapping[int, int], *, lower_is_better: bool = False) -> TableResult:
    """A table whose competition places follow from the totals."""
    players = tuple(totals)
    places = competition_places(players, {p: totals[p] if lower_is_better else -totals[p] for p in players})
    return TableResult(round_, players, tuple(places[p] for p in players), tuple(totals[p] for p in players))


def rows(result: Sequence[Standing]) -> list[tuple[int, int, Fraction, str | None]]:
    return [(s.player, s.rank, s.points, s.separated_by) for s in result]


# --- Table points ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ([1, 2, 3, 4], [7, 5, 3, 1]),
        ([1, 2, 3], [7, 4, 1]),
        ([1, 2], [7, 1]),
        ([1], [4]),  # a table of one: the seat average
        ([1, 1, 3, 4], [6, 6, 3, 1]),  # places 1 and 2 shared: (7 + 5) / 2
        ([1, 2, 2, 2], [7, 3, 3, 3]),  # places 2-4 shared: (5 + 3 + 1) / 3
        ([3, 1, 1, 3], [2, 6, 6, 2]),  # any seat order
        ([1, 1, 1], [4, 4, 4]),
        ([1, 1], [4, 4]),
        ([2, 1, 2], [F(5, 2), 7, F(5, 2)]),
    ],
)
def test_table_scheme(places: list[int], expected: list[Fraction]) -> None:
    totals = [0] * len(places)
    assert table_points(places, totals, lower_is_better=False) == tuple(F(e) for e in expected)


def test_table_scheme_thirds_are_exact() -> None:
    # [1, 2, 2, 2] at four: 3 each; the table still adds up to exactly 16.
    points = table_points([1, 1, 1, 4], [0, 0, 0, 0], lower_is_better=False)
    assert points == (F(5), F(5), F(5), F(1))
    points = table_points([1, 2, 2], [0, 0, 0], lower_is_better=False)
    assert points == (F(7), F(5, 2), F(5, 2))
    assert sum(points) == 12


def test_win_scheme() -> None:
    assert table_points([1, 2, 3, 4], [0] * 4, scheme="win", lower_is_better=False) == (1, 0, 0, 0)
    # Two winners share the point of first and second place.
    assert table_points([1, 1, 3], [0] * 3, scheme="win", lower_is_better=False) == (F(1, 2), F(1, 2), 0)
    assert table_points([1], [0], scheme="win", lower_is_better=False) == (1,)


def test_score_scheme_uses_the_totals_with_the_family_sign() -> None:
    assert table_points([2, 1, 3], [30, 45, -5], scheme="score", lower_is_better=False) == (30, 45, -5)
    # Penalty points (Žolíky): the lowest total wins and earns the most points.
    assert table_points([3, 1, 1], [40, 5, 5], scheme="score", lower_is_better=True) == (-40, -5, -5)


CUSTOM = {4: [5, 3, 2, 0], 3: [4, 2, 0], 2: [3, 0]}


def test_custom_scheme() -> None:
    assert table_points([1, 2, 3, 4], [0] * 4, scheme="custom", lower_is_better=False, custom=CUSTOM) == (
        5,
        3,
        2,
        0,
    )
    assert table_points([2, 1, 2], [0] * 3, scheme="custom", lower_is_better=False, custom=CUSTOM) == (
        1,
        4,
        1,
    )
    # Places 2-4 shared at four: (3 + 2 + 0) / 3.
    points = table_points([1, 2, 2, 2], [0] * 4, scheme="custom", lower_is_better=False, custom=CUSTOM)
    assert points == (5, F(5, 3), F(5, 3), F(5, 3))


@pytest.mark.parametrize(
    ("custom", "places", "code", "params"),
    [
        (CUSTOM, [1, 2, 3, 4, 5], "points_custom_size", {"size": 5}),
        ({2: [3, 0, 0]}, [1, 2], "points_custom_count", {"size": 2, "count": 3}),
        ({3: [4, 2, 3]}, [1, 2, 3], "points_custom_order", {"size": 3, "place": 3}),
    ],
)
def test_custom_scheme_errors(
    custom: dict[int, list[int]], places: list[int], code: str, params: dict[str, object]
) -> None:
    with pytest.raises(ScoringError) as error:
        table_points(places, [0] * len(places), scheme="custom", lower_is_better=False, custom=custom)
    assert error.value.code == code
    assert error.value.params == params


def test_bad_places_are_a_programming_error() -> None:
    with pytest.raises(ValueError):
        table_points([1, 1, 2], [0, 0, 0], lower_is_better=False)
    with pytest.raises(ValueError):
        table_points([1, 2], [0], lower_is_better=False)


def test_bye_points_average_the_round() -> None:
    assert bye_points([7, 5, 3, 1, 7, 4, 1]) == 4
    assert bye_points([F(5), F(3), F(2), F(0), F(4), F(2), F(0)]) == F(16, 7)
    assert bye_points([]) == 0


def test_parse_custom_points() -> None:
    assert parse_custom_points("4: 5 3 2 0; 3: 4 2 0; 2: 3 0") == {
        4: (5, 3, 2, 0),
        3: (4, 2, 0),
        2: (3, 0),
    }
    # New lines, a trailing separator, decimals with a comma or a point, fractions, negatives.
    assert parse_custom_points(" 3 :4 2,5 -1 ;\n2: 1.5 1/2;") == {3: (4, F(5, 2), -1), 2: (F(3, 2), F(1, 2))}
    # Equal points for neighbouring places are allowed.
    assert parse_custom_points("3: 1 1 0") == {3: (1, 1, 0)}


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "points_custom_empty", {}),
        (" ; ", "points_custom_empty", {}),
        ("4 5 3 2 0", "points_custom_syntax", {"part": "4 5 3 2 0"}),
        ("four: 5 3 2 0", "points_custom_bad_size", {"value": "four"}),
        ("0:", "points_custom_bad_size", {"value": "0"}),
        ("-2: 3 0", "points_custom_bad_size", {"value": "-2"}),
        ("2: 3 0; 2: 2 0", "points_custom_duplicate", {"size": 2}),
        ("2: 3 x", "points_custom_number", {"size": 2, "value": "x"}),
        ("2: 3 1/0", "points_custom_number", {"size": 2, "value": "1/0"}),
        ("3: 5,3,0", "points_custom_number", {"size": 3, "value": "5,3,0"}),
        ("3: 4 2", "points_custom_count", {"size": 3, "count": 2}),
        ("3: 4 2 0 0", "points_custom_count", {"size": 3, "count": 4}),
        ("3: 4 0 2", "points_custom_order", {"size": 3, "place": 3}),
    ],
)
def test_parse_custom_points_errors(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(ScoringError) as error:
        parse_custom_points(text)
    assert error.value.code == code
    assert error.value.params == params
    assert error.value.message  # the template fills with these params


# --- Tie-break lists ------------------------------------------------------------------------


def test_parse_tiebreaks() -> None:
    assert parse_tiebreaks(DEFAULT_TIEBREAKS) == DEFAULT_TIEBREAKS
    # Points are always first: put there when missing or listed later.
    assert parse_tiebreaks(["firsts", "head_to_head"]) == ("points", "firsts", "head_to_head")
    assert parse_tiebreaks(["game_score", "points"]) == ("points", "game_score")
    assert parse_tiebreaks([]) == ("points",)


@pytest.mark.parametrize(
    ("keys", "code", "params"),
    [
        (["points", "wins"], "tiebreak_unknown", {"key": "wins", "known": ", ".join(TIEBREAKS)}),
        (["firsts", "points", "firsts"], "tiebreak_duplicate", {"key": "firsts"}),
    ],
)
def test_parse_tiebreaks_errors(keys: list[str], code: str, params: dict[str, object]) -> None:
    with pytest.raises(ScoringError) as error:
        parse_tiebreaks(keys)
    assert error.value.code == code
    assert error.value.params == params


# --- Tournaments worked by hand -------------------------------------------------------------


def test_six_players_game_score_separates() -> None:
    # Tables of three, higher totals better.
    # Round 1: (1 30, 2 20, 3 10) -> 7 4 1;   (4 40, 5 25, 6 5) -> 7 4 1.
    # Round 2: (1 10, 4 50, 5 20) -> 1 7 4;   (2 60, 3 30, 6 30) -> 7, then 3 and 6 share
    #          places 2 and 3: (4 + 1) / 2 = 5/2 each.
    # Points:  1: 8   2: 11   3: 7/2   4: 14   5: 8   6: 7/2
    # Game:    1: 40  2: 80   3: 40    4: 90   5: 45  6: 35
    # 5 and 1 tie on 8 points, 5 scored more; 3 and 6 tie on 7/2, 3 scored more.
    tables = [
        table(1, {1: 30, 2: 20, 3: 10}),
        table(1, {4: 40, 5: 25, 6: 5}),
        table(2, {1: 10, 4: 50, 5: 20}),
        table(2, {2: 60, 3: 30, 6: 30}),
    ]
    result = standings([1, 2, 3, 4, 5, 6], tables, [], lower_is_better=False, tiebreaks=SUMMED)
    assert rows(result) == [
        (4, 1, 14, None),
        (2, 2, 11, "points"),
        (5, 3, 8, "points"),
        (1, 4, 8, "game_score"),
        (3, 5, F(7, 2), "points"),
        (6, 6, F(7, 2), "game_score"),
    ]
    by_player = {s.player: s for s in result}
    assert by_player[3].game_score == 40
    assert by_player[3].average_place == F(5, 2)
    assert by_player[4].firsts == 2
    assert by_player[4].tables == 2
    assert by_player[4].byes == 0


def test_six_players_firsts_separate() -> None:
    # Tables of three, higher totals better.
    # Round 1: (1 30, 2 20, 3 10) -> 7 4 1;   (4 40, 5 20, 6 10) -> 7 4 1.
    # Round 2: (1 0, 4 50, 6 40) -> 1 7 4;    (2 60, 3 5, 5 10) -> 7 1 4.
    # 1 placed 1st and 3rd, 5 placed 2nd twice: both 8 points, 30 game score, average place 2;
    # 1 won a table, 5 did not.
    tables = [
        table(1, {1: 30, 2: 20, 3: 10}),
        table(1, {4: 40, 5: 20, 6: 10}),
        table(2, {1: 0, 4: 50, 6: 40}),
        table(2, {2: 60, 3: 5, 5: 10}),
    ]
    result = standings([1, 2, 3, 4, 5, 6], tables, [], lower_is_better=False)
    assert rows(result) == [
        (4, 1, 14, None),
        (2, 2, 11, "points"),
        (1, 3, 8, "points"),
        (5, 4, 8, "firsts"),
        (6, 5, 5, "points"),
        (3, 6, 2, "points"),
    ]
    p1, p5 = (next(s for s in result if s.player == p) for p in (1, 5))
    assert (p1.game_score, p1.average_place, p1.firsts) == (30, 2, 1)
    assert (p5.game_score, p5.average_place, p5.firsts) == (30, 2, 0)


def test_nine_players_with_byes_penalty_points() -> None:
    # Tables of four and a bye; lower totals better (Žolíky). Player 10 never played.
    # Round 1: (1 0, 2 10, 3 20, 4 30) -> 7 5 3 1;  (5 0, 6 10, 7 10, 8 40) -> 7, 4, 4 (places 2
    #          and 3 shared: (5 + 3) / 2), 1;  bye 9: 32 points over 8 seats = 4.
    # Round 2: (1 5, 5 0, 9 0, 2 40) -> 3, 6, 6 (places 1 and 2 shared: (7 + 5) / 2), 1;
    #          (3 10, 4 10, 6 10, 7 10) -> 4 each;  bye 8: 32 / 8 = 4.
    # Points:  1: 10  2: 6   3: 7    4: 5    5: 13  6: 8    7: 8    8: 5    9: 10  10: 0
    # Game:    1: -5  2: -50 3: -30  4: -40  5: 0   6: -20  7: -20  8: -40  9: 0
    # Places:  4: 4 and 1 (average 5/2), 8: 4 (average 4).
    # 9 and 1: 9 has the better game score. 6 and 7: equal on everything, and level when they
    # met (2nd-2nd, then 1st-1st), so they share 4th. 4 and 8: the better average place.
    # Opponents of 6: round 1 5, 7, 8 (13 + 8 + 5), round 2 3, 4, 7 (7 + 5 + 8): 46; 7 alike.
    tables = [
        table(1, {1: 0, 2: 10, 3: 20, 4: 30}, lower_is_better=True),
        table(1, {5: 0, 6: 10, 7: 10, 8: 40}, lower_is_better=True),
        table(2, {1: 5, 5: 0, 9: 0, 2: 40}, lower_is_better=True),
        table(2, {3: 10, 4: 10, 6: 10, 7: 10}, lower_is_better=True),
    ]
    result = standings(list(range(1, 11)), tables, [(1, 9), (2, 8)], lower_is_better=True, tiebreaks=SUMMED)
    assert rows(result) == [
        (5, 1, 13, None),
        (9, 2, 10, "points"),
        (1, 3, 10, "game_score"),
        (6, 4, 8, "points"),
        (7, 4, 8, None),
        (3, 6, 7, "points"),
        (2, 7, 6, "points"),
        (4, 8, 5, "points"),
        (8, 9, 5, "average_place"),
        (10, 10, 0, "points"),
    ]
    by_player = {s.player: s for s in result}
    assert by_player[9].game_score == 0
    assert (by_player[9].tables, by_player[9].byes) == (1, 1)
    assert by_player[6].opponents_points == by_player[7].opponents_points == 46
    assert by_player[6].firsts == 1  # a shared first counts
    assert by_player[4].average_place == F(5, 2)
    p10 = by_player[10]
    assert (p10.points, p10.game_score, p10.average_place, p10.tables, p10.byes) == (0, 0, None, 0, 0)


def test_score_scheme_average_place_and_opponents_points() -> None:
    # Tables of two, the score scheme: points are the totals, so the game score ties as well.
    # Round 1: (1 3, 3 2) -> 1 wins;  (2 5, 4 1) -> 2 wins.
    # Round 2: (1 3, 4 0) -> 1 wins;  (2 1, 3 4) -> 3 wins.
    # Points:  1: 6  2: 6  3: 6  4: 1.  Places: 1: 1,1 (average 1); 2: 1,2; 3: 2,1 (3/2).
    # 2 and 3 both won once; 2 met 4 and 3 (1 + 6 = 7), 3 met 1 and 2 (6 + 6 = 12).
    tables = [
        table(1, {1: 3, 3: 2}),
        table(1, {2: 5, 4: 1}),
        table(2, {1: 3, 4: 0}),
        table(2, {2: 1, 3: 4}),
    ]
    result = standings([1, 2, 3, 4], tables, [], lower_is_better=False, scheme="score")
    assert rows(result) == [
        (1, 1, 6, None),
        (3, 2, 6, "average_place"),
        (2, 3, 6, "opponents_points"),
        (4, 4, 1, "points"),
    ]
    assert [s.opponents_points for s in result] == [7, 12, 7, 12]


# Four players in pairs, 2 rounds: 1 beats 2 (10-5), 3 beats 4 (8-3); then 2 beats 3 (10-2),
# 4 beats 1 (7-5). Everyone: 8 points, average place 3/2, one first, opponents 16.
# Game score: 1 and 2 15, 3 and 4 10. Within each pair head-to-head decides.
PAIRS = [
    table(1, {1: 10, 2: 5}),
    table(1, {3: 8, 4: 3}),
    table(2, {2: 10, 3: 2}),
    table(2, {4: 7, 1: 5}),
]


def test_head_to_head_separates_two_who_met() -> None:
    result = standings([2, 4, 1, 3], PAIRS, [], lower_is_better=False, tiebreaks=SUMMED)
    assert rows(result) == [
        (1, 1, 8, None),
        (2, 2, 8, "head_to_head"),
        (3, 3, 8, "game_score"),
        (4, 4, 8, "head_to_head"),
    ]
    assert {s.opponents_points for s in result} == {16}


def test_head_to_head_applies_only_where_it_stands_in_the_list() -> None:
    # Head-to-head before the game score: all four are still tied then, so it does nothing,
    # and is not tried again after the game score splits them into pairs.
    result = standings(
        [1, 2, 3, 4], PAIRS, [], lower_is_better=False, tiebreaks=["head_to_head", "game_score"]
    )
    assert rows(result) == [
        (1, 1, 8, None),
        (2, 1, 8, None),
        (3, 3, 8, "game_score"),
        (4, 3, 8, None),
    ]


def test_head_to_head_does_not_split_three() -> None:
    # Three players, a bye each round: 1 beats 2, 2 beats 3, 3 beats 1 (10-5 each time).
    # A bye is worth (7 + 1) / 2 = 4: everyone 7 + 1 + 4 = 12, 15 game score, average place 3/2,
    # one first, opponents 12 + 12. Three tied: head-to-head does not apply; all share 1st.
    tables = [table(1, {1: 10, 2: 5}), table(2, {2: 10, 3: 5}), table(3, {3: 10, 1: 5})]
    byes = [(1, 3), (2, 1), (3, 2)]
    result = standings([1, 2, 3], tables, byes, lower_is_better=False)
    assert rows(result) == [(1, 1, 12, None), (2, 1, 12, None), (3, 1, 12, None)]
    assert all(s.opponents_points == 24 and s.byes == 1 for s in result)


def test_head_to_head_needs_a_meeting() -> None:
    # One round: 1 beats 3, 2 beats 4, all 10-5. 1 and 2 equal and never met: shared 1st.
    tables = [table(1, {1: 10, 3: 5}), table(1, {2: 10, 4: 5})]
    result = standings([1, 2, 3, 4], tables, [], lower_is_better=False)
    assert rows(result) == [(1, 1, 7, None), (2, 1, 7, None), (3, 3, 1, "points"), (4, 3, 1, None)]


def test_custom_scheme_in_standings_is_checked_up_front() -> None:
    tables = [table(1, {1: 10, 2: 5})]
    with pytest.raises(ScoringError) as error:
        standings(
            [1, 2], tables, [], lower_is_better=False, scheme="custom", custom={2: [3, 0], 3: [1, 2, 0]}
        )
    assert error.value.code == "points_custom_order"
    result = standings([1, 2], tables, [], lower_is_better=False, scheme="custom", custom={2: [3, 0]})
    assert rows(result) == [(1, 1, 3, None), (2, 2, 0, "points")]


def test_bad_inputs_are_programming_errors() -> None:
    with pytest.raises(ValueError):
        standings([1, 2], [table(1, {1: 1, 3: 0})], [], lower_is_better=False)
    with pytest.raises(ValueError):
        standings([1, 2], [table(1, {1: 1, 2: 0})], [(1, 2)], lower_is_better=False)


# --- Properties against a brute-force reference ----------------------------------------------


@st.composite
def tournaments(draw: Draw) -> dict[str, Any]:
    """A few rounds: players shuffled into tables of 1-4, the rest on a bye; small totals so
    that ties are common; sometimes a player who never plays."""
    count = draw(st.integers(2, 7))
    players = list(range(10, 10 + count))
    lower_is_better = draw(st.booleans())
    tables: list[TableResult] = []
    byes: list[tuple[int, int]] = []
    for round_ in range(1, draw(st.integers(1, 4)) + 1):
        field = draw(st.permutations(players))
        field = field[: draw(st.integers(0, len(field)))]
        seated = draw(st.integers(0, len(field)))
        for player in field[seated:]:
            byes.append((round_, player))
        rest = list(field[:seated])
        while rest:
            size = draw(st.integers(1, min(4, len(rest))))
            at, rest = rest[:size], rest[size:]
            totals = {p: draw(st.integers(0, 3)) for p in at}
            tables.append(table(round_, totals, lower_is_better=lower_is_better))
    tiebreaks = draw(st.permutations(TIEBREAKS[1:]))
    tiebreaks = tiebreaks[: draw(st.integers(0, len(tiebreaks)))]
    if draw(st.booleans()):  # head-to-head early, where pairs still tied are common
        tiebreaks = ["head_to_head", *(key for key in tiebreaks if key != "head_to_head")]
    return {
        "players": players,
        "tables": tables,
        "byes": byes,
        "lower_is_better": lower_is_better,
        "tiebreaks": ["points", *tiebreaks],
        "scheme": draw(st.sampled_from(["table", "win"])),
        # Point penalties (halves too), on a few players: they move ranks and make new ties.
        "penalties": draw(
            st.dictionaries(
                st.sampled_from(players), st.integers(0, 8).map(lambda halves: F(halves, 2)), max_size=3
            )
        ),
    }


def reference(t: dict[str, Any]) -> tuple[Callable[[int, int], int], dict[int, Fraction]]:
    """A pairwise comparator written from the rules, not from the implementation: -1 when a is
    ahead of b, 1 when behind, 0 when no tie-break separates them; and the points."""
    sign = -1 if t["lower_is_better"] else 1
    table_pts: dict[int, list[Fraction]] = defaultdict(list)
    points: dict[int, Fraction] = {p: F(0) for p in t["players"]}
    stats: dict[int, list[int]] = {p: [] for p in t["players"]}  # places
    scores: dict[int, int] = {p: 0 for p in t["players"]}
    meetings: list[TableResult] = t["tables"]
    for tr in meetings:
        n = len(tr.players)
        for p, place, total in zip(tr.players, tr.places, tr.totals, strict=True):
            # Average of 1 + 6(n - k)/(n - 1) (or of 1 for first, 0 after) over the places k
            # the tie covers.
            covered = range(place, place + tr.places.count(place))
            if t["scheme"] == "win":
                got = F(1 if place == 1 else 0, len(covered))
            elif n == 1:
                got = F(4)
            else:
                got = sum((1 + F(6 * (n - k), n - 1) for k in covered), F(0)) / len(covered)
            points[p] += got
            table_pts[tr.round].append(got)
            stats[p].append(place)
            scores[p] += sign * total
    for round_, p in t["byes"]:
        seats = table_pts[round_]
        points[p] += sum(seats, F(0)) / len(seats) if seats else F(0)
    # Opponents' points count what the opponents earned at the tables, before any penalty.
    opp = {
        p: sum((points[o] for tr in meetings if p in tr.players for o in tr.players if o != p), F(0))
        for p in t["players"]
    }
    for p, taken in t.get("penalties", {}).items():
        points[p] -= taken

    def value(key: str, p: int) -> Any:
        if key == "points":
            return -points[p]
        if key == "game_score":
            return -scores[p]
        if key == "game_score_average":  # per table sat at; nobody-played last
            return (0, -F(scores[p], len(stats[p]))) if stats[p] else (1, 0)
        if key == "average_place":
            return (0, F(sum(stats[p]), len(stats[p]))) if stats[p] else (1, 0)
        if key == "firsts":
            return -stats[p].count(1)
        return -opp[p]

    keys: list[str] = t["tiebreaks"]

    def compare(a: int, b: int) -> int:
        for index, key in enumerate(keys):
            if key == "head_to_head":
                still = [p for p in t["players"] if all(value(k, p) == value(k, a) for k in keys[:index])]
                if len(still) == 2 and b in still:
                    ahead = behind = 0
                    for tr in meetings:
                        if a in tr.players and b in tr.players:
                            pa, pb = tr.places[tr.players.index(a)], tr.places[tr.players.index(b)]
                            ahead += pa < pb
                            behind += pa > pb
                    if ahead != behind:
                        return -1 if ahead > behind else 1
                continue
            va, vb = value(key, a), value(key, b)
            if va != vb:
                return -1 if va < vb else 1
        return 0

    return compare, points


def reference_order(t: dict[str, Any]) -> Callable[[int, int], int]:
    return reference(t)[0]


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_standings_agree_with_a_pairwise_reference(t: dict[str, Any]) -> None:
    result = standings(
        t["players"],
        t["tables"],
        t["byes"],
        lower_is_better=t["lower_is_better"],
        scheme=t["scheme"],
        tiebreaks=t["tiebreaks"],
        penalties=t["penalties"],
    )
    compare, reference_points = reference(t)
    assert sorted(s.player for s in result) == sorted(t["players"])
    rank = {s.player: s.rank for s in result}
    for a in t["players"]:
        for b in t["players"]:
            expected = compare(a, b)
            assert (rank[a] < rank[b]) == (expected < 0), (a, b)
            assert (rank[a] == rank[b]) == (expected == 0), (a, b)
    # Competition ranks: a rank is the row number of the first of its tie.
    for index, s in enumerate(result):
        assert s.rank == (result[index - 1].rank if index and s.separated_by is None else index + 1)
    # The separating tie-break is the first one the reference finds between the neighbours.
    for above, below in itertools.pairwise(result):
        if below.separated_by is not None:
            cut = t["tiebreaks"].index(below.separated_by)
            before = dict(t, tiebreaks=t["tiebreaks"][:cut])
            assert reference_order(before)(above.player, below.player) == 0
            through = dict(t, tiebreaks=t["tiebreaks"][: cut + 1])
            assert reference_order(through)(above.player, below.player) == -1
    for s in result:
        assert s.points == reference_points[s.player]
        assert s.penalty == t["penalties"].get(s.player, 0)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_table_points_add_up_whatever_the_ties(data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 6))
    totals = data.draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
    places = competition_places(range(size), {i: -totals[i] for i in range(size)})
    ordered = [places[i] for i in range(size)]
    assert sum(table_points(ordered, totals, lower_is_better=False)) == 4 * size
    assert sum(table_points(ordered, totals, scheme="win", lower_is_better=False)) == 1
    custom = {
        size: sorted(data.draw(st.lists(st.integers(-5, 9), min_size=size, max_size=size)), reverse=True)
    }
    points = table_points(ordered, totals, scheme="custom", lower_is_better=False, custom=custom)
    assert sum(points) == sum(custom[size])
    # A better place never earns fewer points; equal places earn equal points.
    for i in range(size):
        for j in range(size):
            if ordered[i] < ordered[j]:
                assert points[i] >= points[j]
            if ordered[i] == ordered[j]:
                assert points[i] == points[j]


def test_reference_smoke() -> None:
    # The reference itself, on the hand-worked pairs: 1 ahead of 2 by head-to-head.
    t: dict[str, Any] = {"players": [1, 2, 3, 4], "tables": PAIRS, "byes": [], "lower_is_better": False}
    compare = reference_order({**t, "scheme": "table", "tiebreaks": list(DEFAULT_TIEBREAKS)})
    order = sorted([4, 3, 2, 1], key=functools.cmp_to_key(compare))
    assert order == [1, 2, 3, 4]
    assert compare(1, 2) == -1 and compare(3, 4) == -1 and compare(2, 3) == -1


def test_game_score_per_table_neither_rewards_nor_punishes_a_missed_round() -> None:
    # Higher is better. Ann played two tables (+10, +10); Bob arrived late and played one (+15).
    # Both have one win. Summed, Ann is ahead (20 > 15); per table, Bob is (15 > 10).
    tables = [
        TableResult(1, (1, 3), (1, 2), (10, -10)),
        TableResult(2, (1, 2), (2, 1), (10, 15)),
    ]
    byes: list[tuple[int, int]] = []
    by_sum = standings(
        [1, 2, 3], tables, byes, lower_is_better=False, scheme="win", tiebreaks=["points", "game_score"]
    )
    per_table = standings(
        [1, 2, 3], tables, byes, lower_is_better=False, scheme="win", tiebreaks=DEFAULT_TIEBREAKS
    )
    assert [s.player for s in by_sum][:2] == [1, 2] and by_sum[1].separated_by == "game_score"
    assert [s.player for s in per_table][:2] == [2, 1] and per_table[1].separated_by == "game_score_average"
    assert per_table[0].game_score_average == 15 and per_table[1].game_score_average == 10


def test_a_point_penalty_moves_a_player_below_the_one_he_beat() -> None:
    # One table: 1 first (7 points), 2 second (4), 3 third (1). Four points off 1 leaves him
    # 3: 2 leads, then 1, then 3.
    tables = [table(1, {1: 30, 2: 20, 3: 10})]
    plain = standings([1, 2, 3], tables, [], lower_is_better=False)
    assert [s.player for s in plain] == [1, 2, 3]
    result = standings([1, 2, 3], tables, [], lower_is_better=False, penalties={1: 4})
    assert [(s.player, s.points, s.penalty) for s in result] == [(2, 4, 0), (1, 3, 4), (3, 1, 0)]
    assert result[1].separated_by == "points"
    # His opponents keep the points he earned at their table in their opponents' points.
    assert result[0].opponents_points == plain[1].opponents_points == 8


def test_a_penalty_is_never_negative_nor_for_a_stranger() -> None:
    tables = [table(1, {1: 3, 2: 1})]
    with pytest.raises(ValueError):
        standings([1, 2], tables, [], lower_is_better=False, penalties={1: -1})
    with pytest.raises(ValueError):
        standings([1, 2], tables, [], lower_is_better=False, penalties={9: 1})
