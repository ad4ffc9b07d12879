"""What a league organiser reads off a season: the qualification line, the standings as they
stood after any evening, and the ratings page's numbers (σ on the display scale, dates in the
page's language, games by name); the win chances before a game in the API."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Club, Game
from games.services.games import game_start
from games.services.hands import hand_record
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.pipeline import drain
from tests.tournaments.support import season_settings
from tournaments.models import Season, SeasonStanding
from tournaments.services import season_create, season_update

pytestmark = pytest.mark.django_db

FAMILY = "rummikub"


def ago(days: int, hour: int = 19) -> datetime.datetime:
    day = timezone.localdate() - datetime.timedelta(days=days)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def play(club: Club, user: User, names: list[str], *, at: datetime.datetime | None = None) -> Game:
    """A finished one-hand Rummikub game: the first name wins, the others in order."""
    game = game_start(
        family=FAMILY, options={}, players=names, owner=user, club=club, hand_limit=1, played_at=at
    )
    left = {name: 5 * i for i, name in enumerate(names) if i}
    hand_record(game=game, outcome={"winner": names[0], "left": left}, request_id=None, user=user)
    return game


@pytest.fixture
def league() -> dict[str, Any]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(club=club, settings=season_settings(qualify=2), user=organiser)
    play(club, organiser, ["Ann", "Bob", "Cid", "Dan"], at=ago(3))
    play(club, organiser, ["Bob", "Cid", "Ann", "Dan"], at=ago(3, 21))
    play(club, organiser, ["Dan", "Cid", "Bob", "Ann"], at=ago(1))
    drain()
    return {"organiser": organiser, "club": club, "season": season}


def names_in_order(html: str) -> list[str]:
    return re.findall(r'<th scope="row" class="name"><a [^>]*>([^<]+)</a>', html)


def test_the_top_n_qualify_the_standings_draw_the_line_and_the_api_says_who(league: dict[str, Any]) -> None:
    season: Season = league["season"]
    ranked = list(SeasonStanding.objects.filter(season=season, family="").order_by("rank"))
    assert len(ranked) == 4
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    line = page.index("Above the line: the top 2 qualify")
    order = names_in_order(page)
    assert order == [r.player.name for r in ranked]
    assert page.index(f">{order[1]}</a>") < line < page.index(f">{order[2]}</a>")
    body = Client().get(f"/api/v1/seasons/{season.public_id}/").json()
    assert body["qualify"] == 2
    assert [r["qualifies"] for r in body["standings"]["rows"]] == [True, True, False, False]

    settings = season_settings(qualify=0)
    season_update(season=season, settings=settings, version=season.version, user=league["organiser"])
    drain()
    page = Client().get(f"/s/{season.public_id}/").content.decode()
    assert "qualif" not in page
    body = Client().get(f"/api/v1/seasons/{season.public_id}/").json()
    assert not any(r["qualifies"] for r in body["standings"]["rows"])
