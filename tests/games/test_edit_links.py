"""Edit links can be replaced, which ends the old one at once, also in the browsers that opened
it; who may replace them; and who sees whose name in a game's history."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Change, Club, Game, Hand, Membership
from games.services.access import LEGACY_SESSION_KEY, edit_url
from games.services.errors import ServiceError
from games.services.games import edit_link_renew
from games.services.hands import change_undo, hand_record
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member
from tests.games.test_views import start

pytestmark = pytest.mark.django_db
Role = Membership.Role


def open_link(client: Client, link: str) -> int:
    """Open an edit link in this browser as its page does (the token travels in the fragment,
    which the page's script posts); the status it answered."""
    return client.post(link.split("#")[0], {"token": link}).status_code


def open_edit_link(client: Client, game: Game) -> int:
    """Open the game's current edit link in this browser."""
    game.refresh_from_db()
    return open_link(client, edit_url(game))


def as_user(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post_hand(client: Client, game: Game) -> int:
    data = {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "12", "points_2": "7"}
    return client.post(f"/g/{game.public_id}/hands/", data).status_code


def renew(client: Client, game: Game, request_id: str | None = None) -> int:
    data = {"request_id": request_id or str(uuid.uuid4())}
    return client.post(f"/g/{game.public_id}/new-edit-link/", data).status_code


def test_a_new_edit_link_ends_the_old_one_also_for_browsers_that_opened_it() -> None:
    owner = UserFactory.create(username="owner")
    game = GameFactory.create(owner=owner)
    old_link, old_token = edit_url(game), game.edit_token
    phone = Client()
    assert open_edit_link(phone, game) == 302
    assert post_hand(phone, game) == 302

    assert renew(as_user(owner), game) == 302
    game.refresh_from_db()
    assert edit_url(game) != old_link

    # The phone that opened the old link can no longer write, nor open it again.
    assert post_hand(phone, game) == 403
    assert open_link(phone, old_link) == 404
    assert phone.get(f"/g/{game.public_id}/edit/{old_token}/").status_code == 404  # the older shape
    page = phone.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="closer"' not in page and game.edit_token not in page
    # The new link grants writing, also to the same phone.
    assert open_edit_link(phone, game) == 302
    assert post_hand(phone, game) == 302
    assert open_edit_link(Client(), game) == 302
    assert Hand.objects.filter(game=game).count() == 2

    # In the history (for everyone), without the token and without an undo button.
    [change] = Change.objects.filter(game=game, action=Change.Action.NEW_LINK)
    assert change.hand_number is None and change.user == owner
    assert change.before is None and change.after is None
    history = as_user(owner).get(f"/g/{game.public_id}/history/").content.decode()
    assert "New edit link made" in history and game.edit_token not in history
    assert f"/history/{change.pk}/undo/" not in history
    assert "New edit link made" in Client().get(f"/g/{game.public_id}/history/").content.decode()


def test_the_owner_s_page_offers_a_new_link_and_says_who_can_write() -> None:
    owner = UserFactory.create(username="owner", first_name="Olga")
    club = ClubFactory.create(name="Tuesday club")
    add_member(club, owner, Role.SCOREKEEPER)
    game = GameFactory.create(owner=owner, club=club)
    page = as_user(owner).get(f"/g/{game.public_id}/").content.decode()
    assert f"/g/{game.public_id}/new-edit-link/" in page
    assert "The old link stops working for everyone who has it" in page
    # A club game's starter writes as one of its scorekeepers: not named apart.
    assert "Olga, who started the game" not in page
    assert "the scorekeepers and organisers of Tuesday club" in page
    assert "anyone with this edit link" in page
    private = GameFactory.create(owner=owner)
    assert "Olga, who started the game" in as_user(owner).get(f"/g/{private.public_id}/").content.decode()
    # Someone who only holds the link may write, but not replace the link.
    phone = Client()
    open_edit_link(phone, game)
    page = phone.get(f"/g/{game.public_id}/").content.decode()
    assert game.edit_token in page and "/new-edit-link/" not in page
    assert renew(phone, game) == 403


@pytest.mark.parametrize(
    ("actor", "allowed"),
    [
        ("owner", True),
        # Who started a club's game and is no scorekeeper there (any more) does not.
        ("owner, a member", False),
        ("owner, no member", False),
        ("organiser", True),
        ("admin", True),
        ("scorekeeper", False),
        ("member", False),
        ("stranger", False),
        ("anonymous", False),
        ("link holder", False),
    ],
)
def test_who_may_make_a_new_link(actor: str, allowed: bool) -> None:
    owner = UserFactory.create(username="owner")
    organiser = UserFactory.create(username="organiser")
    club = ClubFactory.create(organiser=organiser)
    role = {"owner": Role.SCOREKEEPER, "owner, a member": Role.MEMBER}.get(actor)
    if role is not None:
        add_member(club, owner, role)
    users = {
        "owner": owner,
        "owner, a member": owner,
        "owner, no member": owner,
        "organiser": organiser,
        "admin": UserFactory.create(username="admin", is_superuser=True),
        "scorekeeper": add_member(club, UserFactory.create(username="keeper"), Role.SCOREKEEPER).user,
        "member": add_member(club, UserFactory.create(username="member")).user,
        "stranger": UserFactory.create(username="stranger"),
        "anonymous": None,
        "link holder": None,
    }
    game = GameFactory.create(owner=owner, club=club)
    token = game.edit_token
    client = as_user(users[actor])
    if actor == "link holder":
        open_edit_link(client, game)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert ("/new-edit-link/" in page) == allowed
    assert renew(client, game) == (302 if allowed else 403)
    game.refresh_from_db()
    assert (game.edit_token != token) == allowed
    assert Change.objects.filter(game=game, action=Change.Action.NEW_LINK).count() == int(allowed)


def test_a_new_link_for_a_game_nobody_has_answers_404() -> None:
    assert as_user(UserFactory.create()).post("/g/nosuchgame/new-edit-link/").status_code == 404


def test_the_browser_that_started_a_game_without_an_account_may_replace_its_link() -> None:
    starter = Client()
    game = start(starter, "zoliky", ["Ann", "Bob", "Cid"])
    assert game.owner is None
    friend = Client()
    open_edit_link(friend, game)
    assert renew(friend, game) == 403
    assert renew(starter, game) == 302
    # The starter keeps writing with the new link; the friend with the old one does not.
    assert post_hand(starter, game) == 302
    assert post_hand(friend, game) == 403


def test_a_resent_new_link_replaces_the_link_once() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    request_id = str(uuid.uuid4())
    client = as_user(owner)
    assert renew(client, game, request_id) == 302
    game.refresh_from_db()
    first = game.edit_token
    assert renew(client, game, request_id) == 302
    game.refresh_from_db()
    assert game.edit_token == first
    assert Change.objects.filter(game=game, action=Change.Action.NEW_LINK).count() == 1
    assert client.post(f"/g/{game.public_id}/new-edit-link/", {"request_id": "x"}).status_code == 400


def test_a_new_link_cannot_be_undone() -> None:
    game = GameFactory.create()
    old = game.edit_token
    change = edit_link_renew(game=game, user=None)
    with pytest.raises(ServiceError) as caught:
        change_undo(change=change, user=None)
    assert caught.value.code == "not_undoable"
    game.refresh_from_db()
    assert game.edit_token not in (old, "")


def test_a_session_from_before_links_could_be_replaced_works_until_the_first_new_link() -> None:
    """Sessions that remembered only the game's id keep writing after the upgrade, but a new
    link ends them like any other."""
    owner = UserFactory.create()
    game = GameFactory.create(owner=owner)
    phone = Client()
    session = phone.session
    session[LEGACY_SESSION_KEY] = [game.public_id]
    session.save()
    assert post_hand(phone, game) == 302
    other = Client()
    session = other.session
    session[LEGACY_SESSION_KEY] = [game.public_id]
    session.save()
    assert renew(as_user(owner), game) == 302
    assert post_hand(phone, game) == 403  # upgraded to the old token's digest
    assert post_hand(other, game) == 403  # never upgraded: a new link was made since


# ---------------------------------------------------------------------- names in the history


def test_the_public_history_names_no_account() -> None:
    owner = UserFactory.create(username="olga_k_1987")
    keeper = UserFactory.create(username="keeper_secret", first_name="Kája")
    club = ClubFactory.create(organiser=owner, name="Tuesday club")
    add_member(club, keeper, Role.SCOREKEEPER)
    game = GameFactory.create(owner=owner, club=club)
    for closer, user in (("Ann", owner), ("Bob", keeper), ("Cid", None)):
        left = {name: 5 for name in ("Ann", "Bob", "Cid") if name != closer}
        hand_record(game=game, outcome={"closer": closer, "left": left}, request_id=None, user=user)
    edit_link_renew(game=game, user=owner)
    url = f"/g/{game.public_id}/history/"

    for viewer in (Client(), as_user(UserFactory.create(username="stranger"))):
        page = viewer.get(url).content.decode()
        assert "olga_k_1987" not in page and "keeper_secret" not in page and "Kája" not in page
        assert page.count("a scorekeeper") == 3
        assert "someone with the edit link" in page
        game_page = viewer.get(f"/g/{game.public_id}/").content.decode()
        assert "olga_k_1987" not in game_page and "keeper_secret" not in game_page

    # Those who may write see who did what: the first name if set, else the username.
    page = as_user(keeper).get(url).content.decode()
    assert "olga_k_1987" in page and "Kája" in page and "keeper_secret" not in page
    assert "a scorekeeper" not in page
    assert Club.objects.count() == 1


def test_a_user_chooses_the_name_editors_see_in_the_history() -> None:
    owner = UserFactory.create(username="olga_k_1987")
    game = GameFactory.create(owner=owner)
    client = as_user(owner)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="display_name"' in page
    assert client.post("/accounts/profile/", {"display_name": "Olga\u200b "}).status_code == 302
    owner.refresh_from_db()
    assert owner.first_name == "Olga"  # cleaned like any name
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 5, "Cid": 5}}, request_id=None, user=owner
    )
    history = client.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Olga" in history and "olga_k_1987" not in history
    assert "Olga" not in Client().get(f"/g/{game.public_id}/history/").content.decode()
    # A name no one could read is refused at the field; an empty one means the user name again.
    refused = client.post("/accounts/profile/", {"display_name": "x" * 41})
    assert refused.status_code == 200 and "at most 40 characters" in refused.content.decode()
    client.post("/accounts/profile/", {"display_name": ""})
    owner.refresh_from_db()
    assert owner.first_name == ""
    assert Client().get("/accounts/profile/")["Location"].startswith("/accounts/login/")
