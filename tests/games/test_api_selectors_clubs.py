"""The reads behind the API's clubs, audit, authentication and exchange resources: each
one's query count is pinned, and what it answers is what the API's serializers read."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from games.models import ApiToken, Club, Game, Player
from games.selectors.clubs import club_by_pk
from games.selectors.players import player_summary, roster_players
from games.selectors.tokens import api_token_by_digest, game_by_edit_token
from games.services.games import game_end
from games.services.hands import hand_record
from games.services.players import player_claim
from games.services.tokens import token_create, token_digest, token_used
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    organiser = UserFactory.create(username="olga")
    club = ClubFactory.create(name="Tuesday club", organiser=organiser)
    # Two finished games of gin (Ann knocks and wins the first, Cid the second), one open game.
    for other, knocker, deadwood in (
        ("Bob", "Ann", {"Ann": 7, "Bob": 12}),
        ("Cid", "Cid", {"Ann": 7, "Cid": 3}),
    ):
        game = GameFactory.create(family="gin", players=["Ann", other], club=club, owner=organiser)
        outcome = {"knocker": knocker, "gin": False, "deadwood": deadwood}
        hand_record(game=game, outcome=outcome, request_id=None, user=None)
        game_end(game=game, ended=True)
    GameFactory.create(players=["Ann", "Bob", "Cid"], club=club, owner=organiser)
    return club


def test_club_by_pk_reads_one_club_whatever_its_address(
    club: Club, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    Club.objects.filter(pk=club.pk).update(slug="renamed", version=club.version + 1)
    with django_assert_num_queries(1):
        now = club_by_pk(pk=club.pk)
        assert now is not None and (now.slug, now.version) == ("renamed", club.version + 1)
    with django_assert_num_queries(1):
        assert club_by_pk(pk=club.pk + 1000) is None


def test_the_roster_says_whether_each_player_is_claimed(
    club: Club, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    member = UserFactory.create(username="ann")
    add_member(club, member)
    player_claim(player=Player.objects.get(club=club, name="Ann"), user=member, claim=True)
    with django_assert_num_queries(1):
        found = roster_players(club=club).order_by("key")
        rows = [(p.name, p.games, p.claimed) for p in found]  # type: ignore[attr-defined]
    assert rows == [("Ann", 3, True), ("Bob", 2, False), ("Cid", 2, False)]
    assert all(type(claimed) is bool for *_, claimed in rows)


def test_a_players_summary_gives_its_results_with_their_games_sizes(
    club: Club, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    ann = Player.objects.select_related("club").get(club=club, name="Ann")
    with django_assert_num_queries(2):
        summary = player_summary(player=ann)
        read = [
            (r.result.game.family, r.result.game.played_at, r.result.finished, r.players)
            for r in summary.recent_results
        ]
        best, worst = summary.best_result, summary.worst_result
        assert (summary.club_slug, summary.claimed) == (club.slug, False)
    assert [(family, finished, players) for family, _, finished, players in read] == [
        ("zoliky", False, 3),
        ("gin", True, 2),
        ("gin", True, 2),
    ]
    assert best is not None and best.result == summary.best and best.players == 2
    assert worst is not None and worst.result == summary.worst and worst.players == 2
    assert [(o.player.name, o.record.games) for o in summary.opponents] == [("Bob", 1), ("Cid", 1)]


def test_a_personal_token_is_found_by_its_digest_with_its_user(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    user = UserFactory.create(username="tess")
    _row, token = token_create(user=user, name="scoreboard", scope=ApiToken.Scope.READ)
    with django_assert_num_queries(1):
        row = api_token_by_digest(digest=token_digest(token))
        assert row is not None and row.user.username == "tess"
    with django_assert_num_queries(1):
        assert api_token_by_digest(digest=token_digest("rs_nothing")) is None


def test_a_tokens_use_is_noted_at_most_once_a_minute(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    user: User = UserFactory.create(username="tess")
    row, _token = token_create(user=user, name="scoreboard", scope=ApiToken.Scope.WRITE)
    with django_assert_num_queries(1):
        token_used(token=row)
    row.refresh_from_db()
    assert row.last_used_at is not None
    with django_assert_num_queries(0):
        token_used(token=row)
    row.last_used_at = timezone.now() - datetime.timedelta(minutes=2)
    with django_assert_num_queries(1):
        token_used(token=row)


def test_a_game_is_found_by_its_edit_token_with_only_its_id_and_token(
    club: Club, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    game = Game.objects.filter(club=club).first()
    assert game is not None
    with django_assert_num_queries(1):
        found = game_by_edit_token(token=game.edit_token)
        assert found is not None and (found.pk, found.edit_token) == (game.pk, game.edit_token)
    assert found.get_deferred_fields() >= {"family", "public_id", "club_id"}
    with django_assert_num_queries(1):
        assert game_by_edit_token(token="not-a-token") is None
