"""A confirmed round's results are locked for its tables' links (the page and the API say so
and nothing changes); the club's organisers still correct them, warned that the standings
change, and the tournament's history names them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import Change, Club, Game, Hand, Membership
from games.services.access import edit_url
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import play_round, tournament
from tournaments.models import Round, Table, Tournament
from tournaments.services.rounds import round_confirm

pytestmark = pytest.mark.django_db
LOCKED = "round is confirmed: its results are locked. Only the tournament"


def _cup(*, confirm: bool = True) -> tuple[Tournament, User, Game, Client]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    cup = tournament(club, organiser, 8)
    played = play_round(cup, 1, organiser, confirm=False)
    table = Table.objects.filter(round=played).select_related("game").order_by("number").first()
    assert table is not None and table.game is not None
    phone = Client()  # the table's phone, opened with its link before the confirmation
    token = edit_url(table.game).split("#", 1)[1]
    assert phone.get(f"/g/{table.game.public_id}/edit/{token}/").status_code == 302
    if confirm:
        round_confirm(played=played, round_version=played.version, user=organiser)
    table.game.refresh_from_db()
    return cup, organiser, table.game, phone


def _edit(game: Game, version: int) -> dict[str, str]:
    """The hand corrected: the last player went out, the others keep 3 each."""
    names = [s.name for s in game.seats.order_by("position")]
    data = {"version": str(version), "winner": names[-1]}
    data.update({f"points_{i}": "3" for i in range(len(names) - 1)})
    return data


def test_before_the_confirmation_the_link_corrects_its_table() -> None:
    _, _, game, phone = _cup(confirm=False)
    hand = Hand.objects.get(game=game)
    response = phone.post(f"/g/{game.public_id}/hands/1/", _edit(game, hand.version))
    assert response.status_code in (200, 302)
    hand.refresh_from_db()
    assert hand.version == 2


def test_a_table_link_cannot_change_a_confirmed_round_page() -> None:
    _, _, game, phone = _cup()
    hand = Hand.objects.get(game=game)
    page = phone.get(f"/g/{game.public_id}/").content.decode()
    assert LOCKED in page
    assert f"/g/{game.public_id}/hands/1/" not in page  # no way to edit offered
    response = phone.post(f"/g/{game.public_id}/hands/1/", _edit(game, hand.version))
    assert response.status_code == 403
    assert LOCKED in response.content.decode()
    end = phone.post(f"/g/{game.public_id}/end/", {"ended": "1"})
    assert end.status_code == 403
    hand.refresh_from_db()
    assert hand.version == 1 and not game.changes.filter(action=Change.Action.ENDED).exists()


def test_a_table_link_cannot_change_a_confirmed_round_api() -> None:
    _, _, game, _ = _cup()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    url = f"/api/v1/games/{game.public_id}/hands/1/"
    tag = api.get(url)["ETag"]
    names = [s.name for s in game.seats.order_by("position")]
    body = {"winner": names[-1], "left": {n: 3 for n in names[:-1]}}
    response = api.put(url, body, format="json", HTTP_IF_MATCH=tag)
    assert response.status_code == 403
    assert "its results are locked" in str(response.json())
    assert Hand.objects.get(game=game).version == 1


def test_a_scorekeeper_of_the_club_cannot_change_a_confirmed_round() -> None:
    cup, _, game, _ = _cup()
    keeper = UserFactory.create()
    add_member(cup.club, keeper, Membership.Role.SCOREKEEPER)
    client = Client()
    client.force_login(keeper)
    hand = Hand.objects.get(game=game)
    assert client.post(f"/g/{game.public_id}/hands/1/", _edit(game, hand.version)).status_code == 403
    assert Hand.objects.get(game=game).version == 1


def test_an_organiser_corrects_a_confirmed_round_warned_and_named() -> None:
    cup, organiser, game, _ = _cup()
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "A correction here changes the tournament" in page
    hand = Hand.objects.get(game=game)
    response = client.post(f"/g/{game.public_id}/hands/1/", _edit(game, hand.version))
    assert response.status_code in (200, 302)
    hand.refresh_from_db()
    assert hand.version == 2
    history = client.get(f"/t/{cup.public_id}/history/").content.decode()
    assert "hand changed after the round was confirmed" in history
    assert organiser.username in history
    # Anyone else reads that an organiser made it (not "a scorekeeper").
    public = Client().get(f"/t/{cup.public_id}/history/").content.decode()
    assert "hand changed after the round was confirmed" in public
    assert "an organiser" in public and "a scorekeeper" not in public
    assert organiser.username not in public


def test_confirming_locks_every_table_of_the_round_only() -> None:
    cup, organiser, _, _ = _cup()
    first = Round.objects.get(tournament=cup, number=1)
    assert all(g.results_locked for g in Game.objects.filter(tournament_table__round=first))
    second = play_round(cup, 2, organiser, confirm=False)
    assert not any(g.results_locked for g in Game.objects.filter(tournament_table__round=second))
