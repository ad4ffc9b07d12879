"""League (season) standings: event points, best-N/drop-K, the line, tie-breaks and the trend
worked by hand, and properties (hypothesis) against a brute-force pairwise reference."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.league import (
    DEFAULT_LEAGUE_TIEBREAKS,
    LEAGUE_TIEBREAKS,
    NO_EVENTS,
    PRESET_PLACES,
    LeagueEvent,
    LeagueStanding,
    LeagueTally,
    counted_points,
    game_event_points,
    head_to_head_players,
    league_standings,
    league_table,
    parse_league_tiebreaks,
    parse_place_points,
    tournament_event_points,
)
from scoring.ranking import competition_places
from scoring.standings import rank_by

Draw = Callable[..., Any]
F = Fraction


def game(key: object, places: Mapping[int, int]) -> LeagueEvent[int]:
    return LeagueEvent(key, "game", tuple(places), tuple(places.values()))


def tournament(key: object, places: Mapping[int, int]) -> LeagueEvent[int]:
    return LeagueEvent(key, "tournament", tuple(places), tuple(places.values()))


def rows(result: Sequence[LeagueStanding[int]]) -> list[tuple[int, int | None, Fraction, str | None]]:
    return [(s.player, s.rank, s.points, s.separated_by) for s in result]


# --- Points of one event --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ((1, 2, 3, 4), (7, 5, 3, 1)),
        ((1, 1, 3, 4), (6, 6, 3, 1)),  # places 1-2 shared: (7 + 5) / 2
        ((1, 2, 2), (7, F(5, 2), F(5, 2))),  # at three 7 4 1; places 2-3 shared: (4 + 1) / 2
        ((1,), (4,)),  # alone: the seat average
    ],
)
def test_game_table_points(places: tuple[int, ...], expected: tuple[Fraction, ...]) -> None:
    assert game_event_points(places, "table") == expected


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ((1, 2, 3, 4), (3, 0, 0, 0)),  # a sole first: a win
        ((2, 1), (0, 3)),
        ((1, 1, 3), (1, 1, 0)),  # a shared first: a draw for both, a loss for the third
        ((1, 1), (1, 1)),
        ((1,), (1,)),  # alone: nobody beaten, a draw
    ],
)
def test_game_wdl_points(places: tuple[int, ...], expected: tuple[Fraction, ...]) -> None:
    assert game_event_points(places, "wdl") == expected


def test_tournament_points_preset() -> None:
    assert tournament_event_points((1, 2, 3)) == (25, 18, 15)
    # 1st and 2nd shared: (25 + 18) / 2 = 43/2; then 3rd.
    assert tournament_event_points((1, 1, 3)) == (F(43, 2), F(43, 2), 15)
    # 10th and 11th shared: (1 + 0) / 2; 12th earns nothing.
    places = (*range(1, 10), 10, 10, 12)
    assert tournament_event_points(places)[-3:] == (F(1, 2), F(1, 2), 0)
    assert sum(tournament_event_points(tuple(range(1, 13)))) == sum(PRESET_PLACES)


def test_tournament_points_custom_with_ties() -> None:
    custom = parse_place_points("10 8 6 5")
    assert custom == (10, 8, 6, 5)
    # Places 2-4 shared: (8 + 6 + 5) / 3 = 19/3; 5th is beyond the list.
    assert tournament_event_points((1, 2, 2, 2, 5), custom) == (10, F(19, 3), F(19, 3), F(19, 3), 0)
    # Places 4-5 shared: (5 + 0) / 2.
    assert tournament_event_points((4, 1, 2, 3, 4), custom) == (F(5, 2), 10, 8, 6, F(5, 2))


def test_bad_places_are_a_programming_error() -> None:
    with pytest.raises(ValueError):
        tournament_event_points((1, 1, 2))
    with pytest.raises(ValueError):
        game_event_points((1, 3), "wdl")


def test_parse_place_points() -> None:
    assert parse_place_points("10 8 6 5 4 3 2 1") == (10, 8, 6, 5, 4, 3, 2, 1)
    assert parse_place_points(" 5; 2,5 \n 2.5 1/2 0 ") == (5, F(5, 2), F(5, 2), F(1, 2), 0)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "league_places_empty", {}),
        (" ; ", "league_places_empty", {}),
        ("10 x 6", "league_places_number", {"place": 2, "value": "x"}),
        ("10 1/0", "league_places_number", {"place": 2, "value": "1/0"}),
        ("10,8,6", "league_places_number", {"place": 1, "value": "10,8,6"}),
        ("10 8 -1", "league_places_negative", {"place": 3, "value": "-1"}),
        ("10 8 9", "league_places_order", {"place": 3}),
    ],
)
def test_parse_place_points_errors(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(ScoringError) as error:
        parse_place_points(text)
    assert error.value.code == code
    assert error.value.params == params
    assert error.value.message


def test_custom_list_and_options_are_checked_up_front() -> None:
    with pytest.raises(ScoringError) as error:
        league_standings([1], [], game_points="table", place_points=[3, 4])
    assert (error.value.code, error.value.params) == ("league_places_order", {"place": 2})
    for option in ("best_events", "drop_worst", "min_games"):
        with pytest.raises(ScoringError) as error:
            options: dict[str, Any] = {option: -1}
            league_standings([1], [], game_points="table", **options)
        assert (error.value.code, error.value.params) == (
            "league_option_negative",
            {"option": option, "value": -1},
        )
        assert error.value.message


def test_parse_league_tiebreaks() -> None:
    assert parse_league_tiebreaks(DEFAULT_LEAGUE_TIEBREAKS) == DEFAULT_LEAGUE_TIEBREAKS
    assert parse_league_tiebreaks(["games", "points", "wins"]) == ("points", "games", "wins")
    assert parse_league_tiebreaks([]) == ("points",)
    with pytest.raises(ScoringError) as error:
        parse_league_tiebreaks(["firsts"])
    assert error.value.code == "tiebreak_unknown"
    assert error.value.params == {"key": "firsts", "known": ", ".join(LEAGUE_TIEBREAKS)}
    with pytest.raises(ScoringError) as error:
        parse_league_tiebreaks(["wins", "wins"])
    assert (error.value.code, error.value.params) == ("tiebreak_duplicate", {"key": "wins"})


def test_bad_events_are_programming_errors() -> None:
    for event in (
        game(1, {1: 1, 3: 2}),  # 3 is not in the season
        LeagueEvent(1, "game", (1, 1), (1, 2)),  # seated twice
        LeagueEvent(1, "game", (1, 2), (1,)),  # a place missing
        game(1, {1: 1, 2: 3}),  # not competition places
    ):
        with pytest.raises(ValueError):
            league_standings([1, 2], [event], game_points="table")


# --- Best N and drop K ----------------------------------------------------------------------

# Player 1 in five games of four (table points 7 5 3 1): places 1, 2, 3, 4, 1 -> 7 5 3 1 7 = 23.
FIVE = [
    game(key, {1: mine, **dict(zip(others, rest, strict=True))})
    for key, (mine, others, rest) in enumerate(
        [
            (1, (2, 3, 4), (2, 3, 4)),
            (2, (2, 3, 4), (1, 3, 4)),
            (3, (2, 3, 4), (1, 2, 4)),
            (4, (2, 3, 4), (1, 2, 3)),
            (1, (2, 3, 4), (2, 3, 4)),
        ]
    )
]


@pytest.mark.parametrize(
    ("best", "drop", "points", "events"),
    [
        (0, 0, 23, 5),
        (3, 0, 19, 3),  # 7 7 5
        (10, 0, 23, 5),  # fewer events than N: all count
        (0, 2, 19, 3),  # 1 and 3 dropped
        (0, 4, 7, 1),
        (0, 5, 23, 5),  # drop only when he has more than K events
        (3, 1, 19, 3),  # drop 1 -> 7 7 5 3, then best 3 -> 7 7 5
        (2, 2, 14, 2),  # drop 2 -> 7 7 5, then best 2 -> 7 7
        (4, 2, 19, 3),  # drop 2 first leaves only 3 events: best 4 keeps them all
    ],
)
def test_best_events_and_drop_worst(best: int, drop: int, points: int, events: int) -> None:
    result = league_standings([1, 2, 3, 4], FIVE, game_points="table", best_events=best, drop_worst=drop)
    me = next(s for s in result if s.player == 1)
    assert (me.points, me.events) == (points, events)
    # The tie-break statistics cover all five events whatever counts.
    assert (me.wins, me.average_place, me.games) == (2, F(11, 5), 5)


def test_counted_points() -> None:
    assert counted_points([7, 5, 3, 1, 7], best_events=3, drop_worst=1) == [7, 7, 5]
    assert counted_points([7, 5, 3, 1, 7], drop_worst=5) == [7, 7, 5, 3, 1]
    assert counted_points([], best_events=2, drop_worst=1) == []


# --- Minimum games: below the line ----------------------------------------------------------

# Table points. G1 (3 1 2) -> 3: 7, 1: 4, 2: 1.  G2 (1 2) -> 1: 7, 2: 1.
# G3 (2 1 4) -> 2: 7, 1: 4, 4: 1.  Points: 1: 15 (3 games), 2: 9 (3), 3: 7 (1), 4: 1 (1).
LINE = [
    game(1, {3: 1, 1: 2, 2: 3}),
    game(2, {1: 1, 2: 2}),
    game(3, {2: 1, 1: 2, 4: 3}),
]


def test_min_games_puts_players_below_the_line() -> None:
    result = league_standings([1, 2, 3, 4], LINE, game_points="table", min_games=2)
    # 3 has more points than 2 but only one game: below the line, no rank; 3 and 4 are
    # ordered among themselves by the same keys.
    assert rows(result) == [(1, 1, 15, None), (2, 2, 9, "points"), (3, None, 7, None), (4, None, 1, "points")]
    assert [s.games for s in result] == [3, 3, 1, 1]
    # Trend: without G3 (the latest), 1: 11 and 2: 2 in two games each; 3 was below the
    # line then and 4 had not played.
    assert [s.previous_rank for s in result] == [1, 2, None, None]


def test_games_played_comes_from_the_input() -> None:
    # 3 also played tournament tables: 2 games, ranked. Before the latest game (G3, which 3
    # did not play) he had 2 games as well; 2 and 1 had one game fewer.
    played = {1: 3, 2: 3, 3: 2, 4: 1}
    result = league_standings([1, 2, 3, 4], LINE, game_points="table", min_games=2, games_played=played)
    assert rows(result) == [(1, 1, 15, None), (2, 2, 9, "points"), (3, 3, 7, "points"), (4, None, 1, None)]
    assert [s.games for s in result] == [3, 3, 2, 1]
    # Before G3: 1: 11, 3: 7, 2: 2.
    assert [s.previous_rank for s in result] == [1, 3, 2, None]
    # The caller may know the games as of before the latest event exactly.
    result = league_standings(
        [1, 2, 3, 4],
        LINE,
        game_points="table",
        min_games=2,
        games_played=played,
        previous_games_played={1: 2, 2: 2, 3: 1},
    )
    assert [s.previous_rank for s in result] == [1, 2, None, None]


# --- Tie-breaks -----------------------------------------------------------------------------


def test_wins_separate() -> None:
    # Table points, two games of four:
    # G1 places 1 2 3 4 -> 1: 7, 2: 5, 3: 3, 4: 1.   G2 places 4 3 1 2 -> 1: 1, 2: 3, 3: 7, 4: 5.
    # Points 1: 8, 2: 8, 3: 10, 4: 6. 1 and 2 average place 5/2 both; 1 won G1, 2 won nothing.
    events = [game(1, {1: 1, 2: 2, 3: 3, 4: 4}), game(2, {1: 4, 2: 3, 3: 1, 4: 2})]
    result = league_standings([1, 2, 3, 4], events, game_points="table")
    assert rows(result) == [(3, 1, 10, None), (1, 2, 8, "points"), (2, 3, 8, "wins"), (4, 4, 6, "points")]
    assert [(s.wins, s.average_place) for s in result] == [(1, 2), (1, F(5, 2)), (0, F(5, 2)), (0, 3)]


# Win-draw-loss. G1: 1 beats 3.  G2: 2 beats 3.  G3 (four): 3 first, 2 second, 4 third, 1 last.
# Points 1: 3, 2: 3, 3: 3, 4: 0; one win each of 1, 2, 3.
# Average place: 1: (1 + 4) / 2 = 5/2, 2: (1 + 2) / 2 = 3/2, 3: (2 + 2 + 1) / 3 = 5/3.
AVERAGE = [
    game(1, {1: 1, 3: 2}),
    game(2, {2: 1, 3: 2}),
    game(3, {3: 1, 2: 2, 4: 3, 1: 4}),
]


def test_average_place_separates() -> None:
    result = league_standings([1, 2, 3, 4], AVERAGE, game_points="wdl")
    assert rows(result) == [
        (2, 1, 3, None),
        (3, 2, 3, "average_place"),
        (1, 3, 3, "average_place"),
        (4, 4, 0, "points"),
    ]
    assert [s.average_place for s in result] == [F(3, 2), F(5, 3), F(5, 2), 3]


def test_games_as_a_tie_break() -> None:
    # With games before the average place, 3's three games put him first of the three.
    result = league_standings([1, 2, 3, 4], AVERAGE, game_points="wdl", tiebreaks=["points", "games", "wins"])
    assert rows(result) == [(3, 1, 3, None), (1, 2, 3, "games"), (2, 2, 3, None), (4, 4, 0, "points")]


# Win-draw-loss. G1: 1 beats 2.  G2: 2 beats 3.  G3: 3 beats 1.  G4: 4 beats 3.
# Points 1, 2, 3, 4: 3 each; one win each. Average place: 1: 3/2, 2: 3/2, 3: 5/3, 4: 1.
# 1 and 2 are exactly two still tied after the average place, and 1 beat 2 when they met.
H2H = [
    game(1, {1: 1, 2: 2}),
    game(2, {2: 1, 3: 2}),
    game(3, {3: 1, 1: 2}),
    game(4, {4: 1, 3: 2}),
]


def test_head_to_head_separates_exactly_two() -> None:
    result = league_standings([2, 1, 3, 4], H2H, game_points="wdl")
    assert rows(result) == [
        (4, 1, 3, None),
        (1, 2, 3, "average_place"),
        (2, 3, 3, "head_to_head"),
        (3, 4, 3, "average_place"),
    ]
    # Without head-to-head they share 2nd, in the order given.
    result = league_standings([2, 1, 3, 4], H2H, game_points="wdl", tiebreaks=["wins", "average_place"])
    assert rows(result) == [
        (4, 1, 3, None),
        (2, 2, 3, "average_place"),
        (1, 2, 3, None),
        (3, 4, 3, "average_place"),
    ]


def test_a_circle_of_three_shares_the_rank() -> None:
    # Table points at two: 7 and 1. 1 beats 2, 2 beats 3, 3 beats 1: 8 points each, one win,
    # average place 3/2. Three tied: head-to-head does not apply; all share 1st.
    events = H2H[:3]
    result = league_standings([1, 2, 3], events, game_points="table")
    assert rows(result) == [(1, 1, 8, None), (2, 1, 8, None), (3, 1, 8, None)]


def test_tournaments_and_games_together() -> None:
    # Table points for games, the preset for tournaments.
    # T1 (key 1): 1 first, 2 and 3 share 2nd: (18 + 15) / 2 = 33/2 each.
    # G2 (key 2): 3 beats 2 at two: 3: 7, 2: 1.
    # 1: 25 (a win), 3: 33/2 + 7 = 47/2 (a win), 2: 35/2.  1 and 3 share a win and average
    # place 1 against (2 + 1) / 2: 1 ahead by points anyway.
    events = [tournament(1, {1: 1, 2: 2, 3: 2}), game(2, {3: 1, 2: 2})]
    result = league_standings([1, 2, 3], events, game_points="table")
    assert rows(result) == [(1, 1, 25, None), (3, 2, F(47, 2), "points"), (2, 3, F(35, 2), "points")]
    assert [(s.wins, s.games, s.events) for s in result] == [(1, 0, 1), (1, 1, 2), (0, 1, 2)]
    assert [s.previous_rank for s in result] == [1, 2, 2]  # 2 and 3 shared 2nd before G2
    # A custom list instead of the preset: 2nd-3rd shared (6 + 5) / 2.
    result = league_standings(
        [1, 2, 3], events, game_points="table", place_points=parse_place_points("10 6 5")
    )
    assert rows(result) == [(3, 1, F(25, 2), None), (1, 2, 10, "points"), (2, 3, F(13, 2), "points")]


# --- Trend ----------------------------------------------------------------------------------


def test_trend_shows_who_rose() -> None:
    # Table points at three: 7 4 1. G1 (key 1): 1, 2, 3.  G2 (key 2, the latest, listed first):
    # 3, 4, 2.  After G1: 1: 7, 2: 4, 3: 1 (ranks 1 2 3); 4 and 5 had not played.
    # After G2: 3: 8, 1: 7, 2: 5, 4: 4, 5: 0. 3 rose from 3rd to 1st.
    events = [game(2, {3: 1, 4: 2, 2: 3}), game(1, {1: 1, 2: 2, 3: 3})]
    result = league_standings([1, 2, 3, 4, 5], events, game_points="table")
    assert [(s.player, s.rank, s.points, s.previous_rank) for s in result] == [
        (3, 1, 8, 3),
        (1, 2, 7, 1),
        (2, 3, 5, 2),
        (4, 4, 4, None),  # first event was the latest
        (5, 5, 0, None),  # never played
    ]
    riser = result[0]
    assert riser.previous_rank is not None and riser.rank is not None
    assert riser.previous_rank > riser.rank


def test_previous_head_to_head_leaves_out_the_latest_event() -> None:
    # Win-draw-loss. G1: 1 beats 2.  G2: 2 beats 3.  G3: 4 beats 1.  G4 (the latest): 2 beats 1.
    # Before G4: 1, 2, 4 on 3 points and a win each; 4 ahead by average place 1; 1 and 2 both
    # 3/2, and 1 beat 2 in their only meeting then: 1 2nd, 2 3rd (G4 would level it 1-1).
    # Now: 2: 6; 4 and 1 on 3 with a win, average place 1 against 5/3; 3: 0.
    events = [game(1, {1: 1, 2: 2}), game(2, {2: 1, 3: 2}), game(3, {4: 1, 1: 2}), game(4, {2: 1, 1: 2})]
    result = league_standings([1, 2, 3, 4], events, game_points="wdl")
    trend = [(s.player, s.rank, s.previous_rank) for s in result]
    assert trend == [(2, 1, 3), (4, 2, 1), (1, 3, 2), (3, 4, 4)]


def test_every_event_with_the_latest_key_is_cut() -> None:
    # Two games on the same (latest) day: both are left out of the previous standings.
    events = [
        game("2026-11-01", {1: 1, 2: 2}),
        game("2026-11-08", {2: 1, 1: 2}),
        game("2026-11-08", {2: 1, 3: 2}),
    ]
    result = league_standings([1, 2, 3], events, game_points="table")
    assert [(s.player, s.rank, s.previous_rank) for s in result] == [(2, 1, 2), (1, 2, 1), (3, 3, None)]


def test_no_events() -> None:
    result = league_standings([1, 2], [], game_points="wdl", min_games=1)
    assert [(s.player, s.rank, s.points, s.events, s.average_place, s.previous_rank) for s in result] == [
        (1, None, 0, 0, None, None),
        (2, None, 0, 0, None, None),
    ]


# --- rank_by --------------------------------------------------------------------------------


def test_rank_by_directly() -> None:
    values = {"a": (1, 0), "b": (1, 1), "c": (0, 5), "d": (1, 1)}

    def key_of(key: str, p: str) -> tuple[object, ...]:
        return (values[p][0 if key == "first" else 1],)

    assert rank_by(["a", "b", "c", "d"], ["first", "second"], key_of, None) == [
        ("c", 1, None),
        ("a", 2, "first"),
        ("b", 3, "second"),
        ("d", 3, None),
    ]
    # head_to_head splits the pair b, d: d ahead (and d is below a by the second key).
    assert rank_by(["a", "b", "c", "d"], ["first", "second", "head_to_head"], key_of, lambda x, y: -1)[
        2:
    ] == [
        ("d", 3, "second"),
        ("b", 4, "head_to_head"),
    ]
    with pytest.raises(ValueError):
        rank_by(["a"], ["head_to_head"], key_of, None)
    with pytest.raises(ValueError):
        rank_by(["a", "a"], ["first"], key_of, None)


# --- Properties against a brute-force reference ----------------------------------------------


@st.composite
def seasons(draw: Draw) -> dict[str, Any]:
    """A few events of random players and places (small totals so ties are common), keys that
    may repeat, every option at small values."""
    count = draw(st.integers(1, 6))
    players = list(range(10, 10 + count))
    events: list[LeagueEvent[int]] = []
    for _ in range(draw(st.integers(0, 7))):
        at = draw(st.permutations(players))
        at = at[: draw(st.integers(1, len(at)))]
        totals = {p: draw(st.integers(0, 2)) for p in at}
        places = competition_places(at, totals)
        kind = draw(st.sampled_from(["game", "tournament"]))
        events.append(LeagueEvent(draw(st.integers(0, 4)), kind, tuple(at), tuple(places[p] for p in at)))
    place_points = None
    if draw(st.booleans()):
        place_points = [
            F(v) for v in sorted(draw(st.lists(st.integers(0, 9), min_size=1, max_size=4)), reverse=True)
        ]
    games_played = None
    if draw(st.booleans()):
        games_played = {p: draw(st.integers(0, 4)) for p in players}
    tiebreaks = list(draw(st.permutations(LEAGUE_TIEBREAKS[1:])))
    tiebreaks = tiebreaks[: draw(st.integers(0, len(tiebreaks)))]
    if draw(st.booleans()):  # head-to-head early, where pairs still tied are common
        tiebreaks = ["head_to_head", *(key for key in tiebreaks if key != "head_to_head")]
    return {
        "players": players,
        "events": events,
        "game_points": draw(st.sampled_from(["table", "wdl"])),
        "place_points": place_points,
        "best_events": draw(st.integers(0, 3)),
        "drop_worst": draw(st.integers(0, 3)),
        "min_games": draw(st.integers(0, 3)),
        "games_played": games_played,
        "tiebreaks": ["points", *tiebreaks],
    }


def event_points_by_hand(event: LeagueEvent[int], t: dict[str, Any]) -> dict[int, Fraction]:
    """Each player's points from the rules, per player: the average over the places his tie
    covers."""
    n = len(event.players)
    preset = t["place_points"] if t["place_points"] is not None else [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    result: dict[int, Fraction] = {}
    for p, place in zip(event.players, event.places, strict=True):
        tied = event.places.count(place)
        if event.kind == "tournament":
            covered = [F(preset[k - 1]) if k <= len(preset) else F(0) for k in range(place, place + tied)]
            result[p] = sum(covered, F(0)) / tied
        elif t["game_points"] == "wdl":
            result[p] = F(1) if n == 1 else F(0) if place != 1 else F(3) if tied == 1 else F(1)
        elif n == 1:
            result[p] = F(4)
        else:
            covered = [1 + F(6 * (n - k), n - 1) for k in range(place, place + tied)]
            result[p] = sum(covered, F(0)) / tied
    return result


def reference(
    t: dict[str, Any], events: list[LeagueEvent[int]], games: Mapping[int, int]
) -> tuple[Callable[[int, int], int], dict[int, Fraction], dict[int, bool]]:
    """A pairwise comparator from the rules (-1: a ahead of b, 1: behind, 0: tied), the
    points, and who is ranked (above the line)."""
    mine: dict[int, list[Fraction]] = {p: [] for p in t["players"]}
    places: dict[int, list[int]] = {p: [] for p in t["players"]}
    for event in events:
        got = event_points_by_hand(event, t)
        for p, place in zip(event.players, event.places, strict=True):
            mine[p].append(got[p])
            places[p].append(place)
    points: dict[int, Fraction] = {}
    for p, values in mine.items():
        ascending = sorted(values)
        if len(ascending) > t["drop_worst"]:
            ascending = ascending[t["drop_worst"] :]
        descending = ascending[::-1]
        if t["best_events"]:
            descending = descending[: t["best_events"]]
        points[p] = sum(descending, F(0))
    ranked = {p: games[p] >= t["min_games"] for p in t["players"]}

    def value(key: str, p: int) -> Any:
        if key == "points":
            return -points[p]
        if key == "wins":
            return -places[p].count(1)
        if key == "average_place":
            return (0, F(sum(places[p]), len(places[p]))) if places[p] else (1, 0)
        return -games[p]

    keys: list[str] = t["tiebreaks"]

    def compare(a: int, b: int) -> int:
        if ranked[a] != ranked[b]:
            return -1 if ranked[a] else 1
        for index, key in enumerate(keys):
            if key == "head_to_head":
                still = [
                    p
                    for p in t["players"]
                    if ranked[p] == ranked[a] and all(value(k, p) == value(k, a) for k in keys[:index])
                ]
                if len(still) == 2 and b in still and a != b:
                    ahead = behind = 0
                    for event in events:
                        if a in event.players and b in event.players:
                            pa = event.places[event.players.index(a)]
                            pb = event.places[event.players.index(b)]
                            ahead += pa < pb
                            behind += pa > pb
                    if ahead != behind:
                        return -1 if ahead > behind else 1
                continue
            va, vb = value(key, a), value(key, b)
            if va != vb:
                return -1 if va < vb else 1
        return 0

    return compare, points, ranked


def run(t: dict[str, Any]) -> tuple[LeagueStanding[int], ...]:
    return league_standings(
        t["players"],
        t["events"],
        game_points=t["game_points"],
        place_points=t["place_points"],
        best_events=t["best_events"],
        drop_worst=t["drop_worst"],
        min_games=t["min_games"],
        games_played=t["games_played"],
        tiebreaks=t["tiebreaks"],
    )


def games_of(
    t: dict[str, Any], events: list[LeagueEvent[int]], taken_off: list[LeagueEvent[int]]
) -> dict[int, int]:
    if t["games_played"] is None:
        return {p: sum(1 for e in events if e.kind == "game" and p in e.players) for p in t["players"]}
    return {
        p: max(0, t["games_played"][p] - sum(1 for e in taken_off if e.kind == "game" and p in e.players))
        for p in t["players"]
    }


def expected_ranks(
    t: dict[str, Any], events: list[LeagueEvent[int]], games: Mapping[int, int]
) -> dict[int, int | None]:
    compare, _, ranked = reference(t, events, games)
    return {
        a: 1 + sum(1 for b in t["players"] if compare(b, a) < 0) if ranked[a] else None for a in t["players"]
    }


@settings(max_examples=400, deadline=None)
@given(seasons())
def test_standings_agree_with_a_pairwise_reference(t: dict[str, Any]) -> None:
    result = run(t)
    events: list[LeagueEvent[int]] = t["events"]
    games = games_of(t, events, [])
    compare, points, ranked = reference(t, events, games)
    assert sorted(s.player for s in result) == sorted(t["players"])
    position = {s.player: index for index, s in enumerate(result)}
    rank = {s.player: s.rank for s in result}
    assert rank == expected_ranks(t, events, games)
    for a in t["players"]:
        for b in t["players"]:
            if compare(a, b) < 0:
                assert position[a] < position[b], (a, b)
            if compare(a, b) == 0 and a != b:  # equal on every key: the order given
                assert (position[a] < position[b]) == (t["players"].index(a) < t["players"].index(b))
    for s in result:
        assert s.points == points[s.player]
        assert s.games == games[s.player]
        assert (s.rank is not None) == ranked[s.player]
    # The separating tie-break is the first one the reference finds between neighbours of
    # the same side of the line; the first row of each side has none.
    for index, (above, below) in enumerate(itertools.pairwise(result)):
        if (above.rank is None) != (below.rank is None):
            assert below.separated_by is None
            continue
        if below.separated_by is None:
            assert compare(above.player, below.player) == 0
            continue
        cut = t["tiebreaks"].index(below.separated_by)
        before = reference(dict(t, tiebreaks=t["tiebreaks"][:cut]), events, games)[0]
        through = reference(dict(t, tiebreaks=t["tiebreaks"][: cut + 1]), events, games)[0]
        assert before(above.player, below.player) == 0, index
        assert through(above.player, below.player) == -1, index
    # Trend: the ranks without every event of the greatest key.
    if events:
        top = max(cast(int, e.key) for e in events)
        earlier = [e for e in events if e.key != top]
        latest = [e for e in events if e.key == top]
        then = expected_ranks(t, earlier, games_of(t, earlier, latest))
        for s in result:
            played_before = any(s.player in e.players for e in earlier)
            assert s.previous_rank == (then[s.player] if played_before else None)
    else:
        assert all(s.previous_rank is None for s in result)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 9), max_size=8), st.integers(0, 4), st.integers(0, 4))
def test_counted_points_match_every_subset(values: list[int], best: int, drop: int) -> None:
    # Brute force: dropping K then keeping N is the best subset of size min(N, what is left).
    kept = counted_points(values, best_events=best, drop_worst=drop)
    left = len(values) - drop if len(values) > drop else len(values)
    size = min(best, left) if best else left
    assert len(kept) == size
    assert sum(kept) == max((sum(c) for c in itertools.combinations(values, size)), default=0)


def _tallies() -> st.SearchStrategy[dict[int, LeagueTally]]:
    tally = st.builds(
        lambda points, wins, played, spread: LeagueTally(
            Fraction(points, 2), played, min(wins, played), played + spread * (played > 0), played
        ),
        st.integers(0, 6),
        st.integers(0, 2),
        st.integers(0, 3),
        st.integers(0, 2),
    )
    return st.lists(tally, min_size=2, max_size=8).map(lambda ts: dict(enumerate(ts)))


@settings(max_examples=300, deadline=None)
@given(
    now=_tallies(),
    games=st.lists(st.integers(0, 3), min_size=8, max_size=8),
    order=st.permutations(LEAGUE_TIEBREAKS[1:]).flatmap(
        lambda keys: st.integers(1, len(keys)).map(lambda n: keys[:n])
    ),
    min_games=st.integers(0, 2),
)
def test_the_head_to_heads_asked_for_are_the_ones_foreseen(
    now: dict[int, LeagueTally], games: list[int], order: Sequence[str], min_games: int
) -> None:
    """``head_to_head_players`` names exactly the players a table asks a record of, so a caller
    can read their records at once."""
    players = sorted(now)
    then = {
        p: NO_EVENTS if t.played < 2 else replace(t, played=t.played - 1, counted=t.counted - 1)
        for p, t in now.items()
    }
    asked: set[int] = set()

    def pair(a: int, b: int) -> int:
        asked.update((a, b))
        return (a * 7 + b * 3) % 3 - 1

    def games_now(p: int) -> int:
        return games[p]

    def games_then(p: int) -> int:
        return max(0, games[p] - 1)

    tiebreaks = ("points", *order)
    league_table(
        players, now, then, games_now=games_now, games_then=games_then,
        pair_now=pair, pair_then=pair, min_games=min_games, tiebreaks=tiebreaks,
    )  # fmt: skip
    foreseen = head_to_head_players(
        players, [(now, games_now), (then, games_then)], min_games=min_games, tiebreaks=tiebreaks
    )
    assert asked == foreseen
