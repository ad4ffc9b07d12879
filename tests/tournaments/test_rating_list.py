"""The club rating list: players by the rating their pages show, the uncertainty on the same
scale, games, last played and the change the last evening brought; provisional and inactive by
the club's settings; members-only clubs keep it from strangers; the same in the API; and a
fixed number of queries for 20 players as for 500."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Club, Game, Membership, Player
from games.text.names import loose_key, name_key
from scoring.ratings import Rating, display, display_sigma
from tests.factories import ClubFactory, UserFactory, add_member
from tournaments.models import RatingEvent
from tournaments.rating_history import keep_current
from tournaments.selectors.league import rating_list

pytestmark = pytest.mark.django_db


def rated_club(players: int, *, days: int = 3, club: Club | None = None) -> Club:
    """A club whose ``players`` players each played one rated Rummikub game of four on each of
    ``days`` evenings a week apart (the events written as the rebuild writes them)."""
    club = club or ClubFactory.create()
    people = Player.objects.bulk_create(
        Player(
            club=club, name=f"Hráč {i:03}", key=name_key(f"Hráč {i:03}"), loose_key=loose_key(f"Hráč {i:03}")
        )
        for i in range(players)
    )
    now = timezone.now()
    ratings = {p.pk: Rating(25.0, 25 / 3) for p in people}
    events = []
    for day in range(days):
        when = now - datetime.timedelta(days=7 * (days - 1 - day))
        tables = [people[i : i + 4] for i in range(0, players, 4)]
        games = Game.objects.bulk_create(Game(family="rummikub", club=club) for _ in tables)
        for game, table in zip(games, tables, strict=True):
            for place, player in enumerate(table, start=1):
                old = ratings[player.pk]
                new = Rating(old.mu + (2.5 - place) * (1 + player.pk % 3), old.sigma * 0.9)
                ratings[player.pk] = new
                events.append(
                    RatingEvent(
                        club=club,
                        family="rummikub",
                        game=game,
                        player=player,
                        played_at=when,
                        place=place,
                        players=len(table),
                        mu=new.mu,
                        sigma=new.sigma,
                        mu_before=old.mu,
                        sigma_before=old.sigma,
                    )
                )
    RatingEvent.objects.bulk_create(events, batch_size=1000)
    keep_current(club=club, family="rummikub")
    return club


def test_the_list_ranks_by_the_displayed_rating_with_the_last_evenings_change() -> None:
    club = rated_club(8)
    result = rating_list(club=club, family="rummikub")
    assert result.family == "rummikub" and result.families == ["rummikub"]
    assert len(result.rows) == 8
    assert [r.rating for r in result.rows] == sorted((r.rating for r in result.rows), reverse=True)
    for row in result.rows:
        events = list(RatingEvent.objects.filter(player_id=row.player_id).order_by("played_at", "game_id"))
        last = events[-1]
        assert row.rating == display(Rating(last.mu, last.sigma))
        assert row.uncertainty == display_sigma(Rating(last.mu, last.sigma)) == round(40 * last.sigma)
        assert row.games == 3 and row.last_played == last.played_at
        assert row.trend == row.rating - display(Rating(last.mu_before, last.sigma_before))
        assert row.provisional  # 3 games, the default asks for 5
        assert not row.inactive
    ranks = [r.rank for r in result.rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)


def test_provisional_inactive_and_new_follow_the_clubs_settings() -> None:
    club = rated_club(4)
    club.provisional_games, club.inactive_days = 3, 10
    club.save()
    later = timezone.now() + datetime.timedelta(days=11)
    rows = rating_list(club=club, now=later).rows
    assert not any(r.provisional for r in rows) and all(r.inactive for r in rows)
    club.inactive_days = 0  # never
    club.save()
    assert not any(r.inactive for r in rating_list(club=club, now=later).rows)
    # A newcomer on the last evening: no trend ("new"); the others who sat out: 0.
    newcomer = Player.objects.create(club=club, name="Nový", key="novy", loose_key="novy")
    game = Game.objects.create(family="rummikub", club=club)
    other = Player.objects.filter(club=club).exclude(pk=newcomer.pk).first()
    assert other is not None
    last = RatingEvent.objects.filter(player=other).order_by("-played_at").first()
    assert last is not None
    when = timezone.now() + datetime.timedelta(days=2)
    for player, place, before in ((newcomer, 1, Rating(25, 25 / 3)), (other, 2, Rating(last.mu, last.sigma))):
        RatingEvent.objects.create(
            club=club, family="rummikub", game=game, player=player, played_at=when, place=place, players=2,
            mu=before.mu + 1, sigma=before.sigma, mu_before=before.mu, sigma_before=before.sigma,
        )  # fmt: skip
    keep_current(club=club, family="rummikub")
    by_name = {r.name: r for r in rating_list(club=club).rows}
    assert by_name["Nový"].trend is None
    assert by_name[other.name].trend == display(Rating(last.mu + 1, last.sigma)) - display(
        Rating(last.mu, last.sigma)
    )
    assert all(r.trend == 0 for name, r in by_name.items() if name not in ("Nový", other.name))


@pytest.mark.parametrize("players", [20, 500])
def test_the_list_reads_in_a_fixed_number_of_queries(players: int, django_assert_num_queries: Any) -> None:
    club = rated_club(players)
    with django_assert_num_queries(5):
        result = rating_list(club=club)
    assert len(result.rows) == players


def test_the_page_the_csv_and_the_api_and_strangers_of_a_members_only_club(client: Client) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser, name="Klub Šťastný")
    rated_club(4, club=club)
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    # Strangers: 404 everywhere.
    for url in (
        f"/c/{club.slug}/ratings/",
        f"/c/{club.slug}/ratings/csv/",
        f"/api/v1/clubs/{club.slug}/ratings/",
        f"/api/v1/clubs/{club.slug}/ratings/csv/",
    ):
        assert client.get(url).status_code == 404, url
    client.force_login(member)
    page = client.get(f"/c/{club.slug}/ratings/")
    assert page.status_code == 200
    text = page.content.decode()
    top = rating_list(club=club).rows[0]
    assert top.name in text and f"±{top.uncertainty}" in text and "css/print.css" in text
    csv = client.get(f"/c/{club.slug}/ratings/csv/")
    assert csv["Content-Type"].startswith("text/csv")
    body = csv.content.decode("utf-8")
    assert body.startswith("\ufeff")
    lines = body.lstrip("\ufeff").splitlines()
    assert len(lines) == 5 and lines[1].split(",")[:4] == [
        "1",
        top.name,
        str(top.rating),
        str(top.uncertainty),
    ]
    # The API offers the same file, also to a client that asks for it by its type.
    for accept in ("*/*", "text/csv"):
        through_api = client.get(f"/api/v1/clubs/{club.slug}/ratings/csv/", HTTP_ACCEPT=accept)
        assert through_api["Content-Type"].startswith("text/csv") and through_api.content == csv.content
    api = client.get(f"/api/v1/clubs/{club.slug}/ratings/").json()
    assert api["family"] == "rummikub" and api["families"] == ["rummikub"]
    first = api["rows"][0]
    assert first["player_id"] == top.player_id and first["rating"] == top.rating
    assert first["uncertainty"] == top.uncertainty and first["provisional"] is True


def test_a_players_name_is_shown_as_text_not_markup(client: Client) -> None:
    club = rated_club(4)
    player = Player.objects.filter(club=club).order_by("pk").first()
    assert player is not None
    player.name = '<img src=x onerror="alert(1)">'
    player.save()
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    client.force_login(member)
    text = client.get(f"/c/{club.slug}/ratings/").content.decode()
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in text and "<img src=x" not in text
    assert f"/players/{player.pk}/ratings/?family=rummikub" in text  # his row still links to him
