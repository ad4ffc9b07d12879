"""``manage.py rebuild_derived`` is the one way to rebuild every derived number from the
recorded hands: run on a club whose stored numbers were damaged, it gives back exactly what
the writes had stored."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import Club, Result, Score
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS
from tournaments.models import RatingEvent, SeasonStanding
from tournaments.rating_history import rebuild_club
from tournaments.seasons import rebuild_seasons
from tournaments.services.seasons import SeasonSettings, season_create

pytestmark = pytest.mark.django_db


def snapshot(club: Club) -> dict[str, list[tuple[object, ...]]]:
    return {
        "scores": sorted(
            Score.objects.filter(hand__game__club=club).values_list("hand_id", "seat_id", "points")
        ),
        "results": sorted(
            Result.objects.filter(game__club=club).values_list(
                "seat_id", "total", "place", "winner", "finished", "eliminated_in", "hands"
            )
        ),
        "ratings": sorted(
            (game, player, round(mu, 9), round(sigma, 9))
            for game, player, mu, sigma in RatingEvent.objects.filter(club=club).values_list(
                "game_id", "player_id", "mu", "sigma"
            )
        ),
        "seasons": sorted(
            SeasonStanding.objects.filter(season__club=club).values_list(
                "season_id", "family", "player_id", "rank", "ranked", "points", "games", "wins", "rating"
            )
        ),
    }


def test_rebuild_derived_reproduces_what_the_writes_stored() -> None:
    call_command(
        "generate_club", "--players", "12", "--games", "25", "--hands", "120", "--name", "Rebuilt",
        "--family", "mixed", "--seed", "5", stdout=io.StringIO(),
    )  # fmt: skip
    club = Club.objects.get(name="Rebuilt")
    user = club.memberships.get().user
    today = timezone.localdate()
    season_create(
        club=club,
        settings=SeasonSettings(
            name="All time",
            starts=today - datetime.timedelta(days=800),
            ends=today,
            families=["zoliky", "gin", "carousel", "rummikub"],
            counts="both",
            game_points="table",
            tournament_points="preset",
            custom_points="",
            best_events=0,
            drop_worst=0,
            min_games=2,
            tiebreaks=DEFAULT_LEAGUE_TIEBREAKS,
        ),
        user=user,
    )
    rebuild_club(club=club)
    rebuild_seasons(club)
    stored = snapshot(club)
    assert stored["ratings"] and stored["seasons"] and stored["results"]
    # Damage every kind of derived number.
    Score.objects.filter(hand__game__club=club).update(points=0)
    Result.objects.filter(game__club=club).update(total=12345, place=9)
    RatingEvent.objects.filter(club=club).update(mu=1.0)
    SeasonStanding.objects.filter(season__club=club).update(points=0, rank=99)
    assert snapshot(club) != stored
    out = io.StringIO()
    call_command("rebuild_derived", "--club", club.slug, stdout=out)
    assert snapshot(club) == stored
    assert "25 games re-derived" in out.getvalue()
