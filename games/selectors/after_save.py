"""What the page says after a save, and what an undo would change, before it is done.

``saved_line``: the line shown to the phone that saved a hand ("Hand 4 saved — Ann closed
from hand: Ann −10, Bob +25"), with the change an Undo button takes back.
``corrected_line``: the line after a correction, what it changed ("Hand 3 corrected: Karel
22 → 32"), with the correction's Undo.
``undo_preview``: the hands an undo changes and every player's total before and after, found
by scoring the game as it stands and as the undo would leave it (no write).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from engine.errors import EngineError
from games.hand_kinds import kind_line
from games.models import Change, Game, Hand
from games.sheets.sheet import Sheet, game_rules, marks_only, sheet_ordinals
from scoring.game import GameState, rescore


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


@dataclass(frozen=True)
class SavedLine:
    text: str  # "Hand 4 saved — Ann closed from hand: Ann −10, Bob +25."
    change_id: int | None  # the change the Undo button takes back (None: already undone)
    out: tuple[str, ...] = ()  # players this hand put out of the game


def saved_line(*, sheet: Sheet, number: int, change_id: int | None = None) -> SavedLine | None:
    """The line for the hand numbered ``number`` just saved (1 query: its change, unless the
    save gives ``change_id``, the change it just recorded)."""
    row = next((r for r in sheet.rows if r.hand.number == number), None)
    if row is None or sheet.state is None:
        return None
    result = sheet.state.hands[row.ordinal - 1]
    points = ", ".join(
        f"{p} —" if p in result.missing else f"{p} {_signed(result.points.get(p, 0))}"
        for p in sheet.players
        if p in result.points
    )
    out = tuple(e.player for e in sheet.state.eliminated if e.hand == row.ordinal)
    text = _("Hand %(number)s saved — %(kind)s: %(points)s.") % {
        "number": row.ordinal,
        "kind": kind_line(result),
        "points": points,
    }
    for player in out:
        text += " " + _("%(name)s is out of the game.") % {"name": player}
    change_id = change_id or (
        Change.objects.filter(
            game=sheet.game, hand_number=number, action=Change.Action.ADDED, undone_by__isnull=True
        )
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return SavedLine(text=text, change_id=change_id, out=out)


def _points(sheet: Sheet, number: int) -> dict[str, str]:
    """Each player's points in the hand numbered ``number``, as the saved line writes them (a
    missing count as a dash); empty when the sheet does not score."""
    row = next((r for r in sheet.rows if r.hand.number == number), None)
    if row is None or sheet.state is None:
        return {}
    result = sheet.state.hands[row.ordinal - 1]
    return {p: "—" if p in result.missing else _signed(result.points.get(p, 0)) for p in result.points}


def corrected_line(*, before: Sheet, after: Sheet, number: int, ordinal: int) -> SavedLine:
    """The line after the hand numbered ``number`` (``ordinal`` on the sheet) was corrected:
    each player whose points in it changed, before → after, or what the hand now is when no
    player's points moved (cards changed, a different closer with the same points); with the
    correction's Undo (1 query: its change)."""
    old, new = _points(before, number), _points(after, number)
    moves = [f"{p} {old.get(p, '0')} → {new.get(p, '0')}" for p in after.players if old.get(p) != new.get(p)]
    if moves:
        text = _("Hand %(number)s corrected: %(changes)s.") % {"number": ordinal, "changes": ", ".join(moves)}
    else:
        text = _("Hand %(number)s corrected; nobody's points in it changed.") % {"number": ordinal}
    change_id = (
        Change.objects.filter(
            game=after.game, hand_number=number, action=Change.Action.EDITED, undone_by__isnull=True
        )
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return SavedLine(text=text, change_id=change_id)


@dataclass(frozen=True)
class CrownMove:
    player: str
    before: int  # crowns as the game is settled now
    after: int  # crowns once the correction is saved
    net_before: int  # receives (+) or pays (−) now
    net_after: int


def correction_moves_settlement(*, sheet: Sheet, number: int, outcome: object) -> tuple[CrownMove, ...]:
    """What correcting the hand numbered ``number`` to ``outcome`` does to an ended game's
    settlement in crowns: every player's crowns and net before and after (no query: the sheet
    has the hands); empty when the game is not ended, has no settlement, the correction would
    not score (the save says why) or changes no one's crowns or payment."""
    game = sheet.game
    settled = sheet.state.settlement if sheet.state is not None else None
    if not game.ended or settled is None:
        return ()
    outcomes = [outcome if row.hand.number == number else row.hand.outcome for row in sheet.rows]
    try:
        then = _state(game, list(sheet.players), outcomes, True).settlement
    except EngineError:
        return ()
    if then is None or (then.crowns == settled.crowns and then.net == settled.net):
        return ()
    return tuple(
        CrownMove(p, settled.crowns[p], then.crowns[p], settled.net[p], then.net[p]) for p in sheet.players
    )


def undo_asks(*, change: Change) -> bool:
    """Undoing ``change`` is confirmed first, unless it is the game's last change (undoing it
    takes back just what was done last) or cannot be undone at all (the service says why).
    2 queries."""
    if change.action in (Change.Action.NEW_LINK, *Change.MANAGE_ACTIONS):
        return False  # a new link is never undone; an organiser's change is undone alone
    if Change.objects.filter(undoes=change).exists():
        return False
    later = Change.objects.filter(game_id=change.game_id, pk__gt=change.pk)
    # The marks a write leaves on later hands (a player brought back) are part of that write.
    return any(not marks_only(c) for c in later.only("action", "before", "after"))


@dataclass(frozen=True)
class TotalMove:
    player: str
    before: int
    after: int | None  # None: the game could not be scored after the undo


@dataclass(frozen=True)
class UndoPreview:
    hands: tuple[int, ...]  # the sheet's hands the undo changes (as the sheet numbers them now)
    later: tuple[int, ...]  # the hands after it whose running totals move too
    totals: tuple[TotalMove, ...]
    ends: bool | None  # the undo ends (True) or reopens (False) the game; None: neither
    error: EngineError | None = None  # the undo would be refused (the game would not score)
    # After the undo: (player, the hands missing his count, as the sheet will number them),
    # when it brings back a player who was out (the totals are then incomplete).
    missing: tuple[tuple[str, tuple[int, ...]], ...] = ()


def _state(game: Game, players: list[str], outcomes: list[object], ended: bool) -> GameState:
    """The game scored as a write would score it (missing counts brought up to date)."""
    return rescore(
        rules=game_rules(game=game),
        players=players,
        hands=outcomes,
        ended=ended,
        hand_limit=game.hand_limit,
    ).state


def undo_preview(*, change: Change) -> UndoPreview:
    """What undoing ``change`` would do to the sheet (3 queries: game, seats, hands)."""
    game = change.game
    players = [seat.name for seat in game.seats.all()]
    hands: list[Hand] = list(game.hands.all())
    before = [(h.number, h.outcome) for h in hands]
    after = list(before)
    ended = game.ended
    ends: bool | None = None
    number = change.hand_number
    ended_after = ended
    if change.action in Change.END_ACTIONS:
        ends = change.action == Change.Action.REOPENED  # undoing a reopening ends the game
        ended_after = ends
    else:
        if change.action == Change.Action.ADDED:
            after = [(n, o) for n, o in before if n != number]
        elif change.action == Change.Action.DELETED and number is not None:
            after = sorted([*before, (number, change.before)], key=lambda pair: pair[0])
        elif change.action == Change.Action.EDITED:
            after = [(n, change.before if n == number else o) for n, o in before]
    try:
        now = _state(game, players, [o for _n, o in before], ended)
    except EngineError as error:  # the stored hands no longer score: nothing to compare
        return UndoPreview((), (), (), ends, error)
    changed: tuple[int, ...] = ()
    later: tuple[int, ...] = ()
    if number is not None:
        place = sheet_ordinals([n for n, _o in before], [number])[number]
        last = len(after) if change.action == Change.Action.DELETED else len(before)
        changed, later = (place,), tuple(range(place + 1, last + 1))
    try:
        then = _state(game, players, [o for _n, o in after], ended_after)
    except EngineError as error:
        totals = tuple(TotalMove(p, now.totals.get(p, 0), None) for p in players)
        return UndoPreview(changed, later, totals, ends, error)
    totals = tuple(TotalMove(p, now.totals.get(p, 0), then.totals.get(p, 0)) for p in players)
    missing = tuple((p, hands) for p, hands in then.missing_by_player.items() if hands)
    return UndoPreview(changed, later, totals, ends, missing=missing)
