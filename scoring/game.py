"""A game: the ordered hands scored one after another.

Running totals after each hand, eliminations (Žolíky, house rule ``elimination``; 0 = open
evening), the end of the game (gin and Carousel ``target``, Žolíky's last player standing,
Rummikub's agreed ``hands``, or the evening declared ``ended``), the winners (lowest total
for Žolíky, highest otherwise), Carousel's end bonuses and Žolíky's settlement.

:class:`Game` is immutable: ``play``, ``replace`` and ``delete`` return a new game and keep
the checkpoints of the hands before the change, so an edit re-scores only what follows it;
the result is always the same as scoring the edited list from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.engine.errors import EngineError
from games.engine.rules import Family, RuleSet

from .errors import ScoringError, in_hand
from .families import family_info
from .hands import HandResult, score_hand
from .outcomes import FIELDS, parse_players
from .settlement import Settlement, settle

NAME_FIELDS = frozenset({"closer", "knocker", "out", "winner"})
PER_PLAYER_FIELDS = frozenset({"left", "laid", "deadwood", "hands"})


@dataclass(frozen=True, slots=True)
class Elimination:
    player: str
    hand: int  # 1-based number of the hand after which the player dropped out
    total: int

    def as_dict(self) -> dict[str, object]:
        return {"player": self.player, "hand": self.hand, "total": self.total}


@dataclass(frozen=True, slots=True)
class Bonus:
    player: str
    kind: str  # "game" (past the target) | "hands_won"
    points: int
    hands: int | None = None  # for "hands_won": how many hands

    def as_dict(self) -> dict[str, object]:
        result: dict[str, object] = {"player": self.player, "kind": self.kind, "points": self.points}
        if self.hands is not None:
            result["hands"] = self.hands
        return result


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the score sheet shows. ``totals`` include end bonuses; ``hand_totals``
    and ``after_each_hand`` do not."""

    family: Family
    players: tuple[str, ...]
    hands: tuple[HandResult, ...]
    after_each_hand: tuple[Mapping[str, int], ...]
    hand_totals: Mapping[str, int]
    totals: Mapping[str, int]
    hands_won: Mapping[str, int]
    eliminated: tuple[Elimination, ...]
    active: tuple[str, ...]
    finished: bool
    finish_reason: str | None  # "target" | "last_player" | "hands" | "ended" | None
    finished_after: int | None  # 1-based hand number
    leaders: tuple[str, ...]  # best total now
    winners: tuple[str, ...]  # the leaders once finished, else empty
    bonuses: tuple[Bonus, ...]
    settlement: Settlement | None  # Žolíky only
    options: Mapping[str, object] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": True,
            "family": self.family,
            "players": list(self.players),
            "options": dict(self.options),
            "hands": [h.as_dict() for h in self.hands],
            "after_each_hand": [dict(t) for t in self.after_each_hand],
            "hand_totals": dict(self.hand_totals),
            "totals": dict(self.totals),
            "hands_won": dict(self.hands_won),
            "eliminated": [e.as_dict() for e in self.eliminated],
            "active": list(self.active),
            "finished": self.finished,
            "finish_reason": self.finish_reason,
            "finished_after": self.finished_after,
            "leaders": list(self.leaders),
            "winners": list(self.winners),
            "bonuses": [b.as_dict() for b in self.bonuses],
            "settlement": self.settlement.as_dict() if self.settlement is not None else None,
        }


@dataclass(frozen=True, slots=True)
class _Step:
    """The game after one more hand: the checkpoint an edit restarts from."""

    outcome: object
    result: HandResult
    totals: Mapping[str, int]
    eliminated: tuple[Elimination, ...]
    finish_reason: str | None


class Game:
    """An immutable game; build it with :func:`start` or :func:`score_game`."""

    __slots__ = ("_ended", "_players", "_rules", "_steps")

    def __init__(
        self, rules: RuleSet, players: tuple[str, ...], steps: tuple[_Step, ...], ended: bool = False
    ) -> None:
        self._rules = rules
        self._players = players
        self._steps = steps
        self._ended = ended

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def outcomes(self) -> tuple[object, ...]:
        return tuple(step.outcome for step in self._steps)

    def play(self, outcome: object) -> Game:
        """The game with one more hand; raises (naming the hand) if it cannot be scored."""
        return Game(self._rules, self._players, (*self._steps, self._next(outcome)), self._ended)

    def play_all(self, outcomes: Iterable[object]) -> Game:
        game = self
        for outcome in outcomes:
            game = game.play(outcome)
        return game

    def replace(self, index: int, outcome: object) -> Game:
        """The game with hand ``index`` (0-based) replaced; later hands are re-scored."""
        rest = [outcome, *self.outcomes[index + 1 :]]
        return self._truncated(index).play_all(rest)

    def delete(self, index: int) -> Game:
        """The game without hand ``index`` (0-based); later hands are re-scored."""
        return self._truncated(index).play_all(self.outcomes[index + 1 :])

    def end(self, ended: bool = True) -> Game:
        """The game with the evening declared over (or not) after its last hand."""
        return Game(self._rules, self._players, self._steps, ended)

    def _truncated(self, index: int) -> Game:
        if not 0 <= index < len(self._steps):
            raise IndexError(index)
        return Game(self._rules, self._players, self._steps[:index], self._ended)

    # ------------------------------------------------------------------ one hand

    def _next(self, outcome: object) -> _Step:
        number = len(self._steps) + 1
        previous = self._steps[-1] if self._steps else None
        totals = dict(previous.totals) if previous else dict.fromkeys(self._players, 0)
        eliminated = previous.eliminated if previous else ()
        try:
            if previous is not None and previous.finish_reason is not None:
                raise ScoringError("game_over", finished_after=number - 1)
            out = {e.player: e.hand for e in eliminated}
            _check_not_eliminated(outcome, self._rules.family, out)
            active = tuple(p for p in self._players if p not in out)
            result = score_hand(rules=self._rules, outcome=outcome, players=active)
        except EngineError as error:
            raise in_hand(error, number) from None
        for player, points in result.points.items():
            totals[player] += points
        new = list(eliminated)
        limit = self._rules.opt_int("elimination") if self._rules.family == "zoliky" else 0
        if limit:
            new.extend(Elimination(p, number, totals[p]) for p in active if totals[p] >= limit)
        reason = self._finish_reason(number, totals, len(self._players) - len(new))
        return _Step(outcome, result, totals, tuple(new), reason)

    def _finish_reason(self, number: int, totals: Mapping[str, int], remaining: int) -> str | None:
        rules = self._rules
        if rules.family == "zoliky":
            return "last_player" if rules.opt_int("elimination") and remaining <= 1 else None
        if rules.family in ("gin", "carousel"):
            target = rules.opt_int("target")
            return "target" if target and max(totals.values()) >= target else None
        hands = rules.opt_int("hands")
        return "hands" if hands and number >= hands else None

    # ------------------------------------------------------------------ the state

    @property
    def state(self) -> GameState:
        rules, players, steps = self._rules, self._players, self._steps
        hand_totals: dict[str, int] = dict(steps[-1].totals) if steps else dict.fromkeys(players, 0)
        eliminated = steps[-1].eliminated if steps else ()
        reason = steps[-1].finish_reason if steps else None
        if reason is None and self._ended:
            reason = "ended"
        finished = reason is not None
        hands_won = dict.fromkeys(players, 0)
        for step in steps:
            for winner in step.result.winners:
                hands_won[winner] += 1
        bonuses: list[Bonus] = []
        if finished and rules.family == "carousel":
            target = rules.opt_int("target")
            game_bonus = rules.opt_int("game_bonus")
            for p in players:
                if target and hand_totals[p] >= target and game_bonus:
                    bonuses.append(Bonus(p, "game", game_bonus))
            for p in players:
                if hands_won[p] and rules.opt_int("hand_win_bonus"):
                    bonuses.append(
                        Bonus(p, "hands_won", hands_won[p] * rules.opt_int("hand_win_bonus"), hands_won[p])
                    )
        totals = dict(hand_totals)
        for bonus in bonuses:
            totals[bonus.player] += bonus.points
        out = {e.player for e in eliminated}
        active = tuple(p for p in players if p not in out)
        if rules.family == "zoliky" and reason == "last_player":
            leaders = active or _best(totals, players, lowest=True)
        else:
            leaders = _best(totals, players, lowest=family_info(rules.family).lower_is_better)
        settlement = (
            settle(rules=rules, totals=totals) if family_info(rules.family).settles_in_crowns else None
        )
        return GameState(
            family=rules.family,
            players=players,
            hands=tuple(step.result for step in steps),
            after_each_hand=tuple(step.totals for step in steps),
            hand_totals=hand_totals,
            totals=totals,
            hands_won=hands_won,
            eliminated=eliminated,
            active=active,
            finished=finished,
            finish_reason=reason,
            finished_after=len(steps) if finished else None,
            leaders=tuple(leaders),
            winners=tuple(leaders) if finished else (),
            bonuses=tuple(bonuses),
            settlement=settlement,
            options=dict(rules.options),
        )


def _best(totals: Mapping[str, int], players: Sequence[str], *, lowest: bool) -> tuple[str, ...]:
    best = min(totals.values()) if lowest else max(totals.values())
    return tuple(p for p in players if totals[p] == best)


def _check_not_eliminated(outcome: object, family: str, out: Mapping[str, int]) -> None:
    """An eliminated player named anywhere in a later hand's outcome is an error."""
    if not out or not isinstance(outcome, Mapping):
        return
    for key in FIELDS[family]:
        value = outcome.get(key)
        names: Iterable[object]
        if key in NAME_FIELDS and isinstance(value, str):
            names = (value,)
        elif key in PER_PLAYER_FIELDS and isinstance(value, Mapping):
            names = value.keys()
        elif key == "players" and isinstance(value, list):
            names = value
        else:
            continue
        for name in names:
            if isinstance(name, str) and name in out:
                raise ScoringError("eliminated_player", player=name, eliminated_in=out[name])


def start(*, rules: RuleSet, players: Sequence[str]) -> Game:
    """A new game with no hands; the players are checked (names, count for the family)."""
    return Game(rules, parse_players(list(players), rules), ())


def score_game(
    *, rules: RuleSet, players: Sequence[str], hands: Sequence[object], ended: bool = False
) -> GameState:
    """Score the ordered ``hands`` (outcome dicts) of a game between ``players``.

    ``ended``: the players have stopped (an open evening, or before the end condition);
    the game is then finished after its last hand. Raises the first hand's error, with
    param ``hand`` (1-based), when a hand cannot be scored.
    """
    return start(rules=rules, players=players).play_all(hands).end(ended).state
