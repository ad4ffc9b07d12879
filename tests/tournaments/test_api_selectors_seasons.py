"""What the seasons and league resources of the API read through the selectors: a fixed number
of queries each, and the values their answers show (displayed ratings, a game's name, a rank)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.models import Game, Player
from scoring.ratings import Rating, display, display_sigma
from tests.factories import ClubFactory
from tests.tournaments.support import season_settings, small_league
from tournaments.derived import freshness
from tournaments.models import Season
from tournaments.selectors import league as league_selectors
from tournaments.selectors import seasons as selectors
from tournaments.services.seasons import current_season_settings, season_create

pytestmark = pytest.mark.django_db

FAMILY = "rummikub"


@pytest.fixture
def league() -> dict[str, Any]:
    made = small_league()
    return {**made, "players": {p.name: p for p in Player.objects.filter(club=made["club"])}}


def test_a_clubs_seasons_are_one_query_and_page_as_a_queryset(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    other = ClubFactory.create(organiser=league["organiser"])
    season_create(club=other, settings=season_settings(), user=league["organiser"])
    with django_assert_num_queries(1):
        found = list(selectors.season_rows(club=league["club"]).order_by("-pk"))
    assert found == [league["season"]]


def test_a_season_page_is_its_view_with_its_settings_and_no_query_more(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    season: Season = selectors.season_by_public_id(public_id=league["season"].public_id)  # type: ignore[assignment]
    with django_assert_num_queries(7):
        view = selectors.season_view(season=season)
    with django_assert_num_queries(7):
        found = selectors.season_page(season=season)
    assert found.season is season
    assert found.settings == current_season_settings(season)
    assert [r.pk for r in found.view.rows] == [r.pk for r in view.rows]
    lines = found.view.lines
    assert [line.row for line in lines] == found.view.rows
    assert [line.qualifies for line in lines] == [True, True, False, False]


def test_a_rating_page_names_each_game_and_keeps_the_seasons_of_his_club(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    ann: Player = league["players"]["Ann"]
    page = selectors.player_rating_page(player=ann)
    with django_assert_num_queries(0):  # the games and their seats come with the page
        lines = page.lines
        seasons = page.own_seasons
    assert page.player == ann
    assert [line.event for line in lines] == page.history
    newest = lines[0]
    assert newest.game_name == selectors.game_name(newest.event.game, player_id=ann.pk)
    assert newest.game_name.startswith("with ") and "Ann" not in newest.game_name
    assert newest.rating == display(Rating(newest.event.mu, newest.event.sigma))
    assert newest.rating_before == display(Rating(newest.event.mu_before, newest.event.sigma_before))
    assert [s.season for s in seasons] == [league["season"]]


def test_versus_is_the_head_to_head_with_the_clubs_freshness(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    ann, bob = league["players"]["Ann"], league["players"]["Bob"]
    with django_assert_num_queries(6):  # the head to head's 3, the club's freshness 3
        page = selectors.versus_page(player=ann, other=bob)
    fresh = freshness(league["club"].pk)
    assert (page.pending, page.as_of) == (fresh.pending, fresh.as_of)
    assert (page.player, page.other) == (ann, bob)
    assert page.record.games == 3
    pairs = page.rating_pairs
    assert [(p.player, p.other) for p in pairs] == page.ratings
    assert [p.family for p in pairs] == [FAMILY]


def test_a_rating_pair_is_of_the_family_either_played(league: dict[str, Any]) -> None:
    ann = league["players"]["Ann"]
    mine = selectors.player_ratings_summary(player=ann)[0]
    assert selectors.RatingPair(mine, None).family == FAMILY
    assert selectors.RatingPair(None, mine).family == FAMILY


def test_a_games_chances_come_with_the_clubs_freshness(
    league: dict[str, Any], django_assert_num_queries: Any
) -> None:
    game = Game.objects.select_related("club").get(pk=league["games"][0].pk)
    with django_assert_num_queries(5):  # a rated game: its seats, its rating events, freshness
        found = selectors.game_chances_page(game=game)
    fresh = freshness(league["club"].pk)
    assert (found.pending, found.as_of) == (fresh.pending, fresh.as_of)
    assert found.game == game and found.before_game
    for chance in found.chances:
        assert chance.displayed == display(chance.rating)
        assert chance.uncertainty == display_sigma(chance.rating)


def test_a_league_card_gives_his_rank_only_above_the_line(league: dict[str, Any]) -> None:
    card = league_selectors.league_card(season=league["season"], player=league["players"]["Ann"])
    assert card.standing is not None and card.standing.ranked
    assert card.rank == card.standing.rank
    assert replace(card, standing=None).rank is None
    card.standing.ranked = False
    assert card.rank is None
