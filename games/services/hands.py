"""Recording, correcting and deleting hands, and undoing any change.

Every write locks the game row, checks the whole game still scores with the change (so an
impossible hand, or an edit that would let an eliminated player score later, is refused and
nothing is stored), rewrites the derived scores and records a Change for the history.

A change that brings back a player who had dropped out (Žolíky) is accepted: the later hands
recorded without him are marked as missing his count (scoring.game.rescore), each mark a
Change of its own; ``counts_fill`` fills them in later, one correction per hand.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction

from engine.errors import EngineError
from games.models import Change, Game, Hand
from games.sheets import rows
from games.sheets.sheet import Sheet, build_sheet, game_rules, marks_only, sheet_ordinals
from scoring.game import GameState, rescore, unmarked

from .errors import EndUnconfirmed, HandGone, HandTaken, ServiceError, StaleEdit
from .evening import undo_evening
from .games import set_ended, set_owner, set_present, undo_date
from .results import store_derived

Actor = User | AnonymousUser | None
Outcome = Mapping[str, object]

# More than any hand of any family can score: a typing slip (a count of 99999999), refused
# here so that the points always fit the database's integer column.
MAX_HAND_POINTS = 99_999


def _user(user: Actor) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _locked(game: Game, *, deleted: bool = False) -> Game:
    """The game read anew under its row lock (games.sheets.rows: every write starts here). A game an
    organiser deleted takes no write (ServiceError ``game_deleted``) but the undo of that
    (``deleted``)."""
    found = rows.select(Game, rows.equals(Game, "id"), [game.pk], lock=True)
    if not found:
        raise Game.DoesNotExist("the game was deleted")
    if found[0].deleted_at is not None and not deleted:
        raise ServiceError("game_deleted", "the game was deleted")
    return found[0]


class Recorded(NamedTuple):
    hand: Hand
    created: bool
    # The score sheet as the save left it, scored once by the save itself; None for a resend
    # (nothing was scored: the page reads the sheet as usual).
    sheet: Sheet | None
    # The change that recorded the hand (what an Undo takes back); None for a resend.
    change_id: int | None = None


def _as_shown(error: EngineError, hands: Sequence[Hand], shown: Sequence[Hand]) -> EngineError:
    """The error with its hand ordinals (counted in ``hands``, the game as it would be) turned
    into the ordinals the score sheet shows now (``shown``): deleting hand 1 breaks what the
    players see as hand 2, not the new hand 1."""
    ordinals = sheet_ordinals([hand.number for hand in shown], [hand.number for hand in hands])

    def as_shown(ordinal: object) -> object:
        if not isinstance(ordinal, int) or not 1 <= ordinal <= len(hands):
            return ordinal
        return ordinals[hands[ordinal - 1].number]

    error.params = {
        key: as_shown(value) if key in ("hand", "eliminated_in", "finished_after") else value
        for key, value in error.params.items()
    }
    return error


def _apply(
    game: Game,
    hands: list[Hand],
    shown: Sequence[Hand],
    *,
    user: Actor = None,
    written: Collection[int] = (),
    typed: bool = True,
    follow: list[Change] | None = None,
    took_number: bool = False,
) -> Sheet:
    """Check the game with these hands (in number order) scores, then store its scores and
    results; returns the sheet as it now stands (the one scoring of the write).
    Called inside the write's transaction: an error rolls back everything the write did.
    An error names hands as the score sheet shows them before the change (``shown``).

    The hands numbered in ``written`` are the ones the write changes (the caller saves them
    and records its change): scored exactly as given when ``typed`` (typed by the scorekeeper,
    so every count is needed), else brought up to date like the rest (an undo puts back an
    outcome recorded earlier). In every other hand the missing counts are brought up to date:
    marked when the write brought back a player who was out when the hand was recorded,
    unmarked when it put him out again. Such a hand is saved with a new version and its
    change recorded (by ``user``), so the history shows every change to every hand: at once,
    or appended to ``follow`` for the caller to save after its own change (the history then
    lists them as following it). ``took_number``: the write added a hand, which took the game's
    ``next_hand_number`` (saved with the game's version)."""
    seats = rows.seats(game)
    try:
        scored = rescore(
            rules=game_rules(game=game),
            players=[seat.name for seat in seats],
            hands=[hand.outcome for hand in hands],
            ended=game.ended,
            hand_limit=game.hand_limit,
            as_typed={i for i, hand in enumerate(hands) if typed and hand.number in written},
        )
        state = _check(scored.state)
    except EngineError as error:
        raise _as_shown(error, hands, shown) from None
    for hand, outcome in zip(hands, scored.outcomes, strict=True):
        if outcome is hand.outcome or outcome == hand.outcome:
            continue
        before, hand.outcome = hand.outcome, outcome
        if hand.number in written:
            continue
        hand.version += 1
        hand.save(update_fields=["outcome", "version", "updated_at"])
        mark = Change(
            game=game,
            hand_number=hand.number,
            action=Change.Action.EDITED,
            before=before,
            after=outcome,
            user=_user(user),
            request_id=hand.request_id,
        )
        if follow is None:
            mark.save()
        else:
            follow.append(mark)
    store_derived(game, seats, hands, state, took_number=took_number)
    return build_sheet(
        game=game, rules=game_rules(game=game), players=[s.name for s in seats], hands=hands, state=state
    )


def _check(state: GameState) -> GameState:
    for ordinal, result in enumerate(state.hands, start=1):
        for name, points in result.points.items():
            if abs(points) > MAX_HAND_POINTS:
                raise ServiceError(
                    "points_out_of_range",
                    f"hand {ordinal}: {name} cannot score {points} points in one hand",
                    hand=ordinal,
                    player=name,
                    points=points,
                    maximum=MAX_HAND_POINTS,
                )
    return state


def _resent() -> str:
    """A change that recorded a hand with the request id (``hand_record``: the hand was deleted
    since)."""
    recorded = rows.column(Change, "hand_number", "t")
    return f"{rows.equals(Change, 'game', 'request_id')} AND {recorded} IS NOT NULL"


def hand_taken(*, game: Game, for_hand: int) -> tuple[Hand, int] | None:
    """The hand that took the place a new-hand form was drawn for (``for_hand``: the game's
    ``next_hand_number`` then) and its place on the sheet, or None if the place is free.

    Hands recorded since the form was drawn have numbers ``>= for_hand``; the first of them
    still present took the place. If every such hand was deleted since, the place is free
    again: the new hand takes the place the form showed (and gets the next number)."""
    if game.next_hand_number <= for_hand:
        return None
    taken = Hand.objects.filter(game=game, number__gte=for_hand).order_by("number").first()
    if taken is None:
        return None
    return taken, _ordinal(game, taken.number)


def hand_record(
    *,
    game: Game,
    outcome: Outcome,
    request_id: uuid.UUID | None,
    user: Actor,
    for_hand: int | None = None,
    confirm_end: bool = True,
) -> Recorded:
    """Add the next hand. Returns (hand, created, sheet): a resend with the same
    ``request_id`` returns the hand it recorded the first time and changes nothing.

    ``for_hand``: the game's ``next_hand_number`` when the form was drawn. If another phone
    recorded a hand since (see :func:`hand_taken`), nothing is recorded and ServiceError
    ``hand_taken`` names that hand (``hand``: its place on the sheet, ``number``, ``version``);
    a resend is still answered with the hand it recorded, whatever its ``for_hand``.

    ``confirm_end=False`` (the new-hand form before its player confirmed): a hand that would end
    the game is not recorded; EndUnconfirmed (``hand_ends_game``) says how (``reason``, ``winners``).
    The save's own scoring answers it, rolled back: a save still scores the game once."""
    try:
        with transaction.atomic():
            locked = _locked(game)
            hands = rows.hands(locked)
            if request_id is not None:
                # A resend is found under the game's lock, among the hands the save reads anyway.
                wanted = uuid.UUID(str(request_id))
                existing = next((hand for hand in hands if hand.request_id == wanted), None)
                if existing is not None:
                    return Recorded(existing, False, None)
                if rows.exists(Change, _resent(), [locked.pk, rows.param(Change, "request_id", wanted)]):
                    raise ServiceError("resent_deleted", "this hand was recorded and has been deleted since")
            if locked.ended:
                raise ServiceError("game_ended", "the game was ended; reopen it to record more hands")
            taken = hand_taken(game=locked, for_hand=for_hand) if for_hand is not None else None
            if taken is not None:
                other, ordinal = taken
                raise HandTaken(hand=ordinal, number=other.number, version=other.version)
            stored = dict(outcome)
            _check_counts(stored, (), ordinal=len(hands) + 1)
            # games.sheets.rows: the hand and its change are inserted by statements written out, as
            # the game's rows are read (every save at every table comes here).
            hand = rows.insert(
                Hand(game=locked, number=locked.next_hand_number, outcome=stored, request_id=request_id)
            )
            locked.next_hand_number += 1  # saved with the game's version (store_derived)
            sheet = _apply(locked, [*hands, hand], hands, user=user, written={hand.number}, took_number=True)
            state = sheet.state
            if not confirm_end and state is not None and state.finish_reason is not None:
                raise EndUnconfirmed(reason=state.finish_reason, winners=list(state.winners))
            change = rows.insert(
                Change(
                    game=locked,
                    hand_number=hand.number,
                    action=Change.Action.ADDED,
                    after=stored,
                    user=_user(user),
                    request_id=request_id,
                )
            )
    except IntegrityError:
        # Two sends of the same form raced past the first check: the other one recorded it.
        existing = Hand.objects.filter(game=game, request_id=request_id).first() if request_id else None
        if existing is None:
            raise
        return Recorded(existing, False, None)
    return Recorded(hand, True, sheet, change.pk)


def _missing(outcome: object) -> list[str]:
    """The players whose count an outcome marks as missing."""
    missing = outcome.get("missing") if isinstance(outcome, Mapping) else None
    return [name for name in missing if isinstance(name, str)] if isinstance(missing, list) else []


def _check_counts(outcome: Outcome, kept: Sequence[str], *, ordinal: int) -> None:
    """A hand typed by the scorekeeper has every count, except counts that were missing in it
    already (``kept``): a count is missing only in a hand recorded while its player was out."""
    for name in _missing(outcome):
        if name not in kept:
            raise ServiceError(
                "count_required", f"hand {ordinal}: the count of {name} is needed", hand=ordinal, player=name
            )


def _current(game: Game, number: int, version: int | None, ordinal: int) -> Hand:
    """The hand as stored, if it is still the ``version`` the form was shown with."""
    hand = Hand.objects.filter(game=game, number=number).first()
    if hand is None:
        raise HandGone(hand=ordinal)
    if version is None:
        # A correction or delete must say which version it was made against; without it two
        # phones' edits would both land, the last one silently winning.
        raise ServiceError("version_required", "the form did not say which version of the hand it changes")
    if hand.version != version:
        raise StaleEdit(hand=ordinal, current=hand.outcome)
    return hand


def hand_find(*, game: Game, number: int) -> tuple[Hand, int]:
    """The hand with this number and its place on the score sheet. A hand that was deleted
    raises HandGone (a correction or a second delete from another phone);
    a number the game never had raises Hand.DoesNotExist."""
    hand = Hand.objects.filter(game=game, number=number).first()
    if hand is None:
        if not Change.objects.filter(game=game, hand_number=number).exists():
            raise Hand.DoesNotExist
        ordinal = _ordinal(game, number)
        raise HandGone(hand=ordinal)
    return hand, _ordinal(game, number)


def _ordinal(game: Game, number: int) -> int:
    present = Hand.objects.filter(game=game, number__lt=number).values_list("number", flat=True)
    return sheet_ordinals(list(present), [number])[number]


def hand_edit(*, hand: Hand, outcome: Outcome, version: int | None, user: Actor) -> Hand:
    """Correct a hand. ``version`` is the one the form was loaded with: if someone saved the
    hand since, StaleEdit is raised (with the current outcome) and nothing changes."""
    with transaction.atomic():
        game = _locked(hand.game)
        ordinal = _ordinal(game, hand.number)
        current = _current(game, hand.number, version, ordinal)
        stored = dict(outcome)
        before = current.outcome
        if before == stored:
            return current
        _check_counts(stored, _missing(before), ordinal=ordinal)
        hands = rows.hands(game)
        current.outcome = stored
        current.version += 1
        replaced = [current if h.pk == current.pk else h for h in hands]
        follow: list[Change] = []
        _apply(game, replaced, hands, user=user, written={current.number}, follow=follow)
        current.save(update_fields=["outcome", "version", "updated_at"])
        Change.objects.create(
            game=game,
            hand_number=current.number,
            action=Change.Action.EDITED,
            before=before,
            after=stored,
            user=_user(user),
            request_id=current.request_id,
        )
        _save(follow)
    return current


def _save(changes: Sequence[Change]) -> None:
    """Save the changes that followed from a write, after the write's own change."""
    for change in changes:
        change.save()


def hand_delete(*, hand: Hand, version: int | None, user: Actor) -> None:
    with transaction.atomic():
        game = _locked(hand.game)
        current = _current(game, hand.number, version, _ordinal(game, hand.number))
        shown = rows.hands(game)
        remaining = [h for h in shown if h.pk != current.pk]
        before = current.outcome
        number = current.number
        follow: list[Change] = []
        _apply(game, remaining, shown, user=user, follow=follow)
        current.delete()
        Change.objects.create(
            game=game,
            hand_number=number,
            action=Change.Action.DELETED,
            before=before,
            user=_user(user),
            request_id=current.request_id,
        )
        _save(follow)


class Fill(NamedTuple):
    """Counts typed for the players whose count a hand misses."""

    version: int | None  # the hand's version when the form was shown
    left: Mapping[str, int | str]  # player -> points or the cards left
    laid: Mapping[str, str] | None = None  # credit_laid_down: what they laid down


def _is_filled(outcome: Outcome, fill: Fill) -> bool:
    """The hand already holds exactly these counts (a resend of a save that landed)."""
    left = outcome.get("left")
    laid = outcome.get("laid") or {}
    return (
        isinstance(left, Mapping)
        and isinstance(laid, Mapping)
        and not set(fill.left) & set(_missing(outcome))
        and all(left.get(name) == count for name, count in fill.left.items())
        and all(laid.get(name) == value for name, value in (fill.laid or {}).items() if value)
    )


def _filled(outcome: Outcome, fill: Fill) -> dict[str, object]:
    left = outcome.get("left")
    result = {**outcome, "left": {**(left if isinstance(left, Mapping) else {}), **fill.left}}
    laid = {name: value for name, value in (fill.laid or {}).items() if value}
    if laid:
        before = outcome.get("laid")
        result["laid"] = {**(before if isinstance(before, Mapping) else {}), **laid}
    missing = [name for name in _missing(outcome) if name not in fill.left]
    if missing:
        result["missing"] = missing
    else:
        result.pop("missing", None)
    return result


def counts_fill(*, game: Game, fills: Mapping[int, Fill], user: Actor) -> list[Hand]:
    """Fill in counts that hands miss (recorded while a player was out, before a correction
    brought him back): ``fills`` maps hand numbers to the counts typed. One transaction: all
    the hands are filled, or none. Each filled hand is a correction of its own in the history,
    so each can be undone alone. A player not in ``left`` stays missing.

    A resend finds the counts already there and changes nothing; a hand saved by someone else
    since the form was shown raises StaleEdit; a count that is not missing is refused. Returns
    the hands filled."""
    with transaction.atomic():
        locked = _locked(game)
        hands = rows.hands(locked)
        ordinals = sheet_ordinals([h.number for h in hands], list(fills))
        by_number = {h.number: h for h in hands}
        changed: list[tuple[Hand, Outcome]] = []
        for number, fill in sorted(fills.items()):
            ordinal = ordinals[number]
            hand = by_number.get(number)
            if hand is None:
                raise HandGone(hand=ordinal)
            if not fill.left or _is_filled(hand.outcome, fill):
                continue
            if fill.version is None:
                raise ServiceError(
                    "version_required", "the form did not say which version of the hand it changes"
                )
            if hand.version != fill.version:
                raise StaleEdit(hand=ordinal, current=hand.outcome)
            for name in fill.left:
                if name not in _missing(hand.outcome):
                    raise ServiceError(
                        "count_not_missing",
                        f"hand {ordinal}: the count of {name} is not missing",
                        hand=ordinal,
                        player=name,
                    )
            changed.append((hand, hand.outcome))
            hand.outcome = _filled(hand.outcome, fill)
            hand.version += 1
        if not changed:
            return []
        follow: list[Change] = []
        _apply(locked, hands, hands, user=user, written={hand.number for hand, _ in changed}, follow=follow)
        for hand, before in changed:
            hand.save(update_fields=["outcome", "version", "updated_at"])
            Change.objects.create(
                game=locked,
                hand_number=hand.number,
                action=Change.Action.EDITED,
                before=before,
                after=hand.outcome,
                user=_user(user),
                request_id=hand.request_id,
            )
        _save(follow)
    return [hand for hand, _ in changed]


def change_undo(*, change: Change, user: Actor) -> Change:
    """Undo one change, if the hand (or the game's end, starter or presence) is still as that
    change left it (otherwise undo the later changes first). The undo is itself a change, so it
    can be undone too. A new edit link is never undone (that would bring back the link it
    ended). Whether ``user`` may undo it is the caller's check (a change in
    ``Change.MANAGE_ACTIONS``: ``access.can_manage_game``)."""
    with transaction.atomic():
        game = _locked(change.game, deleted=change.action in Change.PRESENCE_ACTIONS)
        if Change.objects.filter(undoes=change).exists():
            raise ServiceError("already_undone", "this change was already undone")
        if change.action == Change.Action.NEW_LINK:
            raise ServiceError("not_undoable", "a new edit link is not undone; make another one")
        if change.action in Change.END_ACTIONS:
            return _undo_end(game, change, user)
        if change.action in Change.PRESENCE_ACTIONS:
            return _undo_presence(game, change, user)
        if change.action == Change.Action.TRANSFER:
            return _undo_transfer(game, change, user)
        if change.action == Change.Action.DATED:
            return undo_date(game, change, user)
        if change.action in Change.EVENING_ACTIONS:
            return undo_evening(game, change, user)
        number = change.hand_number
        assert number is not None  # every other change is a hand's
        if marks_only(change):
            raise ServiceError(
                "follows_change", "this change followed from a change to an earlier hand; undo that one"
            )
        hand = Hand.objects.filter(game=game, number=number).first()
        hands = rows.hands(game)
        follow: list[Change] = []
        # Missing counts are marked and unmarked by the writes themselves: an outcome is
        # compared, and put back, as recorded (the marks then follow the game as it stands).
        if change.action == Change.Action.DELETED:
            if hand is not None or change.before is None:
                raise ServiceError("changed_since", "the hand was changed after this; undo that first")
            restored = Hand(game=game, number=number, outcome=change.before, request_id=change.request_id)
            ordered = sorted([*hands, restored], key=lambda h: h.number)
            restored.save()
            _apply(game, ordered, hands, user=user, written={number}, typed=False, follow=follow)
            if restored.outcome != change.before:
                restored.save(update_fields=["outcome", "updated_at"])
            action, before, after = Change.Action.ADDED, None, restored.outcome
        else:
            if hand is None or unmarked(hand.outcome) != unmarked(change.after):
                raise ServiceError("changed_since", "the hand was changed after this; undo that first")
            current = hand.outcome
            if change.action == Change.Action.ADDED:
                remaining = [h for h in hands if h.pk != hand.pk]
                _apply(game, remaining, hands, user=user, follow=follow)
                hand.delete()
                action, before, after = Change.Action.DELETED, current, None
            else:
                assert change.before is not None
                hand.outcome = change.before
                hand.version += 1
                replaced = [hand if h.pk == hand.pk else h for h in hands]
                _apply(game, replaced, hands, user=user, written={number}, typed=False, follow=follow)
                hand.save(update_fields=["outcome", "version", "updated_at"])
                action, before, after = Change.Action.EDITED, current, hand.outcome
        undo = Change.objects.create(
            game=game,
            hand_number=number,
            action=action,
            before=before,
            after=after,
            user=_user(user),
            undoes=change,
            request_id=change.request_id,
        )
        _save(follow)
        return undo


def _undo_presence(game: Game, change: Change, user: Actor) -> Change:
    """Bring back a game that ``change`` deleted, or delete again one it brought back."""
    deleted = change.action == Change.Action.REMOVED
    if (game.deleted_at is not None) != deleted:
        raise ServiceError(
            "changed_since", "the game was deleted or brought back after this; undo that first"
        )
    return set_present(game, present=deleted, user=_user(user), undoes=change)


def _undo_transfer(game: Game, change: Change, user: Actor) -> Change:
    """Give the game back to the starter it had before ``change``, if it still has the one
    ``change`` gave it (given on since: undo that first)."""
    after = change.after.get("owner") if isinstance(change.after, Mapping) else None
    before = change.before.get("owner") if isinstance(change.before, Mapping) else None
    if game.owner_id != after:
        raise ServiceError(
            "changed_since", "the game was given to another starter after this; undo that first"
        )
    return set_owner(
        game, owner_id=before if isinstance(before, int) else None, user=_user(user), undoes=change
    )


def _undo_end(game: Game, change: Change, user: Actor) -> Change:
    """Reopen a game that ``change`` ended, or end again one it reopened, if the game's end
    has not changed since (no later end or reopening)."""
    left_ended = change.action == Change.Action.ENDED
    later = Change.objects.filter(game=game, action__in=Change.END_ACTIONS, pk__gt=change.pk).exists()
    if later or game.ended != left_ended:
        raise ServiceError("changed_since", "the game was ended or reopened after this; undo that first")
    return set_ended(game, ended=not left_ended, user=_user(user), undoes=change)
