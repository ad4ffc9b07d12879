"""The score sheet as pages show it, built from a game, its seats, its hands and their scoring.

Shared by the services (a save returns the sheet the page redraws from, scored once) and the
selectors (a page that only reads). No queries here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.rules import RuleSet, rule_set
from games.models import Change, Game, Hand
from scoring.families import FamilyInfo, family_info
from scoring.game import GameState, unmarked
from scoring.kinds import HandKind, hand_kind


def game_rules(*, game: Game) -> RuleSet:
    return rule_set(game.family, game.options)


@dataclass(frozen=True)
class Cell:
    """One player's square in one row of the sheet."""

    points: int
    total: int  # running total after the hand
    missing: bool  # his count in this hand is missing (points 0 for now)
    provisional: bool  # the running total lacks a count missing here or earlier


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    ordinal: int  # 1-based place on the score sheet
    dealer: str
    points: tuple[int, ...]  # in seat order; 0 for a player who was out
    totals: tuple[int, ...]  # running totals after this hand, in seat order
    missing: tuple[bool, ...] = ()  # in seat order: the player's count is missing in this hand
    provisional: tuple[bool, ...] = ()  # in seat order: a count missing in this hand or before
    kind: HandKind | None = None  # how the hand ended (knock, gin, closed from hand...), who ended it
    players: tuple[str, ...] = ()  # the sheet's players, in seat order

    @property
    def points_by_player(self) -> dict[str, int]:
        return dict(zip(self.players, self.points, strict=True))

    @property
    def totals_by_player(self) -> dict[str, int]:
        return dict(zip(self.players, self.totals, strict=True))

    @property
    def ended_by(self) -> str | None:
        """Who closed, knocked or went out, if anyone."""
        return self.kind.player if self.kind is not None else None

    @property
    def cells(self) -> list[Cell]:
        return [
            Cell(points, total, missing, provisional)
            for points, total, missing, provisional in zip(
                self.points, self.totals, self.missing, self.provisional, strict=True
            )
        ]

    @property
    def missing_players(self) -> list[str]:
        """Whose counts this hand misses."""
        return [str(name) for name in self.hand.outcome.get("missing") or []]


@dataclass(frozen=True)
class UnplacedHand:
    """A recorded hand no row of the sheet shows: the game's stored hands no longer score, so
    it has no place, dealer, points or totals."""

    hand: Hand
    ordinal: None = None
    dealer: None = None
    kind: None = None
    ended_by: None = None
    points_by_player: Mapping[str, int] = field(default_factory=dict)
    totals_by_player: Mapping[str, int] = field(default_factory=dict)

    @property
    def missing_players(self) -> list[str]:
        missing = self.hand.outcome.get("missing") if isinstance(self.hand.outcome, dict) else None
        return [str(name) for name in missing or []]


@dataclass(frozen=True)
class Sheet:
    """Everything the score sheet shows, in seat order."""

    game: Game
    rules: RuleSet
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    state: GameState | None
    error: EngineError | None  # the stored hands no longer score (should not happen)
    next_dealer: str | None

    @property
    def family(self) -> FamilyInfo:
        return family_info(self.rules.family)

    @property
    def scored(self) -> GameState:
        """The state the sheet shows; when the stored hands no longer score, nothing: no
        totals, nobody out, no leaders."""
        if self.state is not None:
            return self.state
        return GameState(
            family=self.rules.family,
            players=self.players,
            hands=(),
            after_each_hand=(),
            hand_totals={},
            totals={},
            hands_won={},
            eliminated=(),
            active=self.players,
            finished=False,
            finish_reason=None,
            finished_after=None,
            leaders=(),
            winners=(),
            bonuses=(),
            settlement=None,
        )

    def line(self, hand: Hand) -> SheetRow | UnplacedHand:
        """The hand's row on the sheet as it stands."""
        found = next((row for row in self.rows if row.hand.number == hand.number), None)
        return found if found is not None else UnplacedHand(hand)

    @property
    def closed(self) -> bool:
        """No hand can be added: an end condition is met (even if, with counts missing, the
        game is not finished yet)."""
        return self.state is not None and self.state.finish_reason is not None

    @property
    def incomplete(self) -> bool:
        """Some count is missing: the totals are provisional and nothing final is decided."""
        return self.state is not None and self.state.incomplete

    @property
    def missing_by_player(self) -> list[tuple[str, list[int]]]:
        """(player, the sheet's hands that miss his count), in seat order."""
        if self.state is None:
            return []
        return [(p, list(hands)) for p, hands in self.state.missing_by_player.items()]

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.finished

    @property
    def eliminated_in(self) -> dict[str, int]:
        """Player -> the score-sheet ordinal of the hand after which he dropped out."""
        if self.state is None:
            return {}
        return {e.player: e.hand for e in self.state.eliminated}

    def players_before(self, ordinal: int) -> list[str]:
        """The players dealt in for the hand at ``ordinal`` (those not out before it)."""
        out = self.eliminated_in
        return [p for p in self.players if p not in out or out[p] >= ordinal]

    @property
    def dealt_in_next(self) -> list[str]:
        """The players dealt in for the next hand: whom the new-hand form asks about."""
        return self.players_before(len(self.rows) + 1)


def sheet_ordinals(present: Sequence[int], numbers: Sequence[int]) -> dict[int, int]:
    """The place on the score sheet of each hand number in ``numbers``, given the numbers of
    the hands the game has now (``present``). A deleted hand gets the place it would take
    back if restored. The sheet, the history and every message number hands with this."""
    ordered = sorted(present)
    result: dict[int, int] = {}
    for number in numbers:
        result[number] = sum(1 for n in ordered if n < number) + 1
    return result


def dealers(*, players: Sequence[str], first: int, hands: int, out_after: Mapping[str, int]) -> list[str]:
    """Dealer of each of ``hands`` + 1 hands (the last one is the next to deal): the deal
    passes to the next player in seat order who is still in the game."""
    result: list[str] = []
    index = first % len(players) if players else 0
    for hand in range(1, hands + 2):
        for _ in range(len(players)):
            out = out_after.get(players[index])
            if out is None or out >= hand:
                break
            index = (index + 1) % len(players)
        result.append(players[index])
        index = (index + 1) % len(players)
    return result


def build_sheet(
    *,
    game: Game,
    rules: RuleSet,
    players: Sequence[str],
    hands: Sequence[Hand],
    state: GameState | None,
    error: EngineError | None = None,
) -> Sheet:
    players = tuple(players)
    out_after = {e.player: e.hand for e in state.eliminated} if state is not None else {}
    dealt = dealers(players=players, first=game.first_dealer, hands=len(hands), out_after=out_after)
    rows: list[SheetRow] = []
    if state is not None:
        short: set[str] = set()  # players with a count missing so far
        for i, (hand, result, totals) in enumerate(
            zip(hands, state.hands, state.after_each_hand, strict=True)
        ):
            short.update(result.missing)
            rows.append(
                SheetRow(
                    hand=hand,
                    ordinal=i + 1,
                    dealer=dealt[i],
                    points=tuple(result.points.get(p, 0) for p in players),
                    totals=tuple(totals[p] for p in players),
                    missing=tuple(p in result.missing for p in players),
                    provisional=tuple(p in short for p in players),
                    kind=hand_kind(result),
                    players=players,
                )
            )
    finished = state is not None and state.finished
    return Sheet(
        game=game,
        rules=rules,
        players=players,
        rows=tuple(rows),
        state=state,
        error=error,
        next_dealer=None if finished else dealt[len(hands)],
    )


def marks_only(change: Change) -> bool:
    """The change only marked or unmarked missing counts: it followed from a change to an
    earlier hand (a player brought back, or out again) and is undone with that one."""
    return (
        change.action == Change.Action.EDITED
        and change.before is not None
        and change.after is not None
        and change.before != change.after
        and unmarked(change.before) == unmarked(change.after)
    )
