"""What a club evening's organiser and players found wrong: settings after the final, the
reasons for shared places, the final on a player's page, names in each language's order, a
locked table's page and the count of checked-in players."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from games.models import Club
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.support import tournament
from tests.tournaments.test_finals import play
from tests.tournaments.test_settings_round_trip import _Form
from tournaments.services.final_stages import final_seat
from tournaments.services.round_seating import round_seat

pytestmark = pytest.mark.django_db


def zoliky_order(names: Sequence[str]) -> dict[str, object]:
    """The first player closes; the others keep 10, 20, 30 points in hand."""
    return {"closer": names[0], "left": {name: 10 * i for i, name in enumerate(names[1:], 1)}}


def organiser_club() -> tuple[User, Club, Client]:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    client = Client()
    client.force_login(user)
    return user, club, client


def text(page: bytes) -> str:
    return " ".join(strip_tags(page.decode()).split())


def form_data(client: Client, path: str) -> dict[str, list[str]]:
    page = client.get(path)
    assert page.status_code == 200
    form = _Form(path)
    form.feed(page.content.decode())
    data: dict[str, list[str]] = {}
    for name, value in form.data:
        data.setdefault(name, []).append(value.lstrip("\n"))
    return data


def test_settings_save_after_the_final_is_seated_but_rounds_stay_above_the_played() -> None:
    user, club, client = organiser_club()
    cup = tournament(club, user, players=9, family="zoliky", rounds=2, final="table", final_counts="decides")
    for number in (1, 2):
        play(round_seat(tournament=cup, number=number, user=user), user, zoliky_order)
    final_seat(tournament=cup, user=user, request_id=uuid.uuid4())
    path = f"/t/{cup.public_id}/settings/"
    data = form_data(client, path)
    assert data["rounds"] == ["2"]
    data["name"] = ["Evening cup"]
    data["final_counts"] = ["adds"]
    saved = client.post(path, data)
    assert saved.status_code == 302, text(saved.content)[-2000:]
    cup.refresh_from_db()
    assert (cup.name, cup.final_counts) == ("Evening cup", "adds")
    api = f"/api/v1/tournaments/{cup.public_id}/"
    current = client.get(api)
    patched = client.patch(
        api, {"name": "Evening final", "final_counts": "decides"}, content_type="application/json",
        HTTP_IF_MATCH=current["ETag"],
    )  # fmt: skip
    assert patched.status_code == 200, patched.content
    cup.refresh_from_db()
    assert (cup.name, cup.final_counts) == ("Evening final", "decides")
    # Fewer rounds than were played is still refused, at the field.
    data = form_data(client, path)
    data["rounds"] = ["1"]
    refused = client.post(path, data)
    assert refused.status_code == 200
    assert "2 rounds are seated already" in text(refused.content)
    cup.refresh_from_db()
    assert cup.rounds == 2
    # More rounds would be played after the final: refused until its seating is taken back.
    data["rounds"] = ["3"]
    refused = client.post(path, data)
    assert refused.status_code == 200 and "the number of rounds is fixed" in text(refused.content)


def gin_first_wins(names: Sequence[str]) -> dict[str, object]:
    return {"knocker": names[0], "deadwood": {names[0]: 0, names[1]: 30}}


def test_a_knockout_s_shared_place_says_they_went_out_in_the_same_round() -> None:
    user, club, client = organiser_club()
    cup = tournament(club, user, players=4, family="gin", rounds=1, final="knockout", final_size=4)
    play(round_seat(tournament=cup, number=1, user=user), user, gin_first_wins)
    for _stage in ("semi-finals", "final"):
        play(final_seat(tournament=cup, user=user), user, gin_first_wins)
    knockout = "Shared place: out in the same round of the knockout"
    for path in (f"/t/{cup.public_id}/standings/", f"/t/{cup.public_id}/screen/", f"/t/{cup.public_id}/"):
        page = text(client.get(path).content)
        assert "=3" in page, path
        assert knockout in page and "equal on every tie-break" not in page, path
    rows = client.get(f"/api/v1/tournaments/{cup.public_id}/standings/").json()["rows"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 3]
    assert [row["shared_by"] for row in rows] == [None, None, "knockout", "knockout"]
    page = text(client.get(f"/cs/t/{cup.public_id}/standings/").content)
    assert "Dělené místo: vypadli ve stejném kole vyřazovacích bojů" in page
    assert "shoda ve všech pomocných kritériích" not in page


def _rows(page: bytes) -> list[str]:
    """A player's rounds as the table shows them, one text per row."""
    body = page.decode().split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [text(row.encode()) for row in body.split("</tr>") if row.strip()]


def test_a_deciding_final_shows_the_place_it_decided_on_the_player_s_page() -> None:
    from tests.tournaments.test_finals import rummikub_order

    user, club, client = organiser_club()
    cup = tournament(club, user, players=6, rounds=1, final="table", final_size=4, final_counts="decides")
    play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    final = final_seat(tournament=cup, user=user)
    seats = list(final.tables.get().seats.order_by("position").values_list("entry_id", "entry__player__name"))
    # The last seed wins the final: first place, whatever his points.
    winner, name = seats[-1]
    play(final, user, rummikub_order, winners=[name])
    rows = _rows(client.get(f"/t/{cup.public_id}/p/{winner}/").content)
    assert rows[1].startswith("Final") and "Final place: 1" in rows[1], rows
    assert " 7 " not in f" {rows[1]} ", rows  # the table points the standings do not count
    body = client.get(f"/api/v1/tournaments/{cup.public_id}/players/{winner}/").json()
    final_row = body["rounds"][1]
    assert (final_row["points"], final_row["final_result"], final_row["final_place"]) == (None, "place", 1)
    assert body["rounds"][0]["final_result"] is None
    # The second seed came second at the final.
    second = seats[0][0]
    rows = _rows(client.get(f"/t/{cup.public_id}/p/{second}/").content)
    assert "Final place: 2" in rows[1], rows


def test_a_knockout_shows_who_went_through_and_where_the_losers_placed() -> None:
    user, club, client = organiser_club()
    cup = tournament(club, user, players=4, family="gin", rounds=1, final="knockout", final_size=4)
    play(round_seat(tournament=cup, number=1, user=user), user, gin_first_wins)
    semi = final_seat(tournament=cup, user=user)
    play(semi, user, gin_first_wins)
    tables = {
        t.number: list(t.seats.order_by("position").values_list("entry_id", flat=True))
        for t in semi.tables.all()
    }
    winner, loser = tables[1]
    assert "Through to the next stage" in _rows(client.get(f"/t/{cup.public_id}/p/{winner}/").content)[1]
    assert "Out" in _rows(client.get(f"/t/{cup.public_id}/p/{loser}/").content)[1]
    play(final_seat(tournament=cup, user=user), user, gin_first_wins)
    assert "Final place: =3" in _rows(client.get(f"/t/{cup.public_id}/p/{loser}/").content)[1]
    rows = _rows(client.get(f"/t/{cup.public_id}/p/{winner}/").content)
    assert "Through to the next stage" in rows[1] and "Final place: 1" in rows[2], rows


def test_a_locked_table_s_page_says_its_link_is_locked_and_offers_no_link() -> None:
    from tests.tournaments.test_finals import rummikub_order
    from tournaments.models import Table

    user, club, client = organiser_club()
    cup = tournament(club, user, players=4, rounds=2)
    played = play(round_seat(tournament=cup, number=1, user=user), user, rummikub_order)
    game = Table.objects.get(round=played).game
    assert game is not None and game.results_locked
    page = text(client.get(f"/g/{game.public_id}/").content)
    assert "Anyone with this link can change the score sheet" not in page
    assert "Share the link to record hands" not in page and "New edit link" not in page
    assert "Link to record hands" not in page
    assert "The table's round is confirmed, so its link no longer records hands" in page
    assert "Share the link to watch" in page  # watching still works
    # The organiser still corrects the results on this page.
    assert "A correction here changes the tournament's standings" in page
    # The round's page of table links says the same instead of offering dead links.
    links = text(client.get(f"/t/{cup.public_id}/r/1/links/").content)
    assert "links no longer record hands" in links and "Share the link" not in links


def test_a_dropped_out_player_is_not_counted_as_checked_in() -> None:
    from tournaments.models import Entry
    from tournaments.services.entries import entry_drop

    user, club, client = organiser_club()
    cup = tournament(
        club, user, players=9, family="zoliky", rounds=2, table_min=3, table_max=3, table_preferred=3
    )
    play(round_seat(tournament=cup, number=1, user=user), user, zoliky_order)
    entry = Entry.objects.filter(tournament=cup).first()
    assert entry is not None
    entry_drop(entry=entry, dropped=True, version=entry.version, user=user)
    for path in (f"/t/{cup.public_id}/players/", f"/t/{cup.public_id}/"):
        page = text(client.get(path).content)
        assert "9 players registered, 8 checked in." in page, path
        assert "8 players at these tables" in page, path
    body = client.get(f"/api/v1/tournaments/{cup.public_id}/").json()
    assert body["checked_in"] == 8


CZECH_ORDER = ["Cyril", "Hana", "Chrudoš", "Radek", "Řehoř", "Sára", "Šárka", "Zdeněk", "Žofie"]
ENGLISH_ORDER = ["Chrudoš", "Cyril", "Hana", "Radek", "Řehoř", "Sára", "Šárka", "Zdeněk", "Žofie"]


def _order(page: str, names: Sequence[str]) -> list[str]:
    return sorted(names, key=page.index)


def test_names_are_listed_in_the_page_language_s_alphabetical_order() -> None:
    user, club, client = organiser_club()
    shuffled = ["Žofie", "Zdeněk", "Šárka", "Řehoř", "Chrudoš", "Sára", "Radek", "Hana", "Cyril"]
    cup = tournament(club, user, players=shuffled, family="zoliky", rounds=2)
    # Standings before the first round: everyone shares the first place, listed by name.
    csv = client.get(f"/cs/t/{cup.public_id}/standings.csv").content.decode()
    assert _order(csv, shuffled) == CZECH_ORDER
    players = text(client.get(f"/cs/t/{cup.public_id}/players/").content)
    assert _order(players, shuffled) == CZECH_ORDER
    english = text(client.get(f"/en/t/{cup.public_id}/players/").content)
    assert _order(english, shuffled) == ENGLISH_ORDER
    round_seat(tournament=cup, number=1, user=user)
    printed = client.get(f"/cs/t/{cup.public_id}/r/1/print/").content.decode()
    by_name = printed.split('class="print-by-name"', 1)[1]
    assert _order(by_name, shuffled) == CZECH_ORDER, by_name[:3000]
    api = client.get(f"/api/v1/tournaments/{cup.public_id}/entries/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert [e["name"] for e in api["entries"]] == CZECH_ORDER


def test_the_merge_list_is_in_the_reader_s_alphabetical_order() -> None:
    from django.utils import translation

    from games.club_forms import MergeForm
    from games.models import Player

    _user, club, _client = organiser_club()
    for name in ["Žofie", "Zdeněk", "Řehoř", "Radek", "Anna"]:
        Player.objects.create(club=club, name=name, key=name.casefold(), loose_key=name.casefold())
    drop = Player.objects.get(club=club, name="Anna")
    with translation.override("cs"):
        form = MergeForm(drop=drop)
    keep = form.fields["keep"]
    assert [label for _value, label in keep.choices][1:] == ["Radek", "Řehoř", "Zdeněk", "Žofie"]  # type: ignore[attr-defined]
    chosen = MergeForm({"keep": Player.objects.get(name="Řehoř").pk}, drop=drop)
    chosen.is_valid()
    assert "keep" not in chosen.errors  # the queryset still accepts the choice


def test_a_season_lists_players_sharing_a_rank_in_the_page_language_s_order() -> None:
    from decimal import Decimal

    from games.models import Player
    from tests.tournaments.support import season_settings
    from tournaments.models import SeasonStanding
    from tournaments.services.seasons import season_create

    user, club, client = organiser_club()
    season = season_create(club=club, settings=season_settings(), user=user)
    shuffled = ["Žofie", "Zdeněk", "Šárka", "Řehoř", "Chrudoš", "Sára", "Radek", "Hana", "Cyril"]
    # Stored as the worker leaves them: everyone shares the first place (no game counted yet).
    for name in shuffled:
        player = Player.objects.create(club=club, name=name, key=name.casefold(), loose_key=name.casefold())
        SeasonStanding.objects.create(season=season, player=player, rank=1, points=Decimal(0))
    page = text(client.get(f"/cs/s/{season.public_id}/").content)
    assert _order(page, shuffled) == CZECH_ORDER
    english = text(client.get(f"/en/s/{season.public_id}/").content)
    assert _order(english, shuffled) == ENGLISH_ORDER
    csv = client.get(f"/cs/s/{season.public_id}/csv/").content.decode()
    assert _order(csv, shuffled) == CZECH_ORDER
