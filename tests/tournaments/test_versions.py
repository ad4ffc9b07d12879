"""The standings computed once per version of a tournament (tournaments.versions): every write
that moves them names a new version, a hand at a table still playing does not, and what the
pages read from what a process keeps always equals the standings computed afresh."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Hand, Player
from games.services.hands import hand_delete, hand_edit, hand_record
from games.services.players import player_rename
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import rummikub_hand, settings, tournament
from tournaments.models import Entry, Round, Table, TableSeat, Tournament
from tournaments.selectors import view as selectors
from tournaments.services.entries import entry_drop
from tournaments.services.round_seating import round_move, round_seat
from tournaments.services.rounds import round_confirm, round_start
from tournaments.services.tournament_settings import tournament_update
from tournaments.tournament_data import compute_standings, tournament_data, tournament_rounds
from tournaments.versions import forget_kept, tournament_versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> User:
    return UserFactory.create()


@pytest.fixture
def cup(organiser: User) -> Tournament:
    # Two hands a table: after the first the table still plays, after the second it is over.
    return tournament(ClubFactory.create(organiser=organiser), organiser, 8, round_hands=2)


def fresh(t: Tournament) -> list[tuple[int, int, object, str, bool]]:
    """The standings computed now from the database, as the pages show them."""
    t.refresh_from_db()
    data = tournament_data(t)
    return [
        (
            s.player,
            s.rank,
            s.points,
            data.entries[s.player].player.name,
            data.entries[s.player].dropped_after is not None,
        )
        for s in compute_standings(data)
    ]


def shown(t: Tournament) -> list[tuple[int, int, object, str, bool]]:
    t.refresh_from_db()
    return [
        (r.standing.player, r.rank, r.standing.points, r.name, r.dropped)
        for r in selectors.tournament_view(tournament=t).standings
    ]


def tags(t: Tournament) -> tuple[str, str]:
    t.refresh_from_db()
    versions = tournament_versions(t, tournament_rounds(t))
    return versions.standings, versions.live


def games(played: Round) -> list[Table]:
    return list(Table.objects.filter(round=played).select_related("game").order_by("number"))


def hand(table: Table, organiser: User, winner: int = 0) -> None:
    assert table.game is not None
    names = [s.name for s in table.game.seats.all()]
    names = names[winner:] + names[:winner]
    hand_record(game=table.game, outcome=rummikub_hand(names), request_id=None, user=organiser)


def test_every_write_that_moves_the_standings_names_a_new_version(cup: Tournament, organiser: User) -> None:
    steps: list[tuple[str, bool]] = []  # (what was done, whether the standings' tag changed)

    def step(name: str, write: object) -> None:
        before = tags(cup)
        assert callable(write)
        write()
        after = tags(cup)
        assert after[1] != before[1], f"{name}: the live tag stayed"
        steps.append((name, after[0] != before[0]))
        assert shown(cup) == fresh(cup), f"{name}: the pages show stale standings"
        cup.refresh_from_db()
        view = selectors.tournament_view(tournament=cup)
        now = tournament_data(cup)
        assert view.data == now, f"{name}: the pages show a stale seating"
        for played in view.rounds:
            assert played.states == now.tables_of(played.round.number), f"{name}: a stale round"

    shown(cup)  # the first version is in the cache
    played = round_seat(tournament=cup, number=1, user=organiser)
    assert selectors.tournament_view(tournament=cup).data.tables  # its seating is kept too
    step(
        "seated again",
        lambda: round_seat(tournament=cup, number=1, round_version=played.version, user=organiser),
    )
    played = Round.objects.get(pk=played.pk)
    mover = TableSeat.objects.filter(table__round=played, table__number=1).order_by("position").first()
    assert mover is not None
    step(
        "a player sits the round out",
        lambda: round_move(
            played=played, entry=mover.entry, to_table=0, round_version=played.version, user=organiser
        ),
    )
    played = Round.objects.get(pk=played.pk)
    step("start", lambda: round_start(played=played, round_version=played.version, user=organiser))
    first, second = games(Round.objects.get(pk=played.pk))
    step("a hand at a table still playing", lambda: hand(first, organiser))
    step("the hand that ends the table", lambda: hand(first, organiser, winner=1))
    ended = Hand.objects.filter(game=first.game).order_by("number").last()
    assert ended is not None and first.game is not None
    reversed_names = [s.name for s in first.game.seats.all()][::-1]
    step(
        "a correction of the finished table",
        lambda: hand_edit(
            hand=ended, outcome=rummikub_hand(reversed_names), version=ended.version, user=organiser
        ),
    )
    step("the other table's first hand", lambda: hand(second, organiser))
    step("the other table's last hand", lambda: hand(second, organiser, winner=2))
    current = Round.objects.get(pk=played.pk)
    step(
        "the round confirmed",
        lambda: round_confirm(played=current, round_version=current.version, user=organiser),
    )
    late = Hand.objects.filter(game=second.game).order_by("number").first()
    assert late is not None
    step(
        "a hand deleted after the round was confirmed",
        lambda: hand_delete(hand=late, version=late.version, user=organiser),
    )
    entry = Entry.objects.filter(tournament=cup).order_by("pk").first()
    assert entry is not None
    step(
        "a player drops out",
        lambda: entry_drop(entry=entry, dropped=True, version=entry.version, user=organiser),
    )
    player = Player.objects.get(pk=entry.player_id)
    step(
        "a player renamed",
        lambda: player_rename(
            player=player, name="Renamed Player", version=player.version, request_id=None, user=organiser
        ),
    )
    cup.refresh_from_db()
    step(
        "the points scheme changed",
        lambda: tournament_update(
            tournament=cup,
            settings=replace(
                settings(round_hands=2, table_min=2, table_max=4, table_preferred=4), points="win"
            ),
            version=cup.version,
            user=organiser,
        ),
    )
    assert steps == [
        ("seated again", True),
        ("a player sits the round out", True),
        ("start", True),
        ("a hand at a table still playing", False),
        ("the hand that ends the table", True),
        ("a correction of the finished table", True),
        ("the other table's first hand", False),
        ("the other table's last hand", True),
        ("the round confirmed", True),
        ("a hand deleted after the round was confirmed", True),
        ("a player drops out", True),
        ("a player renamed", True),
        ("the points scheme changed", True),
    ]


def test_the_standings_are_computed_once_per_version(
    cup: Tournament, organiser: User, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    first, _second = games(played)
    hand(first, organiser)
    hand(first, organiser)
    computed = selectors.tournament_view(tournament=cup).standings
    assert computed[0].standing.points > 0
    # Another request on this server: the rounds and the tags (2 queries); no table, no cache row.
    with django_assert_num_queries(3):
        again = selectors.tournament_view(tournament=cup).standings
    assert again == computed
    hand(_second, organiser)  # a table still playing: the same version
    with django_assert_num_queries(3):
        assert selectors.tournament_view(tournament=cup).standings == computed
    # On another server, which never computed them: computed there as well (the standings'
    # own reads besides); a copy shared between servers does not pay under the load test
    # (docs/design/performance.md).
    forget_kept()
    with django_assert_num_queries(7):
        assert selectors.tournament_view(tournament=cup).standings == computed


@pytest.fixture
def big_round(organiser: User) -> Round:
    """A public club's 20 players at 10 tables of two, the first round started."""
    t = tournament(
        ClubFactory.create(organiser=organiser, public=True),
        organiser,
        20,
        table_min=2,
        table_max=2,
        table_preferred=2,
    )
    played = round_seat(tournament=t, number=1, user=organiser)
    return round_start(played=played, round_version=played.version, user=organiser)


def test_a_big_rounds_tables_and_standings_come_a_page_at_a_time(big_round: Round, client: Client) -> None:
    big = big_round.tournament
    round_url = reverse("tournaments:round", args=[big.public_id, 1])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tournaments.views.rounds.ROUND_PAGE", 4)
        patch.setattr("tournaments.views.public.STANDINGS_PAGE", 6)
        page = client.get(round_url).content.decode()
        assert page.count('class="card table-card"') == 4
        assert 'id="table-1"' in page and 'id="table-5"' not in page
        assert "0 of 10 tables finished" in page  # the count is of the whole round
        assert '<a href="?page=2">5–8</a><a href="?page=3">9–10</a>' in page
        second = client.get(round_url, {"page": 2}).content.decode()
        assert 'id="table-5"' in second and 'id="table-8"' in second and 'id="table-4"' not in second
        last = client.get(round_url, {"page": 99}).content.decode()  # past the end: the last page
        assert 'id="table-10"' in last and last.count('class="card table-card"') == 2
        standings_url = reverse("tournaments:standings", args=[big.public_id])
        rows = client.get(standings_url, {"page": 2}).content.decode()
        ranked = [r.name for r in selectors.tournament_view(tournament=big).standings]
        listed = [name for name in ranked if f">{name}</a>" in rows]
        assert listed == ranked[6:12]
        assert '<a href="?page=2" aria-current="page">7–12</a>' in rows
        assert client.get(standings_url, {"page": "x"}).status_code == 200


def test_the_projector_turns_through_a_big_tournament_a_screenful_at_a_time(
    big_round: Round, organiser: User, client: Client, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    big, played = big_round.tournament, big_round
    url = reverse("tournaments:screen", args=[big.public_id])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tournaments.views.public.SCREEN_TABLES", 4)
        patch.setattr("tournaments.views.public.SCREEN_ROWS", 6)
        first = client.get(url)
        page = first.content.decode()
        assert 'data-page="1" data-pages="4"' in page  # 20 rows by 6; 10 tables by 4
        assert page.count('<li class="screen-table') == 4 and "Screen 1 of 4" in page
        fourth = client.get(url, {"page": 4}).content.decode()
        # The tables start again from the first; the rows are the last two.
        assert "<h3>Table 1</h3>" in fourth and fourth.count('<li class="screen-table') == 4
        ranked = [r.name for r in selectors.tournament_view(tournament=big).standings]
        assert [n for n in ranked if f">{n}</a>" in fourth] == ranked[18:]
        assert '<meta http-equiv="refresh" content="15;url=?page=1">' in fourth  # without JavaScript
        etag = first["ETag"]
        assert client.get(url, {"page": 2}, HTTP_IF_NONE_MATCH=etag).status_code == 200  # another page
        # Nothing changed: a 304 before anything is drawn (the tournament, the viewer's role,
        # the rounds and the tags: 2).
        with django_assert_num_queries(4):
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        table = Table.objects.filter(round=played).select_related("game").first()
        assert table is not None
        hand(table, organiser)  # a hand anywhere: the screen shows its totals
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_projector_shows_as_many_rows_as_its_screen_has_room_for(
    big_round: Round, client: Client
) -> None:
    """static/js/screen.js asks for fewer rows when they do not fit (?rows=): the pages follow,
    their tags differ, and a page turn without JavaScript keeps the count."""
    big = big_round.tournament
    url = reverse("tournaments:screen", args=[big.public_id])
    ranked = [r.name for r in selectors.tournament_view(tournament=big).standings]
    default = client.get(url)
    assert 'data-rows="20"' in default.content.decode()
    eight = client.get(url, {"rows": 8, "page": 3})
    page = eight.content.decode()
    assert 'data-page="3" data-pages="3" data-turn="15" data-rows="8" data-shown="4"' in page
    assert [n for n in ranked if f">{n}</a>" in page] == ranked[16:]
    assert '<meta http-equiv="refresh" content="15;url=?page=1&amp;rows=8">' in page
    assert eight["ETag"] != client.get(url, {"rows": 6, "page": 3})["ETag"]
    # At least a row a column; never more than the default; nonsense is the default.
    assert 'data-rows="2"' in client.get(url, {"rows": 0}).content.decode()
    assert 'data-rows="20"' in client.get(url, {"rows": 500}).content.decode()
    assert 'data-rows="20"' in client.get(url, {"rows": "x"}).content.decode()
