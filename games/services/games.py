"""Starting a game (its seats' players, in a club or not), ending the evening (and reopening
it), replacing its edit link, and (a club's organisers) giving a club's game another starter
or deleting it.

A deleted game keeps its record (seats, hands, history) and loses its derived rows (scores,
results), so that nothing counting results (standings, ratings, seasons, a player's page)
counts it; lists leave it out by its ``deleted_at``. Undo brings it back: the rows are derived
again and the change is reported like any other change of results (``games.signals``)."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from engine.errors import EngineError
from engine.rules import rule_set, table_options
from games.models import (
    AuditEntry,
    Change,
    Club,
    Game,
    Membership,
    Player,
    Result,
    Score,
    Seat,
    new_edit_token,
)
from games.signals import game_dated, results_changed
from games.text.names import name_key
from scoring.game import start

from .audit import record
from .errors import ServiceError
from .players import check_name, seat_players
from .results import rebuild, score, store_derived


class EventLabel(NamedTuple):
    """What a game played for an event shows of it: "Table 3, round 2" of the event's name,
    with a link to the event's page."""

    event_name: str
    event_round: int
    event_table: int
    event_path: str
    event_ends: datetime.datetime | None = None  # the round's clock runs out then


def game_start(
    *,
    family: str,
    options: Mapping[str, object],
    players: Sequence[str],
    owner: User | AnonymousUser | None,
    first_dealer: int = 0,
    club: Club | None = None,
    hand_limit: int = 0,
    event: EventLabel | None = None,
    played_at: datetime.datetime | None = None,
) -> Game:
    """Create a game: a club's (counted on its pages) or a private one. Each seat gets the
    roster's player of that name, or a new one. Raises EngineError for an unknown family or
    option, a bad player list or name. ``hand_limit``: the game ends after that many hands at
    the latest; ``event``: the event (a tournament's table) the game is played for;
    ``played_at``: when it was played (default now; ServiceError ``played_in_future`` after
    now)."""
    played_at = checked_date(played_at)
    names: list[str] = []
    for raw in players:
        if not raw.strip():
            continue
        try:
            names.append(check_name(raw))
        except ServiceError as error:
            error.params = {**error.params, "seat": len(names) + 1}
            raise
    seen: dict[str, str] = {}
    for name in names:
        if name_key(name) in seen:
            raise EngineError("duplicate_player", f"player {name!r} appears twice", player=name)
        seen[name_key(name)] = name
    options = dict(options)
    options.update(table_options(family, len(names)))  # Carousel's decks follow the players
    rules = rule_set(family, options)
    start(rules=rules, players=names)  # checks the count for the family and duplicates
    if not 0 <= first_dealer < len(names):
        first_dealer = 0
    stored = {name: value for name, value in rules.options.items()}
    with transaction.atomic():
        game = Game.objects.create(
            family=family,
            options=stored,
            owner=owner if owner is not None and owner.is_authenticated else None,
            first_dealer=first_dealer,
            club=club,
            hand_limit=hand_limit,
            played_at=played_at,
            **(event._asdict() if event is not None else {}),
        )
        people = seat_players(club=club, owner=owner, names=names)
        # A known player sits under his own name ("tomáš " typed is Tomáš on the sheet).
        seats = Seat.objects.bulk_create(
            Seat(game=game, position=i, name=player.name, player=player) for i, player in enumerate(people)
        )
        store_derived(game, seats, [], score(game, seats, []))
    return game


# A phone's clock a little ahead of the server's: its "now" is still now.
CLOCK_SLACK = datetime.timedelta(minutes=5)


def checked_date(played_at: datetime.datetime | None) -> datetime.datetime:
    """A date of play as stored: now when none is given, never after now (ServiceError
    ``played_in_future``); a moment within ``CLOCK_SLACK`` of now is now."""
    now = timezone.now()
    if played_at is None:
        return now
    if timezone.is_naive(played_at):
        played_at = timezone.make_aware(played_at)
    if played_at > now + CLOCK_SLACK:
        raise ServiceError("played_in_future", "a game cannot be played in the future", field="played_at")
    return min(played_at, now)


def _moment(value: object) -> datetime.datetime | None:
    """A moment as a change records it (ISO 8601), read back."""
    if not isinstance(value, Mapping) or not isinstance(value.get("played_at"), str):
        return None
    return datetime.datetime.fromisoformat(value["played_at"])


def game_date_set(
    *,
    game: Game,
    played_at: datetime.datetime,
    shown: datetime.datetime | None,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
) -> Change | None:
    """Change when the game was played. ``shown``: the date the form showed; if the game's
    date changed since (another phone), ServiceError ``date_changed_since`` and nothing
    changes. Recorded, undone like any change; a resend with the same ``request_id`` returns
    the first change; None when the date is already this one. Whether ``user`` may do it is
    the caller's check (``access.can_edit``)."""
    with transaction.atomic():
        locked = _present(game)
        resent = _resent(locked, request_id, Change.Action.DATED)
        if resent is not None:
            return resent
        if locked.event_path or locked.event_name:
            raise ServiceError("event_game_dated", "a tournament's table is played on the tournament's date")
        wanted = checked_date(played_at)
        if shown is None:
            raise ServiceError("version_required", "the form did not say which date it changes")
        if locked.played_at != shown:
            raise ServiceError(
                "date_changed_since",
                "the game's date was changed meanwhile",
                current=timezone.localtime(locked.played_at).strftime("%Y-%m-%d %H:%M"),
            )
        if locked.played_at == wanted:
            return None
        change = set_date(locked, played_at=wanted, user=user, request_id=request_id)
        game.played_at = locked.played_at
    return change


def set_date(
    locked: Game,
    *,
    played_at: datetime.datetime,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
    undoes: Change | None = None,
) -> Change:
    """Give the game (its locked row) another date of play and record it (also by undo). The
    apps counting club games by date are told (``games.signals.game_dated``)."""
    before = locked.played_at
    locked.played_at = played_at
    locked.save(update_fields=["played_at", "updated_at"])
    if locked.club_id is not None:
        finished = Result.objects.filter(game=locked, finished=True).exists()
        game_dated.send(sender=Game, game=locked, before=before, after=played_at, finished=finished)
    return Change.objects.create(
        game=locked,
        action=Change.Action.DATED,
        before={"played_at": before.isoformat()},
        after={"played_at": played_at.isoformat()},
        user=_actor(user),
        request_id=request_id,
        undoes=undoes,
    )


def undo_date(locked: Game, change: Change, user: User | AnonymousUser | None) -> Change:
    """Put back the date ``change`` replaced, if the game still has the one it set."""
    before, after = _moment(change.before), _moment(change.after)
    if before is None or after is None or locked.played_at != after:
        raise ServiceError("changed_since", "the game's date was changed after this; undo that first")
    return set_date(locked, played_at=before, user=user, undoes=change)


def _present(game: Game) -> Game:
    """The game's row, locked; ServiceError ``game_deleted`` if it was deleted (meanwhile)."""
    locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if locked.deleted_at is not None:
        raise ServiceError("game_deleted", "the game was deleted")
    return locked


def _actor(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _resent(locked: Game, request_id: uuid.UUID | None, *actions: str) -> Change | None:
    if request_id is None:
        return None
    return Change.objects.filter(game=locked, request_id=request_id, action__in=actions).first()


RECORDING_ROLES = (Membership.Role.SCOREKEEPER, Membership.Role.ORGANISER)


def game_transfer(
    *,
    game: Game,
    to: User,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
) -> Change:
    """Make ``to`` the starter of a club's game: he must be a scorekeeper or organiser of the
    club (the starter's rights follow his role there). Recorded, and undone like any change.
    A resend with the same ``request_id`` returns the first change. Whether ``user`` may do it
    is the caller's check (``access.can_manage_game``)."""
    with transaction.atomic():
        locked = _present(game)
        resent = _resent(locked, request_id, Change.Action.TRANSFER)
        if resent is not None:
            return resent
        if locked.club_id is None:
            raise ServiceError("not_club_game", "only a club's game is given to another starter")
        if not Membership.objects.filter(club_id=locked.club_id, user=to, role__in=RECORDING_ROLES).exists():
            raise ServiceError(
                "starter_not_recorder", "the new starter must be a scorekeeper or organiser of the club"
            )
        if locked.owner_id == to.pk:
            raise ServiceError("already_starter", "this user started the game already")
        change = set_owner(locked, owner_id=to.pk, user=user, request_id=request_id)
        game.owner = locked.owner
    return change


def set_owner(
    locked: Game,
    *,
    owner_id: int | None,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
    undoes: Change | None = None,
) -> Change:
    """Give the game (its locked row) another starter and record it (also by undo)."""
    before = locked.owner_id
    if owner_id is not None and not User.objects.filter(pk=owner_id).exists():
        owner_id = None  # the account was deleted since: nobody
    locked.owner_id = owner_id
    locked.save(update_fields=["owner", "updated_at"])
    if locked.club_id is not None:
        names: dict[int | None, str] = dict(
            User.objects.filter(pk__in=[before, owner_id]).values_list("pk", "username")
        )
        record(
            club=locked.club_id,
            action=AuditEntry.Action.GAME_TRANSFERRED,
            actor=user,
            target=locked.public_id,
            data={
                "before": names.get(before, ""),
                "after": names.get(owner_id, ""),
                "undo": undoes is not None,
            },
        )
    return Change.objects.create(
        game=locked,
        action=Change.Action.TRANSFER,
        before={"owner": before},
        after={"owner": owner_id},
        user=_actor(user),
        request_id=request_id,
        undoes=undoes,
    )


def game_delete(
    *, game: Game, user: User | AnonymousUser | None, request_id: uuid.UUID | None = None
) -> Change:
    """Delete a club's game (undo brings it back). A tournament's table is not deleted here:
    its tournament counts it. A resend with the same ``request_id`` returns the first change.
    Whether ``user`` may do it is the caller's check (``access.can_manage_game``)."""
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        resent = _resent(locked, request_id, Change.Action.REMOVED)
        if resent is not None:
            return resent
        if locked.deleted_at is not None:
            raise ServiceError("game_deleted", "the game was deleted")
        if locked.club_id is None:
            raise ServiceError("not_club_game", "only a club's game is deleted by its organisers")
        if locked.event_path or locked.event_name:
            raise ServiceError("event_game", "a tournament's table is changed in its tournament")
        change = set_present(locked, present=False, user=user, request_id=request_id)
        game.deleted_at = locked.deleted_at
    return change


def set_present(
    locked: Game,
    *,
    present: bool,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
    undoes: Change | None = None,
) -> Change:
    """Delete the game (its locked row), or bring it back, and record the change (also by
    undo). Deleting drops its derived rows and reports the change of results, as a write of
    its hands does (games.signals); bringing it back derives them again (which reports it)."""
    if present:
        locked.deleted_at = None
        locked.save(update_fields=["deleted_at", "updated_at"])
        rebuild(locked)
    else:
        finished = Result.objects.filter(game=locked, finished=True).exists()
        Score.objects.filter(hand__game=locked).delete()
        Result.objects.filter(game=locked).delete()
        locked.deleted_at = timezone.now()
        locked.save(update_fields=["deleted_at", "updated_at"])
        if locked.club_id is not None:
            results_changed.send(sender=Game, game=locked, finished=finished)
    if locked.club_id is not None:
        action = AuditEntry.Action.GAME_RESTORED if present else AuditEntry.Action.GAME_DELETED
        record(
            club=locked.club_id,
            action=action,
            actor=user,
            target=locked.public_id,
            data={"undo": undoes is not None},
        )
    return Change.objects.create(
        game=locked,
        action=Change.Action.RESTORED if present else Change.Action.REMOVED,
        user=_actor(user),
        request_id=request_id,
        undoes=undoes,
    )


def set_ended(
    locked: Game,
    *,
    ended: bool,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
    undoes: Change | None = None,
) -> Change:
    """End (or reopen) the game, re-derive its results and record the change. Called inside
    the write's transaction, with ``locked`` the game's locked row (also by undo)."""
    locked.ended = ended
    locked.save(update_fields=["ended", "updated_at"])
    rebuild(locked)
    return Change.objects.create(
        game=locked,
        action=Change.Action.ENDED if ended else Change.Action.REOPENED,
        user=user if user is not None and user.is_authenticated else None,
        request_id=request_id,
        undoes=undoes,
    )


def game_end(
    *,
    game: Game,
    ended: bool,
    user: User | AnonymousUser | None = None,
    request_id: uuid.UUID | None = None,
) -> Change | None:
    """Declare the evening over (or reopen it): an open game is then finished after its last
    hand, and its results say so. The change goes into the game's history (undo reverses it).
    Returns it; a resend with the same ``request_id`` returns the first one and changes
    nothing; None when the game already was so (nothing to record)."""
    with transaction.atomic():
        locked = _present(game)
        game.ended = locked.ended
        if request_id is not None:
            resent = Change.objects.filter(
                game=locked, request_id=request_id, action__in=Change.END_ACTIONS
            ).first()
            if resent is not None:
                return resent
        if locked.ended == ended:
            return None
        change = set_ended(locked, ended=ended, user=user, request_id=request_id)
        game.ended = ended
    return change


def edit_link_renew(
    *, game: Game, user: User | AnonymousUser | None, request_id: uuid.UUID | None = None
) -> Change:
    """Replace the game's edit link: the old one stops working at once, for everyone who has
    it (sessions keep a digest of the token they were given). Recorded in the history, but
    never undone: bringing back a link someone wanted to end would defeat the point. A resend
    with the same ``request_id`` returns the first change (the link is replaced once).
    Whether ``user`` may do it is the caller's check (``access.can_renew_link``)."""
    with transaction.atomic():
        locked = _present(game)
        if request_id is not None:
            resent = Change.objects.filter(
                game=locked, request_id=request_id, action=Change.Action.NEW_LINK
            ).first()
            if resent is not None:
                game.edit_token = locked.edit_token
                return resent
        locked.edit_token = new_edit_token()
        locked.save(update_fields=["edit_token", "updated_at"])
        game.edit_token = locked.edit_token
        # Never the token: the history is public.
        return Change.objects.create(
            game=locked,
            action=Change.Action.NEW_LINK,
            user=user if user is not None and user.is_authenticated else None,
            request_id=request_id,
        )


def current_player(player: Player) -> Player:
    """The player a merged one now lives on (merges may chain)."""
    seen = {player.pk}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        assert player.merged_into is not None
        player = player.merged_into
        seen.add(player.pk)
    return player


def game_rematch(
    *,
    game: Game,
    user: User | AnonymousUser | None,
    request_id: uuid.UUID | None = None,
) -> Game:
    """Start the next game at the same table: the same players (the same roster players, so
    their club or private statistics go on), the same family and house rules and hand limit,
    in the same club, never for the old game's event. The deal moves on: the first dealer is
    the seat after the old game's first dealer. Owned by ``user`` when logged in (like a game
    started anew), else by nobody (the browser keeps the edit link). A resend with the same
    ``request_id`` returns the game it started and starts nothing. Whether ``user`` may do it
    is the caller's check (``access.can_rematch``)."""
    with transaction.atomic():
        locked = _present(game)
        if request_id is not None:
            again = Game.objects.filter(rematch_of=locked, request_id=request_id).first()
            if again is not None:
                return again
        seats = list(
            Seat.objects.filter(game=locked).select_related("player__merged_into").order_by("position")
        )
        rules = rule_set(locked.family, locked.options)
        new = Game.objects.create(
            family=locked.family,
            options={name: value for name, value in rules.options.items()},
            owner=user if user is not None and user.is_authenticated else None,
            first_dealer=(locked.first_dealer + 1) % len(seats) if seats else 0,
            club=locked.club,
            hand_limit=locked.hand_limit,
            rematch_of=locked,
            request_id=request_id,
        )
        # Each under his current name (renamed, or merged into another player since).
        people = [current_player(seat.player) for seat in seats]
        names = [player.name for player in people]
        if len({name_key(name) for name in names}) < len(names):
            # Two seats' players were merged since, or renamed alike: keep them as they sat.
            people = [seat.player for seat in seats]
            names = [seat.name for seat in seats]
        new_seats = Seat.objects.bulk_create(
            Seat(game=new, position=i, name=name, player=player)
            for i, (name, player) in enumerate(zip(names, people, strict=True))
        )
        store_derived(new, new_seats, [], score(new, new_seats, []))
    return new
