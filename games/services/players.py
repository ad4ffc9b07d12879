"""Players of a club or of one user's roster: names, the players of a new game's seats,
rename, merge, claim, and undoing a club's change.

Like the hand writes, every change locks the rows it changes, is idempotent on resend (a
request id, unique per club), refuses stale edits (versions) and is recorded as a
``ClubChange`` that can itself be undone.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from games.models import Club, ClubChange, Game, Player, Result, Seat
from games.signals import seats_moved
from games.text.names import MAX_NAME, clean_name, has_control, loose_key, name_key

from .errors import NameRefused, ServiceError, StalePlayer

Actor = User | AnonymousUser | None


def _user(user: Actor) -> User | None:
    return user if user is not None and user.is_authenticated else None


def check_name(raw: str) -> str:
    """The name as stored, or NameRefused (``name_empty``, ``name_too_long``, ``name_control``)."""
    name = clean_name(raw)
    if not name:
        raise NameRefused("name_empty", "a player needs a name")
    if has_control(raw):
        raise NameRefused("name_control", "a name cannot contain control characters", player=name[:MAX_NAME])
    if len(name) > MAX_NAME:
        raise NameRefused(
            "name_too_long",
            f"name {name[:MAX_NAME]!r}... is too long",
            player=name[:20] + "…",
            maximum=MAX_NAME,
        )
    return name


def roster(*, club: Club | None, owner: User | AnonymousUser | None) -> QuerySet[Player]:
    """The players a new game's seats are chosen from: the club's, else the owner's own."""
    if club is not None:
        return Player.objects.filter(club=club, merged_into=None)
    if owner is not None and owner.is_authenticated:
        return Player.objects.filter(club=None, owner_id=owner.pk, merged_into=None)
    return Player.objects.none()


def similar_players(
    *, club: Club | None, owner: User | AnonymousUser | None, names: Sequence[str]
) -> dict[str, list[str]]:
    """For each name that is new to the roster, the roster's names that read alike (accents,
    case and spacing aside): the "did you mean" offered before a new player is created."""
    keys = {name: name_key(name) for name in names}
    loose = {name: loose_key(name) for name in names}
    found = list(roster(club=club, owner=owner).filter(loose_key__in=set(loose.values())))
    known = {p.key for p in found}
    result: dict[str, list[str]] = {}
    for name in names:
        if keys[name] in known:
            continue
        alike = [p.name for p in found if p.loose_key == loose[name]]
        if alike:
            result[name] = alike
    return result


def seat_players(
    *, club: Club | None, owner: User | AnonymousUser | None, names: Sequence[str]
) -> list[Player]:
    """The player of each of a new game's seats: the roster's player of that name, or a new
    one. A game without a club or an owner gets players of its own. Call inside the game's
    transaction."""
    owner_user = _user(owner)
    if club is None and owner_user is None:
        return [
            Player.objects.create(name=name, key=name_key(name), loose_key=loose_key(name)) for name in names
        ]
    existing = {
        p.key: p for p in roster(club=club, owner=owner_user).filter(key__in=[name_key(n) for n in names])
    }
    players: list[Player] = []
    for name in names:
        key = name_key(name)
        player = existing.get(key)
        if player is None:
            player = Player.objects.create(
                club=club,
                owner=owner_user if club is None else None,
                name=name,
                key=key,
                loose_key=loose_key(name),
            )
            existing[key] = player
        players.append(player)
    return players


# ---------------------------------------------------------------------- club changes


def _replayed(club: Club | None, request_id: uuid.UUID | None) -> ClubChange | None:
    if club is None or request_id is None:
        return None
    return ClubChange.objects.filter(club=club, request_id=request_id).first()


def _locked_players(*players: Player) -> dict[int, Player]:
    return {
        p.pk: p
        for p in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[p.pk for p in players])
        .order_by("pk")
    }


def _check_version(player: Player, version: int | None) -> None:
    if version is not None and player.version != version:
        raise StalePlayer(player=player.name)


def _check_free(player: Player, key: str) -> None:
    """No other current player of the same club or roster has this name."""
    same = Player.objects.filter(key=key, merged_into=None).exclude(pk=player.pk)
    same = same.filter(club=player.club) if player.club_id else same.filter(club=None, owner=player.owner_id)
    taken = same.first() if (player.club_id or player.owner_id) else None
    if taken is not None:
        raise NameRefused("name_taken", f"{taken.name} is already a player here", player=taken.name)


def record_change(
    club: Club | None,
    action: str,
    data: dict[str, object],
    user: Actor,
    request_id: uuid.UUID | None,
    undoes: ClubChange | None = None,
) -> ClubChange | None:
    if club is None:
        return None
    return ClubChange.objects.create(
        club=club, action=action, data=data, user=_user(user), request_id=request_id, undoes=undoes
    )


def idempotent[T: ClubChange | None](
    club: Club | None, request_id: uuid.UUID | None, write: Callable[[], T]
) -> T | ClubChange:
    """Run ``write`` in a transaction; a resend (same request id) returns the first change."""
    replay = _replayed(club, request_id)
    if replay is not None:
        return replay
    try:
        with transaction.atomic():
            replay = _replayed(club, request_id)
            if replay is not None:
                return replay
            return write()
    except IntegrityError:
        replay = _replayed(club, request_id)
        if replay is None:
            raise
        return replay


def player_rename(
    *, player: Player, name: str, version: int | None, request_id: uuid.UUID | None, user: Actor
) -> ClubChange | None:
    """Rename a player. Seats keep the names their hands were recorded with, so every sheet
    and every total stays as it was. Returns the club's change (None for a private roster)."""
    new_name = check_name(name)

    def write() -> ClubChange | None:
        current = _locked_players(player)[player.pk]
        if current.merged_into_id is not None:
            raise ServiceError(
                "player_merged", f"{current.name} was merged into another player", player=current.name
            )
        _check_version(current, version)
        if current.name == new_name:
            return None
        key = name_key(new_name)
        _check_free(current, key)
        before = current.name
        current.name, current.key, current.loose_key = new_name, key, loose_key(new_name)
        current.version += 1
        current.save(update_fields=["name", "key", "loose_key", "version"])
        player.name, player.version = current.name, current.version
        data = {"player": current.pk, "before": before, "after": new_name}
        return record_change(current.club, ClubChange.Action.RENAMED, data, user, request_id)

    return idempotent(player.club, request_id, write)


def _move_seats(seat_ids: Sequence[int], to: Player) -> None:
    Seat.objects.filter(pk__in=seat_ids).update(player=to)
    Result.objects.filter(seat_id__in=seat_ids).update(player=to)
    if to.club_id is not None and seat_ids:
        games = list(Seat.objects.filter(pk__in=seat_ids).values_list("game_id", flat=True).distinct())
        seats_moved.send(sender=Player, club_id=to.club_id, game_ids=games)


def _merge(keep: Player, drop: Player, seat_ids: list[int], claim_moved: bool) -> None:
    """Move ``seat_ids`` from ``drop`` to ``keep`` and hide ``drop`` (locked rows)."""
    games = Seat.objects.filter(pk__in=seat_ids).values("game_id")
    # Lock the games: a hand saved meanwhile rewrites their results from the seats.
    list(Game.objects.select_for_update(no_key=True).filter(pk__in=games).values_list("pk", flat=True))
    if Seat.objects.filter(player=keep, game_id__in=games).exists():
        raise ServiceError(
            "merge_same_game",
            f"{keep.name} and {drop.name} played in the same game, so they are two people",
            player=keep.name,
            other=drop.name,
        )
    _move_seats(seat_ids, keep)
    if claim_moved:
        keep.user_id, drop.user_id = drop.user_id, None
    drop.merged_into = keep
    for p in (keep, drop):
        p.version += 1
    drop.save(update_fields=["merged_into", "user", "version"])
    keep.save(update_fields=["user", "version"])


def player_merge(
    *,
    keep: Player,
    drop: Player,
    keep_version: int | None,
    drop_version: int | None,
    request_id: uuid.UUID | None,
    user: Actor,
) -> ClubChange:
    """Merge ``drop`` into ``keep`` (one person recorded under two names): every seat of
    ``drop`` moves to ``keep`` with its results. Recorded in the club's history; undoable."""
    if keep.club_id is None or keep.club_id != drop.club_id:
        raise ServiceError("merge_other_club", "only players of one club can be merged")
    if keep.pk == drop.pk:
        raise ServiceError("merge_self", "choose two different players", player=keep.name)
    club = keep.club

    def write() -> ClubChange:
        locked = _locked_players(keep, drop)
        k, d = locked[keep.pk], locked[drop.pk]
        for p in (k, d):
            if p.merged_into_id is not None:
                raise ServiceError("player_merged", f"{p.name} was merged into another player", player=p.name)
        _check_version(k, keep_version)
        _check_version(d, drop_version)
        if k.user_id and d.user_id and k.user_id != d.user_id:
            raise ServiceError(
                "merge_both_claimed",
                "both players are claimed by different accounts",
                player=k.name,
                other=d.name,
            )
        claim_moved = d.user_id is not None and k.user_id is None
        seat_ids = list(Seat.objects.filter(player=d).order_by("pk").values_list("pk", flat=True))
        _merge(k, d, seat_ids, claim_moved)
        data = {
            "keep": k.pk,
            "drop": d.pk,
            "keep_name": k.name,
            "drop_name": d.name,
            "seats": seat_ids,
            "claim_moved": claim_moved,
        }
        change = record_change(club, ClubChange.Action.MERGED, data, user, request_id)
        assert change is not None
        return change

    return idempotent(club, request_id, write)


def unmerge(change: ClubChange, user: Actor) -> ClubChange:
    data = change.data
    locked = _locked_players(Player(pk=data["keep"]), Player(pk=data["drop"]))
    keep, drop = locked.get(data["keep"]), locked.get(data["drop"])
    if keep is None or drop is None or drop.merged_into_id != keep.pk or keep.merged_into_id is not None:
        raise ServiceError("club_changed_since", "the players were changed after this; undo that first")
    _check_free(drop, drop.key)
    seat_ids = list(Seat.objects.filter(pk__in=data["seats"], player=keep).values_list("pk", flat=True))
    list(
        Game.objects.select_for_update(no_key=True)
        .filter(seats__pk__in=seat_ids)
        .values_list("pk", flat=True)
    )
    _move_seats(seat_ids, drop)
    if data.get("claim_moved"):
        drop.user_id, keep.user_id = keep.user_id, None
    drop.merged_into = None
    for p in (keep, drop):
        p.version += 1
    # The kept player lets go of the account before the dropped one, visible again, takes it
    # back (one player per account per club).
    keep.save(update_fields=["user", "version"])
    drop.save(update_fields=["merged_into", "user", "version"])
    change_data = {**data, "seats": seat_ids}
    undone = record_change(change.club, ClubChange.Action.UNMERGED, change_data, user, None, undoes=change)
    assert undone is not None
    return undone


def remerge(change: ClubChange, user: Actor) -> ClubChange:
    data = change.data
    locked = _locked_players(Player(pk=data["keep"]), Player(pk=data["drop"]))
    keep, drop = locked.get(data["keep"]), locked.get(data["drop"])
    if keep is None or drop is None or keep.merged_into_id is not None or drop.merged_into_id is not None:
        raise ServiceError("club_changed_since", "the players were changed after this; undo that first")
    if data.get("claim_moved") and (keep.user_id is not None or drop.user_id is None):
        raise ServiceError("club_changed_since", "the players were changed after this; undo that first")
    seat_ids = list(Seat.objects.filter(pk__in=data["seats"], player=drop).values_list("pk", flat=True))
    _merge(keep, drop, seat_ids, bool(data.get("claim_moved")))
    merged = record_change(
        change.club, ClubChange.Action.MERGED, {**data, "seats": seat_ids}, user, None, undoes=change
    )
    assert merged is not None
    return merged


def rename_back(change: ClubChange, user: Actor) -> ClubChange:
    data = change.data
    player = _locked_players(Player(pk=data["player"])).get(data["player"])
    if player is None or player.name != data["after"] or player.merged_into_id is not None:
        raise ServiceError("club_changed_since", "the player was changed after this; undo that first")
    before = str(data["before"])
    _check_free(player, name_key(before))
    player.name, player.key, player.loose_key = before, name_key(before), loose_key(before)
    player.version += 1
    player.save(update_fields=["name", "key", "loose_key", "version"])
    back = {"player": player.pk, "before": data["after"], "after": before}
    undone = record_change(change.club, ClubChange.Action.RENAMED, back, user, None, undoes=change)
    assert undone is not None
    return undone


def player_claim(*, player: Player, user: User, claim: bool) -> Player:
    """Link (or unlink) ``user``'s account to his player in the player's club: one player per
    account per club."""
    with transaction.atomic():
        current = _locked_players(player)[player.pk]
        if current.club_id is None:
            raise ServiceError("claim_not_club", "only a club's players can be claimed")
        if current.merged_into_id is not None:
            raise ServiceError(
                "player_merged", f"{current.name} was merged into another player", player=current.name
            )
        if claim:
            if current.user_id == user.pk:
                return current
            if current.user_id is not None:
                raise ServiceError(
                    "claimed_by_other", f"{current.name} is claimed by another account", player=current.name
                )
            mine = Player.objects.filter(club=current.club_id, user=user, merged_into=None).first()
            if mine is not None:
                raise ServiceError(
                    "claimed_other_player", f"you are {mine.name} in this club already", player=mine.name
                )
            current.user = user
        else:
            if current.user_id is None:
                return current
            current.user = None
        current.version += 1
        current.save(update_fields=["user", "version"])
    return current


def account_rename(*, user: User, name: str) -> None:
    """Set the name a user is shown under in games' histories (empty: his user name)."""
    shown = check_name(name) if name.strip() else ""
    if user.first_name != shown:
        user.first_name = shown
        user.save(update_fields=["first_name"])
