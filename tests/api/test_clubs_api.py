"""Clubs and players over HTTP: who sees what (public and members-only clubs, per role and
token scope), the roster, a player's summary, and the organisers' rename and merge with
If-Match and Idempotency-Key."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import ApiToken, Club, ClubChange, Membership, Player, Seat
from games.services.tokens import token_create
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"
Role = Membership.Role


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["status"] == status
    return body


def session(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def bearer(user: User, scope: str) -> APIClient:
    _row, token = token_create(user=user, name="t", scope=scope)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


class World:
    """A public and a members-only club, each with an organiser, a scorekeeper, a member."""

    def __init__(self) -> None:
        self.organiser = UserFactory.create(username="org")
        self.scorekeeper = UserFactory.create(username="keeper")
        self.member = UserFactory.create(username="mem")
        self.outsider = UserFactory.create(username="out")
        self.public = ClubFactory.create(name="Open table", organiser=self.organiser)
        self.private = ClubFactory.create(name="Back room", organiser=self.organiser)
        Club.objects.filter(pk=self.private.pk).update(visibility=Club.Visibility.MEMBERS)
        self.private.refresh_from_db()
        for club in (self.public, self.private):
            add_member(club, self.scorekeeper, Role.SCOREKEEPER)
            add_member(club, self.member, Role.MEMBER)
        self.game = GameFactory.create(club=self.public, players=["Ann", "Bob", "Cid"], owner=self.organiser)
        GameFactory.create(club=self.private, players=["Dan", "Eve"], family="gin", owner=self.organiser)
        self.ann = Player.objects.get(club=self.public, name="Ann")
        self.bob = Player.objects.get(club=self.public, name="Bob")
        self.dan = Player.objects.get(club=self.private, name="Dan")

    def client(self, who: str) -> APIClient:
        if who == "anonymous":
            return APIClient()
        user = {
            "organiser": self.organiser,
            "scorekeeper": self.scorekeeper,
            "member": self.member,
            "outsider": self.outsider,
        }[who]
        return session(user)


@pytest.fixture
def world() -> World:
    return World()


def slugs(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["slug"] for row in response.json()["results"]]


# ---------------------------------------------------------------------- clubs


def test_club_list_per_role(world: World) -> None:
    assert slugs(world.client("anonymous").get("/api/v1/clubs/")) == [world.public.slug]
    assert slugs(world.client("outsider").get("/api/v1/clubs/")) == [world.public.slug]
    rows = world.client("member").get("/api/v1/clubs/").json()["results"]
    assert {r["slug"]: r["role"] for r in rows} == {world.public.slug: "member", world.private.slug: "member"}
    assert set(slugs(world.client("organiser").get("/api/v1/clubs/"))) == {
        world.public.slug,
        world.private.slug,
    }
    admin = User.objects.create_superuser("root", "root@example.com", "x-Secret-123")
    rows = session(admin).get("/api/v1/clubs/").json()["results"]
    assert len(rows) == 2 and all(r["role"] == "organiser" for r in rows)


def test_club_detail_hides_members_only_clubs(world: World) -> None:
    url = f"/api/v1/clubs/{world.private.slug}/"
    for who in ("anonymous", "outsider"):
        assert_problem(world.client(who).get(url), 404, "not_found")
    body = world.client("scorekeeper").get(url).json()
    assert body == {
        "name": "Back room",
        "slug": world.private.slug,
        "visibility": "members",
        "provisional_games": 5,
        "inactive_days": 180,
        "role": "scorekeeper",
    }
    public = world.client("anonymous").get(f"/api/v1/clubs/{world.public.slug}/").json()
    assert public["visibility"] == "public" and public["role"] is None
    assert_problem(world.client("member").get("/api/v1/clubs/nope/"), 404, "not_found")


def test_tokens_read_clubs(world: World) -> None:
    for scope in (ApiToken.Scope.READ, ApiToken.Scope.WRITE):
        client = bearer(world.member, scope)
        assert world.private.slug in slugs(client.get("/api/v1/clubs/"))
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Bearer {world.game.edit_token}")
    assert slugs(link.get("/api/v1/clubs/")) == [world.public.slug]
    assert_problem(link.get(f"/api/v1/clubs/{world.private.slug}/"), 404, "not_found")


# ---------------------------------------------------------------------- roster and players


def test_roster_and_search(world: World) -> None:
    url = f"/api/v1/clubs/{world.public.slug}/players/"
    body = world.client("anonymous").get(url).json()
    assert [(r["name"], r["games"]) for r in body["results"]] == [("Ann", 1), ("Bob", 1), ("Cid", 1)]
    assert body["results"][0]["claimed"] is False
    found = world.client("anonymous").get(url, {"q": "bo"}).json()["results"]
    assert [r["id"] for r in found] == [world.bob.pk]
    assert_problem(world.client("anonymous").get(url, {"q": "x" * 41}), 400, "invalid")
    assert_problem(world.client("anonymous").get(url, {"page_size": "null"}), 400, "invalid")
    assert_problem(world.client("anonymous").get("/api/v1/clubs/", {"page_size": "2x"}), 400, "invalid")
    assert_problem(world.client("anonymous").get("/api/v1/clubs/", {"page_size": "0"}), 400, "invalid")
    assert_problem(world.client("anonymous").get(url, {"cursor": "nonsense"}), 404, "not_found")
    paged = world.client("anonymous").get(url, {"page_size": 2}).json()
    assert len(paged["results"]) == 2 and paged["next"]
    rest = world.client("anonymous").get(paged["next"]).json()
    assert [r["name"] for r in rest["results"]] == ["Cid"]


def test_members_only_roster_and_player(world: World) -> None:
    roster = f"/api/v1/clubs/{world.private.slug}/players/"
    player = f"/api/v1/clubs/{world.private.slug}/players/{world.dan.pk}/"
    for who in ("anonymous", "outsider"):
        assert_problem(world.client(who).get(roster), 404, "not_found")
        assert_problem(world.client(who).get(player), 404, "not_found")
    assert world.client("member").get(roster).status_code == 200
    assert world.client("member").get(player).json()["name"] == "Dan"


def test_player_summary(world: World) -> None:
    response = world.client("anonymous").get(f"/api/v1/clubs/{world.public.slug}/players/{world.ann.pk}/")
    assert response.status_code == 200
    assert response["ETag"] == f'"player-{world.ann.pk}-v{world.ann.version}"'
    body = response.json()
    assert body["id"] == world.ann.pk and body["club"] == world.public.slug and body["merged_into"] is None
    assert body["games"] == 0 and body["average_place"] is None
    assert body["recent"][0]["game"] == world.game.public_id and body["recent"][0]["players"] == 3
    # a player of another club, or of none, is not at this address
    other = f"/api/v1/clubs/{world.public.slug}/players/{world.dan.pk}/"
    assert_problem(world.client("organiser").get(other), 404, "not_found")
    assert_problem(
        world.client("organiser").get(f"/api/v1/clubs/{world.public.slug}/players/999999/"), 404, "not_found"
    )


# ---------------------------------------------------------------------- rename


def rename(client: APIClient, world: World, player: Player, name: str, **headers: Any) -> Any:
    return client.patch(
        f"/api/v1/clubs/{player.club.slug}/players/{player.pk}/",  # type: ignore[union-attr]
        {"name": name},
        format="json",
        **headers,
    )


def tag(player: Player) -> str:
    player.refresh_from_db()
    return f'"player-{player.pk}-v{player.version}"'


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 401), ("outsider", 403), ("member", 403), ("scorekeeper", 403)]
)
def test_only_organisers_rename(world: World, who: str, status: int) -> None:
    response = rename(world.client(who), world, world.ann, "Anna", HTTP_IF_MATCH=tag(world.ann))
    assert response.status_code == status
    assert response["Content-Type"].startswith(PROBLEM)
    assert Player.objects.get(pk=world.ann.pk).name == "Ann"


def test_outsiders_do_not_learn_of_a_members_only_player(world: World) -> None:
    response = rename(world.client("outsider"), world, world.dan, "Danny", HTTP_IF_MATCH=tag(world.dan))
    assert_problem(response, 404, "not_found")


def test_rename_with_if_match_and_idempotency(world: World) -> None:
    client = world.client("organiser")
    assert_problem(rename(client, world, world.ann, "Anna"), 428, "precondition_required")
    old = tag(world.ann)
    key = str(uuid.uuid4())
    first = rename(client, world, world.ann, "Anna", HTTP_IF_MATCH=old, HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 200 and first.json()["name"] == "Anna"
    assert first["ETag"] == tag(world.ann) != old
    again = rename(client, world, world.ann, "Anna", HTTP_IF_MATCH=old, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert ClubChange.objects.filter(club=world.public, action=ClubChange.Action.RENAMED).count() == 1
    stale = assert_problem(rename(client, world, world.ann, "Annie", HTTP_IF_MATCH=old), 412, "stale_edit")
    assert stale["current"]["name"] == "Anna" and stale["etag"] == tag(world.ann)
    assert_problem(rename(client, world, world.ann, "Annie", HTTP_IF_MATCH='"game-1-v1"'), 412, "stale_edit")
    assert_problem(
        rename(client, world, world.ann, "Annie", HTTP_IF_MATCH=tag(world.ann), HTTP_IDEMPOTENCY_KEY="nope"),
        400,
        "idempotency_key",
    )


def test_rename_errors_are_service_problems(world: World) -> None:
    client = world.client("organiser")
    taken = rename(client, world, world.ann, "bob", HTTP_IF_MATCH=tag(world.ann))
    assert_problem(taken, 400, "name_taken")
    assert_problem(rename(client, world, world.ann, "  ", HTTP_IF_MATCH=tag(world.ann)), 400, "name_empty")
    # A PATCH changes what it sends: nothing sent, nothing changed (the schema's name is optional).
    unchanged = client.patch(
        f"/api/v1/clubs/{world.public.slug}/players/{world.ann.pk}/",
        {},
        format="json",
        HTTP_IF_MATCH=tag(world.ann),
    )
    assert unchanged.status_code == 200 and unchanged.json()["name"] == world.ann.name
    assert unchanged["ETag"] == tag(world.ann)
    assert_problem(
        client.patch(
            f"/api/v1/clubs/{world.public.slug}/players/{world.ann.pk}/",
            {"name": 5},
            format="json",
            HTTP_IF_MATCH=tag(world.ann),
        ),
        400,
        "invalid",
    )


def test_tokens_and_rename(world: World) -> None:
    read = bearer(world.organiser, ApiToken.Scope.READ)
    assert_problem(
        rename(read, world, world.ann, "Anna", HTTP_IF_MATCH=tag(world.ann)), 403, "permission_denied"
    )
    write = bearer(world.organiser, ApiToken.Scope.WRITE)
    assert rename(write, world, world.ann, "Anna", HTTP_IF_MATCH=tag(world.ann)).status_code == 200
    member = bearer(world.member, ApiToken.Scope.WRITE)
    assert_problem(
        rename(member, world, world.ann, "Ann", HTTP_IF_MATCH=tag(world.ann)), 403, "permission_denied"
    )
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Bearer {world.game.edit_token}")
    response = rename(link, world, world.ann, "Ann", HTTP_IF_MATCH=tag(world.ann))
    assert_problem(response, 403, "permission_denied")


# ---------------------------------------------------------------------- merge


def merge(client: APIClient, drop: Player, into: Any, **headers: Any) -> Any:
    return client.post(
        f"/api/v1/clubs/{drop.club.slug}/players/{drop.pk}/merge/",  # type: ignore[union-attr]
        {"into": into},
        format="json",
        **headers,
    )


def test_merge_moves_the_seats_once(world: World) -> None:
    lone = Player.objects.create(club=world.public, name="Annie", key="annie", loose_key="annie")
    GameFactory.create(club=world.public, players=["Annie", "Bob"], family="gin", owner=world.organiser)
    lone.refresh_from_db()
    client = world.client("organiser")
    assert_problem(merge(client, lone, world.ann.pk), 428, "precondition_required")
    key = str(uuid.uuid4())
    old = tag(lone)
    first = merge(client, lone, world.ann.pk, HTTP_IF_MATCH=old, HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 200, first.content
    assert first.json()["id"] == world.ann.pk and first["ETag"] == tag(world.ann)
    assert Seat.objects.filter(player=world.ann).count() == 2
    again = merge(client, lone, world.ann.pk, HTTP_IF_MATCH=old, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert ClubChange.objects.filter(club=world.public, action=ClubChange.Action.MERGED).count() == 1
    dropped = client.get(f"/api/v1/clubs/{world.public.slug}/players/{lone.pk}/").json()
    assert dropped["merged_into"] == world.ann.pk
    assert_problem(merge(client, lone, world.ann.pk, HTTP_IF_MATCH=tag(lone)), 400, "player_merged")


def test_merge_refusals(world: World) -> None:
    client = world.client("organiser")
    # Ann and Bob played in the same game: two people
    assert_problem(
        merge(client, world.bob, world.ann.pk, HTTP_IF_MATCH=tag(world.bob)), 400, "merge_same_game"
    )
    assert_problem(merge(client, world.bob, world.bob.pk, HTTP_IF_MATCH=tag(world.bob)), 400, "merge_self")
    other = assert_problem(
        merge(client, world.bob, world.dan.pk, HTTP_IF_MATCH=tag(world.bob)), 400, "invalid"
    )
    assert "into" in other["fields"]
    assert_problem(merge(client, world.bob, "x", HTTP_IF_MATCH=tag(world.bob)), 400, "invalid")
    stale = merge(client, world.bob, world.ann.pk, HTTP_IF_MATCH=f'"player-{world.bob.pk}-v99"')
    assert assert_problem(stale, 412, "stale_edit")["current"]["id"] == world.bob.pk


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 401), ("outsider", 403), ("member", 403), ("scorekeeper", 403)]
)
def test_only_organisers_merge(world: World, who: str, status: int) -> None:
    response = merge(world.client(who), world.bob, world.ann.pk, HTTP_IF_MATCH=tag(world.bob))
    assert response.status_code == status and response["Content-Type"].startswith(PROBLEM)


def test_read_only_token_cannot_merge(world: World) -> None:
    read = bearer(world.organiser, ApiToken.Scope.READ)
    assert_problem(
        merge(read, world.bob, world.ann.pk, HTTP_IF_MATCH=tag(world.bob)), 403, "permission_denied"
    )


# ---------------------------------------------------------------------- joining by invite


def test_an_invite_link_joins_its_club_over_the_api() -> None:
    from games.services.clubs import invite_create, invite_revoke

    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser, name="Tuesday club")
    invite = invite_create(club=club, user=organiser, days=None)
    newcomer = UserFactory.create()
    link = f"https://rummy.example.org/clubs/join/#{invite.token}"
    joined = bearer(newcomer, "write").post("/api/v1/clubs/join/", {"token": link}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json() == {
        "name": "Tuesday club",
        "slug": club.slug,
        "visibility": club.visibility,
        "provisional_games": club.provisional_games,
        "inactive_days": club.inactive_days,
        "role": "member",
    }
    assert Membership.objects.get(club=club, user=newcomer).role == Role.MEMBER
    again = session(newcomer).post("/api/v1/clubs/join/", {"token": invite.token}, format="json")
    assert again.status_code == 200 and Membership.objects.filter(user=newcomer).count() == 1

    assert_problem(
        APIClient().post("/api/v1/clubs/join/", {"token": invite.token}, format="json"),
        401,
        "not_authenticated",
    )
    reader = bearer(UserFactory.create(), "read")
    assert_problem(
        reader.post("/api/v1/clubs/join/", {"token": invite.token}, format="json"), 403, "permission_denied"
    )
    invite_revoke(invite=invite)
    late = session(UserFactory.create()).post("/api/v1/clubs/join/", {"token": invite.token}, format="json")
    assert_problem(late, 404, "invite_invalid")


def test_invite_look_ups_over_the_api_are_throttled_per_address(settings: Any) -> None:
    from games.services.clubs import invite_create

    settings.INVITE_TRIES_PER_HOUR = 2
    organiser = UserFactory.create()
    invite = invite_create(club=ClubFactory.create(organiser=organiser), user=organiser, days=None)
    guesser = session(UserFactory.create())
    for guess in ("a" * 43, "b" * 43):
        assert_problem(
            guesser.post("/api/v1/clubs/join/", {"token": guess}, format="json"), 404, "invite_invalid"
        )
    refused = guesser.post("/api/v1/clubs/join/", {"token": invite.token}, format="json")
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
