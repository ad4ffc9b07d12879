"""A player's league card: every event of the season with its points and whether it counted,
marked by the rule the standings apply (``scoring.league.event_marks``), so that the counted
events add up to his points in the standings; the page, its CSV and the API."""

from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Club, Game, Membership
from games.web.spreadsheet import safe_cell
from scoring.league import counted_points, event_marks
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import play_round, season_settings, tournament
from tests.tournaments.test_seasons import play
from tournaments.models import Season, SeasonStanding
from tournaments.selectors.league import exact_text, league_card
from tournaments.services.seasons import season_create


def reference_marks(points: list[int], best: int, drop: int) -> list[str]:
    """Brute force: of every way to drop ``drop`` events (when there are more), the lowest sum,
    ties to the latest events; then of every way to keep ``best`` of the rest, the highest sum,
    ties to the earliest."""
    indexes = range(len(points))
    dropped: tuple[int, ...] = ()
    if drop and len(points) > drop:
        dropped = min(
            itertools.combinations(indexes, drop), key=lambda c: (sum(points[i] for i in c), -sum(c))
        )
    rest = [i for i in indexes if i not in dropped]
    kept: tuple[int, ...] = tuple(rest)
    if best and len(rest) > best:
        kept = max(itertools.combinations(rest, best), key=lambda c: (sum(points[i] for i in c), -sum(c)))
    return ["dropped_worst" if i in dropped else "counted" if i in kept else "not_best" for i in indexes]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 7), max_size=8), st.integers(0, 5), st.integers(0, 5))
def test_best_n_drop_k_card_marks_match_brute_force(points: list[int], best: int, drop: int) -> None:
    marks = event_marks(points, best_events=best, drop_worst=drop)
    assert marks == reference_marks(points, best, drop)
    # The standings' sum is the card's counted sum.
    counted = [p for p, m in zip(points, marks, strict=True) if m == "counted"]
    assert sorted(counted, reverse=True) == counted_points(points, best_events=best, drop_worst=drop)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.fractions(0, 7, max_denominator=3), max_size=7), st.integers(0, 4), st.integers(0, 4))
def test_marks_of_shared_places_fractions(points: list[Fraction], best: int, drop: int) -> None:
    marks = event_marks(points, best_events=best, drop_worst=drop)
    counted = sum((p for p, m in zip(points, marks, strict=True) if m == "counted"), Fraction(0))
    assert counted == sum(counted_points(points, best_events=best, drop_worst=drop), Fraction(0))


GAMES = [
    (["Ann", "Bob", "Cid", "Dan"], "Ann"),
    (["Ann", "Bob", "Cid"], "Bob"),
    (["Bob", "Cid", "Dan"], "Cid"),
    (["Ann", "Cid", "Dan"], "Dan"),
    (["Ann", "Bob", "Dan"], "Ann"),
]


@pytest.fixture
def league(django_capture_on_commit_callbacks: Any) -> tuple[Club, Season]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(
        club=club, settings=season_settings(best_events=2, drop_worst=1, min_games=4), user=organiser
    )
    for names, winner in GAMES:
        play(club, organiser, names, winner, django_capture_on_commit_callbacks)
    return club, season


@pytest.mark.django_db
def test_every_players_counted_events_add_up_to_his_standings_points(league: tuple[Club, Season]) -> None:
    _club, season = league
    rows = list(SeasonStanding.objects.filter(season=season, family="").select_related("player"))
    assert len(rows) == 4
    for row in rows:
        card = league_card(season=season, player=row.player)
        played = sum(1 for names, _ in GAMES if row.player.name in names)
        assert len(card.events) == played
        assert exact_text(card.total) == exact_text(row.points)
        assert card.counted == row.events == min(2, played - 1)
        assert [e.mark for e in card.events].count("dropped_worst") == 1
        assert card.below_minimum == (played < 4) == (not row.ranked)
        assert all(e.kind == "game" and e.public_id for e in card.events)


@pytest.mark.django_db
def test_the_card_reads_in_a_fixed_number_of_queries(
    league: tuple[Club, Season], django_assert_num_queries: Any
) -> None:
    club, season = league
    player = club.players.get(name="Ann")
    with django_assert_num_queries(7):  # no tournament in the season
        league_card(season=season, player=player)


@pytest.mark.django_db
def test_the_card_page_csv_and_api_and_the_link_from_the_standings(
    league: tuple[Club, Season], client: Client
) -> None:
    club, season = league
    club.visibility = Club.Visibility.MEMBERS
    club.save()
    ann = club.players.get(name="Ann")
    card = league_card(season=season, player=ann)
    urls = [
        f"/s/{season.public_id}/players/{ann.pk}/",
        f"/s/{season.public_id}/players/{ann.pk}/csv/",
        f"/s/{season.public_id}/csv/",
        f"/api/v1/seasons/{season.public_id}/players/{ann.pk}/",
        f"/api/v1/seasons/{season.public_id}/players/{ann.pk}/csv/",
        f"/api/v1/seasons/{season.public_id}/csv/",
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url  # a stranger
    member = UserFactory.create()
    add_member(club, member, Membership.Role.MEMBER)
    client.force_login(member)
    standings = client.get(f"/s/{season.public_id}/").content.decode()
    assert f'href="/s/{season.public_id}/players/{ann.pk}/"' in standings
    assert f'href="/s/{season.public_id}/csv/"' in standings and "css/print.css" in standings
    page = client.get(urls[0]).content.decode()
    assert page.count('class="counted"') == card.counted
    assert page.count('class="not-counted"') == len(card.events) - card.counted
    card_csv = client.get(urls[1]).content.decode("utf-8")
    assert card_csv.startswith("\ufeff") and len(card_csv.splitlines()) == len(card.events) + 2
    season_csv = client.get(urls[2]).content.decode("utf-8")
    assert season_csv.startswith("\ufeff") and "Ann" in season_csv
    # The API offers the same files.
    for page_url, api_url in ((urls[1], urls[4]), (urls[2], urls[5])):
        through_api = client.get(api_url)
        assert through_api["Content-Type"].startswith("text/csv")
        assert through_api.content == client.get(page_url).content
    api = client.get(urls[3]).json()
    assert [e["mark"] for e in api["events"]] == [e.mark for e in card.events]
    total = sum((Fraction(e["points"]) for e in api["events"] if e["mark"] == "counted"), Fraction(0))
    assert Fraction(api["total"]) == total == card.total
    assert api["best_events"] == 2 and api["drop_worst"] == 1


@pytest.mark.django_db
def test_a_tournament_counts_as_one_event_on_the_card(django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    season = season_create(club=club, settings=season_settings(best_events=2), user=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        cup = tournament(club, organiser, players=8, rounds=2)
        for number in (1, 2):
            play_round(cup, number, organiser)
    for names, winner in GAMES[:2]:
        play(club, organiser, [f"{n}" for n in names], winner, django_capture_on_commit_callbacks)
    rows = list(SeasonStanding.objects.filter(season=season, family="").select_related("player"))
    assert rows
    seen_tournament = False
    for row in rows:
        card = league_card(season=season, player=row.player)
        kinds = [e.kind for e in card.events]
        seen_tournament |= "tournament" in kinds
        assert exact_text(card.total) == exact_text(row.points)
        assert all(
            e.name == cup.name and e.public_id == cup.public_id for e in card.events if e.kind == "tournament"
        )
    assert seen_tournament


@pytest.mark.django_db
def test_odd_addresses_answer_404_not_500(league: tuple[Club, Season], client: Client) -> None:
    club, season = league
    for url in (
        f"/s/{season.public_id}/players/99999999999999999999999/",
        f"/s/{season.public_id}/players/0/csv/",
        "/s/nope/players/1/",
        f"/c/{club.slug}/players/99999999999999999999999/ratings/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.get(f"/c/{club.slug}/ratings/?family=nope").status_code == 200
    assert client.get(f"/s/{season.public_id}/csv/?family=nope").status_code == 200


@pytest.mark.django_db
def test_each_row_of_the_card_csv_names_the_player_the_season_and_the_event(
    league: tuple[Club, Season], client: Client
) -> None:
    club, season = league
    ann = club.players.get(name="Ann")
    card = league_card(season=season, player=ann)
    # A public id that starts with "-" is written behind an apostrophe, as every CSV cell that a
    # spreadsheet would read as a formula.
    games = {safe_cell(g.public_id): g for g in Game.objects.filter(club=club, seats__player=ann)}
    for url in (
        f"/s/{season.public_id}/players/{ann.pk}/csv/",
        f"/api/v1/seasons/{season.public_id}/players/{ann.pk}/csv/",
    ):
        rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
        header, events, total = rows[0], rows[1:-1], rows[-1]
        assert header[:5] == ["Player", "Season", "Date", "Game or tournament", "Game or tournament id"]
        assert len(events) == len(card.events) == 4
        for row, event in zip(events, card.events, strict=True):
            assert row[:2] == ["Ann", season.name]
            game = games[row[4]]  # the event's public id names the game she played
            assert game.public_id == event.public_id
            assert row[2] == timezone.localdate(game.played_at).isoformat()
            assert row[3] == "Club game"
        assert total[:2] == ["Ann", season.name] and total[3] == "Total of the counted events"
        assert {r[4] for r in events} == set(games)
    # The header speaks the reader's language.
    czech = client.get(f"/api/v1/seasons/{season.public_id}/players/{ann.pk}/csv/", HTTP_ACCEPT_LANGUAGE="cs")
    header = next(csv.reader(io.StringIO(czech.content.decode("utf-8-sig"))))
    assert header[1] != "Season" and header[4] != "Game or tournament id"
