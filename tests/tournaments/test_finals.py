"""A tournament's final: seated from the standings (or a season's qualifiers), played like any
round, and the places after it as the settings say."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from games.models import Club, Game
from games.services.errors import ServiceError
from games.services.hands import hand_record
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Round, Season, SeasonStanding, Table, Tournament, TournamentChange
from tournaments.selectors.view import tournament_view
from tournaments.services.final_stages import final_seat, final_undo
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start

pytestmark = pytest.mark.django_db

Outcome = Callable[[Sequence[str]], dict[str, object]]


def rummikub_order(names: Sequence[str]) -> dict[str, object]:
    """The players finish in seat order: the first goes out, the others keep 10, 20, 30."""
    return {"winner": names[0], "left": {name: 10 * i for i, name in enumerate(names[1:], 1)}}


def gin_first_wins(names: Sequence[str]) -> dict[str, object]:
    return {"knocker": names[0], "deadwood": {names[0]: 0, names[1]: 30}}


def play(played: Round, user: User, outcome: Outcome, winners: Sequence[str] = ()) -> Round:
    """Start (if seated), one hand at every table, confirm. ``winners``: who wins at a table
    he sits at (else seat 1 wins)."""
    if played.status == Round.Status.SEATED:
        played = round_start(played=played, round_version=played.version, user=user)
    for table in Table.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        names = [seat.name for seat in table.game.seats.all()]
        first = next((w for w in winners if w in names), names[0])
        order = [first, *(n for n in names if n != first)]
        hand_record(game=table.game, outcome=outcome(order), request_id=None, user=user)
    return round_confirm(played=played, round_version=played.version, user=user)


def places(t: Tournament) -> list[tuple[str, int]]:
    return [(row.name, row.standing.rank) for row in tournament_view(tournament=t).standings]


def organiser_club() -> tuple[User, Club]:
    user = UserFactory.create()
    return user, ClubFactory.create(organiser=user)


def test_a_deciding_final_table_of_the_top_four_places_them_above_the_rest() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=2, final="table", final_counts="decides")
    for number in (1, 2):
        play(round_seat(tournament=cup, number=number, user=user), user, rummikub_order)
    before = places(cup)
    top = [name for name, _ in before[:4]]
    view = tournament_view(tournament=cup)
    assert view.final_next == 1 and not view.finished
    final = final_seat(tournament=cup, user=user, request_id=uuid.uuid4())
    assert (final.number, final.final_stage) == (3, 1)
    tables = tournament_view(tournament=cup).round(3)
    assert tables is not None
    assert [seat.name for seat in tables.tables[0].seats] == top  # seeds in seat order
    # The fourth seed wins the final: he is first, the others follow in the final's order.
    play(final, user, rummikub_order, winners=[top[3]])
    after = places(cup)
    assert [name for name, _ in after[:4]] == [top[3], top[0], top[1], top[2]]
    assert [place for _, place in after[:4]] == [1, 2, 3, 4]
    assert [name for name, _ in after[4:]] == [name for name, _ in before[4:]]
    # The final's points were not added: the rest keep their ranks, below the final's four (one
    # who shared a rank with a seed before now comes after all four).
    assert after[4:] == [(name, max(rank, 5)) for name, rank in before[4:]]
    assert tournament_view(tournament=cup).finished
    # Its table is locked like every confirmed round's.
    assert Game.objects.get(tournament_table__round=final).results_locked
    with pytest.raises(ServiceError) as error:
        final_seat(tournament=cup, user=user)
    assert error.value.code == "final_done"


def test_a_final_that_adds_its_points_leaves_the_places_to_the_standings() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=1, final="table", final_counts="adds")
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    top = [name for name, _ in places(cup)[:4]]
    before = {row.name: row.standing.points for row in tournament_view(tournament=cup).standings}
    final = final_seat(tournament=cup, user=user)
    play(final, user, rummikub_order, winners=[top[3]])
    view = tournament_view(tournament=cup)
    gained = {row.name: row.standing.points - before[row.name] for row in view.standings}
    # Table points at a table of four: 7, 5, 3, 1, added to the standings; nobody else moves.
    assert [gained[name] for name in (top[3], top[0], top[1], top[2])] == [7, 5, 3, 1]
    assert all(gained[row.name] == 0 for row in view.standings if row.name not in top)
    ranks = [row.standing.rank for row in view.standings]
    assert ranks == sorted(ranks)  # the places are the standings'


def test_a_gin_knockout_of_eight_is_seeded_one_v_eight_and_ends_with_its_champion() -> None:
    user, club = organiser_club()
    cup = tournament(
        club, user, players=10, family="gin", rounds=2, final="knockout", final_size=8, seating="swiss"
    )
    for number in (1, 2):
        play(round_seat(tournament=cup, number=number, user=user), user, gin_first_wins)
    seeds = [name for name, _ in places(cup)[:8]]
    quarter = final_seat(tournament=cup, user=user)
    view = tournament_view(tournament=cup).round(quarter.number)
    assert view is not None
    pairs = [[s.name for s in t.seats] for t in view.tables]
    assert pairs == [[seeds[0], seeds[7]], [seeds[3], seeds[4]], [seeds[1], seeds[6]], [seeds[2], seeds[5]]]
    # Seed 8 beats seed 1; favourites win everything else.
    play(quarter, user, gin_first_wins, winners=[seeds[7]])
    semi = final_seat(tournament=cup, user=user)
    view = tournament_view(tournament=cup).round(semi.number)
    assert view is not None
    assert [[s.name for s in t.seats] for t in view.tables] == [[seeds[7], seeds[3]], [seeds[1], seeds[2]]]
    play(semi, user, gin_first_wins, winners=[seeds[7], seeds[1]])
    last = final_seat(tournament=cup, user=user)
    assert tournament_view(tournament=cup).finished is False
    play(last, user, gin_first_wins, winners=[seeds[7]])
    after = places(cup)
    assert after[0] == (seeds[7], 1) and after[1] == (seeds[1], 2)
    assert {name for name, place in after if place == 3} == {seeds[3], seeds[2]}
    assert {name for name, place in after if place == 5} == {seeds[0], seeds[4], seeds[6], seeds[5]}
    assert tournament_view(tournament=cup).finished


def test_the_final_waits_for_the_rounds_and_its_seating_can_be_taken_back() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=2, final="table")
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    with pytest.raises(ServiceError) as error:
        final_seat(tournament=cup, user=user)
    assert error.value.code == "round_not_confirmed"
    play(round_seat(tournament=cup, number=2, user=user), user, rummikub_order)
    request = uuid.uuid4()
    final = final_seat(tournament=cup, user=user, request_id=request)
    # A resend changes nothing twice.
    assert final_seat(tournament=cup, user=user, request_id=request).pk == final.pk
    assert Round.objects.filter(tournament=cup, final_stage__gt=0).count() == 1
    with pytest.raises(ServiceError) as error:
        final_undo(played=final, round_version=final.version + 1, user=user)
    assert error.value.code == "stale_round"
    final_undo(played=final, round_version=final.version, user=user)
    assert not Round.objects.filter(tournament=cup, final_stage__gt=0).exists()
    actions = list(TournamentChange.objects.filter(tournament=cup).values_list("action", flat=True)[:2])
    assert actions == ["final_undone", "final"]
    assert tournament_view(tournament=cup).final_next == 1


def test_no_final_and_a_knockout_outside_two_player_games_are_refused() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=1)
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    with pytest.raises(ServiceError) as error:
        final_seat(tournament=cup, user=user)
    assert error.value.code == "final_none"
    with pytest.raises(ServiceError) as error:
        tournament(club, user, players=8, final="knockout")
    assert error.value.code == "final_knockout_family"
    with pytest.raises(ServiceError) as error:
        tournament(club, user, players=8, family="gin", final="knockout", final_size=6)
    assert error.value.code == "final_knockout_size"


def test_a_final_seeded_from_a_seasons_qualifiers() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=1, final="table", final_size=3)
    season = Season.objects.create(
        club=club, name="Spring", starts=cup.date, ends=cup.date, families=["rummikub"], qualify=3
    )
    cup.final_season = season
    cup.save()
    entries = list(cup.entries.select_related("player").order_by("player__key"))
    # The season's top three are the tournament's last three alphabetically.
    for rank, entry in enumerate(reversed(entries), start=1):
        SeasonStanding.objects.create(season=season, player=entry.player, rank=rank, points=10 - rank)
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    final = final_seat(tournament=cup, user=user)
    view = tournament_view(tournament=cup).round(final.number)
    assert view is not None
    assert [s.name for s in view.tables[0].seats] == [e.player.name for e in reversed(entries[-3:])]


def test_the_final_through_the_api() -> None:
    from rest_framework.test import APIClient

    user, club = organiser_club()
    client = APIClient()
    client.force_authenticate(user)
    body = {"name": "Cup", "date": "2026-12-05", "family": "rummikub", "rounds": 1, "round_hands": 1}
    made = client.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",  # type: ignore[attr-defined]
        {**body, "final": "table", "final_size": 3, "final_counts": "decides"},
        format="json",
    )
    assert made.status_code == 201, made.content
    cup = Tournament.objects.get()
    assert (cup.final, cup.final_size, cup.final_counts) == ("table", 3, "decides")
    refused = client.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",  # type: ignore[attr-defined]
        {**body, "final": "knockout"},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "final_knockout_family"
    from tournaments.services.entries import entries_add

    entries_add(tournament=cup, names=["A", "B", "C", "D", "E", "F", "G", "H"], checked_in=True, user=user)
    early = client.post(f"/api/v1/tournaments/{cup.public_id}/final/")
    assert early.status_code == 400 and early.json()["code"] == "round_not_confirmed"
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    key = str(uuid.uuid4())
    seated = client.post(f"/api/v1/tournaments/{cup.public_id}/final/", HTTP_IDEMPOTENCY_KEY=key)
    assert seated.status_code == 201, seated.content
    assert (seated.json()["number"], seated.json()["final_stage"]) == (2, 1)
    assert len(seated.json()["tables"]) == 1
    again = client.post(f"/api/v1/tournaments/{cup.public_id}/final/", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and again.json()["number"] == 2
    undone = client.post(
        f"/api/v1/tournaments/{cup.public_id}/rounds/2/final-undo/", HTTP_IF_MATCH=seated["ETag"]
    )
    assert undone.status_code == 204, undone.content
    assert not Round.objects.filter(tournament=cup, number=2).exists()


def _pages(cup: Tournament, user: User, number: int) -> dict[str, str]:
    """The pages that name a round, as the organiser, a spectator and the printer see them."""
    organiser = Client()
    organiser.force_login(user)
    entry = Table.objects.filter(round__tournament=cup, round__number=number).first()
    assert entry is not None
    seated = entry.seats.first()
    assert seated is not None
    texts = {
        "round": organiser.get(f"/t/{cup.public_id}/r/{number}/"),
        "screen": Client().get(f"/t/{cup.public_id}/screen/"),
        "pairings": organiser.get(f"/t/{cup.public_id}/r/{number}/print/"),
        "slips": organiser.get(f"/t/{cup.public_id}/r/{number}/slips/"),
        "player": Client().get(f"/t/{cup.public_id}/p/{seated.entry_id}/"),
    }
    return {name: " ".join(strip_tags(page.content.decode()).split()) for name, page in texts.items()}


def test_the_pages_name_the_final_s_stages_as_players_call_them() -> None:
    user, club = organiser_club()
    cup = tournament(
        club, user, players=10, family="gin", rounds=2, final="knockout", final_size=8, seating="swiss"
    )
    for number in (1, 2):
        play(round_seat(tournament=cup, number=number, user=user), user, gin_first_wins)
    for stage in ("Quarter-finals", "Semi-finals", "Final"):
        played = final_seat(tournament=cup, user=user)
        pages = _pages(cup, user, played.number)
        assert all(stage in text for text in pages.values()), {k: stage in v for k, v in pages.items()}
        assert f"Round {played.number}" not in pages["round"] and "Round 3 of 2" not in pages["screen"]
        assert f"Pairings: {stage}" in pages["pairings"] and f"{stage}, table 1" in pages["slips"]
        play(played, user, gin_first_wins)


def test_a_final_table_is_called_the_final() -> None:
    user, club = organiser_club()
    cup = tournament(club, user, players=8, rounds=1, final="table")
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    played = final_seat(tournament=cup, user=user)
    pages = _pages(cup, user, played.number)
    assert "Final" in pages["screen"] and "Round 2 of 1" not in pages["screen"]
    assert "Round 1" in _pages(cup, user, 1)["round"]
