"""The generate_club command: a big club's history written in bulk, exactly as the services
would have derived it."""

from __future__ import annotations

import datetime
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from engine.rules import OPTIONS, rule_set
from games.models import Club, Game, Hand, Membership, Player, Result, Score
from games.services.results import rebuild

pytestmark = pytest.mark.django_db


def generate(name: str, **options: Any) -> Club:
    out = StringIO()
    call_command("generate_club", name=name, stdout=out, **options)
    assert "hands in" in out.getvalue()
    return Club.objects.get(name=name)


def derived(game: Game) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    scores = sorted(Score.objects.filter(hand__game=game).values_list("hand_id", "seat_id", "points"))
    results = sorted(
        Result.objects.filter(game=game).values_list(
            "seat_id", "player_id", "total", "place", "winner", "finished", "eliminated_in", "hands"
        )
    )
    return scores, results


def outcomes(club: Club) -> list[tuple[Any, ...]]:
    return [
        (hand.game.family, hand.number, hand.outcome)
        for hand in Hand.objects.filter(game__club=club).select_related("game").order_by("game_id", "number")
    ]


def test_a_small_club_has_what_was_asked_and_every_game_finished() -> None:
    club = generate("Test club", players=20, games=30, hands=300, seed=3)
    assert Player.objects.filter(club=club).count() == 20
    assert len({p.key for p in Player.objects.filter(club=club)}) == 20
    games = list(Game.objects.filter(club=club).order_by("pk"))
    assert len(games) == 30
    assert Hand.objects.filter(game__club=club).count() == 300
    assert Score.objects.filter(hand__game__club=club).count() == sum(
        g.seats.count() * g.hands.count() for g in games
    )
    assert {g.family for g in games} == {"rummikub"}
    assert all(3 <= g.seats.count() <= 4 for g in games)
    results = Result.objects.filter(game__club=club)
    assert results.count() == sum(g.seats.count() for g in games)
    assert all(r.finished for r in results)
    assert all(g.next_hand_number == g.hands.count() + 1 for g in games)
    # The organiser runs the club; he cannot log in until he is given a password.
    organiser = Membership.objects.get(club=club).user
    assert organiser.username == "organiser" and not organiser.has_usable_password()
    # Two years of club evenings, in order.
    starts = [g.played_at for g in games]
    assert all(g.played_at == g.created_at for g in games)
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    assert starts[-1] - starts[0] > datetime.timedelta(days=300)
    assert all(g.updated_at >= g.created_at for g in games)


def test_the_rows_are_what_the_services_derive() -> None:
    club = generate("Test club", players=20, games=30, hands=300, seed=3)
    for game in Game.objects.filter(club=club).order_by("pk")[:5]:
        before = derived(game)
        assert rebuild(game) is not None
        assert derived(game) == before


@pytest.mark.parametrize("family", ["zoliky", "gin", "carousel", "mixed"])
def test_every_family_scores_and_finishes(family: str) -> None:
    club = generate(f"Club {family}", players=12, games=16, hands=160, seed=5, family=family)
    games = list(Game.objects.filter(club=club))
    assert len(games) == 16
    # A game its family's rule ended (last player standing, the target) is not declared ended.
    assert any(not g.ended for g in games) or family == "mixed"
    for game in games:
        # The rule set's full defaults, as game_start stores them.
        assert game.options == dict(rule_set(game.family, game.options).options)
        assert set(game.options) == set(OPTIONS[game.family])  # type: ignore[index]
        before = derived(game)
        assert all(row[5] for row in before[1])  # finished
        assert rebuild(game) is not None
        assert derived(game) == before
    if family == "gin":
        assert all(g.seats.count() == 2 for g in games)
    if family == "mixed":
        assert {g.family for g in games} == {"zoliky", "gin", "carousel", "rummikub"}


def test_the_same_seed_gives_the_same_club() -> None:
    first = generate("First", players=20, games=30, hands=300, seed=3)
    second = generate("Second", players=20, games=30, hands=300, seed=3)
    other = generate("Other", players=20, games=30, hands=300, seed=4)
    assert outcomes(first) == outcomes(second)
    assert outcomes(first) != outcomes(other)
    names = [
        list(g.seats.values_list("name", flat=True)) for g in Game.objects.filter(club=first).order_by("pk")
    ]
    again = [
        list(g.seats.values_list("name", flat=True)) for g in Game.objects.filter(club=second).order_by("pk")
    ]
    assert names == again
    # One organiser for all three (found, not created again).
    assert get_user_model().objects.filter(username="organiser").count() == 1


def test_small_preset_and_bad_numbers() -> None:
    club = generate("Small", small=True)
    assert Player.objects.filter(club=club).count() == 50
    assert Game.objects.filter(club=club).count() == 200
    assert Hand.objects.filter(game__club=club).count() == 2000
    with pytest.raises(CommandError):
        call_command("generate_club", name="Bad", games=10, hands=5, stdout=StringIO())
    assert not Club.objects.filter(name="Bad").exists()
    with pytest.raises(CommandError):
        call_command("generate_club", name="  ", small=True, stdout=StringIO())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner statistics")
def test_the_generated_club_leaves_the_tables_analysed() -> None:
    generate("Analysed", players=8, games=12, hands=60)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [Score._meta.db_table])
        (rows,) = cursor.fetchone()
    assert rows > 0  # never analysed, PostgreSQL would say -1 (it plans for an empty table)
