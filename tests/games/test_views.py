"""Pages and forms: access, every family's hand form, htmx and no-JS flows, errors at the field."""

import html as htmllib
import re
import uuid

import pytest
from django.test import Client

from games.models import Change, Game, Hand
from games.sheets import cache as sheet_cache
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def editor(game: Game) -> Client:
    """A browser that opened the game's edit link."""
    client = Client()
    response = client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    assert response.status_code == 302
    return client


def totals(client: Client, game: Game) -> list[str]:
    html = client.get(f"/g/{game.public_id}/").content.decode()
    return re.findall(r'<span class="total">([^<]+)</span>', html)


def errors(response) -> list[str]:  # type: ignore[no-untyped-def]
    return re.findall(r'class="error" role="alert">([^<]+)<', response.content.decode())


def new_game_data(client: Client, family: str, players: list[str], **options: str) -> dict[str, str]:
    """The new-game form as the browser would send it: defaults, with these players and options."""
    data = {f"player_{i + 1}": name for i, name in enumerate(players)} | {"first_dealer": "0"}
    page = client.get(f"/games/new/{family}/")
    for name, value in re.findall(r'name="(opt_\w+)"[^>]*?value="([^"]*)"', page.content.decode()):
        data.setdefault(name, value)
    for name in re.findall(r'name="(opt_\w+)"[^>]*checked', page.content.decode()):
        data[name] = "on"
    for select, value in re.findall(
        r'<select name="(opt_\w+)"[^>]*>.*?<option value="([^"]*)" selected', page.content.decode(), re.S
    ):
        data[select] = value
    data.update({f"opt_{k}": v for k, v in options.items()})
    return data


def start(client: Client, family: str, players: list[str], **options: str) -> Game:
    data = new_game_data(client, family, players, **options)
    response = client.post(f"/games/new/{family}/", data)
    assert response.status_code == 302, errors(response)
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def test_start_a_game_without_an_account_and_record_hands_without_js() -> None:
    client = Client()
    game = start(client, "zoliky", ["Ann", "Bob", "Cid"], joker_penalty="30")
    assert game.options["joker_penalty"] == 30 and game.owner is None
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "23", "cards_2": "KH 5S JK"},
    )
    assert response.status_code == 302
    assert totals(client, game) == ["−10", "23", "45"]  # joker 30 under this house rule


def test_htmx_save_answers_with_the_new_totals_and_a_fresh_form() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": "R7 B13"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="game-body"')
    assert "<html" not in html
    assert re.findall(r'<span class="total">([^<]+)</span>', html) == ["20", "−20"]
    assert "Hand 2" in html


def test_a_double_tap_records_one_hand() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    data = {"request_id": str(uuid.uuid4()), "knocker": "Ann", "points_0": "3", "points_1": "20"}
    client.post(f"/g/{game.public_id}/hands/", data)
    client.post(f"/g/{game.public_id}/hands/", data)
    assert Hand.objects.filter(game=game).count() == 1
    assert totals(client, game) == ["17", "0"]


@pytest.mark.parametrize(
    ("family", "players", "data", "message"),
    [
        ("zoliky", ["Ann", "Bob"], {"closer": "Ann", "cards_1": "KH 1X"}, '"1X" is not a card'),
        ("zoliky", ["Ann", "Bob"], {"closer": "Ann"}, "Enter the points, or tap the cards left."),
        (
            "gin",
            ["Ann", "Bob"],
            {"knocker": "Ann", "points_0": "12", "points_1": "20"},
            "Ann cannot knock with 12",
        ),
        ("carousel", ["Ann", "Bob"], {"knocker": "Ann", "out": "Bob", "points_0": "3"}, "not both"),
        (
            "rummikub",
            ["Ann", "Bob"],
            {"winner": "Ann", "points_0": "5", "points_1": "3"},
            "cannot have tiles left",
        ),
    ],
)
def test_bad_input_is_reported_at_the_form_and_nothing_is_recorded(
    family: str, players: list[str], data: dict[str, str], message: str
) -> None:
    game = GameFactory.create(family=family, players=players)
    client = editor(game)
    response = client.post(f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), **data})
    assert response.status_code == 200
    html = htmllib.unescape(response.content.decode())
    assert 'role="alert"' in html
    assert message in html
    assert not Hand.objects.exists()


def test_czech_errors_are_translated() -> None:
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob"])
    client = editor(game)
    response = client.post(
        f"/cs/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), "closer": "Ann"}
    )
    assert "Zadejte body, nebo naťukejte zbylé karty." in response.content.decode()


def test_a_stranger_sees_the_sheet_but_cannot_change_anything() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    owner = editor(game)
    owner.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    hand = Hand.objects.get()
    stranger = Client()
    page = stranger.get(f"/g/{game.public_id}/").content.decode()
    assert "17" in page and 'name="knocker"' not in page and game.edit_token not in page
    refused = stranger.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann"})
    assert refused.status_code == 403
    assert "edit link" in refused.content.decode()
    assert stranger.get(f"/g/{game.public_id}/hands/{hand.number}/").status_code == 403
    assert stranger.post(f"/g/{game.public_id}/hands/{hand.number}/delete/").status_code == 403
    change = Change.objects.get()
    assert stranger.post(f"/g/{game.public_id}/history/{change.pk}/undo/").status_code == 403
    assert stranger.get(f"/g/{game.public_id}/edit/{'x' * 43}/").status_code == 404
    assert stranger.get("/g/nosuchgame/").status_code == 404
    assert Hand.objects.count() == 1


def test_the_owner_can_edit_from_any_browser_after_logging_in() -> None:
    user = UserFactory.create()
    client = Client()
    client.force_login(user)
    game = start(client, "gin", ["Ann", "Bob"])
    assert game.owner == user
    other = Client()
    other.force_login(user)
    assert 'name="knocker"' in other.get(f"/g/{game.public_id}/").content.decode()
    assert Client().get(f"/g/{game.public_id}/hands/1/").status_code == 403


def test_correct_a_hand_and_see_totals_change_then_undo_from_history() -> None:
    game = GameFactory.create(family="carousel", players=["Ann", "Bob"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    assert totals(client, game) == ["17", "0"]
    edit_page = client.get(f"/g/{game.public_id}/hands/1/").content.decode()
    assert 'name="points_1" value="20"' in edit_page
    response = client.post(
        f"/g/{game.public_id}/hands/1/", {"version": "1", "knocker": "Ann", "points_0": "3", "points_1": "30"}
    )
    assert response.status_code == 302
    assert totals(client, game) == ["27", "0"]
    history = client.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Hand 1 corrected" in history and "Hand 1 recorded" in history
    edited = Change.objects.get(action="edited")
    client.post(f"/g/{game.public_id}/history/{edited.pk}/undo/")
    assert totals(client, game) == ["17", "0"]


def test_a_stale_correction_shows_a_message_and_the_current_values() -> None:
    game = GameFactory.create(family="carousel", players=["Ann", "Bob"])
    first, second = editor(game), editor(game)
    first.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", "points_0": "3", "points_1": "20"})
    first.post(
        f"/g/{game.public_id}/hands/1/", {"version": "1", "knocker": "Ann", "points_0": "3", "points_1": "30"}
    )
    response = second.post(
        f"/g/{game.public_id}/hands/1/", {"version": "1", "knocker": "Ann", "points_0": "3", "points_1": "40"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Someone else saved hand 1" in html
    assert 'name="points_1" value="30"' in html
    assert 'name="version" value="2"' in html
    assert totals(first, game) == ["27", "0"]


def test_delete_a_hand_and_restore_it() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"winner": "Ann", "points_1": "9"})
    client.post(f"/g/{game.public_id}/hands/1/delete/", {"version": "1"})
    assert totals(client, game) == ["0", "0"]
    change_undo = Change.objects.get(action="deleted")
    client.post(f"/g/{game.public_id}/history/{change_undo.pk}/undo/")
    assert totals(client, game) == ["9", "−9"]


def test_meld_check_says_why_not() -> None:
    game = GameFactory.create(family="zoliky")
    client = Client()
    ok = client.get(f"/g/{game.public_id}/check/", {"melds": "7H 8H 9H | KS KD JK", "opening": "1"})
    assert "Valid: 54 points." in ok.content.decode()
    low = client.get(
        f"/g/{game.public_id}/check/", {"melds": "2H 3H 4H", "opening": "1"}, HTTP_HX_REQUEST="true"
    )
    html = low.content.decode()
    assert html.lstrip().startswith('<div id="check-result"') and "42" in html and 'role="alert"' in html
    bad = client.get(f"/g/{game.public_id}/check/", {"melds": "KH AH 2H"})
    assert "corner" in bad.content.decode()


def test_card_count_preview() -> None:
    game = GameFactory.create(family="zoliky")
    html = Client().get(f"/g/{game.public_id}/count/", {"cards_0": "KH JK AS"}).content.decode()
    assert "= 36 points" in html
    assert "is not a card" in Client().get(f"/g/{game.public_id}/count/", {"cards_0": "ZZ"}).content.decode()


def test_zoliky_evening_ends_on_the_settlement_page() -> None:
    game = GameFactory.create(family="zoliky", options={"elimination": 0}, players=["Ann", "Bob", "Cid"])
    client = editor(game)
    client.post(f"/g/{game.public_id}/hands/", {"closer": "Ann", "points_1": "166", "points_2": "45"})
    response = client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1"})
    assert response["Location"] == f"/g/{game.public_id}/settlement/"
    html = client.get(response["Location"]).content.decode()
    # Crowns: Ann -10 -> -1, Bob 166 -> 17, Cid 45 -> 5 (rounded half up).
    assert re.findall(r"<td>(−?\d+)</td><td>(−?\d+)</td>", html) == [
        ("−10", "−1"),
        ("166", "17"),
        ("45", "5"),
    ]
    assert "Bob pays Ann" in html
    assert "Game over" in client.get(f"/g/{game.public_id}/").content.decode()


def test_no_request_makes_a_500() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    nasty = ["", "-1", "−1", "9" * 30, "x", "KH" * 200, "<script>", "JK=", "|||"]
    for value in nasty:
        for field in ("points_0", "cards_0", "melds", "knocker", "version", "request_id"):
            response = client.post(f"/g/{game.public_id}/hands/", {"knocker": "Ann", field: value})
            assert response.status_code in (200, 302), (field, value)
        assert client.get(f"/g/{game.public_id}/check/", {"melds": value}).status_code == 200
        assert client.get(f"/g/{game.public_id}/count/", {"cards_0": value}).status_code == 200
    assert client.post(f"/g/{game.public_id}/hands/1/", {"version": "x"}).status_code == 404
    assert client.get("/games/new/poker/").status_code == 404


def test_gin_hands_tapped_in_are_scored_with_layoffs() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {
            "knocker": "Ann",
            "cards_0": "AS 2S 3S 4H 5H 6H 9C 9D 9H KC",
            "cards_1": "4S 5S TH TD TC 7C 8C QD KD AD",
            "melds": "AS 2S 3S | 4H 5H 6H | 9C 9D 9H",
        },
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    # Bob lays off 4S then 5S onto A-2-3 of spades: 36 deadwood against Ann's 10.
    assert re.findall(r'<span class="total">([^<]+)</span>', html) == ["26", "0"]
    assert "Ann 10, Bob 36" in html and "4S 5S" in html


def test_gin_knock_with_undeclared_melds_that_leave_too_much_is_refused() -> None:
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    client = editor(game)
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {
            "knocker": "Ann",
            "cards_0": "AS 2S 3S 4H 5H 6H 9C 9D 9H KC",
            "cards_1": "4S 5S TH TD TC 7C 8C QD KD AD",
            "melds": "AS 2S 3S",
        },
    )
    assert 'role="alert"' in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize(("family", "seats"), [("zoliky", 6), ("gin", 2), ("carousel", 5), ("rummikub", 4)])
def test_the_new_game_form_offers_the_family_s_seats(family: str, seats: int) -> None:
    html = Client().get(f"/games/new/{family}/").content.decode()
    assert len(re.findall(r'name="player_\d"', html)) == seats


def test_recent_players_are_suggested_for_the_next_game() -> None:
    client = Client()
    start(client, "gin", ["Ola", "Kari"])
    html = client.get("/games/new/zoliky/").content.decode()
    assert '<option value="Ola">' in html and '<option value="Kari">' in html
    assert '<option value="Ola">' not in Client().get("/games/new/zoliky/").content.decode()


def test_a_flush_needs_the_ten_card_deal_and_is_then_accepted_by_the_meld_check() -> None:
    client = Client()
    data = new_game_data(client, "zoliky", ["Ann", "Bob"], hand_size="13")
    data["opt_flush"] = "on"
    response = client.post("/games/new/zoliky/", data)
    assert response.status_code == 200 and "10-card deal" in response.content.decode()
    game = GameFactory.create(family="zoliky", options={"flush": True, "hand_size": 10})
    html = client.get(
        f"/g/{game.public_id}/check/", {"melds": "2H 2H 5H 7H 9H TH JH QH KH AH"}
    ).content.decode()
    assert "flush" in html and "Valid: 76 points." in html


def test_sheet_and_history_number_hands_alike_after_a_delete() -> None:
    """After hand 1 is deleted, the hand that was 2 is "Hand 1" on the sheet, in its edit page
    and in the history; the deleted hand is shown at the place it would take back."""
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    for count in ("R1", "R2", "R3"):
        client.post(
            f"/g/{game.public_id}/hands/",
            {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": count},
        )
    first = Hand.objects.get(game=game, number=1)
    client.post(f"/g/{game.public_id}/hands/1/delete/", {"version": first.version})
    client.post(
        f"/g/{game.public_id}/hands/3/",
        {"version": 1, "winner": "Ann", "cards_1": "R9", "dealt_in": '["Ann", "Bob"]'},
    )
    sheet = client.get(f"/g/{game.public_id}/").content.decode()
    assert re.search(r'href="/g/[^"]+/hands/2/" aria-label="Correct hand 1">1 ', sheet)
    history = htmllib.unescape(client.get(f"/g/{game.public_id}/history/").content.decode())
    assert "Hand 2 corrected" in history  # number 3 is the sheet's hand 2
    assert "Hand 1 deleted" in history  # it would come back as hand 1
    # Numbers 1 (deleted) and 2 were both recorded as the first hand; number 3 as the second.
    assert history.count("Hand 1 recorded") == 2 and history.count("Hand 2 recorded") == 1


def test_an_htmx_save_scores_the_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved hand's answer is drawn from the scoring the save did, not a second one."""
    import games.selectors.sheets as sheets
    import games.services.ending as ending
    import games.services.hands as hands
    import games.services.results as results

    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)
    calls = {"n": 0}
    for module, name in (
        (sheets, "score_game"),
        (results, "score_game"),
        (hands, "rescore"),
        (ending, "rescore"),
    ):
        real = getattr(module, name)

        def counting(*args: object, _real=real, **kwargs: object) -> object:  # type: ignore[no-untyped-def]
            calls["n"] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)
    client.get(f"/g/{game.public_id}/")
    before = calls["n"]
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": "R7"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "Hand 2" in response.content.decode()
    # The save's own scoring draws the answer; the form's players come from the kept sheet.
    assert calls["n"] - before == 1


def test_an_htmx_save_costs_a_fixed_number_of_queries(  # type: ignore[no-untyped-def]
    django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    """Every phone at a table saves through this path: its queries are counted, and do not grow
    with the game's hands. The session; the game; then, under the game's lock, the hands (a
    resend is found among them), whether a deleted hand had this request id, the new hand, the
    seats, the scores, the results, the game's version and the change. Who is still in comes
    from the sheet this server kept of the game as it stands (the page the phone saved from,
    or the save before), else from the stored results: one query more."""
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = editor(game)

    def save() -> None:
        with django_capture_on_commit_callbacks(execute=True):  # the save's sheet is kept
            response = client.post(
                f"/g/{game.public_id}/hands/",
                {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": "R7"},
                HTTP_HX_REQUEST="true",
            )
        assert response.status_code == 200 and "saved" in response.content.decode()

    save()
    with django_assert_num_queries(15):
        save()
    for _ in range(5):
        save()
    with django_assert_num_queries(15):
        save()
    sheet_cache.forget_local()  # the next save reaches a server that never drew the game
    with django_assert_num_queries(16) as elsewhere:
        save()
    read = [q["sql"] for q in elsewhere.captured_queries if q["sql"].startswith("SELECT")]
    assert sum('FROM "games_result"' in sql for sql in read) == 1  # who is still in
    assert game.hands.count() == 9
    assert Game.objects.get(pk=game.pk).next_hand_number == 10
