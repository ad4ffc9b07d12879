"""Clubs and players through their pages: create a club, invite and join, roles, club games
started from the roster ("did you mean"), results on the club and player pages, merge and its
undo, rename, claim, and every page in every language."""

from __future__ import annotations

import datetime
import html as htmllib
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone, translation

from games.forms import NewGameForm
from games.models import Club, ClubChange, Game, Hand, Invite, Membership, Player, Result, Seat
from games.services.clubs import invite_create, invite_revoke
from games.services.errors import ServiceError
from games.text.errors import error_message
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
Response = Any  # what the test client answers (a monkey-patched HttpResponse)

Role = Membership.Role
LANGUAGES = ["cs", "sk", "pl", "nb"]


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(response: Response) -> str:
    return htmllib.unescape(response.content.decode())


def shown_messages(response: Response) -> list[str]:
    """The messages above the page (after a redirect: follow=True)."""
    block = re.search(r'<ul class="messages" role="status">(.*?)</ul>', response.content.decode(), re.S)
    return (
        [htmllib.unescape(m) for m in re.findall(r"<li[^>]*>(.*?)</li>", block.group(1), re.S)]
        if block
        else []
    )


def refusal(response: Response) -> str:
    """What the page says about a refused write: its messages and its form's errors."""
    html = response.content.decode()
    alerts = re.findall(r'role="alert">(.*?)</(?:p|div)>', html, re.S)
    return htmllib.unescape(" ".join([*shown_messages(response), *alerts]))


def field_errors(response: Response) -> dict[str, list[str]]:
    """Errors shown at each field of a form page: {field id: [messages]}."""
    found: dict[str, list[str]] = {}
    for block in re.findall(r'<div class="field[^"]*">(.*?)</div>', response.content.decode(), re.S):
        field = re.search(r'id="id_(\w+)"', block)
        messages = re.findall(r'<p class="error" role="alert">(.*?)</p>', block, re.S)
        if field and messages:
            found[field.group(1)] = [htmllib.unescape(m) for m in messages]
    return found


def new_game_data(club: Club | None, players: list[str], family: str = "zoliky") -> dict[str, str]:
    """The new-game form as the browser sends it: default house rules, seats in order."""
    form = NewGameForm(family=family)
    data = {f"player_{i + 1}": name for i, name in enumerate(players)}
    data |= {"first_dealer": "0", "club": club.slug if club else ""}
    for field in form.option_fields():
        value = field.value()
        if value is True:
            data[field.name] = "on"
        elif value is not False and value is not None:
            data[field.name] = str(value)
    return data


def created_game(response: Response) -> Game:
    assert response.status_code == 302, field_errors(response)
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def club_with_keeper(name: str = "Tuesday club") -> tuple[Club, User, User]:
    organiser = UserFactory.create(username="organiser")
    club = ClubFactory.create(name=name, organiser=organiser)
    keeper = UserFactory.create(username="keeper")
    add_member(club, keeper, Role.SCOREKEEPER)
    return club, organiser, keeper


def played(game: Game, days_ago: int) -> Game:
    Game.objects.filter(pk=game.pk).update(played_at=timezone.now() - datetime.timedelta(days=days_ago))
    return game


# ---------------------------------------------------------------------- creating a club


def test_a_club_s_address_is_made_from_its_name() -> None:
    client = logged_in(UserFactory.create(username="olga"))
    response = client.post("/clubs/", {"name": "Úterní klub"}, follow=True)
    assert response.redirect_chain == [("/c/uterni-klub/", 302)]
    assert "Club Úterní klub created." in shown_messages(response)[0]
    club = Club.objects.get(slug="uterni-klub")
    assert club.name == "Úterní klub"
    assert Membership.objects.get(club=club).role == Role.ORGANISER
    again = client.post("/clubs/", {"name": "Úterní klub"})
    assert again.status_code == 302 and again["Location"] == "/c/uterni-klub-2/"
    assert Club.objects.filter(name="Úterní klub").count() == 2
    assert "Úterní klub" in page(client.get("/clubs/"))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field is required."),
        ("   ", "This field is required."),
        ("x" * 10_000, "At most 80 characters (this has 10000)."),
        ("\x07Bell club", "A name cannot contain control characters."),
        ("Null\x00club", "Null characters are not allowed."),
    ],
)
def test_a_bad_club_name_is_refused_at_the_field(name: str, message: str) -> None:
    client = logged_in(UserFactory.create())
    response = client.post("/clubs/", {"name": name})
    assert response.status_code == 200
    assert field_errors(response) == {"name": [message]}
    assert not Club.objects.exists()


# ---------------------------------------------------------------------- invites


def test_invite_sign_up_and_join() -> None:
    club, organiser, _keeper = club_with_keeper()
    boss = logged_in(organiser)
    response = boss.post(f"/c/{club.slug}/invites/", {"days": ""}, follow=True)
    assert shown_messages(response) == ["Invite link created. Share it with the new members."]
    invite = Invite.objects.get(club=club)
    # The members page shows the link to share, its token in the fragment (never sent).
    assert f"http://testserver/clubs/join/#{invite.token}" in page(response)

    # The phone opens /clubs/join/; the page's script posts the fragment's token, once.
    guest = Client()
    opened = page(guest.get("/clubs/join/"))
    assert 'name="token"' in opened and "js/edit_link.js" in opened
    posted = guest.post("/clubs/join/", {"token": invite.token})
    assert posted.status_code == 302 and posted["Location"] == "/clubs/join/"
    offer = page(guest.get("/clubs/join/"))
    assert invite.token not in offer
    assert 'href="/accounts/signup/?next=/clubs/join/"' in offer
    assert 'href="/accounts/login/?next=/clubs/join/"' in offer
    response = guest.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "password1": "Rummy-table-42",
            "password2": "Rummy-table-42",
            "next": "/clubs/join/",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/join/"
    newbie = User.objects.get(username="newbie")
    assert not Membership.objects.filter(user=newbie).exists()
    assert "Join Tuesday club" in page(guest.get("/clubs/join/"))
    joined = guest.post("/clubs/join/", follow=True)
    assert joined.redirect_chain == [(f"/c/{club.slug}/", 302)]
    assert shown_messages(joined) == ["Welcome to Tuesday club."]
    assert Membership.objects.get(club=club, user=newbie).role == Role.MEMBER
    assert Invite.objects.get(pk=invite.pk).uses == 1


def test_a_pasted_invite_link_opens_the_invite_and_a_dead_one_says_so() -> None:
    club, organiser, _keeper = club_with_keeper()
    invite = invite_create(club=club, user=organiser, days=None)
    guest = Client()
    posted = guest.post("/clubs/join/", {"token": f"http://192.168.1.5:8000/clubs/join/#{invite.token}"})
    assert posted.status_code == 302
    assert "Join Tuesday club" in page(guest.get("/clubs/join/"))
    invite_revoke(invite=invite)
    assert "Join Tuesday club" not in page(guest.get("/clubs/join/"))  # the session's invite is dead
    # Another invite opened while one is held: its page posts the new link's token.
    other = invite_create(
        club=ClubFactory.create(organiser=organiser, name="Friday club"), user=organiser, days=None
    )
    held = page(guest.post("/clubs/join/", {"token": other.token}, follow=True))
    assert "Join Friday club" in held
    assert 'id="edit-link-form"' in held and "js/edit_link.js" in held
    dead = guest.post("/clubs/join/", {"token": invite.token})
    assert dead.status_code == 404
    assert "This invite link is not valid any more." in page(dead)
    assert 'aria-invalid="true"' in page(dead)


def test_an_older_invite_link_with_its_token_in_the_path_still_works() -> None:
    club, organiser, _keeper = club_with_keeper()
    invite = invite_create(club=club, user=organiser, days=None)
    link = f"/clubs/join/{invite.token}/"

    # Opened without an account: offered to sign up or log in, and come back.
    guest = Client()
    offer = page(guest.get(link))
    assert f'href="/accounts/signup/?next={link}"' in offer
    assert f'href="/accounts/login/?next={link}"' in offer
    signup = guest.get(f"/accounts/signup/?next={link}")
    assert f'name="next" value="{link}"' in page(signup)
    response = guest.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "Rummy-table-42", "password2": "Rummy-table-42", "next": link},
    )
    assert response.status_code == 302 and response["Location"] == link
    newbie = User.objects.get(username="newbie")
    assert not Membership.objects.filter(user=newbie).exists()
    assert "Join Tuesday club" in page(guest.get(link))

    joined = guest.post(link, follow=True)
    assert joined.redirect_chain == [(f"/c/{club.slug}/", 302)]
    assert shown_messages(joined) == ["Welcome to Tuesday club."]
    assert Membership.objects.get(club=club, user=newbie).role == Role.MEMBER
    assert Invite.objects.get(pk=invite.pk).uses == 1

    # Joining again changes nothing.
    again = guest.post(link)
    assert again.status_code == 302
    assert Membership.objects.filter(club=club, user=newbie).count() == 1
    assert Invite.objects.get(pk=invite.pk).uses == 1
    assert "You are a member already." in page(guest.get(link))


def test_a_sign_up_does_not_send_the_user_to_another_site() -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "password1": "Rummy-table-42",
            "password2": "Rummy-table-42",
            "next": "https://evil.example/",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.parametrize("how", ["revoked", "expired", "unknown"])
def test_a_dead_invite_link_says_so_and_joins_nobody(how: str) -> None:
    club, organiser, _keeper = club_with_keeper()
    boss = logged_in(organiser)
    boss.post(f"/c/{club.slug}/invites/", {"days": "7"})
    invite = Invite.objects.get(club=club)
    if how == "revoked":
        response = boss.post(f"/c/{club.slug}/invites/{invite.pk}/revoke/", follow=True)
        assert shown_messages(response)[-1] == "Invite link revoked: it no longer lets anyone join."
        assert "/clubs/join/" not in page(response)
    elif how == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    link = f"/clubs/join/{invite.token if how != 'unknown' else 'x' * 43}/"
    newbie = UserFactory.create(username="newbie")
    for client in (Client(), logged_in(newbie)):
        shown = client.get(link)
        assert shown.status_code == 404
        assert "This invite link is not valid any more. Ask the organiser for a new one." in page(shown)
        assert "Tuesday club" not in page(shown)
        posted = client.post(link)
        assert posted.status_code == 404
        assert "This invite link is not valid any more." in page(posted)
    assert not Membership.objects.filter(user=newbie).exists()
    assert Invite.objects.get(pk=invite.pk).uses == 0


# ---------------------------------------------------------------------- roles


def role_form(html: str, membership: Membership) -> dict[str, str]:
    """The members page's role form of one member, as the browser would send it."""
    form = re.search(rf'action="(?:/\w\w)?/c/[\w-]+/members/{membership.pk}/role/"(.*?)</form>', html, re.S)
    assert form is not None
    hidden = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))
    return {"request_id": hidden["request_id"], "version": hidden["version"]}


def test_change_a_role_on_the_members_page() -> None:
    club, organiser, _keeper = club_with_keeper()
    extra = add_member(club, UserFactory.create(username="extra"))
    first_tab, second_tab = logged_in(organiser), logged_in(organiser)
    members = f"/c/{club.slug}/members/"
    html = page(first_tab.get(members))
    assert "extra" in html and "keeper" in html
    stale = role_form(page(second_tab.get(members)), extra)

    data = role_form(html, extra) | {"role": Role.SCOREKEEPER}
    response = first_tab.post(f"/c/{club.slug}/members/{extra.pk}/role/", data, follow=True)
    assert response.redirect_chain == [(members, 302)]
    assert shown_messages(response) == ["extra's role saved."]
    assert Membership.objects.get(pk=extra.pk).role == Role.SCOREKEEPER
    # The same form sent twice (a double tap) is one change.
    first_tab.post(f"/c/{club.slug}/members/{extra.pk}/role/", data)
    assert ClubChange.objects.filter(club=club, action=ClubChange.Action.ROLE).count() == 1

    # The second tab still shows the old role: refused, with a message.
    response = second_tab.post(
        f"/c/{club.slug}/members/{extra.pk}/role/", stale | {"role": Role.ORGANISER}, follow=True
    )
    assert shown_messages(response) == [
        "Someone changed extra's role meanwhile. Check the page and try again."
    ]
    assert Membership.objects.get(pk=extra.pk).role == Role.SCOREKEEPER

    # The history lists the change; undoing it gives the old role back.
    change = ClubChange.objects.get(club=club)
    assert "extra's role changed" in page(first_tab.get(f"/c/{club.slug}/history/"))
    response = first_tab.post(f"/c/{club.slug}/history/{change.pk}/undo/", follow=True)
    assert shown_messages(response) == ["Change undone."]
    assert Membership.objects.get(pk=extra.pk).role == Role.MEMBER


def test_the_last_organiser_cannot_be_demoted() -> None:
    club, organiser, _keeper = club_with_keeper()
    own = Membership.objects.get(club=club, user=organiser)
    client = logged_in(organiser)
    data = role_form(page(client.get(f"/c/{club.slug}/members/")), own) | {"role": Role.MEMBER}
    response = client.post(f"/c/{club.slug}/members/{own.pk}/role/", data, follow=True)
    assert shown_messages(response) == ["The club needs an organiser: make someone else an organiser first."]
    assert Membership.objects.get(pk=own.pk).role == Role.ORGANISER
    assert not ClubChange.objects.exists()


def test_service_errors_are_shown_in_the_page_s_language() -> None:
    """A club service's error, a refused invite and a refused name, on Czech pages."""
    club, organiser, keeper = club_with_keeper()
    own = Membership.objects.get(club=club, user=organiser)
    client = logged_in(organiser)
    data = role_form(page(client.get(f"/cs/c/{club.slug}/members/")), own) | {"role": Role.MEMBER}
    response = client.post(f"/cs/c/{club.slug}/members/{own.pk}/role/", data, follow=True)
    assert shown_messages(response) == [
        "Klub potřebuje organizátora: nejdřív udělejte organizátorem někoho jiného."
    ]
    with translation.override("cs"):  # the page shows exactly what the catalogue says
        assert shown_messages(response) == [
            error_message(ServiceError("last_organiser", "", member="organiser"))
        ]
    assert Membership.objects.get(pk=own.pk).role == Role.ORGANISER
    dead = Client().get(f"/cs/clubs/join/{'x' * 43}/")
    assert "Tento zvací odkaz už neplatí. Požádejte organizátora o nový." in page(dead)
    refused = logged_in(keeper).post("/cs/games/new/zoliky/", new_game_data(club, ["Ann", "\x07Bob"]))
    assert field_errors(refused) == {"player_2": ["Jméno nesmí obsahovat řídicí znaky."]}


# ---------------------------------------------------------------------- club games from the roster


def roster_club() -> tuple[Club, User, dict[str, Player]]:
    """A club whose players last played: Ann, Dana, Tomáš yesterday; Bob, Cid last week."""
    club, _organiser, keeper = club_with_keeper()
    played(GameFactory.create(club=club, players=["Ann", "Bob", "Cid"]), days_ago=7)
    played(GameFactory.create(club=club, players=["Tomáš", "Dana", "Ann"]), days_ago=1)
    return club, keeper, {p.name: p for p in Player.objects.filter(club=club)}


def test_the_new_game_page_offers_the_club_s_players_most_recent_first() -> None:
    club, keeper, _players = roster_club()
    html = page(logged_in(keeper).get(f"/games/new/zoliky/?club={club.slug}"))
    recent = ["Ann", "Dana", "Tomáš", "Bob", "Cid"]
    assert re.findall(r'data-seat-name="([^"]*)"', html) == recent
    datalist = re.search(r'<datalist id="recent-players">(.*?)</datalist>', html, re.S)
    assert datalist is not None
    assert re.findall(r'<option value="([^"]*)">', datalist.group(1)) == recent
    assert "A game of Tuesday club" in html
    assert f'name="club" value="{club.slug}"' in html
    # Another club's players or the keeper's own roster are not offered here.
    GameFactory.create(family="gin", owner=keeper, players=["Private", "Person"])
    assert "Private" not in page(logged_in(keeper).get(f"/games/new/zoliky/?club={club.slug}"))
    assert "Private" in page(logged_in(keeper).get("/games/new/zoliky/"))


def test_a_club_game_reuses_known_players_and_creates_new_ones() -> None:
    club, keeper, players = roster_club()
    client = logged_in(keeper)
    game = created_game(client.post("/games/new/zoliky/", new_game_data(club, ["tomáš ", "Eve", "  ann  "])))
    assert game.club == club and game.owner == keeper
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [s.name for s in seats] == ["Tomáš", "Eve", "Ann"]  # known players sit under their own names
    assert seats[0].player == players["Tomáš"] and seats[2].player == players["Ann"]
    eve = seats[1].player
    assert eve.club == club and eve.name == "Eve" and eve.owner is None
    assert Player.objects.filter(club=club).count() == 6


def test_did_you_mean_is_asked_once_then_saving_again_creates_the_player() -> None:
    club, keeper, players = roster_club()
    client = logged_in(keeper)
    data = new_game_data(club, ["Ann", "Tomas"])
    asked = client.post("/games/new/zoliky/", data)
    assert asked.status_code == 200
    assert field_errors(asked) == {
        "player_2": ["Did you mean Tomáš? Choose that name, or save again to add Tomas as a new player."]
    }
    assert Game.objects.filter(club=club).count() == 2
    confirmed = re.search(r'name="confirmed" value="([^"]*)"', asked.content.decode())
    assert confirmed is not None and set(confirmed.group(1).split("\n")) - {""} == {"tomas"}
    game = created_game(client.post("/games/new/zoliky/", data | {"confirmed": confirmed.group(1)}))
    tomas = Seat.objects.get(game=game, position=1).player
    assert tomas.name == "Tomas" and tomas != players["Tomáš"]
    # Choosing the known name instead needs no confirmation.
    created_game(client.post("/games/new/zoliky/", new_game_data(club, ["Ann", "Tomáš"])))


@pytest.mark.parametrize(
    ("seats", "field", "message"),
    [
        (["Ann", "x" * 10_000], "player_2", "A name can have at most 40 characters (this one has 10000)."),
        (["Ann\x00", "Bob"], "player_1", "Null characters are not allowed."),
        (["\x07Bob", "Ann"], "player_1", "A name cannot contain control characters."),
        (["Ann", "\u200b\u202e"], "player_2", "Enter a name."),
        (["Ann", "ann"], None, "ann is listed twice"),
    ],
)
def test_bad_seats_are_refused_with_a_message_and_no_game(
    seats: list[str], field: str | None, message: str
) -> None:
    club, keeper, _players = roster_club()
    response = logged_in(keeper).post("/games/new/zoliky/", new_game_data(club, seats))
    assert response.status_code == 200
    if field is not None:
        assert message in field_errors(response)[field]
    else:
        errors = re.search(r'<div class="errors" role="alert">(.*?)</div>', page(response), re.S)
        assert errors is not None and message in errors.group(1)
    assert Game.objects.count() == 2
    assert Player.objects.filter(club=club).count() == 5


@pytest.mark.parametrize(
    ("seats", "dealer_seat", "dealer"),
    [
        (["Ann", "", "Bob", "Cid"], 3, "Bob"),  # the chosen seat's player deals
        (["Ann", "  ", "", "Bob"], 4, "Bob"),
        (["Ann", "", "Bob", "Cid"], 2, "Bob"),  # an empty chosen seat: the next seated player
        (["", "Ann", "Bob"], 1, "Ann"),
        (["Ann", "Bob", "", ""], 4, "Ann"),  # past the last seated player: round to the first
    ],
)
def test_empty_seats_are_closed_up_and_the_first_dealer_stays_with_his_seat(
    seats: list[str], dealer_seat: int, dealer: str
) -> None:
    """Tapping a name off the roster can leave a gap: the seats close up in order, and the
    dealer chosen by seat is still the player who sat there."""
    club, keeper, _players = roster_club()
    data = new_game_data(club, seats) | {"first_dealer": str(dealer_seat - 1)}
    game = created_game(logged_in(keeper).post("/games/new/zoliky/", data))
    assert [s.name for s in Seat.objects.filter(game=game)] == [n for n in seats if n.strip()]
    assert Seat.objects.get(game=game, position=game.first_dealer).name == dealer


def test_a_name_that_grows_past_the_limit_when_normalised_is_refused_in_czech() -> None:
    """21 characters typed, 42 once in Unicode's composed form: the service's check answers,
    in the page's language (this message is in the Czech catalogue)."""
    club, keeper, _players = roster_club()
    response = logged_in(keeper).post("/cs/games/new/zoliky/", new_game_data(club, ["Ann", "\u0958" * 21]))
    assert response.status_code == 200
    [error] = field_errors(response)["player_2"]
    assert error.startswith("Jméno ") and error.endswith(" je příliš dlouhé (nejvýše 40 znaků).")
    assert Game.objects.count() == 2


# ---------------------------------------------------------------------- results on the pages


def finished_game(club: Club, keeper: User) -> Game:
    """Ann closes, Bob keeps 23 and Cid 45; the evening ends: Ann 1st, Bob 2nd, Cid 3rd."""
    client = logged_in(keeper)
    game = created_game(client.post("/games/new/zoliky/", new_game_data(club, ["Ann", "Bob", "Cid"])))
    response = client.post(
        f"/g/{game.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "23", "points_2": "45"},
    )
    assert response.status_code == 302
    response = client.post(f"/g/{game.public_id}/end/", {"ended": "1", "confirm": "1"})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.public_id}/settlement/"
    return game


def test_a_club_game_shows_on_the_club_page_with_results_and_player_links() -> None:
    club, _organiser, keeper = club_with_keeper()
    game = finished_game(club, keeper)
    people = {p.name: p.pk for p in Player.objects.filter(club=club)}
    html = page(Client().get(f"/c/{club.slug}/"))
    assert f'href="/g/{game.public_id}/"' in html
    results = re.findall(
        r'<li( class="winner")?><a href="/c/[\w-]+/players/(\d+)/">(\w+)</a> ([^<\s]+)', html
    )
    assert results == [
        (' class="winner"', str(people["Ann"]), "Ann", "−10"),
        ("", str(people["Bob"]), "Bob", "23"),  # penalty points: unsigned, as on the sheet
        ("", str(people["Cid"]), "Cid", "45"),
    ]
    assert "in progress" not in html
    # The game's page names its club.
    assert f'<a href="/c/{club.slug}/">Tuesday club</a>' in page(Client().get(f"/g/{game.public_id}/"))


def stats(html: str) -> dict[str, str]:
    return dict(re.findall(r'<span class="name">([^<]+)</span> <span class="total">([^<]+)</span>', html))


def test_a_player_page_sums_up_the_finished_games() -> None:
    club, _organiser, keeper = club_with_keeper()
    finished_game(club, keeper)
    people = {p.name: p for p in Player.objects.filter(club=club)}
    ann = page(Client().get(f"/c/{club.slug}/players/{people['Ann'].pk}/"))
    assert stats(ann) == {"Games": "1", "Wins": "1", "Average place": "1.00", "Opponents": "2"}
    by_rules = re.search(r'<th scope="row">Žolíky</th>((?:<td>[^<]*</td>)+)</tr>', ann)
    assert by_rules is not None
    cells = [c.replace("\u2212", "-") for c in re.findall(r"<td>([^<]*)</td>", by_rules.group(1))]
    assert cells == ["1", "1", "1.00", "-10.0"]  # games, wins, average place, points per hand
    assert "Most frequent opponents" in ann
    for name in ("Bob", "Cid"):
        assert f'<a href="/c/{club.slug}/players/{people[name].pk}/">{name}</a>' in ann
    assert "place 1 of 3" in ann
    cid = page(Client().get(f"/c/{club.slug}/players/{people['Cid'].pk}/"))
    assert stats(cid)["Games"] == "1" and stats(cid)["Wins"] == "0" and stats(cid)["Average place"] == "3.00"
    # An unfinished game is listed but not counted.
    other = created_game(logged_in(keeper).post("/games/new/zoliky/", new_game_data(club, ["Ann", "Bob"])))
    ann = page(Client().get(f"/c/{club.slug}/players/{people['Ann'].pk}/"))
    assert stats(ann)["Games"] == "1" and f"/g/{other.public_id}/" in ann and "in progress" in ann


# ---------------------------------------------------------------------- merge, rename, claim


def duplicate_club() -> tuple[Club, User, Game, dict[str, Player]]:
    """Tomáš was typed as "Tomas" in the second game (Tomas keeps 12 there)."""
    club, organiser, _keeper = club_with_keeper()
    GameFactory.create(club=club, players=["Ann", "Tomáš", "Bob"])
    second = GameFactory.create(club=club, players=["Ann", "Tomas", "Bob"])
    logged_in(organiser).post(
        f"/g/{second.public_id}/hands/",
        {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "12", "points_2": "7"},
    )
    return club, organiser, second, {p.name: p for p in Player.objects.filter(club=club)}


def test_merge_a_duplicate_from_its_page_then_undo_it_in_the_history() -> None:
    club, organiser, second, people = duplicate_club()
    tomas, tomas_real = people["Tomas"], people["Tomáš"]
    client = logged_in(organiser)
    assert "These names look alike:" in page(client.get(f"/c/{club.slug}/players/"))
    html = page(client.get(f"/c/{club.slug}/players/{tomas.pk}/"))
    assert "Merge into another player" in html
    assert f'<option value="{tomas_real.pk}">Tomáš</option>' in html

    response = client.post(
        f"/c/{club.slug}/players/{tomas.pk}/merge/",
        {"keep": str(tomas_real.pk), "version": str(tomas.version), "request_id": str(uuid.uuid4())},
        follow=True,
    )
    assert response.redirect_chain == [(f"/c/{club.slug}/players/{tomas_real.pk}/", 302)]
    assert shown_messages(response) == ["Tomas merged into Tomáš. You can undo this in the club's history."]
    merged = page(response)
    assert "(as Tomas)" in merged and merged.count(f"/g/{second.public_id}/") >= 1
    seat = Seat.objects.get(game=second, position=1)
    assert seat.name == "Tomas" and seat.player == tomas_real
    assert Result.objects.get(seat=seat).player == tomas_real
    # An old link to the duplicate leads to the player kept.
    old_link = client.get(f"/c/{club.slug}/players/{tomas.pk}/")
    assert old_link.status_code == 302 and old_link["Location"] == f"/c/{club.slug}/players/{tomas_real.pk}/"
    assert "These names look alike:" not in page(client.get(f"/c/{club.slug}/players/"))

    history = page(client.get(f"/c/{club.slug}/history/"))
    assert "Tomas merged into Tomáš" in history
    change = ClubChange.objects.get(club=club, action=ClubChange.Action.MERGED)
    response = client.post(f"/c/{club.slug}/history/{change.pk}/undo/", follow=True)
    assert shown_messages(response) == ["Change undone."]
    assert "Tomas separated from Tomáš again" in page(response)
    seat.refresh_from_db()
    assert seat.player == tomas
    result = Result.objects.get(seat=seat)
    assert result.player == tomas and result.total == 12
    assert client.get(f"/c/{club.slug}/players/{tomas.pk}/").status_code == 200
    # Undone once; a second undo of the same change is refused with a message.
    response = client.post(f"/c/{club.slug}/history/{change.pk}/undo/", follow=True)
    assert shown_messages(response) == ["The change was not undone: This change was already undone."]


def test_two_players_of_one_game_cannot_be_merged() -> None:
    club, organiser, _second, people = duplicate_club()
    client = logged_in(organiser)
    response = client.post(
        f"/c/{club.slug}/players/{people['Bob'].pk}/merge/",
        {"keep": str(people["Ann"].pk), "version": "1", "request_id": str(uuid.uuid4())},
        follow=True,
    )
    assert response.status_code == 200
    assert "Ann and Bob played in the same game, so they are two people and cannot be merged." in refusal(
        response
    )
    assert Player.objects.get(pk=people["Bob"].pk).merged_into is None


def test_rename_keeps_the_score_sheet_s_names() -> None:
    club, organiser, second, people = duplicate_club()
    client = logged_in(organiser)
    ann = people["Ann"]
    response = client.post(
        f"/c/{club.slug}/players/{ann.pk}/rename/",
        {"name": "Anna", "version": str(ann.version), "request_id": str(uuid.uuid4())},
        follow=True,
    )
    assert shown_messages(response) == [
        "Renamed to Anna. Old score sheets keep the name they were played under."
    ]
    assert "<h1>Anna</h1>" in page(response) and "(as Ann)" in page(response)
    sheet = page(client.get(f"/g/{second.public_id}/"))
    assert "Ann" in sheet and "Anna" not in sheet
    assert list(Seat.objects.filter(player=ann).values_list("name", flat=True).distinct()) == ["Ann"]
    # A name another player has is refused; the page says what to do.
    response = client.post(
        f"/c/{club.slug}/players/{ann.pk}/rename/",
        {"name": "bob", "version": "2", "request_id": str(uuid.uuid4())},
        follow=True,
    )
    assert response.status_code == 200
    assert "Bob is already a player here. To make them one, merge the two players." in refusal(response)
    # A stale page is refused too.
    response = client.post(
        f"/c/{club.slug}/players/{ann.pk}/rename/",
        {"name": "Annie", "version": "1", "request_id": str(uuid.uuid4())},
        follow=True,
    )
    assert response.status_code == 200
    assert "Someone changed Anna meanwhile. Check the page and try again." in refusal(response)
    assert Player.objects.get(pk=ann.pk).name == "Anna"


def test_claim_this_is_me_once_per_club() -> None:
    club, organiser, _second, people = duplicate_club()
    member = UserFactory.create(username="member")
    add_member(club, member)
    client = logged_in(member)
    bob = f"/c/{club.slug}/players/{people['Bob'].pk}/"
    assert "This is me" in page(client.get(bob))
    response = client.post(f"{bob}claim/", {"claim": "1"}, follow=True)
    assert shown_messages(response) == ["This is you now."]
    assert "This player is linked to your account." in page(response) and "This is not me" in page(response)
    assert Player.objects.get(pk=people["Bob"].pk).user == member
    assert "member</strong> — <a" in page(logged_in(organiser).get(f"/c/{club.slug}/members/"))

    ann = f"/c/{club.slug}/players/{people['Ann'].pk}/"
    response = client.post(f"{ann}claim/", {"claim": "1"}, follow=True)
    assert shown_messages(response) == ["You are already Bob in this club."]
    assert Player.objects.get(pk=people["Ann"].pk).user is None
    # Someone else cannot take Bob.
    other = UserFactory.create(username="other")
    add_member(club, other)
    response = logged_in(other).post(f"{bob}claim/", {"claim": "1"}, follow=True)
    assert shown_messages(response) == ["Bob is already claimed by another account."]
    assert "This is me" not in page(logged_in(other).get(bob))
    # Let go, and Ann can be claimed.
    response = client.post(f"{bob}claim/", {"claim": "0"}, follow=True)
    assert shown_messages(response) == ["The player is no longer linked to an account."]
    client.post(f"{ann}claim/", {"claim": "1"})
    assert Player.objects.get(pk=people["Ann"].pk).user == member


# ---------------------------------------------------------------------- every page, every language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_club_page_renders_in_every_language(language: str) -> None:
    club, organiser, second, people = duplicate_club()
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.MEMBERS)
    boss = logged_in(organiser)
    boss.post(f"/c/{club.slug}/invites/", {"days": "30"})
    invite = Invite.objects.get(club=club)
    client = logged_in(organiser)
    client.post(f"/c/{club.slug}/players/{people['Ann'].pk}/rename/", {"name": "Anna", "version": "1"})
    GameFactory.create(family="gin", owner=organiser, players=["Own", "Roster"])
    own = Player.objects.get(owner=organiser, name="Own")
    member = UserFactory.create(username="member")
    add_member(club, member)
    prefix = f"/{language}"
    organiser_pages = [
        "/clubs/",
        "/players/",
        f"/players/{own.pk}/",
        f"/c/{club.slug}/",
        f"/c/{club.slug}/players/",
        f"/c/{club.slug}/players/{people['Tomas'].pk}/",
        f"/c/{club.slug}/members/",
        f"/c/{club.slug}/history/",
        f"/c/{club.slug}/settings/",
        f"/games/new/?club={club.slug}",
        f"/games/new/zoliky/?club={club.slug}",
        f"/g/{second.public_id}/",
    ]
    for path in organiser_pages:
        response = client.get(prefix + path)
        assert response.status_code == 200, path
        assert f'<html lang="{language}">' in response.content.decode(), path
    member_client = logged_in(member)
    for path in [f"/c/{club.slug}/players/{people['Bob'].pk}/", f"/clubs/join/{invite.token}/"]:
        assert member_client.get(prefix + path).status_code == 200, path
    for path in [f"/clubs/join/{invite.token}/", f"/accounts/signup/?next=/clubs/join/{invite.token}/"]:
        assert Client().get(prefix + path).status_code == 200, path
    # Messages and errors of a form render too (a did-you-mean, a refused club name).
    asked = client.post(f"{prefix}/games/new/zoliky/", new_game_data(club, ["Anna", "Tomaš"]))
    assert asked.status_code == 200 and "player_2" in field_errors(asked)
    assert client.post(f"{prefix}/clubs/", {"name": "\x07"}).status_code == 200
    response = client.post(f"{prefix}/clubs/join/{'x' * 43}/")
    assert response.status_code == 404
    assert Hand.objects.filter(game=second).count() == 1
