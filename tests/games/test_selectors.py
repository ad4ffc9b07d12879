"""Selectors: each page read's query count is pinned, on a club of realistic size and on a
bigger one (the count must not grow with games, players or hands), reading what the pages read
from the result; and what the player pages show, on a small example worked out by hand."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from games.models import Change, Club, Game, Membership, Player, Seat
from games.selectors.clubs import (
    active_invites,
    club_by_slug,
    club_games,
    club_history,
    club_members,
    recording_clubs,
    user_clubs,
)
from games.selectors.games import user_games
from games.selectors.players import (
    club_roster,
    own_roster,
    player_summary,
    recent_players,
    similar_pairs,
)
from games.selectors.sheets import game_history, game_sheet
from games.services.access import club_role
from games.services.clubs import club_change_undo, invite_create, membership_set_role
from games.services.games import edit_link_renew, game_end
from games.services.hands import change_undo, hand_edit, hand_record
from games.services.players import player_claim, player_merge, player_rename
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db

Role = Membership.Role


@dataclass
class World:
    club: Club
    organiser: User
    scorekeeper: User
    member: User
    games: list[Game]
    own_games: list[Game]
    table: Game  # the club's last evening of Žolíky: hands, a correction and its undo


def zoliky_hand(names: list[str], n: int) -> dict[str, Any]:
    closer = names[n % len(names)]
    return {
        "closer": closer,
        "left": {p: 3 + (n * 7 + i * 5) % 30 for i, p in enumerate(names) if p != closer},
    }


def build(players: int, games: int, hands: int) -> World:
    """A club of ``players`` players who played ``games`` games of three (``hands`` hands
    each, one of them corrected and the correction undone), half of the games ended; members,
    claims, invites, merges and renames in its history; and the scorekeeper's own games."""
    organiser, scorekeeper, member = UserFactory.create(), UserFactory.create(), UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    add_member(club, scorekeeper, Role.SCOREKEEPER)
    membership = add_member(club, member)
    names = [f"Player {i}" for i in range(players)] + ["Plaýer 0"]
    played: list[Game] = []
    start = timezone.now() - datetime.timedelta(days=games + 1)
    for g in range(games):
        seated = [names[(g + k) % players] for k in range(3)]
        game = GameFactory.create(family="zoliky", options={"elimination": 0}, players=seated, club=club)
        Game.objects.filter(pk=game.pk).update(played_at=start + datetime.timedelta(days=g))
        for n in range(hands):
            hand_record(
                game=game, outcome=zoliky_hand(seated, g + n), request_id=uuid.uuid4(), user=scorekeeper
            )
        first = game.hands.first()
        assert first is not None
        hand_edit(hand=first, outcome=zoliky_hand(seated, g + 5), version=first.version, user=None)
        edit = Change.objects.filter(game=game).first()
        assert edit is not None
        change_undo(change=edit, user=scorekeeper)
        if g % 2:
            game_end(game=game, ended=True)
        played.append(game)
    # Someone typed with an accent once: a likely duplicate, merged, undone, merged again.
    alike = GameFactory.create(family="gin", players=["Plaýer 0", "Player 1"], club=club)
    table = played[-1]
    played.append(alike)
    played.append(GameFactory.create(family="gin", players=["Plàyer 2", "Zoe"], club=club))  # left as is
    keep = Player.objects.get(club=club, name="Player 0")
    drop = Player.objects.get(club=club, name="Plaýer 0")
    for i in range(2, min(players, 6)):
        user = UserFactory.create()
        add_member(club, user)
        player_claim(player=Player.objects.get(club=club, name=f"Player {i}"), user=user, claim=True)
    merged = player_merge(
        keep=keep, drop=drop, keep_version=None, drop_version=None, request_id=None, user=None
    )
    club_change_undo(change=club_change_undo(change=merged, user=organiser), user=organiser)
    renamed = player_rename(
        player=Player.objects.get(club=club, name="Player 1"),
        name="Player One",
        version=None,
        request_id=None,
        user=organiser,
    )
    assert renamed is not None
    membership_set_role(
        membership=membership, role=Role.SCOREKEEPER, version=None, request_id=None, user=None
    )
    for days in (None, 7, 30):
        invite_create(club=club, user=organiser, days=days)
    own = [
        GameFactory.create(family="gin", players=["Mum", names[g % players]], owner=scorekeeper)
        for g in range(games // 2 + 1)
    ]
    for game in own:
        hand_record(
            game=game,
            outcome={"knocker": "Mum", "gin": False, "deadwood": {"Mum": 3, game.seats.all()[1].name: 9}},
            request_id=None,
            user=None,
        )
    # Another club, so that every read must pick its own club's rows.
    other = ClubFactory.create(organiser=organiser)
    GameFactory.create(players=["Player 0", "Player 1", "Zed"], club=other)
    return World(
        club=club,
        organiser=organiser,
        scorekeeper=scorekeeper,
        member=member,
        games=played,
        own_games=own,
        table=table,
    )


# (players, games, hands per game): the counts must be the same for every size.
SIZES = [
    pytest.param((4, 3, 1), id="small"),
    pytest.param((8, 10, 4), id="club"),
]


@pytest.fixture(params=SIZES)
def world(request: pytest.FixtureRequest) -> World:
    return build(*request.param)


def fresh_club(world: World) -> Club:
    return Club.objects.get(pk=world.club.pk)


def fresh_user(user: User) -> User:
    return User.objects.get(pk=user.pk)


def test_club_reads_take_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    club, organiser = fresh_club(world), fresh_user(world.organiser)
    with django_assert_num_queries(1):
        memberships = user_clubs(user=organiser)
        assert [m.club.name for m in memberships] == sorted(m.club.name for m in memberships)
    assert len(memberships) == 2

    scorekeeper = fresh_user(world.scorekeeper)
    with django_assert_num_queries(1):
        assert recording_clubs(user=scorekeeper) == [club]
    admin = UserFactory.create(is_superuser=True)
    with django_assert_num_queries(1):
        assert len(recording_clubs(user=admin)) == 2

    with django_assert_num_queries(1):
        assert club_by_slug(slug=club.slug) == club

    with django_assert_num_queries(2):
        games = club_games(club=club)
        shown = [
            (
                game.public_id,
                [(r.seat.name, r.player.name, r.player_id, r.total, r.winner) for r in game.results.all()],
            )
            for game in games
        ]
    assert len(shown) == len(world.games)
    assert all(len(results) == game.seats.count() for game, (_, results) in zip(games, shown, strict=True))

    with django_assert_num_queries(2):
        rows = club_members(club=club)
        members = [
            (row.membership.user.username, row.membership.role, row.player and row.player.name)
            for row in rows
        ]
    assert len(members) == Membership.objects.filter(club=club).count()
    assert (
        sum(1 for _, _, player in members if player)
        == Player.objects.filter(club=club, user__isnull=False).count()
    )

    with django_assert_num_queries(1):
        assert len(active_invites(club=club)) == 3

    with django_assert_num_queries(2):
        history = club_history(club=club)
        seen = [
            (c.action, c.user.username if c.user else None, c.undoes_id, hasattr(c, "undone_by"))
            for c in history
        ]
    assert len(seen) == 5  # merge, its undo, the redo, a rename, a role (claims are not recorded)
    assert sum(1 for *_, undone in seen if undone) == 2

    with django_assert_num_queries(1):
        assert [(a.name, b.name) for a, b in similar_pairs(club=club)] == [("Player 2", "Plàyer 2")]


def test_player_reads_take_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    club, scorekeeper = fresh_club(world), fresh_user(world.scorekeeper)
    with django_assert_num_queries(1):
        names = recent_players(club=club, user=AnonymousUser(), game_ids=[])
    assert len(names) == Player.objects.filter(club=club, merged_into=None).count()
    with django_assert_num_queries(1):
        assert "Mum" in recent_players(club=None, user=scorekeeper, game_ids=[])
    with django_assert_num_queries(1):
        browser = recent_players(
            club=None, user=AnonymousUser(), game_ids=[g.public_id for g in world.own_games]
        )
    assert browser[0] == "Mum"

    with django_assert_num_queries(1):
        roster = [
            (row.player.name, row.player.user and row.player.user.username, row.games)
            for row in club_roster(club=club)
        ]
    assert sum(games for *_, games in roster) == Seat.objects.filter(game__club=club).count()

    with django_assert_num_queries(1):
        own = [(row.player.name, row.games, row.last_played) for row in own_roster(user=scorekeeper)]
    assert own[0][:2] == ("Mum", len(world.own_games))

    for player in Player.objects.filter(club=club, merged_into=None):
        with django_assert_num_queries(2):
            summary = player_summary(player=player)
            page = (
                [(f.family, f.games, f.wins, f.average_place) for f in summary.families],
                summary.best and (summary.best.game.public_id, summary.best.seat.name),
                summary.worst and (summary.worst.game.public_id, summary.worst.seat.name),
                [(o.player.name, o.record.games) for o in summary.opponents],
                [
                    (r.game.public_id, r.game.family, r.seat.name, summary.sizes[r.game_id])
                    for r in summary.recent
                ],
            )
        assert len(page[4]) == Seat.objects.filter(player=player).count()


def test_game_reads_take_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    scorekeeper = fresh_user(world.scorekeeper)
    with django_assert_num_queries(2):
        games = user_games(user=scorekeeper, game_ids=[world.games[0].public_id])
        listed = [(g.public_id, g.club and g.club.name, [s.name for s in g.seats.all()]) for g in games]
    assert len(listed) == len(world.own_games) + 1

    game = Game.objects.get(pk=world.table.pk)
    with django_assert_num_queries(2):
        sheet = game_sheet(game=game)
    assert sheet.error is None and len(sheet.rows) == game.hands.count()
    # Changes to the game itself (no hand) are in its history too.
    end = game_end(game=game, ended=not game.ended, user=world.scorekeeper)
    assert end is not None
    change_undo(change=end, user=None)
    edit_link_renew(game=game, user=world.organiser)
    game = Game.objects.get(pk=world.table.pk)
    with django_assert_num_queries(4):
        history = game_history(game=game)
        seen = [
            (c.action, c.user and c.user.username, c.undoes and c.undoes.action, hasattr(c, "undone_by"))
            for c in history.changes
        ]
    assert len(seen) == Change.objects.filter(game=game).count() and history.labels


def test_club_role_takes_one_query_or_none(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    club = fresh_club(world)
    scorekeeper, member, organiser = (
        fresh_user(u) for u in (world.scorekeeper, world.member, world.organiser)
    )
    with django_assert_num_queries(1):
        assert club_role(user=scorekeeper, club=club) == Role.SCOREKEEPER
    with django_assert_num_queries(1):
        assert club_role(user=member, club=club) == Role.SCOREKEEPER  # promoted
    with django_assert_num_queries(1):
        assert club_role(user=organiser, club=club) == Role.ORGANISER
    stranger = UserFactory.create()
    with django_assert_num_queries(1):
        assert club_role(user=stranger, club=club) is None
    with django_assert_num_queries(0):
        assert club_role(user=AnonymousUser(), club=club) is None
    admin = UserFactory.create(is_superuser=True)
    with django_assert_num_queries(0):
        assert club_role(user=admin, club=club) == Role.ORGANISER


# ---------------------------------------------------------------------- what the pages show


def dated(game: Game, day: int) -> Game:
    """Pin the game's date (the order "most recently played" follows)."""
    Game.objects.filter(pk=game.pk).update(played_at=timezone.now() - datetime.timedelta(days=30 - day))
    game.refresh_from_db()
    return game


def test_recent_players_are_the_club_s_most_recently_played_first() -> None:
    club = ClubFactory.create()
    dated(GameFactory.create(players=["Ann", "Bob", "Cid"], club=club), 1)
    dated(GameFactory.create(family="gin", players=["Dan", "Bob"], club=club), 3)
    dated(GameFactory.create(family="gin", players=["Eve", "Ann"], club=club), 2)
    GameFactory.create(players=["Zed", "Yan", "Xia"], club=ClubFactory.create())  # another club
    GameFactory.create(players=["Old", "Ann", "Bob"])  # not a club game
    # Bob and Dan played on day 3, Ann and Eve on day 2, Cid last on day 1; ties by name.
    assert recent_players(club=club, user=AnonymousUser(), game_ids=[]) == ["Bob", "Dan", "Ann", "Eve", "Cid"]
    assert recent_players(club=club, user=AnonymousUser(), game_ids=[], limit=2) == ["Bob", "Dan"]
    # A merged player is not offered; his games count for the one kept.
    keep, drop = (Player.objects.get(club=club, name=n) for n in ("Cid", "Dan"))
    player_merge(keep=keep, drop=drop, keep_version=None, drop_version=None, request_id=None, user=None)
    assert recent_players(club=club, user=AnonymousUser(), game_ids=[]) == ["Bob", "Cid", "Ann", "Eve"]


def test_a_player_s_summary_on_a_small_example() -> None:
    """Ann's club games, worked out by hand:

    1. Žolíky, Ann Bob Cid, ended: Ann -10+5 = -5, Bob 23-10 = 13, Cid 30+6 = 36: Ann 1st, wins.
    2. Gin, Ann Bob, ended: Ann 5, Bob 17: Ann 2nd of 2.
    3. Žolíky, Ann Cid Dan, open: Ann 8, Cid 9, Dan -10: not counted, but recent.
    """
    club = ClubFactory.create()
    first = dated(GameFactory.create(players=["Ann", "Bob", "Cid"], club=club), 1)
    record: list[tuple[Game, dict[str, Any]]] = [
        (first, {"closer": "Ann", "left": {"Bob": 23, "Cid": "KH 5S JK"}}),
        (first, {"closer": "Bob", "left": {"Ann": 5, "Cid": 6}}),
    ]
    second = dated(GameFactory.create(family="gin", players=["Ann", "Bob"], club=club), 2)
    record += [
        (second, {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}),
        (second, {"knocker": "Bob", "gin": False, "deadwood": {"Ann": 20, "Bob": 3}}),
    ]
    third = dated(GameFactory.create(players=["Ann", "Cid", "Dan"], club=club), 3)
    record.append((third, {"closer": "Dan", "left": {"Ann": 8, "Cid": 9}}))
    for game, outcome in record:
        hand_record(game=game, outcome=outcome, request_id=None, user=None)
    game_end(game=first, ended=True)
    game_end(game=second, ended=True)

    summary = player_summary(player=Player.objects.get(club=club, name="Ann"))
    assert (summary.games, summary.wins, summary.average_place) == (2, 1, 1.5)
    # Points per hand per family, each in its own direction (Žolíky penalties, gin points won).
    assert [(f.family, f.games, f.wins, f.average_place, f.points_per_hand) for f in summary.families] == [
        ("gin", 1, 0, 2.0, 5 / 2),
        ("zoliky", 1, 1, 1.0, -5 / 2),
    ]
    assert summary.best is not None and summary.worst is not None
    assert (summary.best.game_id, summary.best.place, summary.best.total) == (first.pk, 1, -5)
    assert (summary.worst.game_id, summary.worst.place, summary.worst.total) == (second.pk, 2, 5)
    opponents = [
        (o.player.name, o.record.games, o.record.ahead, o.record.level, o.record.behind)
        for o in summary.opponents
    ]
    assert opponents == [("Bob", 2, 1, 0, 1), ("Cid", 1, 1, 0, 0)]  # Dan only in an open game
    assert [r.game_id for r in summary.recent] == [third.pk, second.pk, first.pk]
    assert [(r.total, r.finished) for r in summary.recent] == [(8, False), (5, True), (-5, True)]
    assert summary.sizes == {first.pk: 3, second.pk: 2, third.pk: 3}

    bob = player_summary(player=Player.objects.get(club=club, name="Bob"))
    assert (bob.games, bob.wins, bob.average_place) == (2, 1, 1.5)
    assert {f.family: f.points_per_hand for f in bob.families} == {"zoliky": 13 / 2, "gin": 17 / 2}
    assert bob.best is not None and bob.best.game_id == second.pk
    dan = player_summary(player=Player.objects.get(club=club, name="Dan"))
    assert (dan.games, dan.wins, dan.average_place, dan.families, dan.best, dan.worst) == (
        0,
        0,
        None,
        [],
        None,
        None,
    )
    assert [r.game_id for r in dan.recent] == [third.pk] and dan.opponents == []


def test_a_summary_with_one_finished_game_has_a_best_but_no_worst() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"], club=ClubFactory.create())
    hand_record(
        game=game,
        outcome={"knocker": "Ann", "gin": True, "deadwood": {"Ann": 0, "Bob": 9}},
        request_id=None,
        user=None,
    )
    game_end(game=game, ended=True)
    summary = player_summary(player=Player.objects.get(name="Bob"))
    assert summary.best is not None and summary.best.place == 2 and summary.worst is None
    assert [f.points_per_hand for f in summary.families] == [0.0]
