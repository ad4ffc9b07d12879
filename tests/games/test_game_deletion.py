"""A club's organisers delete a club's game and undo brings it back: a recorded change, the
game gone from every list, standing, rating and season meanwhile (its page says so to the
organisers, with Undo; to everyone else it is gone), and everything back as it was after the
undo. Giving a game another starter; ending a removed member's edit link."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Change, Club, Game, Hand, Membership, Result, Score
from games.services.clubs import membership_remove
from games.services.errors import ServiceError
from games.services.games import EventLabel, game_delete, game_start, game_transfer
from games.services.hands import change_undo, hand_record
from tests.factories import ClubFactory, UserFactory, add_member
from tests.tournaments.support import season_settings
from tournaments.exchange.exporting import export_club
from tournaments.models import RatingDirty, RatingEvent, SeasonStanding
from tournaments.rating_history import rebuild_club
from tournaments.seasons import rebuild_seasons
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db
Role = Membership.Role


def logged_in(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def play(club: Club, user: User, names: list[str], winner: str) -> Game:
    """A finished one-hand Rummikub club game (the work after its commit is run by the caller)."""
    game = game_start(family="rummikub", options={}, players=names, owner=user, club=club, hand_limit=1)
    left = {name: 5 * (i + 1) for i, name in enumerate(n for n in names if n != winner)}
    hand_record(game=game, outcome={"winner": winner, "left": left}, request_id=None, user=user)
    return game


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    organiser = UserFactory.create(username="organiser")
    club = ClubFactory.create(name="Tuesday club", organiser=organiser)
    starter = add_member(club, UserFactory.create(username="starter"), Role.SCOREKEEPER).user
    member = add_member(club, UserFactory.create(username="member")).user
    with django_capture_on_commit_callbacks(execute=True):
        season = season_create(club=club, settings=season_settings(), user=organiser)
        games = [
            play(club, starter, ["Ann", "Bob", "Cid", "Dan"], "Ann"),
            play(club, starter, ["Ann", "Bob", "Cid"], "Bob"),
            play(club, starter, ["Bob", "Cid", "Dan"], "Bob"),
        ]
    return {
        "organiser": organiser,
        "club": club,
        "starter": starter,
        "member": member,
        "season": season,
        "games": games,
    }


def standings(world: dict[str, Any]) -> list[tuple[str, int, str, int]]:
    return [
        (row.player.name, row.rank, f"{row.points.normalize():f}", row.games)
        for row in SeasonStanding.objects.filter(season=world["season"], family="").select_related("player")
    ]


def ratings(world: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted(
        RatingEvent.objects.filter(club=world["club"]).values_list(
            "game_id", "player_id", "place", "mu", "sigma"
        )
    )


def derived(game: Game) -> list[tuple[Any, ...]]:
    rows = Result.objects.filter(game=game).order_by("seat__position")
    return list(rows.values_list("seat_id", "player_id", "total", "place", "winner", "finished"))


# ----------------------------------------------------------------------------- deleting


def test_deleting_moves_standings_and_ratings_and_undo_moves_them_back(
    world: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    organiser, last = world["organiser"], world["games"][-1]
    # Table points of the three games: Bob 5 + 7 + 7, Ann 7 + 4, Cid 3 + 1 + 4, Dan 1 + 1.
    assert standings(world) == [
        ("Bob", 1, "19", 3),
        ("Ann", 2, "11", 2),
        ("Cid", 3, "8", 3),
        ("Dan", 4, "2", 2),
    ]
    rated, results = ratings(world), derived(last)
    assert RatingEvent.objects.filter(game=last).count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        change = game_delete(game=last, user=organiser)
    # Without the last game (Bob first of Bob, Cid, Dan): Bob 12, Ann 11, Cid 4, Dan 1.
    assert standings(world) == [
        ("Bob", 1, "12", 2),
        ("Ann", 2, "11", 2),
        ("Cid", 3, "4", 2),
        ("Dan", 4, "1", 1),
    ]
    assert not RatingEvent.objects.filter(game=last).exists()
    assert RatingEvent.objects.filter(club=world["club"]).count() == 4 + 3
    assert (
        not Result.objects.filter(game=last).exists() and not Score.objects.filter(hand__game=last).exists()
    )
    assert Hand.objects.filter(game=last).count() == 1, "the record is kept"
    assert not RatingDirty.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        undo = change_undo(change=change, user=organiser)
    assert undo.action == Change.Action.RESTORED and undo.undoes_id == change.pk
    assert standings(world) == [
        ("Bob", 1, "19", 3),
        ("Ann", 2, "11", 2),
        ("Cid", 3, "8", 3),
        ("Dan", 4, "2", 2),
    ]
    assert ratings(world) == rated
    assert derived(last) == results
    # The undo is a change too: undoing it deletes the game again.
    with django_capture_on_commit_callbacks(execute=True):
        again = change_undo(change=undo, user=organiser)
    assert again.action == Change.Action.REMOVED
    assert standings(world)[0] == ("Bob", 1, "12", 2)
    # Brought back and deleted anew: the bringing back is undone no more (it is deleted already).
    back = change_undo(change=again, user=organiser)
    game_delete(game=last, user=organiser)
    with pytest.raises(ServiceError) as refused:
        change_undo(change=back, user=organiser)
    assert refused.value.code == "changed_since"
    assert Change.objects.filter(game=last, action=Change.Action.REMOVED).count() == 3


def test_deleting_an_earlier_game_re_rates_the_later_ones(
    world: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    first, later = world["games"][0], world["games"][1:]
    before = {g.pk: list(RatingEvent.objects.filter(game=g).values_list("mu", flat=True)) for g in later}
    with django_capture_on_commit_callbacks(execute=True):
        game_delete(game=first, user=world["organiser"])
    after = {g.pk: list(RatingEvent.objects.filter(game=g).values_list("mu", flat=True)) for g in later}
    assert after[later[0].pk] != before[later[0].pk], "the games after it are rated without it"
    assert not RatingEvent.objects.filter(game=first).exists()


def test_a_deleted_game_leaves_the_lists_and_its_page_speaks_to_organisers_only(
    world: dict[str, Any],
) -> None:
    organiser, starter, member = world["organiser"], world["starter"], world["member"]
    club, game = world["club"], world["games"][0]
    page = logged_in(organiser)
    # Asked first, then deleted.
    asked = page.post(f"/g/{game.public_id}/delete/", {"request_id": str(uuid.uuid4())})
    assert asked.status_code == 200 and "Yes, delete the game" in asked.content.decode()
    assert Game.objects.get(pk=game.pk).deleted_at is None
    done = page.post(f"/g/{game.public_id}/delete/", {"request_id": str(uuid.uuid4()), "confirm": "1"})
    assert done.status_code == 302
    shown = page.get(f"/g/{game.public_id}/")
    html = shown.content.decode()
    change = Change.objects.get(game=game, action=Change.Action.REMOVED)
    assert shown.status_code == 200 and "This game was deleted" in html
    assert f"/g/{game.public_id}/history/{change.pk}/undo/" in html
    for someone in (None, member, starter):
        assert logged_in(someone).get(f"/g/{game.public_id}/").status_code == 404
        assert logged_in(someone).get(f"/g/{game.public_id}/history/").status_code == 404
    # Gone from the club's page, My games, the API's list, the roster's counts.
    assert f"/g/{game.public_id}/" not in page.get(f"/c/{club.slug}/").content.decode()
    assert f"/g/{game.public_id}/" not in logged_in(starter).get("/games/").content.decode()
    listed = [g["public_id"] for g in api(organiser).get("/api/v1/games/").json()["results"]]
    assert game.public_id not in listed and len(listed) == 2
    roster = {
        p["name"]: p["games"]
        for p in api(organiser).get(f"/api/v1/clubs/{club.slug}/players/").json()["results"]
    }
    assert roster["Ann"] == 1 and roster["Dan"] == 1
    # Undo from the deleted game's page brings it back.
    back = page.post(f"/g/{game.public_id}/history/{change.pk}/undo/", {"back": "game"})
    assert back.status_code == 302
    assert Game.objects.get(pk=game.pk).deleted_at is None
    assert logged_in(member).get(f"/g/{game.public_id}/").status_code == 200
    roster = {
        p["name"]: p["games"]
        for p in api(organiser).get(f"/api/v1/clubs/{club.slug}/players/").json()["results"]
    }
    assert roster["Ann"] == 2 and roster["Dan"] == 2
    history = page.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Game deleted" in history and "Game brought back" in history


def test_a_deleted_game_takes_no_write_but_the_undo_of_its_deletion(world: dict[str, Any]) -> None:
    organiser, starter = world["organiser"], world["starter"]
    game = world["games"][0]
    added = Change.objects.get(game=game, action=Change.Action.ADDED)
    removal = game_delete(game=game, user=organiser)
    hand = Hand.objects.get(game=game)
    before = list(Hand.objects.values_list("pk", "version")), Change.objects.count()
    for user in (organiser, starter):
        page = logged_in(user)
        assert (
            page.post(f"/g/{game.public_id}/hands/{hand.number}/delete/", {"version": "1"}).status_code == 404
        )
        assert page.post(f"/g/{game.public_id}/end/", {"ended": "0"}).status_code == 404
        assert page.post(f"/g/{game.public_id}/history/{added.pk}/undo/", {"confirm": "1"}).status_code == 404
        assert page.post(f"/g/{game.public_id}/rematch/").status_code == 404
        client = api(user)
        assert client.post(f"/api/v1/games/{game.public_id}/reopen/").status_code == 404
        assert client.get(f"/api/v1/games/{game.public_id}/").status_code == 404
        assert client.post(f"/api/v1/games/{game.public_id}/history/{added.pk}/undo/").status_code == 404
    assert (list(Hand.objects.values_list("pk", "version")), Change.objects.count()) == before
    # Only an organiser sees its history and undoes the deletion, through the API too.
    assert api(starter).get(f"/api/v1/games/{game.public_id}/history/").status_code == 404
    listed = api(organiser).get(f"/api/v1/games/{game.public_id}/history/").json()["results"]
    assert listed[0]["action"] == "removed" and listed[0]["undoable"]
    assert api(starter).post(f"/api/v1/games/{game.public_id}/history/{removal.pk}/undo/").status_code == 404
    assert logged_in(starter).post(f"/g/{game.public_id}/history/{removal.pk}/undo/").status_code == 404
    # A write that found the game before it was deleted is refused under the game's lock.
    with pytest.raises(ServiceError) as refused:
        hand_record(game=game, outcome={"winner": "Bob", "left": {"Ann": 5}}, request_id=None, user=starter)
    assert refused.value.code == "game_deleted"
    restored = api(organiser).post(f"/api/v1/games/{game.public_id}/history/{removal.pk}/undo/")
    assert restored.status_code == 201 and restored.json()["action"] == "restored"
    assert api(starter).get(f"/api/v1/games/{game.public_id}/").status_code == 200


def test_a_scorekeeper_cannot_undo_a_deletion_or_a_transfer(world: dict[str, Any]) -> None:
    organiser, starter = world["organiser"], world["starter"]
    game = world["games"][0]
    keeper = add_member(world["club"], UserFactory.create(username="keeper"), Role.SCOREKEEPER).user
    given = game_transfer(game=game, to=keeper, user=organiser)
    assert logged_in(starter).post(f"/g/{game.public_id}/history/{given.pk}/undo/").status_code == 403
    assert api(starter).post(f"/api/v1/games/{game.public_id}/history/{given.pk}/undo/").status_code == 403
    assert Game.objects.get(pk=game.pk).owner_id == keeper.pk
    history = logged_in(starter).get(f"/g/{game.public_id}/history/").content.decode()
    assert f"/history/{given.pk}/undo/" not in history
    assert (
        f"/history/{given.pk}/undo/"
        in logged_in(organiser).get(f"/g/{game.public_id}/history/").content.decode()
    )
    removal = game_delete(game=game, user=organiser)
    restored = change_undo(change=removal, user=organiser)
    assert logged_in(starter).post(f"/g/{game.public_id}/history/{restored.pk}/undo/").status_code == 403
    assert Game.objects.get(pk=game.pk).deleted_at is None


def test_a_resent_deletion_deletes_once(world: dict[str, Any]) -> None:
    game, key = world["games"][0], uuid.uuid4()
    first = game_delete(game=game, user=world["organiser"], request_id=key)
    assert game_delete(game=game, user=world["organiser"], request_id=key) == first
    with pytest.raises(ServiceError) as refused:
        game_delete(game=game, user=world["organiser"])
    assert refused.value.code == "game_deleted"
    assert Change.objects.filter(game=game, action=Change.Action.REMOVED).count() == 1


def test_a_private_game_and_a_tournament_table_are_not_deleted_here(world: dict[str, Any]) -> None:
    organiser = world["organiser"]
    private = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=organiser)
    table = game_start(
        family="gin",
        options={},
        players=["Ann", "Bob"],
        owner=organiser,
        club=world["club"],
        event=EventLabel("Autumn cup", 1, 1, "/t/x/"),
    )
    for game, code in ((private, "not_club_game"), (table, "event_game")):
        with pytest.raises(ServiceError) as refused:
            game_delete(game=game, user=organiser)
        assert refused.value.code == code
        assert Game.objects.get(pk=game.pk).deleted_at is None
    assert "Delete the game" not in logged_in(organiser).get(f"/g/{table.public_id}/").content.decode()
    assert logged_in(organiser).post(f"/g/{private.public_id}/delete/", {"confirm": "1"}).status_code == 403
    assert api(organiser).delete(f"/api/v1/games/{table.public_id}/").status_code == 400


def test_ratings_and_seasons_leave_out_a_deleted_game_by_its_mark_alone(world: dict[str, Any]) -> None:
    """Whatever rebuilds them (a rebuild of everything, a task worker) counts no deleted game,
    even one whose results rows are still there."""
    last = world["games"][-1]
    Game.objects.filter(pk=last.pk).update(deleted_at=timezone.now())
    assert Result.objects.filter(game=last).exists()
    rebuild_club(club=world["club"])
    rebuild_seasons(world["club"])
    assert not RatingEvent.objects.filter(game=last).exists()
    assert standings(world) == [
        ("Bob", 1, "12", 2),
        ("Ann", 2, "11", 2),
        ("Cid", 3, "4", 2),
        ("Dan", 4, "1", 1),
    ]


# ----------------------------------------------------------------------------- transferring


def test_an_organiser_gives_the_game_to_a_scorekeeper_and_undo_gives_it_back(world: dict[str, Any]) -> None:
    organiser, starter, member = world["organiser"], world["starter"], world["member"]
    game = world["games"][0]
    keeper = add_member(
        world["club"], UserFactory.create(username="keeper", first_name="Kája"), Role.SCOREKEEPER
    ).user
    page = logged_in(organiser)
    html = page.get(f"/g/{game.public_id}/").content.decode()
    # The choice lists the club's scorekeepers and organisers but the starter himself.
    assert f'value="{keeper.pk}">Kája<' in html and f'value="{organiser.pk}"' in html
    assert f'value="{starter.pk}"' not in html and f'value="{member.pk}"' not in html
    assert "Give the game" not in logged_in(starter).get(f"/g/{game.public_id}/").content.decode()
    response = page.post(
        f"/g/{game.public_id}/transfer/", {"to": str(keeper.pk), "request_id": str(uuid.uuid4())}
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).owner_id == keeper.pk
    change = Change.objects.get(game=game, action=Change.Action.TRANSFER)
    assert change.before == {"owner": starter.pk} and change.after == {"owner": keeper.pk}
    # A member cannot be given the game (he would not record it).
    refused = page.post(f"/g/{game.public_id}/transfer/", {"to": str(member.pk)})
    assert refused.status_code == 302
    assert Game.objects.get(pk=game.pk).owner_id == keeper.pk
    body = api(organiser).post(f"/api/v1/games/{game.public_id}/transfer/", {"to": "member"}, format="json")
    assert body.status_code == 400 and body.json()["code"] == "starter_not_recorder"
    # Given on again since: the first change is undone only after the later one.
    later = game_transfer(game=game, to=organiser, user=organiser)
    with pytest.raises(ServiceError) as stale:
        change_undo(change=change, user=organiser)
    assert stale.value.code == "changed_since"
    change_undo(change=later, user=organiser)
    undone = change_undo(change=change, user=organiser)
    assert undone.action == Change.Action.TRANSFER and Game.objects.get(pk=game.pk).owner_id == starter.pk
    via_api = api(organiser).post(
        f"/api/v1/games/{game.public_id}/transfer/", {"to": "keeper"}, format="json"
    )
    assert via_api.status_code == 201 and via_api.json()["after"] == {"owner": keeper.pk}


# ----------------------------------------------------------------------------- the edit link


def test_renewing_the_link_ends_a_removed_member_s_writing_with_it(world: dict[str, Any]) -> None:
    organiser, starter = world["organiser"], world["starter"]
    game = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=starter, club=world["club"])
    token = game.edit_token
    phone = logged_in(starter)
    assert phone.get(f"/g/{game.public_id}/edit/{token}/").status_code == 302
    membership_remove(membership=Membership.objects.get(club=world["club"], user=starter))
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    hand = {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 7, "Bob": 12}}
    data = {"request_id": str(uuid.uuid4()), "knocker": "Ann", "points_0": "3", "points_1": "30"}
    # The link he holds still writes, as for anyone holding it...
    assert phone.post(f"/g/{game.public_id}/hands/", data).status_code == 302
    assert bearer.post(f"/api/v1/games/{game.public_id}/hands/", hand, format="json").status_code == 201
    assert Hand.objects.filter(game=game).count() == 2
    # ...until an organiser makes a new one.
    assert logged_in(organiser).post(f"/g/{game.public_id}/new-edit-link/").status_code == 302
    assert (
        phone.post(f"/g/{game.public_id}/hands/", {**data, "request_id": str(uuid.uuid4())}).status_code
        == 403
    )
    assert bearer.post(f"/api/v1/games/{game.public_id}/hands/", hand, format="json").status_code == 401
    assert Hand.objects.filter(game=game).count() == 2


def test_a_private_game_and_one_started_without_an_account_keep_their_rules() -> None:
    owner = UserFactory.create(username="owner")
    private = game_start(family="gin", options={}, players=["Ann", "Bob"], owner=owner)
    data = {"request_id": str(uuid.uuid4()), "knocker": "Ann", "points_0": "3", "points_1": "30"}
    assert logged_in(owner).post(f"/g/{private.public_id}/hands/", data).status_code == 302
    assert logged_in(owner).post(f"/g/{private.public_id}/new-edit-link/").status_code == 302
    assert (
        logged_in(owner).post(f"/g/{private.public_id}/transfer/", {"to": str(owner.pk)}).status_code == 403
    )
    assert Hand.objects.filter(game=private).count() == 1


def test_the_club_s_export_leaves_out_a_deleted_game(world: dict[str, Any]) -> None:
    """An import of the export would otherwise bring the game back."""
    club, game = world["club"], world["games"][0]
    removal = game_delete(game=game, user=world["organiser"])
    assert len(export_club(club)["games"]) == 2
    change_undo(change=removal, user=world["organiser"])
    assert len(export_club(club)["games"]) == 3
