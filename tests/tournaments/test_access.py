"""Who may change a tournament: one row per (write, actor, club visibility).

Only the club's organisers (and a site admin) change a tournament. Anonymous users are sent to
log in; members, scorekeepers and other clubs' organisers get 403 on a public club's
tournament and 404 on a members-only club's (which does not exist for them). A table's link
writes its own table's game and no other. Every refused write leaves the database as it was.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.rules import OPTIONS
from games.models import Club, Game, Hand, Membership
from games.services.access import edit_url
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import play_round, rummikub_hand, season_settings, tournament
from tournaments.models import Entry, Round, Season, Table, Tournament, TournamentChange
from tournaments.services.round_seating import round_seat
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db
Role = Membership.Role
ACTORS = ("anonymous", "member", "scorekeeper", "outsider", "organiser", "admin")


@dataclass
class World:
    club: Club
    users: dict[str, User | None]
    tournament: Tournament

    def client(self, actor: str) -> Client:
        client = Client()
        user = self.users[actor]
        if user is not None:
            client.force_login(user)
        return client


def world(visibility: str, *, playing: bool = False) -> World:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    users: dict[str, User | None] = {"anonymous": None, "organiser": organiser}
    for role in (Role.MEMBER, Role.SCOREKEEPER):
        user = UserFactory.create()
        add_member(club, user, role)
        users[str(role)] = user
    other = UserFactory.create()
    ClubFactory.create(organiser=other)
    users["outsider"] = other
    users["admin"] = UserFactory.create(is_superuser=True, is_staff=True)
    made = tournament(club, organiser, 9)
    play_round(made, 1, organiser)  # round 1 confirmed
    if playing:
        play_round(made, 2, organiser, confirm=False)  # round 2 played, not confirmed
    else:
        round_seat(tournament=made, number=2, user=organiser)  # round 2 seated, not started
    season_create(club=club, settings=season_settings(), user=organiser)
    return World(club, users, made)


def _post(w: World, actor: str, path: str, data: dict[str, str]) -> tuple[int, str]:
    response = w.client(actor).post(path, {"request_id": str(uuid.uuid4()), **data})
    return response.status_code, response.get("Location", "")


def _state(w: World) -> tuple[object, ...]:
    t = Tournament.objects.get(pk=w.tournament.pk)
    return (
        t.version,
        t.name,
        TournamentChange.objects.filter(tournament=t).count(),
        list(Entry.objects.filter(tournament=t).values_list("checked_in", "dropped_after", "version")),
        list(Round.objects.filter(tournament=t).values_list("number", "status", "version")),
        Tournament.objects.filter(club=w.club).count(),
        list(Season.objects.filter(club=w.club).values_list("name", "version")),
    )


def _settings_data(w: World) -> dict[str, str]:
    t = w.tournament
    return {
        "name": "Renamed cup",
        "date": "2026-12-01",
        "rounds": "3",
        "round_hands": "1",
        "table_min": "2",
        "table_preferred": "4",
        "table_max": "4",
        "byes_allowed": "on",
        "seating": "balanced",
        "seat_order": "random",
        "points": "table",
        "version": str(t.version),
        **option_data(t.family),
    }


def option_data(family: str) -> dict[str, str]:
    """The house-rule fields as the form shows them (the defaults; booleans off)."""
    return {
        f"opt_{name}": str(option.default)
        for name, option in OPTIONS[family].items()  # type: ignore[index]
        if not isinstance(option.default, bool)
    }


WRITES: dict[str, Callable[[World], tuple[str, dict[str, str]]]] = {
    "create": lambda w: (
        f"/c/{w.club.slug}/tournaments/new/?family=gin",
        {
            **_settings_data(w),
            "table_min": "2",
            "table_preferred": "2",
            "table_max": "2",
            **option_data("gin"),
        },
    ),
    "settings": lambda w: (f"/t/{w.tournament.public_id}/settings/", _settings_data(w)),
    "register": lambda w: (
        f"/t/{w.tournament.public_id}/players/",
        {"names": "Newcomer", "checked_in": "on"},
    ),
    "check_out": lambda w: (
        f"/t/{w.tournament.public_id}/players/{_entry(w).pk}/",
        {"action": "check_out", "version": str(_entry(w).version)},
    ),
    "drop": lambda w: (
        f"/t/{w.tournament.public_id}/players/{_entry(w).pk}/",
        {"action": "drop", "version": str(_entry(w).version)},
    ),
    "season_new": lambda w: (f"/c/{w.club.slug}/seasons/new/", _season_data(w, name="New season")),
    "season_settings": lambda w: (
        f"/s/{_season(w).public_id}/settings/",
        _season_data(w, name="Renamed season"),
    ),
    "seat_again": lambda w: (f"/t/{w.tournament.public_id}/r/2/seat/", {"version": str(_round2(w).version)}),
    "move": lambda w: (
        f"/t/{w.tournament.public_id}/r/2/move/",
        {"version": str(_round2(w).version), "entry": str(_seated(w)), "to_table": "0"},
    ),
    "start": lambda w: (f"/t/{w.tournament.public_id}/r/2/start/", {"version": str(_round2(w).version)}),
    "confirm": lambda w: (f"/t/{w.tournament.public_id}/r/2/confirm/", {"version": str(_round2(w).version)}),
}


def _season(w: World) -> Season:
    return Season.objects.get(club=w.club)


def _season_data(w: World, *, name: str) -> dict[str, str]:
    season = Season.objects.filter(club=w.club).first()
    return {
        "name": name,
        "starts": "2026-01-01",
        "ends": "2026-12-31",
        "families": "rummikub",
        "counts": "both",
        "game_points": "table",
        "tournament_points": "preset",
        "best_events": "0",
        "drop_worst": "0",
        "min_games": "0",
        "version": str(season.version if season else 0),
    }


def _round2(w: World) -> Round:
    return Round.objects.get(tournament=w.tournament, number=2)


def _seated(w: World) -> int:
    """A player at a table of three in round 2 (moving him to the bye leaves two, enough)."""
    table = Table.objects.filter(round=_round2(w)).order_by("number").first()
    assert table is not None and table.seats.count() == 3
    return table.seats.order_by("position").first().entry_id  # type: ignore[union-attr]


def _entry(w: World) -> Entry:
    return Entry.objects.filter(tournament=w.tournament).order_by("pk").first()  # type: ignore[return-value]


EXPECTED = {
    # actor: (public club, members-only club)
    "anonymous": ("login", "login"),
    "member": ("403", "403"),
    "scorekeeper": ("403", "403"),
    "outsider": ("403", "404"),
    "organiser": ("ok", "ok"),
    "admin": ("ok", "ok"),
}


@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.MEMBERS])
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("write", list(WRITES))
def test_only_organisers_change_a_tournament(write: str, actor: str, visibility: str) -> None:
    w = world(visibility, playing=write == "confirm")
    before = _state(w)
    path, data = WRITES[write](w)
    status, location = _post(w, actor, path, data)
    expected = EXPECTED[actor][0 if visibility == Club.Visibility.PUBLIC else 1]
    if expected == "ok":
        assert status == 302 and "/login/" not in location
        assert _state(w) != before, "the write changed nothing"
    else:
        if expected == "login":
            assert status == 302 and "/login/" in location
        else:
            assert status == int(expected)
        assert _state(w) == before


@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.MEMBERS])
def test_public_pages_follow_the_club(visibility: str) -> None:
    w = world(visibility)
    pid = w.tournament.public_id
    for path in (f"/t/{pid}/", f"/t/{pid}/standings/", f"/t/{pid}/r/1/", f"/t/{pid}/seat/?q=an"):
        assert w.client("anonymous").get(path).status_code == (200 if visibility == "public" else 404)
        assert w.client("member").get(path).status_code == 200
    # The organiser's pages: the table links are for organisers only.
    links = f"/t/{pid}/r/1/links/"
    assert w.client("organiser").get(links).status_code == 200
    assert w.client("scorekeeper").get(links).status_code == 403


def test_a_table_link_writes_its_own_table_only() -> None:
    w = world(Club.Visibility.PUBLIC)
    organiser = w.users["organiser"]
    assert organiser is not None
    played = Round.objects.get(tournament=w.tournament, number=1)
    Round.objects.filter(pk=played.pk).update(status=Round.Status.PLAYING)  # reopen for the test
    Game.objects.filter(tournament_table__round=played).update(results_locked=False)
    tables = list(Table.objects.filter(round=played).select_related("game").order_by("number"))
    mine, other = tables[0].game, tables[1].game
    assert mine is not None and other is not None
    phone = Client()  # the table's phone: no account
    token = edit_url(mine).split("#", 1)[1]
    assert phone.get(f"/g/{mine.public_id}/edit/{token}/").status_code == 302
    names = [s.name for s in other.seats.all()]
    before = Hand.objects.filter(game=other).count()
    hand = rummikub_hand(names)
    data = {"winner": hand["winner"], **{f"points_{i}": "5" for i in range(1, len(names) + 1)}}
    response = phone.post(f"/g/{other.public_id}/hands/", data)
    assert response.status_code == 403
    assert Hand.objects.filter(game=other).count() == before
    # Its own game (finished after its one hand) it may open for editing: the page offers it.
    page = phone.get(f"/g/{mine.public_id}/").content.decode()
    assert f"/g/{mine.public_id}/hands/1/" in page
