"""A club rated before the rating list kept its own lines gets them when the site is upgraded,
the same lines the worker writes."""

from __future__ import annotations

import datetime

import pytest

from games.models import Game, Player
from tests.factories import ClubFactory
from tests.migrating import migrate
from tournaments.models import CurrentRating, RatingEvent
from tournaments.rating_history import current_lines, stored_lines

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0010_round_clock")]


def test_the_upgrade_writes_each_rated_players_line() -> None:
    club = ClubFactory.create()
    ann, bob = (
        Player.objects.create(club=club, name=n, key=n.lower(), loose_key=n.lower()) for n in ("Ann", "Bob")
    )
    when = datetime.datetime(2026, 11, 3, 19, 0, tzinfo=datetime.UTC)
    try:
        migrate(BEFORE)
        for day, (winner, loser) in enumerate(((ann, bob), (bob, ann), (ann, bob))):
            game = Game.objects.create(family="gin", club=club, options={})
            for place, player in ((1, winner), (2, loser)):
                RatingEvent.objects.create(
                    club=club, family="gin", game=game, player=player,
                    played_at=when + datetime.timedelta(days=day), place=place, players=2,
                    mu=25.0 + day - place, sigma=8.0 - day, mu_before=25.0, sigma_before=8.0,
                )  # fmt: skip
    finally:
        migrate()
    lines = {line.player_id: line for line in CurrentRating.objects.filter(club=club, family="gin")}
    expected = current_lines(
        club_id=club.pk, family="gin", events=stored_lines(club_id=club.pk, family="gin")
    )
    assert set(lines) == {ann.pk, bob.pk}
    for line in expected:
        kept = lines[line.player_id]
        assert (kept.mu, kept.sigma, kept.games, kept.last_played, kept.evening) == (
            line.mu, line.sigma, 3, when + datetime.timedelta(days=2), datetime.date(2026, 11, 5),
        )  # fmt: skip
        assert (kept.evening_games, kept.evening_mu) == (1, 25.0)
