"""Who may do what on the club and player pages: one table row per (club, actor, action).

Actors: anonymous, a member, a scorekeeper, the club's organiser, another club's organiser and
a site admin (superuser, who acts as an organiser everywhere). Outcomes:

* ``OK``: 2xx/3xx (never the login page) and the write happened in the database;
* ``DENIED`` (403), ``GONE`` (404), ``LOGIN`` (redirect to the login page): nothing changed;
* ``NO_CLUB``: the new-game page answers 200 without offering the club (a game in its name is
  never created), so the page tells nobody the club exists.

A members-only club answers 404 on every page to everyone outside it, exactly as for an
address no club has.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.forms import NewGameForm
from games.models import Club, ClubChange, Game, Hand, Invite, Membership, Player, Result, Seat
from games.services.clubs import invite_create
from games.services.players import player_merge, player_rename
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
Response = Any  # what the test client answers (a monkey-patched HttpResponse)

Role = Membership.Role
PUBLIC, MEMBERS = Club.Visibility.PUBLIC, Club.Visibility.MEMBERS
ACTORS = ("anonymous", "member", "scorekeeper", "organiser", "outsider", "admin")

OK, DENIED, GONE, LOGIN, NO_CLUB = "ok", "403", "404", "login", "no club"


@dataclass
class World:
    club: Club
    users: dict[str, User | None]
    extra: Membership  # whose role is changed, who is removed
    game: Game  # a club game: Ann, Bob, Cid
    players: dict[str, Player]  # Ann, Bob, Cid (renamed Cidney), Dana (Cid's duplicate)
    invite: Invite
    change: ClubChange  # "Cid renamed to Cidney", to undo

    def client(self, actor: str) -> Client:
        client = Client()
        user = self.users[actor]
        if user is not None:
            client.force_login(user)
        return client


def build(visibility: str) -> World:
    organiser = UserFactory.create(username="organiser")
    club = ClubFactory.create(name="Tuesday club", organiser=organiser)
    if visibility != club.visibility:
        Club.objects.filter(pk=club.pk).update(visibility=visibility)
        club.refresh_from_db()
    member = UserFactory.create(username="member")
    add_member(club, member)
    scorekeeper = UserFactory.create(username="scorekeeper")
    add_member(club, scorekeeper, Role.SCOREKEEPER)
    outsider = UserFactory.create(username="outsider")
    ClubFactory.create(name="Thursday club", organiser=outsider)
    admin = UserFactory.create(username="admin", is_superuser=True, is_staff=True)
    extra = add_member(club, UserFactory.create(username="extra"))
    game = GameFactory.create(family="zoliky", club=club, players=["Ann", "Bob", "Cid"])
    GameFactory.create(family="zoliky", club=club, players=["Ann", "Bob", "Dana"])
    players = {p.name: p for p in Player.objects.filter(club=club)}
    change = player_rename(
        player=players["Cid"], name="Cidney", version=None, request_id=None, user=organiser
    )
    assert change is not None
    players = {p.name: p for p in Player.objects.filter(club=club)}
    return World(
        club=club,
        users={
            "anonymous": None,
            "member": member,
            "scorekeeper": scorekeeper,
            "organiser": organiser,
            "outsider": outsider,
            "admin": admin,
        },
        extra=extra,
        game=game,
        players=players,
        invite=invite_create(club=club, user=organiser, days=None),
        change=change,
    )


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row a club or player page could write."""
    return {
        "clubs": list(Club.objects.order_by("pk").values_list("pk", "name", "slug", "visibility", "version")),
        "memberships": list(
            Membership.objects.order_by("pk").values_list("pk", "club_id", "user_id", "role", "version")
        ),
        "invites": list(Invite.objects.order_by("pk").values_list("pk", "revoked_at", "uses", "expires_at")),
        "players": list(
            Player.objects.order_by("pk").values_list(
                "pk", "club_id", "owner_id", "name", "key", "user_id", "merged_into_id", "version"
            )
        ),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "player_id", "name")),
        "results": list(Result.objects.order_by("pk").values_list("pk", "player_id", "total", "place")),
        "club_changes": list(ClubChange.objects.order_by("pk").values_list("pk", "action", "undoes_id")),
        "games": list(
            Game.objects.order_by("pk").values_list("pk", "club_id", "owner_id", "ended", "edit_token")
        ),
        "hands": list(Hand.objects.order_by("pk").values_list("pk", "game_id", "number", "version")),
    }


def new_game_data(club: Club, players: list[str]) -> dict[str, str]:
    """The Žolíky new-game form as the browser sends it: default house rules, for ``club``."""
    form = NewGameForm(family="zoliky")
    data = {f"player_{i + 1}": name for i, name in enumerate(players)}
    data |= {"first_dealer": "0", "club": club.slug}
    for field in form.option_fields():
        value = field.value()
        if value is True:
            data[field.name] = "on"
        elif value is not False and value is not None:
            data[field.name] = str(value)
    return data


# ---------------------------------------------------------------------- the actions


@dataclass(frozen=True)
class Action:
    method: str
    url: Callable[[World], str]
    data: Callable[[World, Client], dict[str, str]]
    done: Callable[[World, str, Response], bool]  # the write happened / the page was shown


def nothing(w: World, c: Client) -> dict[str, str]:
    return {}


def shows_club(w: World, actor: str, response: Response) -> bool:
    return response.status_code == 200 and w.club.name in response.content.decode()


def club_offered(w: World, actor: str, response: Response) -> bool:
    html = response.content.decode()
    return response.status_code == 200 and f'name="club" value="{w.club.slug}"' in html


def refresh(obj: Any) -> Any:
    return type(obj).objects.get(pk=obj.pk)


ACTIONS: dict[str, Action] = {
    "GET club": Action("get", lambda w: f"/c/{w.club.slug}/", nothing, shows_club),
    "GET players": Action("get", lambda w: f"/c/{w.club.slug}/players/", nothing, shows_club),
    "GET player": Action(
        "get",
        lambda w: f"/c/{w.club.slug}/players/{w.players['Ann'].pk}/",
        nothing,
        lambda w, a, r: r.status_code == 200 and "<h1>Ann</h1>" in r.content.decode(),
    ),
    "GET members": Action("get", lambda w: f"/c/{w.club.slug}/members/", nothing, shows_club),
    "GET history": Action("get", lambda w: f"/c/{w.club.slug}/history/", nothing, shows_club),
    "GET settings": Action("get", lambda w: f"/c/{w.club.slug}/settings/", nothing, shows_club),
    "POST settings": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/settings/",
        lambda w, c: {
            "name": "Wednesday club",
            "slug": w.club.slug,
            "visibility": w.club.visibility,
            "version": str(w.club.version),
        },
        lambda w, a, r: refresh(w.club).name == "Wednesday club",
    ),
    "POST invite": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/invites/",
        lambda w, c: {"days": "7"},
        lambda w, a, r: Invite.objects.filter(club=w.club, expires_at__isnull=False).count() == 1,
    ),
    "POST revoke invite": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/invites/{w.invite.pk}/revoke/",
        nothing,
        lambda w, a, r: refresh(w.invite).revoked_at is not None,
    ),
    "POST role": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/members/{w.extra.pk}/role/",
        lambda w, c: {"role": Role.SCOREKEEPER, "version": "1", "request_id": str(uuid.uuid4())},
        lambda w, a, r: refresh(w.extra).role == Role.SCOREKEEPER,
    ),
    "POST remove member": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/members/{w.extra.pk}/remove/",
        nothing,
        lambda w, a, r: not Membership.objects.filter(pk=w.extra.pk).exists(),
    ),
    "POST rename": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/players/{w.players['Ann'].pk}/rename/",
        lambda w, c: {"name": "Anna", "version": "1", "request_id": str(uuid.uuid4())},
        lambda w, a, r: refresh(w.players["Ann"]).name == "Anna",
    ),
    "POST merge": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/players/{w.players['Dana'].pk}/merge/",
        lambda w, c: {
            "keep": str(w.players["Cidney"].pk),
            "version": str(w.players["Dana"].version),
            "request_id": str(uuid.uuid4()),
        },
        lambda w, a, r: (
            refresh(w.players["Dana"]).merged_into_id == w.players["Cidney"].pk
            and not Seat.objects.filter(player=w.players["Dana"]).exists()
        ),
    ),
    "POST claim": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/players/{w.players['Bob'].pk}/claim/",
        lambda w, c: {"claim": "1"},
        lambda w, a, r: w.users[a] is not None and refresh(w.players["Bob"]).user_id == w.users[a].pk,  # type: ignore[union-attr]
    ),
    "POST undo": Action(
        "post",
        lambda w: f"/c/{w.club.slug}/history/{w.change.pk}/undo/",
        nothing,
        lambda w, a, r: refresh(w.players["Cidney"]).name == "Cid",
    ),
    "GET new club game": Action(
        "get", lambda w: f"/games/new/zoliky/?club={w.club.slug}", nothing, club_offered
    ),
    "POST new club game": Action(
        "post",
        lambda w: "/games/new/zoliky/",
        lambda w, c: new_game_data(w.club, ["Ann", "Eve"]),
        lambda w, a, r: (
            Game.objects.filter(club=w.club).count() == 3
            and Player.objects.filter(club=w.club, name="Eve").exists()
        ),
    ),
    "POST hand": Action(
        "post",
        lambda w: f"/g/{w.game.public_id}/hands/",
        lambda w, c: {"request_id": str(uuid.uuid4()), "closer": "Ann", "points_1": "23", "points_2": "5"},
        lambda w, a, r: Hand.objects.filter(game=w.game).count() == 1,
    ),
    "POST new edit link": Action(
        "post",
        lambda w: f"/g/{w.game.public_id}/new-edit-link/",
        lambda w, c: {"request_id": str(uuid.uuid4())},
        lambda w, a, r: refresh(w.game).edit_token != w.game.edit_token,
    ),
    "POST join": Action(
        "post",
        lambda w: f"/clubs/join/{w.invite.token}/",
        nothing,
        lambda w, a, r: Membership.objects.filter(club=w.club, user=w.users[a]).exists(),
    ),
}

# ---------------------------------------------------------------------- the tables

# Organiser pages send the anonymous to log in first (whether the club exists or not, so the
# login page tells nobody that a members-only club does).
ORGANISERS_ONLY = (LOGIN, DENIED, DENIED, OK, DENIED, OK)
HIDDEN_ORGANISERS_ONLY = (LOGIN, DENIED, DENIED, OK, GONE, OK)

#                          anonymous  member   scorekeeper organiser outsider  admin
PUBLIC_TABLE: dict[str, tuple[str, ...]] = {
    "GET club": (OK, OK, OK, OK, OK, OK),
    "GET players": (OK, OK, OK, OK, OK, OK),
    "GET player": (OK, OK, OK, OK, OK, OK),
    "GET members": ORGANISERS_ONLY,
    "GET history": ORGANISERS_ONLY,
    "GET settings": ORGANISERS_ONLY,
    "POST settings": ORGANISERS_ONLY,
    "POST invite": ORGANISERS_ONLY,
    "POST revoke invite": ORGANISERS_ONLY,
    "POST role": ORGANISERS_ONLY,
    "POST remove member": ORGANISERS_ONLY,
    "POST rename": ORGANISERS_ONLY,
    "POST merge": ORGANISERS_ONLY,
    # Claiming is for real members: a site admin who is not one is refused.
    "POST claim": (LOGIN, OK, OK, OK, DENIED, DENIED),
    "POST undo": ORGANISERS_ONLY,
    "GET new club game": (NO_CLUB, NO_CLUB, OK, OK, NO_CLUB, OK),
    "POST new club game": (NO_CLUB, NO_CLUB, OK, OK, NO_CLUB, OK),
    "POST hand": (DENIED, DENIED, OK, OK, DENIED, OK),
    # The club game's edit link: replaced by the club's organisers (the game has no owner).
    "POST new edit link": (DENIED, DENIED, DENIED, OK, DENIED, OK),
    "POST join": (LOGIN, OK, OK, OK, OK, OK),
}
MEMBERS_TABLE: dict[str, tuple[str, ...]] = {
    "GET club": (GONE, OK, OK, OK, GONE, OK),
    "GET players": (GONE, OK, OK, OK, GONE, OK),
    "GET player": (GONE, OK, OK, OK, GONE, OK),
    "GET members": HIDDEN_ORGANISERS_ONLY,
    "GET history": HIDDEN_ORGANISERS_ONLY,
    "GET settings": HIDDEN_ORGANISERS_ONLY,
    "POST settings": HIDDEN_ORGANISERS_ONLY,
    "POST invite": HIDDEN_ORGANISERS_ONLY,
    "POST revoke invite": HIDDEN_ORGANISERS_ONLY,
    "POST role": HIDDEN_ORGANISERS_ONLY,
    "POST remove member": HIDDEN_ORGANISERS_ONLY,
    "POST rename": HIDDEN_ORGANISERS_ONLY,
    "POST merge": HIDDEN_ORGANISERS_ONLY,
    "POST claim": (LOGIN, OK, OK, OK, GONE, DENIED),
    "POST undo": HIDDEN_ORGANISERS_ONLY,
    "GET new club game": (NO_CLUB, NO_CLUB, OK, OK, NO_CLUB, OK),
    "POST new club game": (NO_CLUB, NO_CLUB, OK, OK, NO_CLUB, OK),
    # A game's page is public by its address; writing it needs a role (or the edit link).
    "POST hand": (DENIED, DENIED, OK, OK, DENIED, OK),
    "POST new edit link": (DENIED, DENIED, DENIED, OK, DENIED, OK),
    # The invite link is what lets an outsider in.
    "POST join": (LOGIN, OK, OK, OK, OK, OK),
}
assert set(PUBLIC_TABLE) == set(MEMBERS_TABLE) == set(ACTIONS)

ROWS = [
    pytest.param(visibility, actor, action, expected, id=f"{visibility}-{actor}-{action.replace(' ', '_')}")
    for visibility, table in ((PUBLIC, PUBLIC_TABLE), (MEMBERS, MEMBERS_TABLE))
    for action, outcomes in table.items()
    for actor, expected in zip(ACTORS, outcomes, strict=True)
]


@pytest.mark.parametrize(("visibility", "actor", "action", "expected"), ROWS)
def test_access(visibility: str, actor: str, action: str, expected: str) -> None:
    world = build(visibility)
    act = ACTIONS[action]
    client = world.client(actor)
    data = act.data(world, client)
    before = snapshot()
    url = act.url(world)
    response = client.post(url, data) if act.method == "post" else client.get(url)
    status = response.status_code
    if expected == OK:
        assert 200 <= status < 400, status
        assert "/accounts/login/" not in response.get("Location", "")
        assert act.done(world, actor, response), "the page answered, but the write did not happen"
        return
    if expected == DENIED:
        assert status == 403
    elif expected == GONE:
        assert status == 404
        assert world.club.name not in response.content.decode()
    elif expected == LOGIN:
        assert status == 302 and response["Location"].startswith("/accounts/login/?next=")
    elif expected == NO_CLUB:
        assert status == 200
        assert world.club.name not in response.content.decode()
        assert not act.done(world, actor, response)
    else:  # pragma: no cover
        raise AssertionError(expected)
    assert snapshot() == before, "a refused request changed the database"


# ---------------------------------------------------------------------- beyond the table


@pytest.mark.parametrize("visibility", [PUBLIC, MEMBERS])
@pytest.mark.parametrize("actor", ACTORS)
def test_the_game_s_edit_link_lets_anyone_record(visibility: str, actor: str) -> None:
    world = build(visibility)
    client = world.client(actor)
    game = world.game
    assert client.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    response = client.post(f"/g/{game.public_id}/hands/", ACTIONS["POST hand"].data(world, client))
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("actor", ["member", "scorekeeper"])
def test_a_member_may_leave_the_club_but_not_remove_others(actor: str) -> None:
    world = build(MEMBERS)
    client = world.client(actor)
    own = Membership.objects.get(club=world.club, user=world.users[actor])
    response = client.post(f"/c/{world.club.slug}/members/{own.pk}/remove/")
    assert response.status_code == 302 and response["Location"] == "/clubs/"
    assert not Membership.objects.filter(pk=own.pk).exists()
    # Out of a members-only club, its pages are gone for him.
    assert client.get(f"/c/{world.club.slug}/").status_code == 404


def test_the_last_organiser_cannot_leave() -> None:
    world = build(PUBLIC)
    own = Membership.objects.get(club=world.club, user=world.users["organiser"])
    before = snapshot()
    response = world.client("organiser").post(f"/c/{world.club.slug}/members/{own.pk}/remove/", follow=True)
    assert "The club needs an organiser" in response.content.decode()
    assert snapshot() == before


def _strip_tokens(html: str) -> str:
    html = re.sub(r'value="[A-Za-z0-9]{64}"', 'value=""', html)
    return re.sub(r'"X-CSRFToken": "[A-Za-z0-9]*"', "", html)


@pytest.mark.parametrize("actor", ["anonymous", "outsider"])
def test_a_members_only_club_answers_like_no_club_at_all(actor: str) -> None:
    """An outsider cannot tell a members-only club's address from an address nobody uses."""
    world = build(MEMBERS)
    client = world.client(actor)
    slug, ann = world.club.slug, world.players["Ann"].pk
    membership = world.extra.pk
    paths = [
        ("get", "/c/{}/"),
        ("get", "/c/{}/players/"),
        ("get", f"/c/{{}}/players/{ann}/"),
        ("get", "/c/{}/members/"),
        ("get", "/c/{}/history/"),
        ("get", "/c/{}/settings/"),
        ("post", "/c/{}/settings/"),
        ("post", "/c/{}/invites/"),
        ("post", f"/c/{{}}/invites/{world.invite.pk}/revoke/"),
        ("post", f"/c/{{}}/members/{membership}/role/"),
        ("post", f"/c/{{}}/members/{membership}/remove/"),
        ("post", f"/c/{{}}/players/{ann}/rename/"),
        ("post", f"/c/{{}}/players/{ann}/merge/"),
        ("post", f"/c/{{}}/players/{ann}/claim/"),
        ("post", f"/c/{{}}/history/{world.change.pk}/undo/"),
    ]
    # An old link to a merged player redirects members to the player kept, not outsiders.
    merged = world.players["Dana"]
    player_merge(
        keep=world.players["Cidney"],
        drop=merged,
        keep_version=None,
        drop_version=None,
        request_id=None,
        user=None,
    )
    paths.append(("get", f"/c/{{}}/players/{merged.pk}/"))
    before = snapshot()
    for method, path in paths:
        real = getattr(client, method)(path.format(slug))
        none = getattr(client, method)(path.format("no-such-club"))
        if actor == "anonymous" and real.status_code == 302:
            # Organiser pages ask the anonymous to log in first, for any address alike.
            assert none.status_code == 302, path
            assert real["Location"].replace(slug, "SLUG") == none["Location"].replace("no-such-club", "SLUG")
            assert real["Location"].startswith("/accounts/login/"), path
            continue
        assert (real.status_code, none.status_code) == (404, 404), path
        same = _strip_tokens(real.content.decode()).replace(slug, "SLUG")
        assert same == _strip_tokens(none.content.decode()).replace("no-such-club", "SLUG"), path
    # The new-game page for the club looks as for an unknown club.
    real = client.get(f"/games/new/zoliky/?club={slug}").content.decode()
    none = client.get("/games/new/zoliky/?club=no-such-club").content.decode()
    assert _strip_tokens(real).replace(slug, "SLUG") == _strip_tokens(none).replace("no-such-club", "SLUG")
    # The club's game is public by its address, but it does not name or link the club.
    page = client.get(f"/g/{world.game.public_id}/").content.decode()
    assert world.club.name not in page and f"/c/{slug}/" not in page
    assert snapshot() == before


def test_another_club_s_player_or_invite_is_not_reachable_through_this_club() -> None:
    world = build(PUBLIC)
    organiser = world.client("organiser")
    other_club = Club.objects.get(name="Thursday club")
    theirs = GameFactory.create(family="gin", club=other_club, players=["Xena", "Yuri"])
    xena = Player.objects.get(club=other_club, name="Xena")
    their_invite = invite_create(club=other_club, user=world.users["outsider"], days=None)  # type: ignore[arg-type]
    their_member = Membership.objects.get(club=other_club)
    before = snapshot()
    slug = world.club.slug
    assert organiser.get(f"/c/{slug}/players/{xena.pk}/").status_code == 404
    assert organiser.post(f"/c/{slug}/players/{xena.pk}/rename/", {"name": "X"}).status_code == 404
    assert organiser.post(f"/c/{slug}/invites/{their_invite.pk}/revoke/").status_code == 404
    assert organiser.post(f"/c/{slug}/members/{their_member.pk}/role/", {"role": "member"}).status_code == 404
    assert organiser.post(f"/c/{slug}/members/{their_member.pk}/remove/").status_code == 404
    # Merging into another club's player is not offered, and a forged choice is refused.
    dana = world.players["Dana"]
    response = organiser.post(
        f"/c/{slug}/players/{dana.pk}/merge/", {"keep": str(xena.pk), "version": str(dana.version)}
    )
    assert response.status_code in (200, 302)  # the form again, or back to the page with a message
    assert Player.objects.get(pk=dana.pk).merged_into_id is None
    # A club player is not reachable as a private-roster player, nor the reverse.
    assert organiser.get(f"/players/{world.players['Ann'].pk}/").status_code == 404
    assert theirs.club_id == other_club.pk
    assert snapshot() == before


# ---------------------------------------------------------------------- private rosters


def test_a_private_roster_player_is_seen_by_its_owner_and_the_admin_only() -> None:
    owner = UserFactory.create(username="owner")
    stranger = UserFactory.create(username="stranger")
    admin = UserFactory.create(username="admin", is_superuser=True, is_staff=True)
    organiser = UserFactory.create(username="organiser")
    ClubFactory.create(name="Tuesday club", organiser=organiser)
    GameFactory.create(family="gin", owner=owner, players=["Ann", "Bob"])
    ann = Player.objects.get(owner=owner, name="Ann")
    url = f"/players/{ann.pk}/"

    def as_(user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    assert as_(owner).get(url).status_code == 200
    assert as_(admin).get(url).status_code == 200
    for user in (None, stranger, organiser):
        assert as_(user).get(url).status_code == 404
    # Only its owner renames it; the admin sees it but has no roster to manage there.
    before = snapshot()
    assert as_(None).post(f"{url}rename/", {"name": "Anna"})["Location"].startswith("/accounts/login/")
    assert as_(stranger).post(f"{url}rename/", {"name": "Anna"}).status_code == 404
    assert as_(admin).post(f"{url}rename/", {"name": "Anna"}).status_code == 403
    assert snapshot() == before
    assert as_(owner).post(f"{url}rename/", {"name": "Anna", "version": "1"}).status_code == 302
    assert Player.objects.get(pk=ann.pk).name == "Anna"
    # The roster page needs an account.
    response = as_(None).get("/players/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert "Anna" in as_(owner).get("/players/").content.decode()
    assert "Anna" not in as_(stranger).get("/players/").content.decode()


def test_a_player_of_a_game_without_an_account_has_no_page() -> None:
    starter = Client()
    game = GameFactory.create(family="gin", players=["Ann", "Bob"])
    assert starter.get(f"/g/{game.public_id}/edit/{game.edit_token}/").status_code == 302
    ann = Player.objects.get(seats__game=game, name="Ann")
    assert ann.owner_id is None and ann.club_id is None
    user = UserFactory.create(username="someone")
    admin = UserFactory.create(username="admin", is_superuser=True, is_staff=True)
    assert (
        Client()
        .post(f"/players/{ann.pk}/rename/", {"name": "Anna"})["Location"]
        .startswith("/accounts/login/")
    )
    clients = [starter, Client()]
    for account in (user, admin):
        client = Client()
        client.force_login(account)
        clients.append(client)
    before = snapshot()
    for client in clients:
        assert client.get(f"/players/{ann.pk}/").status_code == 404
    for client in clients[2:]:
        assert client.post(f"/players/{ann.pk}/rename/", {"name": "Anna"}).status_code == 404
    assert snapshot() == before


# ---------------------------------------------------------------------- pages that need an account


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/clubs/"), ("post", "/clubs/"), ("get", "/players/")],
)
def test_account_pages_send_the_anonymous_to_the_login_page(method: str, path: str) -> None:
    before = snapshot()
    response = getattr(Client(), method)(path, {"name": "Sneaky club"} if method == "post" else {})
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"
    assert snapshot() == before
