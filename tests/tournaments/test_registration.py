"""Registering players on the organiser's page: club players ticked, new ones typed, and the
"did you mean" question for a new name that reads like a club player's."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Player
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_a_name_like_a_club_players_is_asked_about_once() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    t = tournament(club, organiser, ["Tomáš", "Jana"])
    Entry.objects.filter(tournament=t).delete()
    client = Client()
    client.force_login(organiser)
    url = f"/t/{t.public_id}/players/"
    jana = Player.objects.get(club=club, name="Jana")
    page = client.post(url, {"players": [str(jana.pk)], "names": "Tomas\nNew Person", "checked_in": "on"})
    assert page.status_code == 200
    assert "Did you mean Tomáš?" in page.content.decode()
    # Asked, not registered; what was ticked stays ticked.
    assert page.context["form"]["players"].value() == [str(jana.pk)]
    assert re.search(
        rf'<input type="checkbox" name="players" value="{jana.pk}"[^>]* checked', page.content.decode()
    )
    assert not Entry.objects.filter(tournament=t).exists()
    # Ticking Tomáš instead registers the club's Tomáš (and the new person).
    tomas = Player.objects.get(club=club, name="Tomáš")
    confirmed = page.context["form"].data["confirmed"]
    answer = client.post(
        url, {"players": [str(tomas.pk)], "names": "New Person", "checked_in": "on", "confirmed": confirmed}
    )
    assert answer.status_code == 302
    assert sorted(Entry.objects.filter(tournament=t).values_list("player__name", flat=True)) == [
        "New Person",
        "Tomáš",
    ]  # Jana was not re-ticked in this second form, so she is not registered
    # Saving again with the name unchanged adds it as a new player.
    again = client.post(url, {"names": "Tomas", "checked_in": "on"})
    assert "Did you mean" in again.content.decode()
    client.post(
        url, {"names": "Tomas", "checked_in": "on", "confirmed": again.context["form"].data["confirmed"]}
    )
    assert Player.objects.filter(club=club, name="Tomas").exists()
    assert Entry.objects.filter(tournament=t, player__name="Tomas", checked_in=True).exists()


def test_answering_did_you_mean_for_two_names_registers_them(client: Client) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    t = tournament(club, organiser, ["Tomáš", "Katarína"])
    Entry.objects.filter(tournament=t).delete()
    client.force_login(organiser)
    url = f"/t/{t.public_id}/players/"
    asked = client.post(url, {"names": "tomas\nKatarina", "checked_in": "on"})
    page = asked.content.decode()
    assert "Did you mean Tomáš?" in page and "Did you mean Katarína?" in page
    confirmed = asked.context["form"].data["confirmed"]
    assert "\n" in confirmed  # one key per line
    # The question opens in view: the form is sent to its own section of the page.
    assert f'action="{url}#add-title"' in page
    # The browser sends the hidden field's line breaks back as CR LF, and the names as typed.
    done = client.post(
        url,
        {"names": "tomas\r\nKatarina", "checked_in": "on", "confirmed": confirmed.replace("\n", "\r\n")},
    )
    assert done.status_code == 302 and done["Location"] == f"{url}#"  # back to the top, the list
    assert sorted(Entry.objects.filter(tournament=t).values_list("player__name", flat=True)) == [
        "Katarina",
        "tomas",
    ]
