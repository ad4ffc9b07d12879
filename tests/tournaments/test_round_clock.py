"""The round clock: its end is stored when the round starts, and every page (the projector, the
round page, a table's phone) and the API give the time left by the server's now. Two
application servers on one database agree: here two clients that share only the database (each
server's in-memory caches emptied between them), at moments set by patching the server's clock."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from games.models import Club, Game
from games.sheets import cache as sheet_cache
from games.web.round_clock import round_clock
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tests.tournaments.test_settings_round_trip import _Form as SettingsPageForm
from tournaments.models import Round, Table, Tournament, TournamentChange
from tournaments.services.round_seating import round_seat

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 5, 18, 0, tzinfo=datetime.UTC)
CLOCK = re.compile(
    r'<p class="round-clock[^"]*" role="timer" data-clock-ends="(\d+)" data-clock-now="(\d+)"[^>]*>(.*?)</p>',
    re.S,
)


@contextmanager
def server_time(moment: datetime.datetime) -> Iterator[None]:
    """The server's clock reads ``moment`` (everything asks django.utils.timezone.now)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def another_server() -> None:
    """What one application server keeps in memory and another would not have."""
    for kept in (sheet_cache.SHEETS, sheet_cache.PARTS, sheet_cache.FIELDS):
        kept.clear()


def ms(moment: datetime.datetime) -> int:
    return int(moment.timestamp() * 1000)


def clock_on(page: str) -> tuple[int, int, str]:
    """The page's clock: its end and the server's now (ms since the epoch) and what it says."""
    found = CLOCK.search(page)
    assert found is not None, page[-2000:]
    return int(found[1]), int(found[2]), " ".join(strip_tags(found[3]).split())


def _seated(minutes: int, visibility: str = Club.Visibility.PUBLIC) -> tuple[Tournament, User, Round]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    cup = tournament(club, organiser, 8, round_minutes=minutes)
    return cup, organiser, round_seat(tournament=cup, number=1, user=organiser)


def _start(organiser: User, cup: Tournament, played: Round, **fields: object) -> Client:
    """Server A: the organiser starts round 1 on the round page."""
    client = Client()
    client.force_login(organiser)
    body = {"version": played.version, "request_id": uuid.uuid4(), **fields}
    assert client.post(f"/t/{cup.public_id}/r/1/start/", body).status_code == 302
    return client


def _table_phone(game: Game) -> Client:
    """A table's phone, opened with the table's edit link."""
    phone = Client()
    assert phone.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    return phone


def _pages(client: Client, cup: Tournament, game: Game) -> dict[str, str]:
    return {
        "screen": client.get(f"/t/{cup.public_id}/screen/").content.decode(),
        "round": client.get(f"/t/{cup.public_id}/r/1/").content.decode(),
        "table": client.get(f"/g/{game.public_id}/").content.decode(),
    }


def test_a_round_started_on_one_server_counts_down_alike_on_another() -> None:
    cup, organiser, played = _seated(45, Club.Visibility.MEMBERS)
    with server_time(T0):
        organiser_a = _start(organiser, cup, played)
    played.refresh_from_db()
    assert played.started_at == T0
    assert played.ends_at == T0 + datetime.timedelta(minutes=45)
    game = Table.objects.get(round=played, number=1).game
    assert game is not None and game.event_ends == played.ends_at
    ten_past = T0 + datetime.timedelta(minutes=10)
    another_server()
    organiser_b = Client()
    organiser_b.force_login(organiser)
    phone = _table_phone(game)
    with server_time(ten_past):
        seen = {
            "organiser on server A": _pages(organiser_a, cup, game),
            "organiser on server B": _pages(organiser_b, cup, game),
        }
        phone_page = phone.get(f"/g/{game.public_id}/").content.decode()
        api = Client().get(f"/api/v1/tournaments/{cup.public_id}/rounds/1/")
    clocks = {(who, page): clock_on(html) for who, pages in seen.items() for page, html in pages.items()}
    clocks[("table phone", "table")] = clock_on(phone_page)
    assert set(clocks.values()) == {(ms(T0) + 45 * 60_000, ms(ten_past), "Time left: 35 minutes")}
    # Members only: the API's round is the members' too; the organiser reads it.
    assert api.status_code == 404
    body = organiser_b.get(f"/api/v1/tournaments/{cup.public_id}/rounds/1/").json()
    assert datetime.datetime.fromisoformat(body["started_at"]) == T0
    assert datetime.datetime.fromisoformat(body["ends_at"]) == played.ends_at


def test_the_time_left_is_the_server_s_and_last_hand_at_zero() -> None:
    cup, organiser, played = _seated(30)
    with server_time(T0):
        _start(organiser, cup, played)
    game = Table.objects.get(round=played, number=2).game
    assert game is not None
    ends = T0 + datetime.timedelta(minutes=30)
    for moment, said in (
        (T0 + datetime.timedelta(minutes=29, seconds=30), "Time left: 1 minute"),
        (ends, "Last hand"),
        (ends + datetime.timedelta(minutes=3), "Last hand"),
    ):
        another_server()
        with server_time(moment):
            pages = _pages(Client(), cup, game)
        for name, page in pages.items():
            assert clock_on(page) == (ms(ends), ms(moment), said), name
            assert 'data-clock-last="Last hand"' in page and "js/clock.js" in page


def test_last_hand_is_translated() -> None:
    cup, organiser, played = _seated(5)
    with server_time(T0):
        _start(organiser, cup, played)
    with server_time(T0 + datetime.timedelta(minutes=6)):
        page = Client().get(f"/cs/t/{cup.public_id}/screen/").content.decode()
    said = clock_on(page)[2]
    assert said and said != "Last hand"


def test_the_projector_without_javascript_is_drawn_anew_as_the_minutes_change() -> None:
    cup, organiser, played = _seated(20)
    with server_time(T0):
        _start(organiser, cup, played)
    game = Table.objects.get(round=played, number=1).game
    assert game is not None
    for path in (f"/t/{cup.public_id}/screen/", f"/g/{game.public_id}/"):
        viewer = Client()
        with server_time(T0 + datetime.timedelta(minutes=1)):
            tag = viewer.get(path)["ETag"]
        with server_time(T0 + datetime.timedelta(minutes=1, seconds=30)):
            assert viewer.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
        with server_time(T0 + datetime.timedelta(minutes=2, seconds=1)):
            fresh = viewer.get(path, HTTP_IF_NONE_MATCH=tag)
        assert fresh.status_code == 200 and "18 minutes" in fresh.content.decode(), path


def test_no_clock_without_minutes_and_a_start_may_set_its_own() -> None:
    cup, organiser, played = _seated(0)
    with server_time(T0):
        client = _start(organiser, cup, played)
    played.refresh_from_db()
    assert (
        played.ends_at is None
        and "round-clock" not in client.get(f"/t/{cup.public_id}/screen/").content.decode()
    )
    cup, organiser, played = _seated(45)
    with server_time(T0):
        _start(organiser, cup, played, minutes="20")
    played.refresh_from_db()
    assert played.ends_at == T0 + datetime.timedelta(minutes=20)
    change = TournamentChange.objects.get(tournament=cup, action="started")
    assert change.data["minutes"] == 20
    cup, organiser, played = _seated(45)
    with server_time(T0):
        _start(organiser, cup, played, minutes="0")
    played.refresh_from_db()
    assert played.ends_at is None


def test_the_round_page_offers_the_settings_minutes_when_starting() -> None:
    cup, organiser, _played = _seated(40)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{cup.public_id}/r/1/").content.decode()
    assert re.search(r'<input[^>]*name="minutes"[^>]*value="40"', page)


def _settings_form(client: Client, path: str) -> dict[str, list[str]]:
    form = SettingsPageForm(path)
    form.feed(client.get(path).content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.data:
        data.setdefault(name, []).append(value.lstrip("\n"))
    return data


def test_the_settings_page_sets_and_changes_the_minutes() -> None:
    cup, organiser, played = _seated(45)
    client = Client()
    client.force_login(organiser)
    path = f"/t/{cup.public_id}/settings/"
    data = _settings_form(client, path)
    assert data["round_minutes"] == ["45"]
    refused = client.post(path, {**data, "round_minutes": ["601"]})
    assert refused.status_code == 200 and "round_minutes" in refused.context["form"].errors
    assert client.post(path, {**data, "round_minutes": ["90"]}).status_code == 302
    assert client.get(f"/api/v1/tournaments/{cup.public_id}/").json()["round_minutes"] == 90
    # A start refused for its minutes starts nothing.
    _start(organiser, cup, played, minutes="601")
    played.refresh_from_db()
    assert played.status == Round.Status.SEATED
    # Changing the minutes once a round is playing is allowed: the next round's clock.
    with server_time(T0):
        _start(organiser, cup, played)
    data = _settings_form(client, path)
    assert client.post(path, {**data, "round_minutes": ["0"]}).status_code == 302
    played.refresh_from_db()
    assert played.ends_at == T0 + datetime.timedelta(minutes=90)


def test_the_api_takes_and_gives_the_minutes_and_the_round_s_times() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    client = Client()
    client.force_login(organiser)
    body = {"name": "Cup", "date": "2026-12-05", "family": "rummikub", "rounds": 2, "round_hands": 1}
    made = client.post(
        f"/api/v1/clubs/{club.slug}/tournaments/",
        {**body, "round_minutes": 50},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    public_id = made.json()["public_id"]
    assert made.json()["round_minutes"] == 50
    base = f"/api/v1/tournaments/{public_id}"
    patched = client.patch(
        f"{base}/", {"round_minutes": 25}, content_type="application/json", HTTP_IF_MATCH=made["ETag"]
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["round_minutes"] == 25
    refused = client.patch(
        f"{base}/", {"round_minutes": 601}, content_type="application/json", HTTP_IF_MATCH=patched["ETag"]
    )
    assert refused.status_code == 400
    client.post(f"{base}/entries/", {"names": ["A", "B", "C", "D"], "checked_in": True}, "application/json")
    seated = client.post(f"{base}/rounds/1/seat/")
    assert seated.status_code == 201 and seated.json()["ends_at"] is None
    with server_time(T0):
        started = client.post(f"{base}/rounds/1/start/", HTTP_IF_MATCH=seated["ETag"])
    assert started.status_code == 200, started.content
    round_1 = started.json()
    assert datetime.datetime.fromisoformat(round_1["started_at"]) == T0
    assert datetime.datetime.fromisoformat(round_1["ends_at"]) == T0 + datetime.timedelta(minutes=25)
    summary = client.get(f"{base}/").json()["played_rounds"][0]
    assert summary["ends_at"] == round_1["ends_at"] and summary["started_at"] == round_1["started_at"]


def test_the_api_starts_a_round_with_its_own_minutes() -> None:
    cup, organiser, _played = _seated(45)
    client = Client()
    client.force_login(organiser)
    url = f"/api/v1/tournaments/{cup.public_id}/rounds/1/"
    tag = client.get(url)["ETag"]
    bad = client.post(f"{url}start/", {"minutes": -1}, "application/json", HTTP_IF_MATCH=tag)
    assert bad.status_code == 400
    with server_time(T0):
        started = client.post(f"{url}start/", {"minutes": 15}, "application/json", HTTP_IF_MATCH=tag)
    assert started.status_code == 200, started.content
    assert datetime.datetime.fromisoformat(started.json()["ends_at"]) == T0 + datetime.timedelta(minutes=15)


def test_minutes_left_round_up_and_stop_at_zero() -> None:
    ends = T0 + datetime.timedelta(minutes=10)
    assert round_clock(None) is None
    for left, minutes in ((600, 10), (599.5, 10), (541, 10), (540, 9), (0.2, 1), (0, 0), (-30, 0)):
        clock = round_clock(ends, now=ends - datetime.timedelta(seconds=left))
        assert clock is not None and clock.minutes == minutes and clock.over == (minutes == 0), left
