"""Hostile input never reaches a server error: too big a body, JSON too deep, numbers that are
not finite, text no database stores (NUL, lone surrogates), repeated keys, digits that are not
ASCII, an overlong login name. Each is a clear 4xx and nothing is stored. The API's own fuzzing
is tests/api/test_fuzz.py; the HTML forms' is the property test at the end."""

from __future__ import annotations

import json
import os
from datetime import date
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import ApiToken, Club, Game, Hand, Player
from games.services.tokens import token_create
from games.web.input import MAX_DEPTH, InputRefused, read_int, read_json
from tests.factories import ClubFactory, GameFactory, UserFactory
from tests.tournaments.support import season_settings, tournament
from tournaments.models import Season, Tournament
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
HAND = '{"winner": "Ann", "left": {"Bob": 24}}'


def stored() -> tuple[int, ...]:
    return (
        Game.objects.count(),
        Hand.objects.count(),
        Player.objects.count(),
        Club.objects.count(),
        Tournament.objects.count(),
        Season.objects.count(),
        ApiToken.objects.count(),
        User.objects.count(),
    )


# ---------------------------------------------------------------------- the JSON reader


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": 1e309}', "finite"),
        ('{"a": -1e309}', "finite"),
        ('{"a": NaN}', "finite"),
        ('{"a": Infinity}', "finite"),
        ('{"a": 123456789012345678901234}', "too big"),
        ('{"a": 9007199254740992}', "too big"),
        ('{"a": "\\ud800"}', "surrogate"),
        ('{"\\udfff": 1}', "surrogate"),
        ('{"a": ["x\\u0000"]}', "NUL"),
        ('{"a": 1, "a": 2}', "twice"),
        ("[" * 100_000 + "]" * 100_000, "deep"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "deep"),
        (b'{"a": "\xff"}', "UTF-8"),
        ("{", "not valid"),
    ],
)
def test_the_json_reader_refuses_what_no_database_or_type_can_hold(text: str | bytes, why: str) -> None:
    with pytest.raises(InputRefused, match=why):
        read_json(text)


def test_the_json_reader_reads_ordinary_documents() -> None:
    deep: Any = 1
    for _ in range(MAX_DEPTH - 1):
        deep = [deep]
    assert read_json(json.dumps(deep)) == deep
    assert read_json('{"a": [1.5, -3, "\\ud83d\\ude00", null, true]}') == {"a": [1.5, -3, "😀", None, True]}
    assert read_json('{"a": 9007199254740991}') == {"a": 2**53 - 1}


@pytest.mark.parametrize("raw", ["²", "①", "٣", "1.0", "-1", "", " ", "0", "201", "9" * 40, None])
def test_the_integer_reader_takes_ascii_digits_in_range_only(raw: str | None) -> None:
    assert read_int(raw, lo=1, hi=200) is None


def test_the_integer_reader_reads_a_number() -> None:
    assert read_int(" 17 ", lo=1, hi=200) == 17


# ---------------------------------------------------------------------- the API


@pytest.fixture
def game_client() -> tuple[Game, APIClient]:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {game.edit_token}")
    return game, client


HOSTILE_BODIES = {
    "infinite": '{"winner": "Ann", "left": {"Bob": 1e309}}',
    "minus infinite": '{"winner": "Ann", "left": {"Bob": -1e309}}',
    "huge number": '{"winner": "Ann", "left": {"Bob": 1000000000000000000000}}',
    "lone surrogate": '{"winner": "\\ud800", "left": {"Bob": 3}}',
    "NUL": '{"winner": "Ann\\u0000", "left": {"Bob": 3}}',
    "NUL in a key": '{"winner": "Ann", "left": {"Bob\\u0000": 3}}',
    "deep": "[" * 100_000 + "]" * 100_000,
    "repeated key": '{"winner": "Bob", "winner": "Ann", "left": {"Bob": 3}}',
    "5 MB": json.dumps({"winner": "Ann", "left": {"Bob": 3}, "pad": "x" * 5_000_000}),
}


@pytest.mark.parametrize("name", list(HOSTILE_BODIES))
def test_a_hostile_hand_is_refused_and_nothing_is_stored(
    game_client: tuple[Game, APIClient], name: str
) -> None:
    game, client = game_client
    before = stored()
    url = f"/api/v1/games/{game.public_id}/hands/"
    response = client.post(url, HOSTILE_BODIES[name], content_type="application/json")
    assert response.status_code == (413 if name == "5 MB" else 400), response.content[:300]
    assert response["Content-Type"].startswith(PROBLEM)
    assert response.json()["message"]
    assert stored() == before
    # The same hand, written properly, is recorded.
    assert client.post(url, HAND, content_type="application/json").status_code == 201


@pytest.mark.parametrize("name", list(HOSTILE_BODIES))
def test_every_kind_of_api_write_refuses_hostile_bodies(name: str) -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    bearer = token_create(user=user, name="w", scope="write")[1]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {bearer}")
    before = stored()
    for url in [
        "/api/v1/games/",
        "/api/v1/engine/value/",
        f"/api/v1/clubs/{club.slug}/tournaments/",
        f"/api/v1/clubs/{club.slug}/seasons/",
        "/api/v1/clubs/import/",
    ]:
        response = client.post(url, HOSTILE_BODIES[name], content_type="application/json")
        assert response.status_code in (400, 413), (url, response.content[:300])
        assert response["Content-Type"].startswith(PROBLEM)
    assert stored() == before


@pytest.mark.parametrize("value", ["²", "①", "0", "-5", "abc", "%00"])
def test_a_page_size_or_page_that_is_not_a_number_is_a_400(value: str) -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    season = Season.objects.create(club=club, name="Autumn", starts=date(2026, 9, 1), ends=date(2026, 12, 31))
    client = APIClient()
    client.force_login(user)
    for url in [
        f"/api/v1/games/?page_size={value}",
        f"/api/v1/clubs/{club.slug}/players/?page_size={value}",
        f"/api/v1/seasons/{season.public_id}/?page={value}",
    ]:
        response = client.get(url)
        assert response.status_code == 400, (url, response.content[:300])
        assert response["Content-Type"].startswith(PROBLEM)
    # The season's page answers its first page for a page number it cannot read.
    assert client.get(f"/s/{season.public_id}/?page={value}").status_code in (200, 400)


def test_a_token_that_is_not_a_number_revokes_nothing() -> None:
    user = UserFactory.create()
    row, _secret = token_create(user=user, name="t", scope="read")
    client = Client()
    client.force_login(user)
    for chosen in ["²", "①", "1e3", "", "99999999999999999999999"]:
        response = client.post("/accounts/profile/", {"action": "token_revoke", "token": chosen})
        assert response.status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is None
    client.post("/accounts/profile/", {"action": "token_revoke", "token": str(row.pk)})
    row.refresh_from_db()
    assert row.revoked_at is not None


# ---------------------------------------------------------------------- addresses, forms, login


def test_nul_in_an_address_or_a_search_is_a_400_for_anyone() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    member = Client()
    member.force_login(user)
    for client in [Client(), member]:
        for url in [
            "/g/%00/",
            "/t/a%00b/",
            f"/c/{club.slug}/players/?q=%00",
            "/api/v1/games/%00/",
            "/?q=%00",
        ]:
            response = client.get(url)
            assert response.status_code == 400, url
        assert "not text" in client.get("/g/%00/").content.decode()
        assert client.get("/api/v1/games/%00/")["Content-Type"].startswith(PROBLEM)


def test_nul_in_a_form_field_is_refused_at_the_field() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    before = stored()
    response = client.post("/clubs/", {"name": "Tuesday\x00club"})
    assert "Null characters are not allowed." in response.content.decode()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=user)
    hands = Hand.objects.count()
    client.post(f"/g/{game.public_id}/hands/", {"dealt_in": '["Ann", "Bob\u0000"]', "winner": "Ann"})
    assert stored()[0] == before[0] + 1 and Hand.objects.count() == hands


def test_a_big_form_is_a_413_in_the_users_language() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    before = stored()
    response = client.post("/cs/clubs/", {"name": "x" * 3_000_000})
    assert response.status_code == 413
    assert "MB" in response.content.decode() and 'lang="cs"' in response.content.decode()
    assert stored() == before


def test_an_overlong_username_on_the_login_form_is_a_field_error() -> None:
    response = Client().post("/accounts/login/", {"username": "x" * 10_000, "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    # The admin's login form does not check the length: django-axes still records the attempt.
    admin = Client().post("/admin/login/", {"username": "y" * 10_000, "password": "wrong"})
    assert admin.status_code == 200


# ---------------------------------------------------------------------- every form field


HOSTILE_VALUES = st.one_of(
    st.sampled_from(
        [
            "\x00",
            "a\x00b",
            "²",
            "①",
            "1e309",
            "-1e309",
            "NaN",
            "-1",
            "0",
            "9" * 30,
            "x" * 5000,
            "",
            " ",
            '=HYPERLINK("http://evil.example","x")',
            "\u202eevil",
            "[[[[[[[[[[",
            '{"a":1,"a":2}',
            "null",
        ]
    ),
    st.text(max_size=30),
)


class _Forms(HTMLParser):
    """The named fields, with their values, of each of the page's forms posting to ``action``."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.forms: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = values.get("action", "") in ("", self.action) and values.get("method") == "post"
            if self.inside:
                self.forms.append({})
        elif self.inside and tag in ("input", "select", "textarea", "button") and values.get("name"):
            if values["name"] != "csrfmiddlewaretoken":
                self.forms[-1].setdefault(values["name"], values.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def fields_of(
    client: Client, page: str, action: str, having: tuple[str, str] | None = None
) -> dict[str, str]:
    """The fields of the first form posting to ``action`` (with the field ``having``, if given)."""
    parser = _Forms(action)
    parser.feed(client.get(page).content.decode())
    for fields in parser.forms:
        if fields and (having is None or fields.get(having[0]) == having[1]):
            return fields
    raise AssertionError(f"no form posting to {action} on {page}")


@pytest.fixture
def pages() -> dict[str, Any]:
    user = UserFactory.create(username="organiser")
    club = ClubFactory.create(organiser=user, name="Fuzz club")
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=user, club=club)
    token_create(user=user, name="script", scope="read")
    event = tournament(club, user, players=8)
    season = season_create(club=club, settings=season_settings(), user=user)
    client = Client()
    client.force_login(user)
    forms: dict[str, tuple[Any, ...]] = {
        "new game": ("/games/new/rummikub/", "/games/new/rummikub/"),
        "new hand": (f"/g/{game.public_id}/", f"/g/{game.public_id}/hands/"),
        "new club": ("/clubs/", "/clubs/"),
        "club settings": (f"/c/{club.slug}/settings/", f"/c/{club.slug}/settings/"),
        "new tournament": (
            f"/c/{club.slug}/tournaments/new/?family=rummikub",
            f"/c/{club.slug}/tournaments/new/",
        ),
        "new season": (f"/c/{club.slug}/seasons/new/", f"/c/{club.slug}/seasons/new/"),
        "profile": ("/accounts/profile/", "/accounts/profile/", ("action", "token_create")),
        "revoke a token": ("/accounts/profile/", "/accounts/profile/", ("action", "token_revoke")),
        "game date": (f"/g/{game.public_id}/date/", f"/g/{game.public_id}/date/"),
        "password change": ("/accounts/password_change/", "/accounts/password_change/"),
        "tournament settings": (f"/t/{event.public_id}/settings/", f"/t/{event.public_id}/settings/"),
        "tournament players": (f"/t/{event.public_id}/players/", f"/t/{event.public_id}/players/#add-title"),
        "season settings": (f"/s/{season.public_id}/settings/", f"/s/{season.public_id}/settings/"),
    }
    found = {
        name: (action, fields_of(client, page, action, having))
        for name, (page, action, *rest) in forms.items()
        for having in [rest[0] if rest else None]
    }
    return {"client": client, "forms": found}


@pytest.mark.parametrize(
    "form",
    [
        "new game",
        "new hand",
        "new club",
        "club settings",
        "new tournament",
        "new season",
        "profile",
        "revoke a token",
        "game date",
        "password change",
        "tournament settings",
        "tournament players",
        "season settings",
    ],
)
@settings(
    max_examples=int(os.environ.get("FORM_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_hostile_values_in_any_form_field_never_give_a_server_error(
    pages: dict[str, Any], form: str, data: st.DataObject
) -> None:
    client: Client = pages["client"]
    action, fields = pages["forms"][form]
    chosen = data.draw(st.sets(st.sampled_from(sorted(fields)), min_size=1, max_size=3), label="fields")
    posted = dict(fields)
    for name in chosen:
        posted[name] = data.draw(HOSTILE_VALUES, label=name)
    before = stored()
    response = client.post(action.split("#")[0], posted)
    assert response.status_code < 500, (posted, response.content[:500])
    if any("\x00" in value for value in posted.values()):
        assert stored() == before
