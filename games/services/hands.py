"""Recording, correcting and deleting hands, and undoing any change.

Every write locks the game row, checks the whole game still scores with the change (so an
impossible hand, or an edit that would let an eliminated player score later, is refused and
nothing is stored), rewrites the derived scores and records a Change for the history.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction

from games.engine.errors import EngineError
from games.models import Change, Game, Hand, Seat
from games.sheet import Sheet, build_sheet, game_rules, sheet_ordinals
from scoring.game import GameState

from .errors import ServiceError, StaleEdit
from .results import score, store_derived

Actor = User | AnonymousUser | None
Outcome = Mapping[str, object]

# More than any hand of any family can score: a typing slip (a count of 99999999), refused
# here so that the points always fit the database's integer column.
MAX_HAND_POINTS = 99_999


def _user(user: Actor) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


class Recorded(NamedTuple):
    hand: Hand
    created: bool
    # The score sheet as the save left it, scored once by the save itself; None for a resend
    # (nothing was scored: the page reads the sheet as usual).
    sheet: Sheet | None


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


def _apply(game: Game, hands: list[Hand], shown: Sequence[Hand]) -> Sheet:
    """Check the game with these hands (in number order) scores, then store its scores and
    results; returns the sheet as it now stands (the one scoring of the write).
    Called inside the write's transaction: an error rolls back everything the write did.
    An error names hands as the score sheet shows them before the change (``shown``)."""
    seats = list(Seat.objects.filter(game=game))
    try:
        state = _check(game, seats, hands)
    except EngineError as error:
        raise _as_shown(error, hands, shown) from None
    store_derived(game, seats, hands, state)
    return build_sheet(
        game=game, rules=game_rules(game=game), players=[s.name for s in seats], hands=hands, state=state
    )


def _check(game: Game, seats: Sequence[Seat], hands: list[Hand]) -> GameState:
    state = score(game, seats, hands)
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


def hand_record(*, game: Game, outcome: Outcome, request_id: uuid.UUID | None, user: Actor) -> Recorded:
    """Add the next hand. Returns (hand, created, sheet): a resend with the same
    ``request_id`` returns the hand it recorded the first time and changes nothing."""
    if request_id is not None:
        existing = Hand.objects.filter(game=game, request_id=request_id).first()
        if existing is not None:
            return Recorded(existing, False, None)
    try:
        with transaction.atomic():
            locked = _locked(game)
            if request_id is not None:
                existing = Hand.objects.filter(game=locked, request_id=request_id).first()
                if existing is not None:
                    return Recorded(existing, False, None)
                if Change.objects.filter(game=locked, request_id=request_id).exists():
                    raise ServiceError("resent_deleted", "this hand was recorded and has been deleted since")
            if locked.ended:
                raise ServiceError("game_ended", "the game was ended; reopen it to record more hands")
            stored = dict(outcome)
            hands = list(locked.hands.all())
            hand = Hand.objects.create(
                game=locked, number=locked.next_hand_number, outcome=stored, request_id=request_id
            )
            locked.next_hand_number += 1
            locked.save(update_fields=["next_hand_number"])
            sheet = _apply(locked, [*hands, hand], hands)
            Change.objects.create(
                game=locked,
                hand_number=hand.number,
                action=Change.Action.ADDED,
                after=stored,
                user=_user(user),
                request_id=request_id,
            )
    except IntegrityError:
        # Two sends of the same form raced past the first check: the other one recorded it.
        existing = Hand.objects.filter(game=game, request_id=request_id).first() if request_id else None
        if existing is None:
            raise
        return Recorded(existing, False, None)
    return Recorded(hand, True, sheet)


def _current(game: Game, number: int, version: int | None, ordinal: int) -> Hand:
    hand = Hand.objects.filter(game=game, number=number).first()
    if hand is None:
        raise ServiceError("hand_gone", f"hand {ordinal} was deleted meanwhile", hand=ordinal)
    if version is not None and hand.version != version:
        raise StaleEdit(hand=ordinal, current=hand.outcome)
    return hand


def hand_find(*, game: Game, number: int) -> tuple[Hand, int]:
    """The hand with this number and its place on the score sheet. A hand that was deleted
    raises ServiceError ``hand_gone`` (a correction or a second delete from another phone);
    a number the game never had raises Hand.DoesNotExist."""
    hand = Hand.objects.filter(game=game, number=number).first()
    if hand is None:
        if not Change.objects.filter(game=game, hand_number=number).exists():
            raise Hand.DoesNotExist
        ordinal = _ordinal(game, number)
        raise ServiceError("hand_gone", f"hand {ordinal} was deleted meanwhile", hand=ordinal)
    return hand, _ordinal(game, number)


def _ordinal(game: Game, number: int) -> int:
    present = Hand.objects.filter(game=game, number__lt=number).values_list("number", flat=True)
    return sheet_ordinals(list(present), [number])[number]


def hand_edit(*, hand: Hand, outcome: Outcome, version: int, user: Actor) -> Hand:
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
        hands = list(game.hands.all())
        current.outcome = stored
        current.version += 1
        replaced = [current if h.pk == current.pk else h for h in hands]
        _apply(game, replaced, hands)
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
    return current


def hand_delete(*, hand: Hand, version: int | None, user: Actor) -> None:
    with transaction.atomic():
        game = _locked(hand.game)
        current = _current(game, hand.number, version, _ordinal(game, hand.number))
        shown = list(game.hands.all())
        remaining = [h for h in shown if h.pk != current.pk]
        before = current.outcome
        number = current.number
        _apply(game, remaining, shown)
        current.delete()
        Change.objects.create(
            game=game,
            hand_number=number,
            action=Change.Action.DELETED,
            before=before,
            user=_user(user),
            request_id=current.request_id,
        )


def change_undo(*, change: Change, user: Actor) -> Change:
    """Undo one change, if the hand is still as that change left it (otherwise undo the
    later changes first). The undo is itself a change, so it can be undone too."""
    with transaction.atomic():
        game = _locked(change.game)
        if Change.objects.filter(undoes=change).exists():
            raise ServiceError("already_undone", "this change was already undone")
        hand = Hand.objects.filter(game=game, number=change.hand_number).first()
        hands = list(game.hands.all())
        if change.action == Change.Action.DELETED:
            if hand is not None or change.before is None:
                raise ServiceError("changed_since", "the hand was changed after this; undo that first")
            restored = Hand(
                game=game, number=change.hand_number, outcome=change.before, request_id=change.request_id
            )
            ordered = sorted([*hands, restored], key=lambda h: h.number)
            restored.save()
            _apply(game, ordered, hands)
            action, before, after = Change.Action.ADDED, None, change.before
        else:
            if hand is None or hand.outcome != change.after:
                raise ServiceError("changed_since", "the hand was changed after this; undo that first")
            if change.action == Change.Action.ADDED:
                remaining = [h for h in hands if h.pk != hand.pk]
                _apply(game, remaining, hands)
                hand.delete()
                action, before, after = Change.Action.DELETED, change.after, None
            else:
                assert change.before is not None
                hand.outcome = change.before
                hand.version += 1
                _apply(game, [hand if h.pk == hand.pk else h for h in hands], hands)
                hand.save(update_fields=["outcome", "version", "updated_at"])
                action, before, after = Change.Action.EDITED, change.after, change.before
        return Change.objects.create(
            game=game,
            hand_number=change.hand_number,
            action=action,
            before=before,
            after=after,
            user=_user(user),
            undoes=change,
            request_id=change.request_id,
        )
