"""What an organiser and the tables read during a round: confirming asks first when tables
are still playing, advice is only what can still be done, seats are not read as places,
hands read "1 of 2", notes name only a tie-break that decided, and a table's game leads back
to its tournament instead of offering a rematch or a settlement."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Club
from games.services.hands import hand_record
from games.text.errors import error_message
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, rummikub_hand, tournament
from tournaments.models import Round, Table, Tournament
from tournaments.services.round_seating import round_seat
from tournaments.services.rounds import round_confirm, round_start

pytestmark = pytest.mark.django_db


def _playing(hands_done: int = 1, round_hands: int = 2) -> tuple[Tournament, User, Round, Client]:
    """Round 1 of 8 Rummikub players started, ``hands_done`` hands recorded at table 1 only."""
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8, round_hands=round_hands)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    first = Table.objects.get(round=played, number=1).game
    assert first is not None
    names = [s.name for s in first.seats.order_by("position")]
    for _ in range(hands_done):
        hand_record(game=first, outcome=rummikub_hand(names), request_id=None, user=organiser)
    for table in Table.objects.filter(round=played).exclude(number=1).select_related("game"):
        assert table.game is not None
        others = [s.name for s in table.game.seats.order_by("position")]
        hand_record(game=table.game, outcome=rummikub_hand(others), request_id=None, user=organiser)
    client = Client()
    client.force_login(organiser)
    return cup, organiser, played, client


def test_confirming_with_tables_still_playing_lists_them_and_asks() -> None:
    cup, _, played, client = _playing()
    url = f"/t/{cup.public_id}/r/1/confirm/"
    request_id = str(uuid.uuid4())
    asked = client.post(url, {"version": played.version, "request_id": request_id})
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "tables are still playing" in page
    for number in (1, 2):
        assert f"Table {number} · 1 of 2 hands" in page
    assert 'name="confirm" value="1"' in page and request_id in page
    played.refresh_from_db()
    assert played.status == Round.Status.PLAYING  # nothing ended yet
    done = client.post(url, {"version": played.version, "request_id": request_id, "confirm": "1"})
    assert done.status_code == 302
    played.refresh_from_db()
    assert played.status == Round.Status.CONFIRMED


def test_confirming_when_every_table_finished_does_not_ask() -> None:
    cup, _, played, client = _playing(hands_done=1, round_hands=1)
    body = {"version": played.version, "request_id": uuid.uuid4()}
    done = client.post(f"/t/{cup.public_id}/r/1/confirm/", body)
    assert done.status_code == 302
    played.refresh_from_db()
    assert played.status == Round.Status.CONFIRMED


def test_a_refused_confirm_gives_no_advice_that_is_impossible_once_started() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, 8)
    played = round_seat(tournament=cup, number=1, user=organiser)
    played = round_start(played=played, round_version=played.version, user=organiser)
    with pytest.raises(Exception) as refused:
        round_confirm(played=played, round_version=played.version, user=organiser)
    message = error_message(refused.value)  # type: ignore[arg-type]
    assert "has not recorded a hand yet" in message and "move" not in message


def test_the_round_page_shows_places_not_seat_numbers_and_hands_of_the_round() -> None:
    cup, _, _, client = _playing()
    page = client.get(f"/t/{cup.public_id}/r/1/").content.decode()
    assert '<ol class="results">' not in page  # a numbered list reads as places
    assert "1 of 2 hands" in page
    assert re.search(r'<span class="total">[^<]+</span> <small class="place">place 1</small>', page)


def test_the_seated_round_page_names_the_seats() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, 8)
    round_seat(tournament=cup, number=1, user=organiser)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{cup.public_id}/r/1/").content.decode()
    assert '<small class="seat">seat 1</small>' in page and "place 1" not in page


def test_standings_notes_only_a_tie_break_that_decided() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8)
    play_round(cup, 1, organiser)
    page = Client().get(f"/t/{cup.public_id}/standings/").content.decode()
    # Seat 1 wins at each table: the points differ from row to row or are shared, no note.
    assert "7" in page and "on points" not in page


def test_a_table_game_leads_back_to_its_tournament_without_rematch_or_settlement() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8, family="zoliky")
    played = round_seat(tournament=cup, number=1, user=organiser)
    round_start(played=played, round_version=played.version, user=organiser)
    game = Table.objects.get(round=played, number=1).game
    assert game is not None
    client = Client()
    client.force_login(organiser)
    client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1", "request_id": uuid.uuid4()})
    game.refresh_from_db()
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Table 1, round 1" in page
    assert f'href="/t/{cup.public_id}/"' in page
    assert "Rematch" not in page and "Settle the evening" not in page and "/settlement/" not in page
    again = client.post(f"/g/{game.public_id}/rematch/", {"request_id": uuid.uuid4()})
    assert again.status_code in (403, 404)


def test_the_settings_page_spells_out_table_points_per_table_size() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, 8, family="zoliky")
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{cup.public_id}/settings/").content.decode()
    # Radios (each choice wraps on a phone), not a select that cuts them.
    assert 'type="radio" name="points"' in page and '<select name="points"' not in page
    assert "<legend>Table points</legend>" in page
    assert "4 players: 7 · 5 · 3 · 1" in page and "3 players: 7 · 4 · 1" in page
    assert "6 players: 7 · 5.8 · 4.6 · 3.4 · 2.2 · 1" in page and "2 players: 7 · 1" in page
