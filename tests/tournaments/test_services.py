"""The tournament services as an organiser uses them: seating round by round, late arrivals and
drop-outs, resends, two organisers at once, impossible set-ups, and corrections after a round
is confirmed."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from engine.errors import EngineError
from games.models import Hand
from games.services.hands import hand_edit, hand_record
from games.text.errors import error_message
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, rummikub_hand, settings, tournament
from tournaments.models import Bye, Entry, Round, Table, TableSeat, TournamentChange
from tournaments.selectors.history import tournament_history
from tournaments.selectors.view import tournament_view
from tournaments.services.entries import entries_add, entry_check_in, entry_drop
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.tournament_settings import tournament_create, tournament_update
from tournaments.tournament_data import tournament_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():  # type: ignore[no-untyped-def]
    return UserFactory.create()


@pytest.fixture
def club(organiser):  # type: ignore[no-untyped-def]
    return ClubFactory.create(organiser=organiser)


def seated(played: Round) -> Counter[int]:
    at_tables = TableSeat.objects.filter(table__round=played).values_list("entry_id", flat=True)
    byes = Bye.objects.filter(round=played).values_list("entry_id", flat=True)
    return Counter([*at_tables, *byes])


def test_eighteen_players_sit_at_three_tables_of_four_and_two_of_three(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 18)
    played = round_seat(tournament=t, number=1, user=organiser)
    sizes = sorted((table.seats.count() for table in Table.objects.filter(round=played)), reverse=True)
    assert sizes == [4, 4, 4, 3, 3]
    assert set(seated(played).values()) == {1}
    assert sum(seated(played).values()) == 18


def test_every_round_seats_each_checked_in_player_once_late_arrivals_and_dropouts(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 12)
    play_round(t, 1, organiser)
    late = entries_add(tournament=t, names=["Late Larry"], checked_in=True, user=organiser)[0]
    assert late.from_round == 2
    leaver = Entry.objects.filter(tournament=t).exclude(pk=late.pk).first()
    assert leaver is not None
    entry_drop(entry=leaver, dropped=True, version=leaver.version, user=organiser)
    played = play_round(t, 2, organiser)
    counts = seated(played)
    assert counts[late.pk] == 1 and leaver.pk not in counts
    assert sum(counts.values()) == 12 and set(counts.values()) == {1}
    # The one who dropped out keeps his round-1 result in the standings.
    view = tournament_view(tournament=t)
    row = next(r for r in view.standings if r.standing.player == leaver.pk)
    assert row.dropped and row.standing.tables == 1 and row.standing.points > 0
    # Not checked in: not seated.
    absent = Entry.objects.get(pk=late.pk)
    entry_check_in(entry=absent, checked_in=False, version=absent.version, user=organiser)
    third = round_seat(tournament=t, number=3, user=organiser)
    assert late.pk not in seated(third)


def test_a_resent_write_changes_nothing_twice(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8)
    key = uuid.uuid4()
    entries_add(tournament=t, names=["Zoe"], user=organiser, request_id=key)
    entries_add(tournament=t, names=["Zoe", "Yann"], user=organiser, request_id=key)
    assert Entry.objects.filter(tournament=t).count() == 9
    seat_key = uuid.uuid4()
    first = round_seat(tournament=t, number=1, user=organiser, request_id=seat_key)
    again = round_seat(tournament=t, number=1, user=organiser, request_id=seat_key)
    assert again.pk == first.pk and again.version == first.version
    assert TournamentChange.objects.filter(tournament=t, action="seated").count() == 1
    start_key = uuid.uuid4()
    round_start(played=first, round_version=first.version, user=organiser, request_id=start_key)
    round_start(played=first, round_version=first.version, user=organiser, request_id=start_key)
    assert TournamentChange.objects.filter(tournament=t, action="started").count() == 1


def test_two_organisers_seating_one_round_the_second_is_refused(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 12)
    other = UserFactory.create()
    first = round_seat(tournament=t, number=1, user=organiser)
    tables_before = list(TableSeat.objects.filter(table__round=first).values_list("entry_id", flat=True))
    with pytest.raises(EngineError) as refused:
        round_seat(tournament=t, number=1, user=other)  # he saw no seating yet
    assert refused.value.code == "round_already_seated"
    assert "just seated by someone else" in error_message(refused.value)
    # Seating again with a stale version (someone re-seated meanwhile) is refused too.
    again = round_seat(tournament=t, number=1, round_version=first.version, user=organiser)
    with pytest.raises(EngineError) as stale:
        round_seat(tournament=t, number=1, round_version=first.version, user=other)
    assert stale.value.code == "stale_round"
    assert Round.objects.filter(tournament=t).count() == 1
    assert Round.objects.get(pk=first.pk).version == again.version
    assert len(tables_before) == 12


def test_the_next_round_waits_for_the_confirmation_and_earlier_rounds_are_locked(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8)
    played = play_round(t, 1, organiser, confirm=False)
    with pytest.raises(EngineError) as early:
        round_seat(tournament=t, number=2, user=organiser)
    assert early.value.code == "round_not_confirmed"
    with pytest.raises(EngineError) as locked:
        round_seat(tournament=t, number=1, round_version=played.version, user=organiser)
    assert locked.value.code == "round_started"
    with pytest.raises(EngineError) as fixed:
        tournament_update(tournament=t, settings=settings(table_min=3), version=t.version, user=organiser)
    assert fixed.value.code == "settings_locked"


def test_a_round_of_one_hand_ends_each_table_after_it(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8)
    played = play_round(t, 1, organiser, confirm=False)
    game = Table.objects.filter(round=played).first().game  # type: ignore[union-attr]
    assert game is not None and game.hand_limit == 1
    assert all(r.finished for r in game.results.all())
    names = [s.name for s in game.seats.all()]
    with pytest.raises(EngineError) as over:
        hand_record(game=game, outcome=rummikub_hand(names), request_id=None, user=organiser)
    assert over.value.code == "game_over"


@pytest.mark.parametrize(
    ("family", "players", "changes", "code", "says"),
    [
        ("gin", 3, {"byes_allowed": False}, "seating_no_fit", "2"),
        ("gin", 7, {"byes_allowed": False}, "seating_no_fit", "8"),
        ("rummikub", 1, {}, "seating_too_few", "1"),
    ],
)
def test_impossible_set_ups_say_what_to_change(club, organiser, family, players, changes, code, says) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, players, family=family, **changes)
    with pytest.raises(EngineError) as impossible:
        round_seat(tournament=t, number=1, user=organiser)
    assert impossible.value.code == code
    message = error_message(impossible.value)
    assert says in message
    assert not Round.objects.filter(tournament=t).exists()


def test_table_sizes_outside_the_game_are_refused(club, organiser) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EngineError) as wrong:
        tournament_create(club=club, settings=settings("gin", table_max=4, table_preferred=4), user=organiser)
    assert wrong.value.code == "table_limits"
    assert "2 to 2" in error_message(wrong.value)


def test_a_correction_after_confirmation_changes_the_standings_and_says_so(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8)
    played = play_round(t, 1, organiser)
    before = {r.name: r.standing.points for r in tournament_view(tournament=t).standings}
    table = Table.objects.filter(round=played).order_by("number").first()
    assert table is not None and table.game is not None
    names = [s.name for s in table.game.seats.all()]
    hand = Hand.objects.get(game=table.game)
    # The last player, not the first, went out.
    hand_edit(hand=hand, outcome=rummikub_hand([*names[::-1]]), version=hand.version, user=organiser)
    after = {r.name: r.standing.points for r in tournament_view(tournament=t).standings}
    assert after[names[-1]] > before[names[-1]] and after[names[0]] < before[names[0]]
    history = tournament_history(tournament=t)
    corrections = [item for item in history if item.correction is not None]
    assert len(corrections) == 1 and corrections[0].table == table.number and corrections[0].round == 1


def test_points_and_tiebreaks_can_change_after_the_start_and_the_standings_follow(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8)
    play_round(t, 1, organiser)
    t.refresh_from_db()
    tournament_update(tournament=t, settings=settings(points="win"), version=t.version, user=organiser)
    points = sorted((r.standing.points for r in tournament_view(tournament=t).standings), reverse=True)
    assert points[:2] == [1, 1] and points[2:] == [0] * 6


def test_the_tournament_data_takes_the_same_queries_for_any_size(
    club, organiser, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    small = tournament(club, organiser, 8, name="Small")
    play_round(small, 1, organiser)
    big = tournament(club, organiser, 20, name="Big")
    for number in (1, 2, 3):
        play_round(big, number, organiser)
    with django_assert_num_queries(5):
        tournament_data(small)
    with django_assert_num_queries(5):
        tournament_data(big)
    # The standings: the rounds, the version tags (2) and the data they are computed from; then,
    # for the same version, from what this process keeps (no copy is shared between processes:
    # docs/design/performance.md).
    with django_assert_num_queries(7):
        assert len(tournament_view(tournament=big).standings) == 20
    view = tournament_view(tournament=big)
    with django_assert_num_queries(3):  # kept by this process; another one computes them again
        assert len(view.standings) == 20
    # A round's tables: that round's results and the games of the tables drawn (the seating is
    # kept), whichever round and however many were played.
    for played in (view.rounds[-1], view.rounds[0]):
        with django_assert_num_queries(2):
            assert all(t.game is not None for t in played.tables)
        assert played.states == view.data.tables_of(played.round.number)


def test_round_confirm_ends_open_tables(club, organiser) -> None:  # type: ignore[no-untyped-def]
    t = tournament(club, organiser, 8, round_hands=0)
    played = round_seat(tournament=t, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    for table in Table.objects.filter(round=played):
        assert table.game is not None
        names = [s.name for s in table.game.seats.all()]
        hand_record(game=table.game, outcome=rummikub_hand(names), request_id=None, user=organiser)
    played = round_confirm(played=played, round_version=played.version, user=organiser)
    assert played.status == Round.Status.CONFIRMED
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None and table.game.ended
