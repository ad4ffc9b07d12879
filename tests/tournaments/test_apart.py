"""Who must not meet: the organiser keeps pairs apart on a page (recorded, in the history, stale
and resent forms handled), every seating honours them, round 1 can be seeded by the club's
rating list, and the round page reports repeats, table sizes again and pairs that met."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django.utils.html import strip_tags

from games.models import Club
from games.services.errors import ServiceError
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, tournament
from tournaments.models import CurrentRating, Entry, Round, Tournament, TournamentChange
from tournaments.services.round_seating import apart_set, rating_order, round_seat
from tournaments.services.tournament_settings import changed_settings, tournament_update
from tournaments.tournament_data import tournament_data

pytestmark = pytest.mark.django_db


def _setup(players: int = 8, **changes: object) -> tuple[Tournament, User, dict[str, Entry]]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    cup = tournament(club, organiser, players, "rummikub", **changes)
    entries = {e.player.name: e for e in Entry.objects.filter(tournament=cup).select_related("player")}
    return cup, organiser, entries


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(page: bytes) -> str:
    return " ".join(strip_tags(page.decode()).split())


def _tables(cup: Tournament, number: int) -> list[set[str]]:
    data = tournament_data(cup)
    return [{data.entries[e].player.name for e in t.entries} for t in data.tables_of(number)]


def test_a_pair_kept_apart_never_shares_a_table_in_any_round() -> None:
    for seating in ("balanced", "swiss", "random"):
        cup, organiser, entries = _setup(8, seating=str(seating))
        apart_set(
            tournament=cup,
            first=entries["Anna"],
            second=entries["Bára"],
            keep=True,
            version=1,
            user=organiser,
        )
        apart_set(
            tournament=cup,
            first=entries["Cyril"],
            second=entries["David"],
            keep=True,
            version=2,
            user=organiser,
        )
        for number in (1, 2, 3):
            play_round(cup, number, organiser)
            for table in _tables(cup, number):
                assert not {"Anna", "Bára"} <= table and not {"Cyril", "David"} <= table, (seating, number)


def test_keep_apart_is_recorded_versioned_and_resent_once() -> None:
    cup, organiser, entries = _setup()
    key = uuid.uuid4()
    for _ in range(2):
        apart_set(
            tournament=cup,
            first=entries["Eva"],
            second=entries["Anna"],
            keep=True,
            version=1,
            user=organiser,
            request_id=key,
        )
    cup.refresh_from_db()
    assert cup.apart == [sorted([entries["Anna"].pk, entries["Eva"].pk])]
    assert cup.version == 2
    change = TournamentChange.objects.get(tournament=cup, action=TournamentChange.Action.APART)
    assert change.data["players"] == ["Anna", "Eva"] and change.request_id == key
    with pytest.raises(ServiceError) as stale:
        apart_set(
            tournament=cup,
            first=entries["Eva"],
            second=entries["Anna"],
            keep=False,
            version=1,
            user=organiser,
        )
    assert stale.value.code == "stale_tournament"
    with pytest.raises(ServiceError) as same:
        apart_set(
            tournament=cup, first=entries["Eva"], second=entries["Eva"], keep=True, version=2, user=organiser
        )
    assert same.value.code == "apart_same"
    apart_set(
        tournament=cup, first=entries["Anna"], second=entries["Eva"], keep=False, version=2, user=organiser
    )
    cup.refresh_from_db()
    assert cup.apart == [] and cup.version == 3
    assert (
        TournamentChange.objects.filter(tournament=cup, action=TournamentChange.Action.APART_ENDED).count()
        == 1
    )


def test_the_page_adds_and_removes_a_pair_and_the_history_shows_it_to_organisers_only() -> None:
    cup, organiser, entries = _setup()
    client = _client(organiser)
    url = f"/t/{cup.public_id}/apart/"
    page = _text(client.get(url).content)
    assert "Who must not meet" in page and "No pairs yet" in page
    sent = {"first": entries["Hana"].pk, "second": entries["Cyril"].pk, "action": "keep", "version": 1}
    answer = client.post(url, {**sent, "request_id": uuid.uuid4()})
    assert answer.status_code == 302
    page = _text(client.get(url).content)
    assert "Cyril and Hana" in page
    # The same form again with the old version: refused with a message, nothing changed twice.
    again = client.post(url, {**sent, "request_id": uuid.uuid4()}, follow=True)
    assert "Someone changed the tournament" in _text(again.content)
    # Two different players are needed.
    same = client.post(url, {**sent, "second": entries["Hana"].pk, "version": 2, "request_id": uuid.uuid4()})
    assert same.status_code == 200 and "Choose two different players." in _text(same.content)
    history = _text(client.get(f"/t/{cup.public_id}/history/").content)
    assert "Kept two players apart" in history and "Cyril, Hana" in history
    outsider = _text(Client().get(f"/t/{cup.public_id}/history/").content)
    assert "Kept two players apart" in outsider and "Cyril, Hana" not in outsider
    assert Client().get(url).status_code in (302, 403)
    removed = client.post(
        url, {**sent, "action": "end", "version": 2, "request_id": uuid.uuid4()}, follow=True
    )
    assert "They may sit together again." in _text(removed.content)
    cup.refresh_from_db()
    assert cup.apart == []


def test_round_page_reports_a_pair_no_seating_parts() -> None:
    # Four players at one table of four: nothing parts Anna and Bára.
    cup, organiser, entries = _setup(4)
    apart_set(
        tournament=cup, first=entries["Anna"], second=entries["Bára"], keep=True, version=1, user=organiser
    )
    client = _client(organiser)
    answer = client.post(
        f"/t/{cup.public_id}/r/1/seat/", {"version": 0, "request_id": uuid.uuid4()}, follow=True
    )
    page = _text(answer.content)
    assert "No seating keeps one pair that must not meet apart" in page
    assert "Seating report" in page and "Anna and Bára" in page
    public = _text(Client().get(f"/t/{cup.public_id}/r/1/").content)
    assert "Seating report" not in public


def test_round_page_reports_repeats_and_table_sizes_again() -> None:
    # 10 players at 4, 3, 3 over two rounds: some meet again or sit at a table of 3 again.
    cup, organiser, _entries = _setup(10, rounds=3)
    play_round(cup, 1, organiser)
    round_seat(tournament=cup, number=2, user=organiser)
    page = _text(_client(organiser).get(f"/t/{cup.public_id}/r/2/").content)
    assert "Seating report" in page
    assert "At a smaller table again:" in page or "At a bigger table again:" in page
    started = Round.objects.get(tournament=cup, number=1)
    assert started.status == Round.Status.CONFIRMED
    old = _text(_client(organiser).get(f"/t/{cup.public_id}/r/1/").content)
    assert "Seating report" not in old


def _rate(club: Club, name_mu: dict[str, float], entries: dict[str, Entry]) -> None:
    now = timezone.now()
    for name, mu in name_mu.items():
        CurrentRating.objects.create(
            club=club,
            family="rummikub",
            player=entries[name].player,
            mu=mu,
            sigma=2.0,
            games=20,
            last_played=now,
            evening=datetime.date(2026, 11, 1),
        )


def test_round_one_seeded_by_rating_spreads_the_seeds_and_later_rounds_follow_the_seating() -> None:
    cup, organiser, entries = _setup(8, seed_by_rating=True, seating="swiss")
    _rate(cup.club, {"Hana": 30, "Gita": 29, "Filip": 28, "Eva": 27, "David": 26}, entries)
    order = rating_order(cup, list(tournament_data(cup).entries.values()))
    names = [tournament_data(cup).entries[e].player.name for e in order]
    # Rated best first, then the unrated by name.
    assert names == ["Hana", "Gita", "Filip", "Eva", "David", "Anna", "Bára", "Cyril"]
    play_round(cup, 1, organiser)
    tables = _tables(cup, 1)
    # Two tables of four: the serpentine 1 2 2 1 1 2 2 1.
    assert {"Hana", "Eva", "David", "Cyril"} in tables and {"Gita", "Filip", "Anna", "Bára"} in tables
    play_round(cup, 2, organiser)
    change = TournamentChange.objects.filter(tournament=cup, action="seated").order_by("created_at").first()
    assert change is not None and change.data["round"] == 1


def test_seed_by_rating_is_a_setting_in_the_form_round_trip() -> None:
    cup, organiser, _entries = _setup()
    assert not cup.seed_by_rating
    tournament_update(
        tournament=cup, settings=changed_settings(cup, {"seed_by_rating": True}), version=1, user=organiser
    )
    cup.refresh_from_db()
    assert cup.seed_by_rating
    page = _client(organiser).get(f"/t/{cup.public_id}/settings/").content.decode()
    assert "Round 1 seeded by the club&#x27;s rating list" in page
    assert re.search(r'<input type="checkbox" name="seed_by_rating"[^>]*checked', page)
