"""Tables that confirm their own result: each player of a table confirms its final totals by
his own link (no account), or disputes them with a word; a confirmation counts only for the
sheet he saw; the round page and the API show each table's state; confirming a round with
tables not all confirmed asks first (the page) or is refused with 409 unless forced (the API);
each answer is a recorded change in the history; a wrong link is a bare 404."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from games.models import Club
from games.services.hands import hand_edit
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import play_round, rummikub_hand, settings
from tournaments.models import Round, Table, TableAnswer, Tournament, TournamentChange
from tournaments.selectors import table_answers as answer_selectors
from tournaments.selectors import view as selectors
from tournaments.services.entries import entries_add
from tournaments.services.rounds import round_confirm
from tournaments.services.tournament_settings import tournament_create, tournament_update
from tournaments.table_answers import entry_key, own_path, table_sheet

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bára", "Cyril", "David", "Eva", "Filip"]


def _cup(visibility: str = Club.Visibility.PUBLIC, *, confirm: bool = True) -> tuple[Tournament, User]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    club.visibility = visibility
    club.save()
    made = settings("rummikub", table_min=3, table_max=3, table_preferred=3, table_confirm=confirm)
    cup = tournament_create(club=club, settings=made, user=organiser)
    entries_add(tournament=cup, names=NAMES, checked_in=True, user=organiser)
    return cup, organiser


def _text(page: bytes) -> str:
    return " ".join(html.unescape(strip_tags(page.decode())).split())


def _tables(played: Round) -> list[Table]:
    return list(Table.objects.filter(round=played).order_by("number").prefetch_related("seats"))


def _entries(table: Table) -> list[int]:
    return [s.entry_id for s in table.seats.order_by("position")]


def _answer(client: Client, cup: Tournament, entry: int, answer: str, word: str = "") -> Any:
    """A player opens his own link and taps an answer, as the page offers it."""
    url = own_path(cup, entry)
    page = client.get(url).content.decode()
    seen = re.search(r'name="seen" value="([^"]*)"', page)
    assert seen is not None, page
    data = {"seen": seen[1], "answer": answer, "word": word, "request_id": str(uuid.uuid4())}
    return client.post(url, data)


def _organiser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_three_phones_two_confirm_one_disputes_and_the_round_page_shows_each_table() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    first, second = _tables(played)
    a, b, c = _entries(first)
    phone = Client()  # no account
    assert _answer(phone, cup, a, "confirm").status_code == 302
    assert _answer(phone, cup, b, "confirm").status_code == 302
    page = phone.get(own_path(cup, a)).content
    assert "You confirmed these totals." in _text(page)
    assert "waiting: 2 of 3 confirmed" in _text(page)
    assert _answer(phone, cup, c, "dispute", "  Hand 1   wrong  ").status_code == 302
    assert "You disputed these totals: “Hand 1 wrong”." in _text(phone.get(own_path(cup, c)).content)
    for entry in _entries(second):
        assert _answer(phone, cup, entry, "confirm").status_code == 302

    round_page = _organiser(organiser).get(f"/t/{cup.public_id}/r/1/").content.decode()
    text = _text(round_page.encode())
    assert "Tables' results confirmed by the players: 1 · waiting: 0 · disputed: 1" in text
    card = round_page[round_page.index('id="table-1"') : round_page.index('id="table-2"')]
    assert "disputed" in card and "Hand 1 wrong" in card
    assert "confirmed by every player" in round_page[round_page.index('id="table-2"') :]
    # Those who see the club but do not run it see the state, not the word.
    public = Client().get(f"/t/{cup.public_id}/r/1/").content.decode()
    assert "disputed" in public and "Hand 1 wrong" not in public

    history = TournamentChange.objects.filter(tournament=cup, action__in=["result_ok", "disputed"])
    assert sorted(h.action for h in history) == [
        "disputed",
        "result_ok",
        "result_ok",
        "result_ok",
        "result_ok",
        "result_ok",
    ]
    shown = _text(_organiser(organiser).get(f"/t/{cup.public_id}/history/").content)
    assert "A player disputed his table's result" in shown and "Hand 1 wrong" in shown
    assert "the player, by his own link" in shown
    assert "Hand 1 wrong" not in _text(Client().get(f"/t/{cup.public_id}/history/").content)


def test_confirming_the_round_asks_first_about_tables_not_all_confirmed() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    first, second = _tables(played)
    phone = Client()
    for entry in _entries(second):
        _answer(phone, cup, entry, "confirm")
    _answer(phone, cup, _entries(first)[0], "confirm")
    client = _organiser(organiser)
    key = str(uuid.uuid4())
    asked = client.post(f"/t/{cup.public_id}/r/1/confirm/", {"version": played.version, "request_id": key})
    assert asked.status_code == 200
    text = _text(asked.content)
    assert "1 table has not confirmed its result:" in text
    assert "Table 1 · waiting: 1 of 3 confirmed" in text
    assert "Confirm anyway" in text
    played.refresh_from_db()
    assert played.status == Round.Status.PLAYING  # asking changed nothing
    done = client.post(
        f"/t/{cup.public_id}/r/1/confirm/", {"version": played.version, "request_id": key, "confirm": "1"}
    )
    assert done.status_code == 302
    played.refresh_from_db()
    assert played.status == Round.Status.CONFIRMED


def test_a_round_every_table_confirmed_is_confirmed_without_asking() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    phone = Client()
    for table in _tables(played):
        for entry in _entries(table):
            _answer(phone, cup, entry, "confirm")
    answer = _organiser(organiser).post(
        f"/t/{cup.public_id}/r/1/confirm/", {"version": played.version, "request_id": str(uuid.uuid4())}
    )
    assert answer.status_code == 302
    played.refresh_from_db()
    assert played.status == Round.Status.CONFIRMED


def test_a_confirmation_of_a_sheet_changed_since_does_not_count() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    first = _tables(played)[0]
    phone = Client()
    for entry in _entries(first):
        _answer(phone, cup, entry, "confirm")
    assert (
        "confirmed by every player" in _organiser(organiser).get(f"/t/{cup.public_id}/r/1/").content.decode()
    )
    # The table's scorekeeper corrects the hand: the totals the players confirmed are gone.
    assert first.game is not None
    hand = first.game.hands.get()
    names = [s.name for s in first.game.seats.all()]
    hand_edit(hand=hand, outcome=rummikub_hand(names, {names[1]: 40}), version=hand.version, user=organiser)
    page = _organiser(organiser).get(f"/t/{cup.public_id}/r/1/").content.decode()
    card = page[page.index('id="table-1"') : page.index('id="table-2"')]
    assert "waiting: 0 of 3 confirmed" in _text(card.encode())
    own = _text(phone.get(own_path(cup, _entries(first)[0])).content)
    assert "The score sheet changed since you answered: check the totals again." in own
    # A tap on the page as it was before the correction is refused, not counted.
    stale = phone.post(
        own_path(cup, _entries(first)[0]),
        {"seen": TableAnswer.objects.get(entry_id=_entries(first)[0]).seen, "answer": "confirm"},
    )
    assert stale.status_code == 400
    assert "changed while you looked" in _text(stale.content)
    # The organiser is asked about it before confirming.
    asked = _organiser(organiser).post(
        f"/t/{cup.public_id}/r/1/confirm/", {"version": played.version, "request_id": str(uuid.uuid4())}
    )
    assert "Table 1 · waiting: 0 of 3 confirmed" in _text(asked.content)
    # Confirmed again, it counts again.
    _answer(phone, cup, _entries(first)[0], "confirm")
    assert TableAnswer.objects.get(entry_id=_entries(first)[0]).seen == table_sheet(first).tag


@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.MEMBERS])
def test_a_wrong_or_forged_link_is_refused_and_reveals_nothing(visibility: str) -> None:
    cup, organiser = _cup(visibility)
    played = play_round(cup, 1, organiser, confirm=False)
    a, b, _c = _entries(_tables(played)[0])
    phone = Client()
    # His own link works without an account, even for a members-only club.
    assert phone.get(own_path(cup, a)).status_code == 200
    wrong = [
        f"/t/{cup.public_id}/p/{a}/{'0' * 24}/",
        f"/t/{cup.public_id}/p/{a}/{entry_key(cup, b)}/",  # another player's key
        f"/t/{cup.public_id}/p/{a}/{entry_key(cup, a)[:-1]}/",
        f"/t/nosuchcup/p/{a}/{entry_key(cup, a)}/",
    ]
    for url in wrong:
        for answer in (phone.get(url), phone.post(url, {"seen": "1:0", "answer": "confirm"})):
            assert answer.status_code == 404
            body = answer.content.decode()
            assert cup.name not in body and "Anna" not in body and "Bára" not in body
    assert not TableAnswer.objects.exists()
    assert not TournamentChange.objects.filter(action__in=["result_ok", "disputed"]).exists()
    # Another tournament's link for the same entry id is no key here.
    other, _o = _cup()
    assert phone.get(f"/t/{other.public_id}/p/{a}/{entry_key(cup, a)}/").status_code == 404


def test_refusals_each_say_why() -> None:
    cup, organiser = _cup()
    played = play_round(cup, 1, organiser, confirm=False)
    a = _entries(_tables(played)[0])[0]
    phone = Client()
    empty = _answer(phone, cup, a, "dispute", "   ")
    assert empty.status_code == 400
    assert "Say in a word or two what is wrong with the totals." in _text(empty.content)
    assert not TableAnswer.objects.exists()
    round_confirm(played=played, round_version=played.version, user=organiser)
    page = _text(phone.get(own_path(cup, a)).content)
    assert "You are not at a table of a round being played." in page


def test_the_setting_off_shows_no_answers_and_asks_nothing() -> None:
    cup, organiser = _cup(confirm=False)
    played = play_round(cup, 1, organiser, confirm=False)
    a = _entries(_tables(played)[0])[0]
    page = Client().get(own_path(cup, a)).content.decode()
    assert 'name="seen"' not in page
    round_page = _organiser(organiser).get(f"/t/{cup.public_id}/r/1/").content.decode()
    assert "confirmed by the players" not in round_page
    done = _organiser(organiser).post(
        f"/t/{cup.public_id}/r/1/confirm/", {"version": played.version, "request_id": str(uuid.uuid4())}
    )
    assert done.status_code == 302


def test_the_setting_is_in_the_settings_form_and_its_history() -> None:
    cup, organiser = _cup(confirm=False)
    client = _organiser(organiser)
    page = client.get(f"/t/{cup.public_id}/settings/").content.decode()
    assert "Players confirm their table's result" in _text(page.encode())
    changed = tournament_update(
        tournament=cup,
        settings=settings("rummikub", table_min=3, table_max=3, table_preferred=3, table_confirm=True),
        version=cup.version,
        user=organiser,
    )
    assert changed.table_confirm
    change = TournamentChange.objects.filter(tournament=cup, action="settings").first()
    assert change is not None and change.data["after"] == {"table_confirm": True}


@pytest.mark.parametrize("players", [6, 12])
def test_the_tables_answers_cost_one_query_whatever_the_round_and_a_players_own_table_a_few(
    players: int, django_assert_num_queries: Any
) -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    made = settings("rummikub", table_min=3, table_max=3, table_preferred=3, table_confirm=True)
    cup = tournament_create(club=club, settings=made, user=organiser)
    names = [*NAMES, "Gita", "Hana", "Igor", "Jana", "Karel", "Lída"][:players]
    entries_add(tournament=cup, names=names, checked_in=True, user=organiser)
    played = play_round(cup, 1, organiser, confirm=False)
    phone = Client()
    for table in _tables(played):
        _answer(phone, cup, _entries(table)[0], "confirm")
    view = selectors.tournament_view(tournament=cup).round(1)
    assert view is not None
    assert len(view.states) == players // 3
    with django_assert_num_queries(1):
        counts = view.agreement_counts
    assert counts == {"confirmed": 0, "waiting": players // 3, "disputed": 0}
    entry = cup.entries.select_related("player").get(pk=_entries(_tables(played)[0])[0])
    with django_assert_num_queries(5):
        found = answer_selectors.player_answer(tournament=cup, entry=entry)
    assert found is not None and found.state == "confirmed" and found.agreement.agreed == 1
