"""The selectors the API's tournament resources read (tournaments.selectors.tournaments): what
each gives, and its queries, pinned and the same whatever the number of players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoAssertNumQueries

from games.models import Club, Hand, Player
from games.services.hands import hand_edit
from games.text.names import name_key
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import NAMES, play_round, rummikub_hand, tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.entries import (
    door_search,
    door_view,
    entries_of,
    players_to_register,
    seat_search,
    tournament_entries,
    tournament_entry,
)
from tournaments.selectors.history import history_of
from tournaments.selectors.rounds import tournament_round
from tournaments.selectors.tournaments import tournaments_of_club
from tournaments.selectors.view import tournament_overview, tournament_view
from tournaments.services.entries import check_in_door, entry_drop
from tournaments.services.round_seating import round_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> User:
    return UserFactory.create()


@pytest.fixture
def club(organiser: User) -> Club:
    return ClubFactory.create(organiser=organiser)


def _cup(club: Club, organiser: User, players: int = 8) -> Tournament:
    """Round 1 confirmed, round 2 seated."""
    cup = tournament(club, organiser, players)
    play_round(cup, 1, organiser)
    round_seat(tournament=cup, number=2, user=organiser)
    cup.refresh_from_db()
    return cup


def test_the_club_tournaments_are_one_query(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    first = tournament(club, organiser, 4)
    second = tournament(club, organiser, 4)
    tournament(ClubFactory.create(organiser=organiser), organiser, 4)
    with django_assert_num_queries(0):
        found = tournaments_of_club(club=club)
    with django_assert_num_queries(1):
        assert {t.pk for t in found} == {first.pk, second.pk}


@pytest.mark.parametrize("players", [8, 16])
def test_the_overview_reads_its_parts_in_fixed_queries(
    club: Club, organiser: User, players: int, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = _cup(club, organiser, players)
    with django_assert_num_queries(0):
        overview = tournament_overview(tournament=cup)
        assert overview.settings["name"] == cup.name and overview.settings["custom_points"] == ""
        assert overview.view.tiebreaks == tuple(cup.tiebreaks)
    # The rounds (1), the version tags (2), the seating (3), and each round's tables (1 each):
    # no copy of the seating is shared between processes (docs/design/performance.md).
    with django_assert_num_queries(8):
        assert overview.view.registered == players and overview.view.checked_in == players
        assert overview.view.next_round is None
        rounds = overview.view.rounds
        assert [(r.table_count, r.finished_tables) for r in rounds] == [
            (players // 4, players // 4),
            (2 * players // 8, 0),
        ]
        assert rounds[0].byes == [] and rounds[1].byes == []


def test_a_round_is_one_query(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = _cup(club, organiser)
    with django_assert_num_queries(1):
        played = tournament_round(tournament=cup, number=2)
        assert played is not None and played.tournament.public_id == cup.public_id
    with django_assert_num_queries(1):
        assert tournament_round(tournament=cup, number=3) is None


def test_a_seated_table_has_its_seats_and_edit_path(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = _cup(club, organiser)
    first = tournament_view(tournament=cup).rounds[0].tables[0]
    seated = tournament_view(tournament=cup).rounds[1].tables[0]
    with django_assert_num_queries(0):
        assert [s.seat for s in first.seats] == [1, 2, 3, 4]
        assert first.game is not None and first.edit_path is not None
        assert first.edit_path.endswith("#" + first.game.edit_token)
        assert seated.game is None and seated.edit_path is None


def test_the_entries_are_one_query_each(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = _cup(club, organiser)
    some = Entry.objects.filter(tournament=cup).select_related("player").order_by("player__key")
    first, second, third = list(some)[:3]
    with django_assert_num_queries(1):
        listed = tournament_entries(tournament=cup)
    with django_assert_num_queries(0):
        assert [e.player.name for e in listed.entries] == sorted(NAMES[:8], key=name_key)
        assert {e.status for e in listed.entries} == {"checked_in"}
    with django_assert_num_queries(1):
        asked = entries_of(tournament=cup, player_ids=[second.player_id], keys=[name_key(first.player.name)])
    with django_assert_num_queries(0):
        assert [e.pk for e in asked.entries] == [first.pk, second.pk]
    with django_assert_num_queries(1):
        one = tournament_entry(tournament=cup, entry_id=third.pk)
    with django_assert_num_queries(0):
        assert one is not None and one.player.name == third.player.name and one.tournament.pk == cup.pk
    other = tournament(club, organiser, 4)
    with django_assert_num_queries(1):
        assert tournament_entry(tournament=other, entry_id=third.pk) is None


def test_an_entry_says_its_status() -> None:
    assert Entry(checked_in=False).status == "registered"
    assert Entry(checked_in=True).status == "checked_in"
    assert Entry(checked_in=True, dropped_after=1).status == "dropped"


def test_the_players_to_register_are_the_clubs_unmerged_ones(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = tournament(club, organiser, 4)
    mine = Player.objects.create(club=club, name="Zora")
    merged = Player.objects.create(club=club, name="Zora 2", merged_into=mine)
    other = Player.objects.create(club=ClubFactory.create(), name="Zora 3")
    with django_assert_num_queries(1):
        found = players_to_register(tournament=cup, ids=[mine.pk, merged.pk, other.pk])
    assert [p.pk for p in found] == [mine.pk]


def test_the_door_is_one_query(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = tournament(club, organiser, 4)
    with django_assert_num_queries(1):
        closed = door_view(tournament=cup)
    assert (closed.open, closed.path, closed.entries, closed.checked_in) == (False, None, 4, 4)
    opened = check_in_door(tournament=cup, opened=True, version=cup.version, user=organiser)
    entry = Entry.objects.filter(tournament=cup).first()
    assert entry is not None
    entry_drop(entry=entry, dropped=True, version=entry.version, user=organiser)
    with django_assert_num_queries(1):
        door = door_view(tournament=opened)
    assert door.open and door.path is not None and door.path.endswith(f"{opened.check_in_key}/")
    assert (door.entries, door.checked_in) == (4, 3)  # who dropped out is no longer counted
    with django_assert_num_queries(1):
        search = door_search(tournament=opened, query=NAMES[1][:3].lower())
    with django_assert_num_queries(0):
        assert search.open and [e.player.name for e in search.results] == [NAMES[1]]


@pytest.mark.parametrize("players", [8, 16])
def test_where_do_i_sit_is_fixed_queries(
    club: Club, organiser: User, players: int, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = _cup(club, organiser, players)
    # The rounds (1), the version tags (2), the seating (3), and the current round's tables (1):
    # no copy of the seating is shared between processes (docs/design/performance.md).
    with django_assert_num_queries(7):
        found = seat_search(tournament=cup, query=NAMES[0])
    assert found.query == NAMES[0]
    [seat] = found.results
    assert (seat.name, seat.round, seat.game) == (NAMES[0], 2, None)
    assert seat.table is not None and seat.seat is not None


def test_the_history_is_three_queries_and_says_each_item(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    cup = tournament(club, organiser, 8)
    played = play_round(cup, 1, organiser)
    table = Table.objects.filter(round=played).order_by("number").select_related("game").first()
    assert table is not None and table.game is not None
    names = [s.name for s in table.game.seats.all()]
    hand = Hand.objects.get(game=table.game)
    hand_edit(hand=hand, outcome=rummikub_hand(names[::-1]), version=hand.version, user=organiser)
    with django_assert_num_queries(3):
        history = history_of(tournament=cup)
    with django_assert_num_queries(0):
        fix, confirmed = history.items[:2]
        assert (fix.kind, fix.round_number, fix.table, fix.details) == (
            "correction",
            1,
            table.number,
            {"hand": 1},
        )
        assert fix.correction is not None and fix.correction.game.public_id == table.game.public_id
        assert fix.username == organiser.get_username() and fix.title
        assert (confirmed.kind, confirmed.action, confirmed.round_number) == ("change", "confirmed", 1)
        assert confirmed.username == organiser.get_username() and confirmed.details["round"] == 1
        created = history.items[-1]
        assert (created.kind, created.action, created.round_number) == ("change", "created", None)
