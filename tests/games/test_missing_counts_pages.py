"""The wrong elimination fixed through the pages, as a scorekeeper would:
correct hand 1, see Bob's counts missing and the totals incomplete, open the page that fills
them in, fill three counts with one save, see the totals complete; the history shows it all."""

from __future__ import annotations

import html as htmllib
import re
import uuid

import pytest
from django.test import Client

from games.models import Change, Game, Hand
from tests.factories import GameFactory
from tests.games.test_views import editor, totals

pytestmark = pytest.mark.django_db


def page(response) -> str:  # type: ignore[no-untyped-def]
    return htmllib.unescape(response.content.decode())


def alerts(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [m.strip() for m in re.findall(r'role="alert">\s*(?:<p>)?([^<]+)<', page(response)) if m.strip()]


def form_values(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The inputs of the page's hand form as a browser would send them (hidden ones included)."""
    html = response.content.decode()
    form = html[html.index('<form method="post" action="/g/') :]
    form = form[: form.index("</form>")]
    values = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and 'type="radio"' not in tag and 'type="checkbox"' not in tag:
            values[name.group(1)] = htmllib.unescape(value.group(1)) if value else ""
    return values


def record(client: Client, game: Game, **fields: str) -> None:
    response = client.post(f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), **fields})
    assert response.status_code == 302, alerts(response)


def wrong_evening() -> tuple[Client, Game]:
    """Ann, Bob, Cid at Žolíky to 100. Bob's 15 was typed as 150: the form then asked only Ann
    and Cid for hands 2-4."""
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    client = editor(game)
    record(client, game, closer="Ann", points_1="150", points_2="20")
    form = page(client.get(f"/g/{game.public_id}/"))
    assert 'name="points_1"' not in form  # Bob is out: no field for him
    record(client, game, closer="Cid", points_0="30")
    record(client, game, closer="Ann", points_2="25")
    record(client, game, closer="Cid", points_0="12")
    assert totals(client, game) == ["22", "150", "25"]
    return client, game


def test_fixing_a_wrong_elimination_through_the_pages() -> None:
    client, game = wrong_evening()
    # Correct hand 1: Bob had 15.
    correction = form_values(client.get(f"/g/{game.public_id}/hands/1/"))
    assert correction["points_1"] == "150"
    response = client.post(
        f"/g/{game.public_id}/hands/1/",
        {**correction, "closer": "Ann", "points_1": "15"},
        follow=True,
    )
    html = page(response)
    assert alerts(response) == []
    assert "Hand 1 corrected: Bob +150 → +15." in html
    assert "The totals are incomplete." in html
    assert "Bob's count missing in hands 2, 3, 4" in html
    assert html.count('<td class="missing">') == 3
    assert re.findall(r'<span class="total">([^<]+)</span>', html) == ["22", "15", "25"]
    assert '<span class="badge missing">incomplete</span>' in html
    assert "leads" not in html  # nobody leads while Bob's counts are missing
    # The new hand form asks Bob again: he is back at the table.
    assert 'name="points_1"' in html
    # The page that fills them in: one field for Bob per hand, one save.
    fill = client.get(f"/g/{game.public_id}/missing/")
    assert fill.status_code == 200
    values = form_values(fill)
    assert values["hands"] == "2,3,4"
    assert sorted(n for n in values if n.endswith(("points_0", "points_1", "points_2"))) == [
        "h2-points_1",
        "h3-points_1",
        "h4-points_1",
    ]
    assert 'name="closer"' not in page(fill)  # nothing else of the hands is asked again
    response = client.post(
        f"/g/{game.public_id}/missing/",
        {**values, "h2-points_1": "20", "h3-cards_1": "5S 3H", "h4-points_1": "31"},
        follow=True,
    )
    html = page(response)
    assert alerts(response) == []
    assert "Counts saved." in html
    assert "incomplete" not in html and '<td class="missing">' not in html
    assert totals(client, game) == ["22", "74", "25"]
    # The history: three marks and the correction, then a correction per filled hand.
    history = page(client.get(f"/g/{game.public_id}/history/"))
    assert history.count("Bob: count missing") == 6  # after of each mark, before of each fill
    assert history.count("This followed from a change to an earlier hand") == 3
    assert history.count("Undo this change") == 4 + 4  # four recordings, the correction, three fills
    # Undo the fill of hand 3 in the history: that hand misses Bob's count again.
    fill_3 = Change.objects.filter(game=game, hand_number=3).latest("id")
    response = client.post(f"/g/{game.public_id}/history/{fill_3.pk}/undo/", {"confirm": "1"}, follow=True)
    assert "Change undone." in page(response)
    assert "Bob's count missing in hand 3" in page(client.get(f"/g/{game.public_id}/"))


def test_a_bad_count_is_shown_at_its_field_and_nothing_is_saved() -> None:
    client, game = wrong_evening()
    correction = form_values(client.get(f"/g/{game.public_id}/hands/1/"))
    client.post(f"/g/{game.public_id}/hands/1/", {**correction, "closer": "Ann", "points_1": "15"})
    values = form_values(client.get(f"/g/{game.public_id}/missing/"))
    response = client.post(
        f"/g/{game.public_id}/missing/", {**values, "h2-points_1": "20", "h3-cards_1": "5S ZZ"}
    )
    assert response.status_code == 200
    html = page(response)
    messages = alerts(response)
    assert len(messages) == 1 and "ZZ" in messages[0]
    # The error sits in hand 3's section, and what was typed stays in the form.
    section = html[html.index('id="fill-3"') : html.index('id="fill-4"')]
    assert "ZZ" in section
    assert 'value="20"' in html
    assert [h.outcome.get("missing") for h in Hand.objects.filter(game=game)] == [
        None,
        ["Bob"],
        ["Bob"],
        ["Bob"],
    ]
    # Nothing typed: said so, nothing saved.
    response = client.post(f"/g/{game.public_id}/missing/", values)
    assert alerts(response) == ["Enter at least one count."]


def test_the_fill_page_after_another_phone_filled_or_for_a_viewer() -> None:
    client, game = wrong_evening()
    correction = form_values(client.get(f"/g/{game.public_id}/hands/1/"))
    client.post(f"/g/{game.public_id}/hands/1/", {**correction, "closer": "Ann", "points_1": "15"})
    values = form_values(client.get(f"/g/{game.public_id}/missing/"))
    other = editor(game)
    other_values = form_values(other.get(f"/g/{game.public_id}/missing/"))
    other.post(f"/g/{game.public_id}/missing/", {**other_values, "h2-points_1": "21"})
    # This phone's form still has hand 2's old version: refused once, shown again as it stands.
    response = client.post(f"/g/{game.public_id}/missing/", {**values, "h2-points_1": "20"})
    assert response.status_code == 200
    assert alerts(response) == [
        "Someone else saved hand 2 while you were editing it. Its current values are shown below; "
        "change them again if needed."
    ]
    assert 'id="fill-2"' not in page(response) and 'id="fill-3"' in page(response)
    # A double tap of the other phone's save lands once.
    again = other.post(f"/g/{game.public_id}/missing/", {**other_values, "h2-points_1": "21"})
    assert again.status_code == 302
    assert Change.objects.filter(game=game, hand_number=2).count() == 3  # recorded, marked, filled
    # Watching without the edit link: the gap is shown, but no way to fill it.
    viewer = Client()
    html = page(viewer.get(f"/g/{game.public_id}/"))
    assert "Bob's count missing in hands 3, 4" in html and f"/g/{game.public_id}/missing/" not in html
    assert viewer.get(f"/g/{game.public_id}/missing/").status_code == 403


def test_an_incomplete_zoliky_evening_is_not_settled() -> None:
    client, game = wrong_evening()
    correction = form_values(client.get(f"/g/{game.public_id}/hands/1/"))
    client.post(f"/g/{game.public_id}/hands/1/", {**correction, "closer": "Ann", "points_1": "15"})
    response = client.get(f"/g/{game.public_id}/settlement/", follow=True)
    assert response.redirect_chain[-1][0] == f"/g/{game.public_id}/"
    assert "Some counts are missing: fill them in before settling the evening." in page(response)


def test_a_correction_of_a_marked_hand_may_leave_the_count_missing() -> None:
    client, game = wrong_evening()
    correction = form_values(client.get(f"/g/{game.public_id}/hands/1/"))
    client.post(f"/g/{game.public_id}/hands/1/", {**correction, "closer": "Ann", "points_1": "15"})
    edit = client.get(f"/g/{game.public_id}/hands/3/")
    assert "Count missing: enter it, or leave it empty to fill it in later." in page(edit)
    values = form_values(edit)
    response = client.post(f"/g/{game.public_id}/hands/3/", {**values, "closer": "Ann", "points_2": "26"})
    assert response.status_code == 302, alerts(response)
    assert Hand.objects.get(game=game, number=3).outcome == {
        "closer": "Ann",
        "from_hand": False,
        "left": {"Cid": 26},
        "missing": ["Bob"],
    }
    # A new hand still needs every count, Bob's included.
    response = client.post(
        f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_2": "3"}
    )
    assert "Enter the points, or tap the cards left." in alerts(response)
