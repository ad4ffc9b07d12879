"""Release gates: a round seated while the organisers publish each seating themselves shows
nothing of its tables to anyone else (round page, "where do I sit", the projector, the printed
pairings, a player's page, the home's "Tonight") until published; the standings frozen for the
last rounds are the standings as they stood before them (or none) until revealed. Publishing
and revealing are recorded changes with their undo, in the history."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Club, Membership, Player
from games.services.errors import ServiceError
from games.services.players import player_claim
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import play_round, settings, tournament
from tournaments.exchange.exporting import export_club
from tournaments.exchange.importing import import_club
from tournaments.models import Round, TableSeat, Tournament, TournamentChange
from tournaments.selectors.home import home_of
from tournaments.selectors.player import player_rounds
from tournaments.selectors.view import tournament_view
from tournaments.services.round_seating import round_move, round_seat
from tournaments.services.rounds import round_publish, round_start, standings_reveal
from tournaments.services.tournament_settings import changed_settings, checked_settings, tournament_update
from tournaments.tournament_data import compute_standings, data_upto, frozen_from, tournament_data

pytestmark = pytest.mark.django_db

Action = TournamentChange.Action


def _club() -> tuple[Club, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = Club.Visibility.PUBLIC
    club.save()
    return club, organiser


def _organiser_client(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def _names_at_tables(cup: Tournament, number: int) -> list[str]:
    seats = TableSeat.objects.filter(table__round__tournament=cup, table__round__number=number)
    return [s.entry.player.name for s in seats.select_related("entry__player")]


def _shows(page: str, names: list[str]) -> list[str]:
    """The names the page shows (as words: "Eva" is not in "allowEval")."""
    return [name for name in names if re.search(rf"\b{re.escape(name)}\b", page)]


def _hidden_cup() -> tuple[Tournament, User, Round]:
    club, organiser = _club()
    cup = tournament(club, organiser, 8, hide_seating=True, date=timezone.localdate())
    played = round_seat(tournament=cup, number=1, user=organiser)
    return cup, organiser, played


def test_a_hidden_round_shows_its_tables_to_nobody_but_the_organisers_until_published() -> None:
    cup, organiser, played = _hidden_cup()
    assert not played.published
    base = f"/t/{cup.public_id}"
    anyone = Client()
    names = _names_at_tables(cup, 1)
    assert len(names) == 8
    round_page = anyone.get(f"{base}/r/1/").content.decode()
    assert "not published yet" in round_page
    assert _shows(round_page, names) == []
    assert 'class="card table-card"' not in round_page
    printed = anyone.get(f"{base}/r/1/print/").content.decode()
    assert _shows(printed, names) == [] and 'class="pairing-table"' not in printed
    screen = anyone.get(f"{base}/screen/").content.decode()
    assert 'class="screen-seats"' not in screen and "not published yet" in screen
    found = anyone.get(f"{base}/seat/", {"q": names[0]}).content.decode()
    assert "Table 1" not in found and "Table 2" not in found and "not published yet" in found
    entry = TableSeat.objects.filter(table__round=played).first()
    assert entry is not None
    mine = anyone.get(f"{base}/p/{entry.entry_id}/").content.decode()
    assert "Not published yet" in mine and "Table 1" not in mine and "Table 2" not in mine
    rows = player_rounds(tournament=cup, entry_id=entry.entry_id)
    assert rows is not None and rows.rounds[0].table is None and not rows.rounds[0].published

    # The organisers see the tables, say they are not public, and can move a player.
    org = _organiser_client(organiser)
    theirs = org.get(f"{base}/r/1/").content.decode()
    assert _shows(theirs, names) == names
    assert "Not published: only the organisers see these tables" in theirs
    assert "Publish the seating" in theirs
    view = tournament_view(tournament=cup, organiser=True)
    assert view.round(1) is not None and view.round(1).table_count == 2  # type: ignore[union-attr]
    moved = round_move(
        played=played, entry=entry.entry, to_table=0, round_version=played.version, user=organiser
    )
    assert not moved.published
    # The history names no table of it either (the round's seating and the move).
    history = anyone.get(f"{base}/history/").content.decode()
    assert "Table 1: " not in history and " from table " not in history
    assert "the seating is not published yet" in history
    theirs = org.get(f"{base}/history/").content.decode()
    assert "Table 1: " in theirs and " from table " in theirs

    response = org.post(f"{base}/r/1/publish/", {"request_id": str(uuid.uuid4()), "version": moved.version})
    assert response.status_code == 302
    played.refresh_from_db()
    assert played.published
    round_page = anyone.get(f"{base}/r/1/").content.decode()
    assert _shows(round_page, names) == names and "not published" not in round_page
    assert 'class="screen-seats"' in anyone.get(f"{base}/screen/").content.decode()
    seated = _names_at_tables(cup, 1)[0]
    assert "Table " in anyone.get(f"{base}/seat/", {"q": seated}).content.decode()
    history = anyone.get(f"{base}/history/").content.decode()
    assert "Published a round&#x27;s seating" in history and "Table 1: " in history


def test_the_home_shows_no_seat_before_publishing() -> None:
    cup, organiser, played = _hidden_cup()
    me = UserFactory.create()
    add_member(cup.club, me, Membership.Role.MEMBER)
    anna = Player.objects.get(club=cup.club, name="Anna")
    player_claim(player=anna, user=me, claim=True)
    tonight = home_of(user=me).tournaments[0]
    assert (tonight.table, tonight.seat, tonight.bye, tonight.published) == (None, None, False, False)
    client = Client()
    client.force_login(me)
    page = client.get("/").content.decode()
    assert "is not published yet" in page and "seat 1" not in page.lower().replace("seat 1 deals", "")
    round_publish(played=played, published=True, round_version=played.version, user=organiser)
    tonight = home_of(user=me).tournaments[0]
    assert tonight.published and tonight.table is not None and tonight.seat is not None


def test_publishing_is_a_recorded_change_once_per_request_with_its_undo() -> None:
    cup, organiser, played = _hidden_cup()
    key = uuid.uuid4()
    round_publish(played=played, published=True, round_version=played.version, user=organiser, request_id=key)
    again = round_publish(played=played, published=True, round_version=1, user=organiser, request_id=key)
    assert again.published
    assert TournamentChange.objects.filter(tournament=cup, action=Action.PUBLISHED).count() == 1
    with pytest.raises(ServiceError) as stale:
        round_publish(played=played, published=False, round_version=1, user=organiser)
    assert stale.value.code == "stale_round"
    hidden = round_publish(played=played, published=False, round_version=played.version, user=organiser)
    assert not hidden.published
    assert TournamentChange.objects.filter(tournament=cup, action=Action.UNPUBLISHED).count() == 1
    # Seating it again hides it again; starting it publishes it, and the history says so.
    hidden = round_publish(played=hidden, published=True, round_version=hidden.version, user=organiser)
    again_seated = round_seat(tournament=cup, number=1, round_version=hidden.version, user=organiser)
    assert not again_seated.published
    started = round_start(played=again_seated, round_version=again_seated.version, user=organiser)
    assert started.published
    start = TournamentChange.objects.get(tournament=cup, action=Action.STARTED)
    assert start.data["published"] is True
    with pytest.raises(ServiceError) as late:
        round_publish(played=started, published=False, round_version=started.version, user=organiser)
    assert late.value.code == "round_started"


def test_without_the_setting_a_round_is_public_as_it_is_seated() -> None:
    club, organiser = _club()
    cup = tournament(club, organiser, 8)
    played = round_seat(tournament=cup, number=1, user=organiser)
    assert played.published
    view = tournament_view(tournament=cup)
    assert view.round(1) is not None and view.round(1).table_count == 2  # type: ignore[union-attr]


def _frozen_cup(shows: str = "stood") -> tuple[Tournament, User, tuple[tuple[int, int, object], ...]]:
    """Four rounds, the last two frozen: the live standings after round 2 are kept to compare."""
    club, organiser = _club()
    cup = tournament(club, organiser, 9, rounds=4, freeze_rounds=2, frozen_shows=shows)
    play_round(cup, 1, organiser)
    play_round(cup, 2, organiser)
    before = tuple((s.player, s.rank, s.points) for s in compute_standings(tournament_data(cup)))
    # Seated but not started, round 3 changes nothing yet: the players see the live standings.
    round_seat(tournament=cup, number=3, user=organiser)
    assert tournament_view(tournament=cup).frozen is None
    cup.refresh_from_db()
    Round.objects.filter(tournament=cup, number=3).delete()
    play_round(cup, 3, organiser)
    play_round(cup, 4, organiser)
    cup.refresh_from_db()
    return cup, organiser, before


def test_frozen_standings_are_the_standings_as_they_stood_before_the_frozen_rounds() -> None:
    cup, organiser, before = _frozen_cup()
    public = tournament_view(tournament=cup)
    assert public.frozen == 3 and public.stood_after == 2 and public.public
    shown = tuple((r.standing.player, r.standing.rank, r.standing.points) for r in public.standings)
    assert shown == before
    # A fresh computation over the earlier rounds' results says the same.
    fresh = compute_standings(data_upto(tournament_data(cup), 2))
    assert shown == tuple((s.player, s.rank, s.points) for s in fresh)
    live = tuple((s.player, s.rank, s.points) for s in compute_standings(tournament_data(cup)))
    assert shown != live  # two more rounds were played
    organiser_view = tournament_view(tournament=cup, organiser=True)
    assert (
        tuple((r.standing.player, r.standing.rank, r.standing.points) for r in organiser_view.standings)
        == live
    )
    assert not organiser_view.public

    anyone = Client()
    page = anyone.get(f"/t/{cup.public_id}/standings/").content.decode()
    assert "as they stood after round 2" in page
    csv = anyone.get(f"/t/{cup.public_id}/standings.csv").content.decode("utf-8-sig")
    first_row = csv.splitlines()[1].split(",")
    top = public.standings[0]
    assert first_row[1] == top.name and float(first_row[2]) == float(top.standing.points)
    # A player's page shows no rank after a frozen round, and his frozen line.
    entry = public.standings[0].standing.player
    rows = player_rounds(tournament=cup, entry_id=entry)
    assert rows is not None and [r.rank is None for r in rows.rounds] == [False, False, True, True]
    assert rows.standing is not None and rows.standing.points == top.standing.points
    mine = player_rounds(tournament=cup, entry_id=entry, organiser=True)
    assert mine is not None and all(r.rank is not None for r in mine.rounds)

    org = _organiser_client(organiser)
    theirs = org.get(f"/t/{cup.public_id}/standings/").content.decode()
    assert "Live standings, not public" in theirs and "Reveal the standings" in theirs
    response = org.post(
        f"/t/{cup.public_id}/standings/reveal/", {"request_id": str(uuid.uuid4()), "version": cup.version}
    )
    assert response.status_code == 302
    cup.refresh_from_db()
    revealed = tournament_view(tournament=cup)
    assert revealed.frozen is None
    assert tuple((r.standing.player, r.standing.rank, r.standing.points) for r in revealed.standings) == live
    history = anyone.get(f"/t/{cup.public_id}/history/").content.decode()
    assert "Revealed the frozen standings" in history
    frozen = standings_reveal(tournament=cup, revealed=False, version=cup.version, user=organiser)
    assert tournament_view(tournament=frozen).frozen == 3
    assert TournamentChange.objects.filter(tournament=cup, action=Action.REFROZEN).count() == 1


def test_hidden_frozen_standings_show_nothing_until_revealed() -> None:
    cup, organiser, _before = _frozen_cup("hidden")
    public = tournament_view(tournament=cup)
    assert public.standings_hidden and public.standings == ()
    anyone = Client()
    page = anyone.get(f"/t/{cup.public_id}/standings/").content.decode()
    assert "The standings are frozen" in page
    entry = tournament_view(tournament=cup, organiser=True).standings[0]
    assert (
        entry.name
        not in anyone.get(f"/t/{cup.public_id}/screen/").content.decode().split("screen-standings")[1]
    )
    rows = player_rounds(tournament=cup, entry_id=entry.standing.player)
    assert rows is not None and rows.standing is None
    key = uuid.uuid4()
    standings_reveal(tournament=cup, revealed=True, version=cup.version, user=organiser, request_id=key)
    standings_reveal(tournament=cup, revealed=True, version=1, user=organiser, request_id=key)
    assert TournamentChange.objects.filter(tournament=cup, action=Action.REVEALED).count() == 1
    cup.refresh_from_db()
    assert len(tournament_view(tournament=cup).standings) == 9


def test_the_freeze_before_a_final_starts_with_its_first_stage() -> None:
    club, organiser = _club()
    cup = tournament(club, organiser, 8, rounds=2, final="table", freeze_final=True)
    rounds = [Round(number=1, status="confirmed"), Round(number=2, status="confirmed")]
    assert frozen_from(cup, rounds) is None
    rounds.append(Round(number=3, status="seated", final_stage=1))
    assert frozen_from(cup, rounds) is None
    rounds[2].status = "playing"
    assert frozen_from(cup, rounds) == 3
    cup.standings_revealed = True
    assert frozen_from(cup, rounds) is None


def test_more_frozen_rounds_than_rounds_is_refused_at_the_field() -> None:
    with pytest.raises(ServiceError) as refused:
        checked_settings(settings(rounds=3, freeze_rounds=4))
    assert refused.value.params["field"] == "freeze_rounds"
    club, organiser = _club()
    cup = tournament(club, organiser, 4)
    org = _organiser_client(organiser)
    page = org.get(f"/t/{cup.public_id}/settings/").content.decode()
    assert "Publish each round&#x27;s seating myself" in page or "Publish each round's seating myself" in page
    updated = tournament_update(
        tournament=cup,
        settings=changed_settings(cup, {"hide_seating": True, "freeze_rounds": 1, "frozen_shows": "hidden"}),
        version=cup.version,
        user=organiser,
    )
    assert (updated.hide_seating, updated.freeze_rounds, updated.frozen_shows) == (True, 1, "hidden")


def test_the_gates_survive_export_and_import() -> None:
    club, organiser = _club()
    cup = tournament(club, organiser, 8, hide_seating=True, freeze_rounds=1, freeze_final=False)
    round_seat(tournament=cup, number=1, user=organiser)
    Tournament.objects.filter(pk=cup.pk).update(standings_revealed=True)
    doc = json.loads(json.dumps(export_club(club)))
    done = import_club(doc, user=UserFactory.create(), name="Copy")
    copy = Tournament.objects.get(club=done.club)
    assert (copy.hide_seating, copy.freeze_rounds, copy.standings_revealed) == (True, 1, True)
    assert not Round.objects.get(tournament=copy, number=1).published
