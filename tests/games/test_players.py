"""Players, clubs and their history, through the services: names, the players of a new game,
"did you mean", merge and its undo, rename, claim, roles and invites."""

from __future__ import annotations

import datetime
import secrets
import unicodedata
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from engine.errors import EngineError
from games.models import Club, ClubChange, Game, Hand, Invite, Membership, Player, Result, Seat
from games.services.clubs import (
    club_change_undo,
    club_join,
    invite_create,
    invite_revoke,
    membership_remove,
    membership_set_role,
)
from games.services.games import game_start
from games.services.hands import hand_record
from games.services.players import (
    check_name,
    player_claim,
    player_merge,
    player_rename,
    roster,
    seat_players,
    similar_players,
)
from games.text.names import MAX_NAME, loose_key, name_key
from tests.factories import ClubFactory, GameFactory, UserFactory, add_member

pytestmark = pytest.mark.django_db

Role = Membership.Role


def refused(call: Callable[..., object], *args: Any, **kwargs: Any) -> str:
    """The code of the EngineError (or ServiceError) that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(EngineError) as caught:
        call(*args, **kwargs)
    return caught.value.code


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def player_of(game: Game, seat_name: str) -> Player:
    """The player of the seat with this name as typed (a known player sits under his own)."""
    [seat] = [
        s
        for s in Seat.objects.select_related("player").filter(game=game)
        if name_key(s.name) == name_key(seat_name)
    ]
    return seat.player


def zoliky(club: Club | None, names: list[str], *left: int, owner: User | None = None) -> Game:
    """A Žolíky game of ``names`` with one hand recorded: the first closes, the others keep ``left``."""
    game = GameFactory.create(family="zoliky", players=names, club=club, owner=owner)
    counts = dict(zip(names[1:], left or range(5, 5 + len(names)), strict=False))
    hand_record(game=game, outcome={"closer": names[0], "left": counts}, request_id=None, user=None)
    return game


def results(club: Club) -> dict[int, dict[str, tuple[Any, ...]]]:
    """Every game's results in the club, by seat name: (seat's player, result's player, figures)."""
    found: dict[int, dict[str, tuple[Any, ...]]] = {}
    for r in Result.objects.filter(game__club=club).select_related("seat"):
        found.setdefault(r.game_id, {})[r.seat.name] = (
            r.seat.player_id,
            r.player_id,
            r.total,
            r.place,
            r.winner,
            r.finished,
            r.eliminated_in,
            r.hands,
        )
    return found


def hands() -> list[tuple[Any, ...]]:
    return list(Hand.objects.order_by("pk").values_list("pk", "number", "outcome", "version"))


# ---------------------------------------------------------------------- names


def test_names_read_alike_whatever_the_case_spacing_and_unicode_form() -> None:
    assert name_key("tomáš ") == name_key("Tomáš") == name_key(nfd("TOMÁŠ")) == name_key("  tomáš")
    assert name_key("Tomas") != name_key("Tomáš")  # accents matter for identity...
    assert loose_key("Tomas") == loose_key("Tomáš")  # ...but not for "did you mean"
    assert loose_key("Łukasz") == loose_key("lukasz") == loose_key("Lukasz")
    assert check_name(nfd("  Tomáš   Novák ")) == "Tomáš Novák"
    assert unicodedata.is_normalized("NFC", check_name(nfd("Tomáš")))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "name_empty"),
        ("   \t ", "name_empty"),
        ("A" * 10_000, "name_too_long"),
        ("A" * (MAX_NAME + 1), "name_too_long"),
        ("Ann\x00", "name_control"),
        ("Ann\x1b[31m", "name_control"),
        ("\u200b\u202e\u2066", "name_empty"),  # nothing visible left
    ],
)
def test_bad_names_are_refused_with_a_code(raw: str, code: str) -> None:
    assert refused(lambda: check_name(raw)) == code


@pytest.mark.parametrize(
    "disguised",
    [
        "An\u200bn",  # zero-width space
        "Ann\u202e",  # right-to-left override
        "\u2067Ann\u2069",  # isolates
        "A\u200dnn\ufeff",  # zero-width joiner, byte-order mark
    ],
)
def test_invisible_characters_are_dropped_so_lookalikes_are_one_name(disguised: str) -> None:
    assert check_name(disguised) == "Ann"
    assert name_key(disguised) == name_key("Ann")
    club = ClubFactory.create()
    GameFactory.create(players=["Ann", "Bob"], club=club)
    again = GameFactory.create(players=[disguised, "Bob"], club=club)
    assert Player.objects.filter(club=club).count() == 2
    assert [s.name for s in again.seats.all()] == ["Ann", "Bob"]


@pytest.mark.parametrize(("raw", "code"), [("A" * 10_000, "name_too_long"), ("Bob\x07", "name_control")])
def test_a_game_with_a_bad_name_is_not_started(raw: str, code: str) -> None:
    club = ClubFactory.create()
    assert refused(lambda: game_start(family="zoliky", options={}, players=["Ann", raw], owner=None)) == code
    assert refused(lambda: GameFactory.create(players=["Ann", raw], club=club)) == code
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_name_of_the_longest_length_is_accepted_even_when_its_key_is_longer() -> None:
    """Case folding lengthens "ß" (ss) and "did you mean" spells "æ" as "ae": a name of the
    allowed length must still make a player (PostgreSQL refuses a key longer than its column),
    and two names that differ only at their end are still two people."""
    long_name = "Hans-Jürgen Weiß-Großmann von Straßburg"
    danish = "Æsa Ærøskøbing-Ødegård Ørnæs Læsø Bæk Sø"
    names = [long_name + "a", long_name + "b", danish]
    assert max(len(n) for n in names) <= MAX_NAME
    assert len(names[0].casefold()) > MAX_NAME and len(danish.casefold().replace("æ", "ae")) > MAX_NAME
    club = ClubFactory.create()
    game = GameFactory.create(players=names, club=club)
    assert Player.objects.filter(club=club).count() == 3
    limit = Player._meta.get_field("key").max_length
    assert limit is not None
    for player in Player.objects.all():
        assert len(player.key) <= limit and len(player.loose_key) <= limit
    # The same names, however typed, find the same players.
    again = GameFactory.create(players=[long_name.lower() + "B", danish.lower()], club=club)
    assert player_of(again, long_name.lower() + "B") == player_of(game, names[1])
    assert player_of(again, danish.lower()) == player_of(game, danish)
    assert Player.objects.filter(club=club).count() == 3
    assert similar_players(club=club, owner=None, names=[danish.replace("Æ", "Ae")]) == {
        danish.replace("Æ", "Ae"): [danish]
    }


def test_two_seats_of_one_game_that_read_alike_are_refused() -> None:
    club = ClubFactory.create()
    for pair in (["Tomáš", "tomáš "], ["Tomáš", nfd("Tomáš")], ["Ann", "ANN"]):
        assert refused(GameFactory.create, players=[*pair, "Bob"], club=club) == ("duplicate_player")
    assert not Game.objects.exists() and not Player.objects.exists()


# ---------------------------------------------------------------------- a new game's players


def test_a_club_game_reuses_the_club_s_players_by_name() -> None:
    club = ClubFactory.create()
    first = GameFactory.create(players=["Tomáš", "Ann", "Bob"], club=club)
    assert Player.objects.filter(club=club).count() == 3
    second = GameFactory.create(players=["tomáš ", nfd("ANN"), "Dan"], club=club)
    assert Player.objects.filter(club=club).count() == 4
    assert player_of(second, "tomáš") == player_of(first, "Tomáš")
    assert player_of(second, "ANN") == player_of(first, "Ann")
    # A known player sits under his own name, however it was typed; a new one as typed.
    assert [s.name for s in second.seats.all()] == ["Tomáš", "Ann", "Dan"]
    assert player_of(second, "tomáš").name == "Tomáš"
    # Results of the new game belong to the same people.
    assert {r.player_id for r in Result.objects.filter(game=second)} == {
        s.player_id for s in second.seats.all()
    }


def test_rosters_are_kept_apart_club_own_and_anonymous() -> None:
    user = UserFactory.create()
    club = ClubFactory.create(organiser=user)
    in_club = GameFactory.create(players=["Ann", "Bob"], family="gin", club=club, owner=user)
    own = GameFactory.create(players=["Ann", "Bob"], family="gin", owner=user)
    own_again = GameFactory.create(players=["ann", "Cid"], family="gin", owner=user)
    anonymous = GameFactory.create(players=["Ann", "Bob"], family="gin")
    anonymous_again = GameFactory.create(players=["Ann", "Bob"], family="gin")
    ann = player_of(in_club, "Ann")
    assert (ann.club, ann.owner) == (club, None)
    own_ann = player_of(own, "Ann")
    assert (own_ann.club, own_ann.owner) == (None, user) and own_ann != ann
    assert player_of(own_again, "ann") == own_ann
    assert player_of(anonymous, "Ann") != player_of(anonymous_again, "Ann")
    assert player_of(anonymous, "Ann") not in (ann, own_ann)
    assert list(roster(club=None, owner=None)) == []
    assert {p.name for p in roster(club=None, owner=user)} == {"Ann", "Bob", "Cid"}


def test_did_you_mean_offers_alike_names_but_never_merges() -> None:
    club = ClubFactory.create()
    first = GameFactory.create(players=["Tomáš", "Łukasz", "Ann"], club=club)
    offered = similar_players(club=club, owner=None, names=["Tomas", "lukasz", "tomáš", "Zed", "Ann"])
    assert offered == {"Tomas": ["Tomáš"], "lukasz": ["Łukasz"]}
    # Played anyway under the unaccented name: a new player, Tomáš keeps his seats.
    second = GameFactory.create(players=["Tomas", "lukasz", "Ann"], club=club)
    assert player_of(second, "Tomas") != player_of(first, "Tomáš")
    assert player_of(second, "lukasz") != player_of(first, "Łukasz")
    assert Player.objects.filter(club=club, merged_into=None).count() == 5
    assert Seat.objects.filter(player=player_of(first, "Tomáš")).count() == 1
    # Another club's players are not offered.
    assert similar_players(club=ClubFactory.create(), owner=None, names=["Tomas"]) == {}


def test_seat_players_outside_a_game_of_nobody_are_never_shared() -> None:
    players = seat_players(club=None, owner=None, names=["Ann", "Bob"])
    again = seat_players(club=None, owner=None, names=["Ann", "Bob"])
    assert not {p.pk for p in players} & {p.pk for p in again}


# ---------------------------------------------------------------------- merge


@pytest.fixture
def split() -> dict[str, Any]:
    """A club where Tomáš was also recorded as Tomas (never in the same game), with hands."""
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    g1 = zoliky(club, ["Ann", "Tomáš", "Bob"], 20, 7)
    g2 = zoliky(club, ["Tomas", "Ann", "Cid"], 30, 4)
    g3 = zoliky(club, ["Bob", "Tomas"], 12)
    return {
        "club": club,
        "organiser": organiser,
        "games": (g1, g2, g3),
        "keep": player_of(g1, "Tomáš"),
        "drop": player_of(g2, "Tomas"),
    }


def merge(split: dict[str, Any], **kwargs: Any) -> ClubChange:
    keep, drop = split["keep"], split["drop"]
    arguments: dict[str, Any] = {
        "keep": keep,
        "drop": drop,
        "keep_version": keep.version,
        "drop_version": drop.version,
        "request_id": uuid.uuid4(),
        "user": split["organiser"],
    } | kwargs
    return player_merge(**arguments)


def test_merge_moves_every_seat_and_result_and_hides_the_dropped_player(split: dict[str, Any]) -> None:
    keep, drop, club = split["keep"], split["drop"], split["club"]
    g1, g2, g3 = split["games"]
    before, recorded = results(club), hands()
    change = merge(split)
    assert change.action == ClubChange.Action.MERGED and change.user == split["organiser"]
    assert change.club == club and ClubChange.objects.filter(club=club).count() == 1
    drop.refresh_from_db()
    assert drop.merged_into == keep
    assert Seat.objects.filter(player=drop).count() == 0
    assert Result.objects.filter(player=drop).count() == 0
    assert {(s.game_id, s.name) for s in Seat.objects.filter(player=keep)} == {
        (g1.pk, "Tomáš"),
        (g2.pk, "Tomas"),
        (g3.pk, "Tomas"),
    }
    assert Result.objects.filter(player=keep).count() == 3
    assert list(roster(club=club, owner=None).filter(pk=drop.pk)) == []
    # Only the player changed: the figures of every game, the hands, the seat names stay.
    after = results(club)
    for game_id, by_seat in before.items():
        for seat_name, (_, _, *figures) in by_seat.items():
            moved = (g2.pk, "Tomas") == (game_id, seat_name) or (g3.pk, "Tomas") == (game_id, seat_name)
            owner = keep.pk if moved else by_seat[seat_name][0]
            assert after[game_id][seat_name] == (owner, owner, *figures)
    assert hands() == recorded
    # A new game seats the kept player.
    later = GameFactory.create(players=["tomáš", "Ann"], family="gin", club=club)
    assert player_of(later, "tomáš") == keep


def test_a_resent_merge_returns_the_first_change(split: dict[str, Any]) -> None:
    request = uuid.uuid4()
    keep_version, drop_version = split["keep"].version, split["drop"].version
    first = merge(split, request_id=request)
    state = results(split["club"])
    again = merge(split, request_id=request, keep_version=keep_version, drop_version=drop_version)
    assert again.pk == first.pk
    assert ClubChange.objects.count() == 1
    assert results(split["club"]) == state
    # Even after the merge was undone, the late resend merges nothing.
    club_change_undo(change=first, user=None)
    undone = results(split["club"])
    assert merge(split, request_id=request).pk == first.pk
    assert results(split["club"]) == undone and ClubChange.objects.count() == 2


def test_a_stale_merge_is_refused(split: dict[str, Any]) -> None:
    keep, drop = split["keep"], split["drop"]
    old = drop.version
    player_rename(player=drop, name="Tomas N.", version=drop.version, request_id=None, user=None)
    before = results(split["club"])
    assert refused(lambda: merge(split, drop_version=old)) == "stale_player"
    assert refused(lambda: merge(split, keep_version=keep.version + 1)) == "stale_player"
    assert results(split["club"]) == before
    assert not ClubChange.objects.filter(action=ClubChange.Action.MERGED).exists()


def test_players_of_one_game_are_two_people(split: dict[str, Any]) -> None:
    g1 = split["games"][0]
    ann, bob = player_of(g1, "Ann"), player_of(g1, "Bob")
    before = results(split["club"])
    code = refused(
        lambda: player_merge(
            keep=ann, drop=bob, keep_version=None, drop_version=None, request_id=None, user=None
        )
    )
    assert code == "merge_same_game"
    assert results(split["club"]) == before
    assert Player.objects.filter(merged_into__isnull=False).count() == 0
    assert refused(lambda: merge(split, keep=ann, drop=ann)) == "merge_self"


def test_players_of_two_clubs_or_of_a_roster_cannot_be_merged(split: dict[str, Any]) -> None:
    elsewhere = zoliky(ClubFactory.create(), ["Tomas", "Zed"])
    own = zoliky(None, ["Tomas", "Zed"], owner=UserFactory.create())
    for other in (player_of(elsewhere, "Tomas"), player_of(own, "Tomas")):
        assert refused(merge, split, drop=other) == "merge_other_club"
        assert refused(merge, split, keep=other, drop=split["keep"]) == ("merge_other_club")
    assert not ClubChange.objects.exists()


def test_undoing_a_merge_gives_every_seat_and_result_back_and_redo_merges_again(
    split: dict[str, Any],
) -> None:
    club, keep, drop = split["club"], split["keep"], split["drop"]
    before, recorded = results(club), hands()
    change = merge(split)
    merged = results(club)
    undo = club_change_undo(change=change, user=split["organiser"])
    assert undo.action == ClubChange.Action.UNMERGED and undo.undoes == change
    assert results(club) == before
    drop.refresh_from_db()
    assert drop.merged_into is None
    assert drop in roster(club=club, owner=None)
    assert refused(lambda: club_change_undo(change=change, user=None)) == "already_undone"
    # Undo of the undo merges again, exactly as the merge did.
    redo = club_change_undo(change=undo, user=None)
    assert redo.action == ClubChange.Action.MERGED
    results_after = results(club)
    assert results_after == merged
    club_change_undo(change=redo, user=None)
    assert results(club) == before
    assert hands() == recorded
    keep.refresh_from_db()
    assert keep.merged_into is None


def test_undoing_a_merge_keeps_hands_recorded_while_merged(split: dict[str, Any]) -> None:
    club, drop = split["club"], split["drop"]
    g3 = split["games"][2]
    change = merge(split)
    hand_record(game=g3, outcome={"closer": "Tomas", "left": {"Bob": 9}}, request_id=None, user=None)
    club_change_undo(change=change, user=None)
    g3_results = {r.seat.name: r for r in Result.objects.filter(game=g3).select_related("seat")}
    assert g3_results["Tomas"].player_id == drop.pk and g3_results["Tomas"].hands == 2
    assert g3_results["Tomas"].total == 12 - 10
    assert set(results(club)[g3.pk]["Tomas"][:2]) == {drop.pk}


def test_undoing_a_merge_is_refused_when_the_name_was_taken_meanwhile(split: dict[str, Any]) -> None:
    club = split["club"]
    change = merge(split)
    newcomer = GameFactory.create(players=["tomas", "Ann"], family="gin", club=club)
    assert player_of(newcomer, "tomas") not in (split["keep"], split["drop"])
    before = results(club)
    assert refused(lambda: club_change_undo(change=change, user=None)) == "name_taken"
    assert results(club) == before
    assert not ClubChange.objects.filter(undoes=change).exists()


def test_a_claimed_dropped_player_passes_his_account_to_the_kept_one(split: dict[str, Any]) -> None:
    user = UserFactory.create()
    player_claim(player=split["drop"], user=user, claim=True)
    split["drop"].refresh_from_db()
    change = merge(split)
    assert Player.objects.get(pk=split["keep"].pk).user == user
    assert Player.objects.get(pk=split["drop"].pk).user is None
    undo = club_change_undo(change=change, user=None)
    assert Player.objects.get(pk=split["keep"].pk).user is None
    assert Player.objects.get(pk=split["drop"].pk).user == user
    club_change_undo(change=undo, user=None)  # merged again: the account moves again
    assert Player.objects.get(pk=split["keep"].pk).user == user
    assert Player.objects.get(pk=split["drop"].pk).user is None


def test_two_players_claimed_by_different_accounts_are_not_merged(split: dict[str, Any]) -> None:
    player_claim(player=split["keep"], user=UserFactory.create(), claim=True)
    player_claim(player=split["drop"], user=UserFactory.create(), claim=True)
    split["keep"].refresh_from_db()
    split["drop"].refresh_from_db()
    assert refused(lambda: merge(split)) == "merge_both_claimed"


# ---------------------------------------------------------------------- rename


def test_rename_keeps_seats_and_hands_and_can_be_undone(split: dict[str, Any]) -> None:
    club, keep = split["club"], split["keep"]
    before, recorded = results(club), hands()
    seat_names = list(Seat.objects.order_by("pk").values_list("name", flat=True))
    change = player_rename(
        player=keep, name=" Tomáš  Novák", version=keep.version, request_id=uuid.uuid4(), user=None
    )
    assert change is not None and change.action == ClubChange.Action.RENAMED
    keep.refresh_from_db()
    assert (keep.name, keep.key) == ("Tomáš Novák", "tomáš novák")
    assert list(Seat.objects.order_by("pk").values_list("name", flat=True)) == seat_names
    assert hands() == recorded and results(club) == before
    later = GameFactory.create(players=["tomáš novák", "Ann"], family="gin", club=club)
    assert player_of(later, "tomáš novák") == keep
    club_change_undo(change=change, user=None)
    keep.refresh_from_db()
    assert keep.name == "Tomáš"
    assert refused(lambda: club_change_undo(change=change, user=None)) == "already_undone"


def test_rename_to_another_player_s_name_or_from_a_stale_form_is_refused(split: dict[str, Any]) -> None:
    keep = split["keep"]
    g1 = split["games"][0]
    assert refused(
        lambda: player_rename(player=keep, name="bob", version=None, request_id=None, user=None)
    ) == ("name_taken")
    old = keep.version
    player_rename(player=keep, name="TOMÁŠ", version=old, request_id=None, user=None)  # same key: fine
    assert refused(
        lambda: player_rename(player=keep, name="Tom", version=old, request_id=None, user=None)
    ) == ("stale_player")
    assert refused(
        lambda: player_rename(player=keep, name="\x00", version=None, request_id=None, user=None)
    ) == ("name_control")
    assert player_of(g1, "Tomáš").name == "TOMÁŠ"
    assert player_of(g1, "Bob").name == "Bob"


def test_undoing_a_rename_is_refused_when_the_old_name_was_taken_meanwhile(split: dict[str, Any]) -> None:
    keep, club = split["keep"], split["club"]
    change = player_rename(player=keep, name="Tom", version=None, request_id=None, user=None)
    assert change is not None
    GameFactory.create(players=["Tomáš", "Ann"], family="gin", club=club)  # a new Tomáš
    assert refused(lambda: club_change_undo(change=change, user=None)) == "name_taken"
    assert Player.objects.get(pk=keep.pk).name == "Tom"


# ---------------------------------------------------------------------- claim


def test_one_account_is_one_player_per_club() -> None:
    club = ClubFactory.create()
    game = zoliky(club, ["Ann", "Bob", "Cid"])
    ann, bob = player_of(game, "Ann"), player_of(game, "Bob")
    me, you = UserFactory.create(), UserFactory.create()
    assert player_claim(player=ann, user=me, claim=True).user == me
    assert player_claim(player=ann, user=me, claim=True).user == me  # twice: same
    assert refused(lambda: player_claim(player=bob, user=me, claim=True)) == "claimed_other_player"
    assert refused(lambda: player_claim(player=ann, user=you, claim=True)) == "claimed_by_other"
    # In another club the same account is another player.
    elsewhere = zoliky(ClubFactory.create(), ["Ann", "Zed"])
    assert player_claim(player=player_of(elsewhere, "Ann"), user=me, claim=True).user == me
    # Let go, then someone else may claim him.
    assert player_claim(player=ann, user=me, claim=False).user is None
    assert player_claim(player=ann, user=you, claim=True).user == you
    assert player_claim(player=bob, user=me, claim=True).user == me
    own = zoliky(None, ["Ann", "Zed"], owner=me)
    assert refused(lambda: player_claim(player=player_of(own, "Ann"), user=me, claim=True)) == (
        "claim_not_club"
    )


# ---------------------------------------------------------------------- roles


@pytest.fixture
def members() -> tuple[Club, Membership, Membership]:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    return club, Membership.objects.get(club=club, user=organiser), add_member(club, UserFactory.create())


def test_a_role_change_is_idempotent_refuses_stale_forms_and_can_be_undone(
    members: tuple[Club, Membership, Membership],
) -> None:
    club, _, member = members
    request = uuid.uuid4()
    change = membership_set_role(
        membership=member, role=Role.SCOREKEEPER, version=1, request_id=request, user=None
    )
    assert change is not None and change.action == ClubChange.Action.ROLE
    again = membership_set_role(
        membership=member, role=Role.SCOREKEEPER, version=1, request_id=request, user=None
    )
    assert again == change and ClubChange.objects.filter(club=club).count() == 1
    member.refresh_from_db()
    assert (member.role, member.version) == (Role.SCOREKEEPER, 2)
    # Asking for the role he has changes nothing.
    assert (
        membership_set_role(membership=member, role=Role.SCOREKEEPER, version=2, request_id=None, user=None)
        is None
    )
    assert refused(
        lambda: membership_set_role(
            membership=member, role=Role.ORGANISER, version=1, request_id=uuid.uuid4(), user=None
        )
    ) == ("stale_member")
    assert refused(
        lambda: membership_set_role(membership=member, role="king", version=2, request_id=None, user=None)
    ) == ("bad_role")
    member.refresh_from_db()
    assert member.role == Role.SCOREKEEPER
    club_change_undo(change=change, user=None)
    member.refresh_from_db()
    assert member.role == Role.MEMBER
    assert refused(lambda: club_change_undo(change=change, user=None)) == "already_undone"


def test_the_last_organiser_stays(members: tuple[Club, Membership, Membership]) -> None:
    club, organiser, member = members
    assert refused(
        lambda: membership_set_role(
            membership=organiser, role=Role.MEMBER, version=None, request_id=None, user=None
        )
    ) == ("last_organiser")
    assert refused(lambda: membership_remove(membership=organiser)) == "last_organiser"
    promoted = membership_set_role(
        membership=member, role=Role.ORGANISER, version=None, request_id=None, user=None
    )
    assert promoted is not None
    # Now the first may step down; then undoing the promotion would leave nobody in charge.
    membership_set_role(membership=organiser, role=Role.MEMBER, version=None, request_id=None, user=None)
    assert refused(lambda: club_change_undo(change=promoted, user=None)) == "last_organiser"
    assert Membership.objects.filter(club=club, role=Role.ORGANISER).count() == 1
    membership_remove(membership=organiser)
    assert list(Membership.objects.filter(club=club).values_list("role", flat=True)) == [Role.ORGANISER]


# ---------------------------------------------------------------------- invites


def test_an_invite_adds_a_member_once(members: tuple[Club, Membership, Membership]) -> None:
    club, organiser, _ = members
    invite = invite_create(club=club, user=organiser.user, days=7)
    newcomer = UserFactory.create()
    joined = club_join(token=invite.token, user=newcomer)
    assert (joined.club, joined.user, joined.role) == (club, newcomer, Role.MEMBER)
    assert club_join(token=invite.token, user=newcomer) == joined
    assert Membership.objects.filter(club=club, user=newcomer).count() == 1
    # A member who opens the link keeps his role.
    assert club_join(token=invite.token, user=organiser.user).role == Role.ORGANISER
    invite.refresh_from_db()
    assert invite.uses == 1


def test_a_revoked_expired_or_unknown_invite_is_refused(members: tuple[Club, Membership, Membership]) -> None:
    club, organiser, _ = members
    user = UserFactory.create()
    revoked = invite_revoke(invite=invite_create(club=club, user=organiser.user, days=None))
    expired = invite_create(club=club, user=organiser.user, days=1)
    Invite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    for token in (revoked.token, expired.token, secrets.token_urlsafe(32), "", "x" * 5000):
        assert refused(club_join, token=token, user=user) == "invite_invalid"
    assert not Membership.objects.filter(user=user).exists()


def test_invite_tokens_cannot_be_guessed(members: tuple[Club, Membership, Membership]) -> None:
    club, organiser, _ = members
    tokens = [invite_create(club=club, user=organiser.user, days=None).token for _ in range(20)]
    assert len(set(tokens)) == 20
    for token in tokens:
        # token_urlsafe(32): 32 random bytes, 43 URL-safe characters (at least 128 bits).
        assert len(token) >= len(secrets.token_urlsafe(32)) and len(token) * 6 >= 128
        assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_a_removed_member_keeps_his_player_but_not_the_link_to_his_account() -> None:
    from games.services.clubs import membership_remove
    from games.services.players import player_claim

    club = ClubFactory.create()
    member = UserFactory.create(username="leaver")
    membership = add_member(club, member)
    game = GameFactory.create(players=["Ann", "Bob", "Cid"], club=club)
    ann = Player.objects.get(club=club, name="Ann")
    player_claim(player=ann, user=member, claim=True)
    membership_remove(membership=membership)
    ann.refresh_from_db()
    assert ann.user is None
    assert ann.seats.get().game == game
