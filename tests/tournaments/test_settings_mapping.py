"""Settings are made in one place (``from_mapping``) from whatever gives them: a form, the API,
a club file or a tournament's own stored settings, and read back they change nothing."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.families import family_info
from scoring.standings import DEFAULT_TIEBREAKS
from tests.factories import ClubFactory, UserFactory
from tournaments.services.seasons import (
    SeasonSettings,
    checked_season,
    current_season_settings,
    season_create,
)
from tournaments.services.tournament_settings import (
    Settings,
    changed_settings,
    checked_settings,
    current_settings,
    custom_points_text,
    tournament_create,
)

pytestmark = pytest.mark.django_db

LEFT_OUT = {
    "name": "Autumn cup",
    "date": datetime.date(2026, 11, 30),
    "family": "rummikub",
    "rounds": 3,
    "round_hands": 1,
    "seating": "balanced",
    "seat_order": "random",
    "points": "table",
}


def test_what_is_left_out_takes_the_family_s_defaults() -> None:
    made = Settings.from_mapping(LEFT_OUT)
    info = family_info("rummikub")
    assert (made.table_min, made.table_preferred, made.table_max) == (
        info.min_players,
        info.table_preferred,
        info.max_players,
    )
    assert made.byes_allowed and made.options == {} and made.custom_points == ""
    assert tuple(made.tiebreaks) == DEFAULT_TIEBREAKS
    assert (made.final, made.final_size, made.round_minutes, made.final_season) == ("none", 0, 0, None)


def _rows(sizes: range) -> st.SearchStrategy[dict[int, list[Fraction]]]:
    point = st.fractions(min_value=0, max_value=30, max_denominator=4)
    return st.fixed_dictionaries(
        {
            size: st.lists(point, min_size=size, max_size=size).map(lambda p: sorted(p, reverse=True))
            for size in sizes
        }
    )


@settings(max_examples=25, deadline=None)
@given(rows=_rows(range(2, 5)))
def test_custom_points_typed_stored_and_read_back_are_one_list(rows: dict[int, list[Fraction]]) -> None:
    typed = "; ".join(f"{size}: {' '.join(str(p) for p in points)}" for size, points in rows.items())
    stored = checked_settings(
        Settings.from_mapping({**LEFT_OUT, "points": "custom", "custom_points": typed})
    )["custom_points"]
    assert stored == {str(size): [str(p) for p in points] for size, points in rows.items()}
    # A club file carries the stored shape; a form or the API shows the text: the same settings.
    assert Settings.from_mapping(
        {**LEFT_OUT, "points": "custom", "custom_points": stored}
    ) == Settings.from_mapping({**LEFT_OUT, "points": "custom", "custom_points": custom_points_text(stored)})


def test_a_tournament_s_settings_read_back_change_nothing() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    given_settings = Settings.from_mapping(
        {
            **LEFT_OUT,
            "points": "custom",
            "custom_points": "4: 5 3 2 0; 3: 4 5/2 0; 2: 3 0",
            "tiebreaks": ["points", "firsts", "head_to_head"],
            "round_minutes": 40,
        }
    )
    tournament = tournament_create(club=club, settings=given_settings, user=user)
    again = Settings.from_mapping(current_settings(tournament))
    assert checked_settings(again) == checked_settings(given_settings)
    stored = {field: getattr(tournament, field) for field in checked_settings(again)}
    assert checked_settings(again) == stored


def test_another_family_brings_its_own_table_sizes_unless_the_change_gives_them() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    tournament = tournament_create(club=club, settings=Settings.from_mapping(LEFT_OUT), user=user)
    gin = family_info("gin")
    moved = changed_settings(tournament, {"family": "gin"})
    assert (moved.table_min, moved.table_preferred, moved.table_max) == (
        gin.min_players,
        gin.table_preferred,
        gin.max_players,
    )
    given_sizes = changed_settings(tournament, {"family": "zoliky", "table_min": 3, "table_preferred": 4})
    assert (given_sizes.table_min, given_sizes.table_preferred) == (3, 4)
    # The same family keeps the tournament's own sizes, whatever else changes.
    kept = changed_settings(tournament, {"rounds": 5})
    assert (kept.rounds, kept.table_max) == (5, tournament.table_max)


def test_a_season_s_settings_read_back_change_nothing() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    given_settings = SeasonSettings.from_mapping(
        {
            "name": "Winter",
            "starts": datetime.date(2026, 12, 1),
            "ends": datetime.date(2027, 2, 28),
            "families": ["rummikub", "zoliky"],
            "counts": "both",
            "game_points": "table",
            "tournament_points": "custom",
            "custom_points": "10 8 6 5/2 0",
            "best_events": 5,
            "min_games": 2,
            "qualify": 4,
        }
    )
    season = season_create(club=club, settings=given_settings, user=user)
    again = SeasonSettings.from_mapping(current_season_settings(season))
    assert checked_season(again) == checked_season(given_settings)
    assert checked_season(again) == {field: getattr(season, field) for field in checked_season(again)}
    # A club file carries the points as stored, a list.
    from_file = SeasonSettings.from_mapping(
        {**current_season_settings(season), "custom_points": season.custom_points}
    )
    assert from_file == again
