"""Tables that confirm their own result, in the API: a player's own link reads his table's
sheet and answers it without an account; the organisers read each table's state with the
players' links; confirming a round with tables not all confirmed is a 409 listing them unless
forced; a stale answer is refused and one for a sheet changed since does not count; a wrong
link is a bare 404; the setting is in the settings and the club's file."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Club
from games.services.hands import hand_edit
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, rummikub_hand, settings
from tournaments.exchange.exporting import export_club
from tournaments.exchange.importing import import_club
from tournaments.models import Round, Table, TableAnswer, Tournament, TournamentChange
from tournaments.services.entries import entries_add
from tournaments.services.tournament_settings import tournament_create
from tournaments.table_answers import entry_key

pytestmark = pytest.mark.django_db
API = "/api/v1"
NAMES = ["Anna", "Bára", "Cyril", "David", "Eva", "Filip"]


def _cup(visibility: str = Club.Visibility.PUBLIC) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    made = settings("rummikub", table_min=3, table_max=3, table_preferred=3, table_confirm=True)
    cup = tournament_create(club=club, settings=made, user=organiser)
    entries_add(tournament=cup, names=NAMES, checked_in=True, user=organiser)
    return cup, organiser


def _own(cup: Tournament, entry: int) -> str:
    return f"{API}/tournaments/{cup.public_id}/own/{entry}/{entry_key(cup, entry)}/"


def _entries(played: Round, number: int) -> list[int]:
    table = Table.objects.get(round=played, number=number)
    return [s.entry_id for s in table.seats.order_by("position")]


def _answer(
    client: APIClient, cup: Tournament, entry: int, answer: str, word: str = "", **headers: str
) -> Any:
    seen = client.get(_own(cup, entry)).json()["table"]["seen"]
    return client.post(
        _own(cup, entry), {"answer": answer, "seen": seen, "word": word}, format="json", headers=headers
    )


def _organiser(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _confirm(client: APIClient, cup: Tournament, played: Round, query: str = "", body: Any = None) -> Any:
    played.refresh_from_db()
    return client.post(
        f"{API}/tournaments/{cup.public_id}/rounds/{played.number}/confirm/{query}",
        body,
        format="json" if body is not None else None,
        headers={"If-Match": f'"round-{cup.pk}.{played.number}-v{played.version}"'},
    )


def test_answers_by_own_link_and_the_organisers_table_states() -> None:
    cup, organiser = _cup(Club.Visibility.MEMBERS)
    played = play_round(cup, 1, organiser, confirm=False)
    a, b, c = _entries(played, 1)
    phone = APIClient()  # no account, a members-only club
    read = phone.get(_own(cup, a)).json()
    assert read["name"] == "Anna" or read["name"] in NAMES
    assert read["table"]["table"] == 1 and read["table"]["finished"] is True
    assert read["table"]["mine"] == "none"
    assert [s["entry"] for s in read["table"]["seats"]] == [a, b, c]
    key = str(uuid.uuid4())
    first = _answer(phone, cup, a, "confirm", **{"Idempotency-Key": key})
    assert first.status_code == 200, first.content
    assert first.json()["table"]["mine"] == "confirmed"
    again = _answer(phone, cup, a, "confirm", **{"Idempotency-Key": key})  # a resend
    assert again.status_code == 200
    assert TournamentChange.objects.filter(tournament=cup, action="result_ok").count() == 1
    _answer(phone, cup, b, "confirm")
    disputed = _answer(phone, cup, c, "dispute", "hand 1")
    assert disputed.json()["table"]["agreement"] == {"state": "disputed", "agreed": 2, "players": 3}

    states = _organiser(organiser).get(f"{API}/tournaments/{cup.public_id}/rounds/1/answers/")
    assert states.status_code == 200
    body = states.json()
    assert (body["confirmed"], body["waiting"], body["disputed"]) == (0, 1, 1)
    table_1 = body["tables"][0]
    assert table_1["state"] == "disputed" and table_1["disputes"][0]["word"] == "hand 1"
    assert [link["entry"] for link in table_1["links"]] == [a, b, c]
    assert table_1["links"][0]["url"].endswith(f"/t/{cup.public_id}/p/{a}/{entry_key(cup, a)}/")
    assert body["tables"][1] == {**body["tables"][1], "state": "waiting", "agreed": 0, "players": 3}
    # Only the organisers read the states and the links.
    assert APIClient().get(f"{API}/tournaments/{cup.public_id}/rounds/1/answers/").status_code in (
        401,
        403,
        404,
    )

    history = _organiser(organiser).get(f"{API}/tournaments/{cup.public_id}/history/").json()["items"]
    disputes = [i for i in history if i["action"] == "disputed"]
    assert disputes and disputes[0]["details"]["word"] == "hand 1"
    assert disputes[0]["round"] == 1


def test_confirming_a_round_with_unsettled_tables_is_409_unless_forced() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    phone = APIClient()
    for entry in _entries(played, 2):
        _answer(phone, cup, entry, "confirm")
    _answer(phone, cup, _entries(played, 1)[0], "dispute", "wrong")
    client = _organiser(organiser)
    refused = _confirm(client, cup, played)
    assert refused.status_code == 409, refused.content
    body = refused.json()
    assert body["code"] == "tables_unconfirmed"
    assert body["tables"] == [
        {"table": 1, "state": "disputed", "agreed": 0, "players": 3, "words": ["wrong"]}
    ]
    played.refresh_from_db()
    assert played.status == Round.Status.PLAYING
    done = _confirm(client, cup, played, body={"force": True})
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "confirmed"


def test_force_in_the_query_and_a_settled_round_needs_none() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    assert _confirm(_organiser(organiser), cup, played).status_code == 409
    assert _confirm(_organiser(organiser), cup, played, "?force=true").status_code == 200
    second = play_round(cup, 2, organiser, confirm=False)
    phone = APIClient()
    for number in (1, 2):
        for entry in _entries(second, number):
            assert _answer(phone, cup, entry, "confirm").status_code == 200
    assert _confirm(_organiser(organiser), cup, second).status_code == 200


def test_a_stale_answer_is_refused_and_one_for_a_changed_sheet_does_not_count() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    a, b, c = _entries(played, 1)
    phone = APIClient()
    seen = phone.get(_own(cup, a)).json()["table"]["seen"]
    for entry in (a, b, c):
        _answer(phone, cup, entry, "confirm")
    table = Table.objects.select_related("game").get(round=played, number=1)
    assert table.game is not None
    hand = table.game.hands.get()
    names = [s.name for s in table.game.seats.all()]
    hand_edit(hand=hand, outcome=rummikub_hand(names, {names[2]: 33}), version=hand.version, user=organiser)
    read = phone.get(_own(cup, a)).json()["table"]
    assert read["mine"] == "changed"
    assert read["agreement"] == {"state": "waiting", "agreed": 0, "players": 3}
    stale = phone.post(_own(cup, a), {"answer": "confirm", "seen": seen}, format="json")
    assert stale.status_code == 400 and stale.json()["code"] == "answer_changed"
    refused = _confirm(_organiser(organiser), cup, played)
    assert refused.status_code == 409
    assert refused.json()["tables"][0]["table"] == 1


def test_a_wrong_link_is_a_bare_404_and_a_dispute_needs_a_word() -> None:
    cup, organiser = _cup(Club.Visibility.MEMBERS)
    played = play_round(cup, 1, organiser, confirm=False)
    a, b, _c = _entries(played, 1)
    phone = APIClient()
    for url in (
        f"{API}/tournaments/{cup.public_id}/own/{a}/{entry_key(cup, b)}/",
        f"{API}/tournaments/{cup.public_id}/own/{a}/nonsense/",
        f"{API}/tournaments/{cup.public_id}/own/999999/{entry_key(cup, a)}/",
    ):
        for answer in (phone.get(url), phone.post(url, {"answer": "confirm", "seen": "1:0"}, format="json")):
            assert answer.status_code == 404
            assert answer.json()["code"] == "not_found"
            assert "Anna" not in answer.content.decode() and cup.name not in answer.content.decode()
    no_word = _answer(phone, cup, a, "dispute", "")
    assert no_word.status_code == 400 and no_word.json()["code"] == "dispute_word"
    assert not TableAnswer.objects.exists()


def test_the_setting_in_the_api_and_the_clubs_file() -> None:
    cup, organiser = _cup()
    client = _organiser(organiser)
    read = client.get(f"{API}/tournaments/{cup.public_id}/")
    assert read.json()["table_confirm"] is True
    changed = client.patch(
        f"{API}/tournaments/{cup.public_id}/",
        {"table_confirm": False},
        format="json",
        headers={"If-Match": read["ETag"]},
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["table_confirm"] is False
    cup.refresh_from_db()
    cup.table_confirm = True
    cup.save()
    document = json.loads(json.dumps(export_club(cup.club)))
    assert document["tournaments"][0]["table_confirm"] is True
    imported = import_club(document, user=UserFactory.create(), name="Imported club")
    assert Tournament.objects.get(club=imported.club).table_confirm is True
    # A file from before the setting imports with it off.
    del document["tournaments"][0]["table_confirm"]
    older = import_club(document, user=UserFactory.create(), name="Older club")
    assert Tournament.objects.get(club=older.club).table_confirm is False
