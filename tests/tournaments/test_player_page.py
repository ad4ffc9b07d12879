"""Each player's own page in a tournament: round by round his table, seat, place, table
points and the rank after the round; linked from the standings and "Where do I sit?"; the
same in the API; a fixed number of queries whatever the size."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import Club
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, tournament
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.selectors.player import player_rounds
from tournaments.services.round_seating import round_seat
from tournaments.versions import forget_kept

pytestmark = pytest.mark.django_db


def _cup(players: int = 8) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, players)
    play_round(cup, 1, organiser)
    play_round(cup, 2, organiser)
    round_seat(tournament=cup, number=3, user=organiser)
    return cup, organiser


def _first_seat_of_round_1(cup: Tournament) -> Entry:
    seat = TableSeat.objects.get(
        table__round__tournament=cup, table__round__number=1, table__number=1, position=0
    )
    return seat.entry


def test_the_page_lists_each_round_with_table_seat_place_points_and_rank() -> None:
    cup, _ = _cup()
    entry = _first_seat_of_round_1(cup)
    found = player_rounds(tournament=cup, entry_id=entry.pk)
    assert found is not None
    first, second, third = found.rounds
    # Seat 1 goes out at every table (support.play_round): first place, 7 table points.
    assert (first.table, first.seat, first.place, first.points, first.counted) == (1, 1, 1, 7, True)
    assert first.rank == 1
    assert second.counted and second.rank is not None and second.table is not None
    assert third.status == "seated" and not third.counted and third.points is None and third.rank is None
    assert first.points is not None and second.points is not None and found.standing is not None
    assert found.standing.points == first.points + second.points
    page = Client().get(f"/t/{cup.public_id}/p/{entry.pk}/").content.decode()
    assert f"<h1>{entry.player.name}</h1>" in page
    assert "Rank after the round" in page
    game = Table.objects.get(round__tournament=cup, round__number=1, number=1).game
    assert game is not None and f'href="/g/{game.public_id}/"' in page


def test_the_standings_and_where_do_i_sit_link_to_it() -> None:
    cup, _ = _cup()
    entry = _first_seat_of_round_1(cup)
    own = f"/t/{cup.public_id}/p/{entry.pk}/"
    assert f'href="{own}"' in Client().get(f"/t/{cup.public_id}/standings/").content.decode()
    found = Client().get(f"/t/{cup.public_id}/seat/", {"q": entry.player.name}).content.decode()
    assert f'href="{own}"' in found


def test_an_unknown_entry_is_404() -> None:
    cup, _ = _cup()
    other = _cup()[0]
    entry = _first_seat_of_round_1(other)
    assert Client().get(f"/t/{cup.public_id}/p/{entry.pk}/").status_code == 404
    assert APIClient().get(f"/api/v1/tournaments/{cup.public_id}/players/{entry.pk}/").status_code == 404


def test_the_api_gives_the_same_rounds() -> None:
    cup, _ = _cup()
    entry = _first_seat_of_round_1(cup)
    body = APIClient().get(f"/api/v1/tournaments/{cup.public_id}/players/{entry.pk}/").json()
    assert body["entry"] == entry.pk and body["name"] == entry.player.name
    assert [r["round"] for r in body["rounds"]] == [1, 2, 3]
    assert body["rounds"][0]["points"] == "7" and body["rounds"][0]["place"] == 1
    assert body["rounds"][0]["game"] is not None and body["rounds"][2]["points"] is None


@pytest.mark.parametrize("players", [8, 16])
def test_the_page_takes_the_same_queries_for_any_size(players: int, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    cup, _ = _cup(players)
    entry = _first_seat_of_round_1(cup)
    # The first look reads the seating and computes the ranks and the standings for this version
    # of the tournament, and keeps them in memory (3 queries besides the page's 5); the next on
    # this process reads none of that, another process computes them as the first did (no copy
    # is shared between processes: docs/design/performance.md).
    with django_assert_num_queries(8):
        found = player_rounds(tournament=cup, entry_id=entry.pk)
    assert found is not None and len(found.rounds) == 3
    with django_assert_num_queries(5):
        again = player_rounds(tournament=cup, entry_id=entry.pk)
    assert again == found
    forget_kept()
    with django_assert_num_queries(8):
        assert player_rounds(tournament=cup, entry_id=entry.pk) == found
