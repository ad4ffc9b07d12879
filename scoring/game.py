"""A game: the ordered hands scored one after another.

Running totals after each hand, eliminations (Žolíky, house rule ``elimination``; 0 = open
evening), the end of the game (gin and Carousel ``target``, Žolíky's last player standing,
Rummikub's agreed ``hands``, or the evening declared ``ended``), the winners (lowest total
for Žolíky, highest otherwise), Carousel's end bonuses and Žolíky's settlement.

:class:`Game` is immutable: ``play``, ``replace`` and ``delete`` return a new game. After any
change the site scores the game's whole list of hands again (:func:`rescore`), each hand's
result kept by value, so there is no incremental state to get wrong: what it shows is always
the edited list scored from scratch.

Missing counts: a correction that brings back a player who had dropped out leaves the hands
recorded without him short of his count. With ``mark_missing`` (see :func:`rescore`) such a
hand is marked (outcome field ``missing``) instead of refused; the game is then *incomplete*:
his points there count 0 for now, and nothing final is decided (no winners, no end bonuses,
no settlement, not finished) until every count is in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.errors import EngineError
from engine.rules import Family, RuleSet, rules_key

from .errors import ScoringError, in_hand
from .families import family, family_info
from .hands import HandResult, score_hand
from .outcomes import parse_players
from .scored import Bonus as Bonus
from .settlement import Settlement, settle

PER_PLAYER_FIELDS = frozenset({"left", "laid", "deadwood", "hands"})
LIST_FIELDS = frozenset({"players", "missing"})


@dataclass(frozen=True, slots=True)
class Elimination:
    player: str
    hand: int  # 1-based number of the hand after which the player dropped out
    total: int

    def as_dict(self) -> dict[str, object]:
        return {"player": self.player, "hand": self.hand, "total": self.total}


@dataclass(frozen=True, slots=True)
class Missing:
    hand: int  # 1-based number of a hand that misses counts
    players: tuple[str, ...]  # whose counts, in seat order

    def as_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "players": list(self.players)}


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the score sheet shows. ``totals`` include end bonuses; ``hand_totals``
    and ``after_each_hand`` do not.

    While counts are ``missing`` the game is ``incomplete``: totals are provisional (a missing
    count scores 0), ``finished`` is false and there are no leaders, winners, bonuses or
    settlement, even when ``finish_reason`` says an end condition is met on those totals (no
    hand can be added after it, as usual)."""

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
    missing: tuple[Missing, ...] = ()  # the hands that miss counts, in order

    @property
    def incomplete(self) -> bool:
        """Some count is missing: nothing final is decided."""
        return bool(self.missing)

    @property
    def missing_by_player(self) -> dict[str, tuple[int, ...]]:
        """Player -> the hands (1-based) that miss his count, in seat order."""
        return {
            p: hands for p in self.players if (hands := tuple(m.hand for m in self.missing if p in m.players))
        }

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
            "missing": [m.as_dict() for m in self.missing],
            "incomplete": self.incomplete,
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

    __slots__ = ("_ended", "_key", "_limit", "_players", "_rules", "_steps")

    def __init__(
        self,
        rules: RuleSet,
        players: tuple[str, ...],
        steps: tuple[_Step, ...],
        ended: bool = False,
        hand_limit: int = 0,
    ) -> None:
        self._rules = rules
        self._key = rules_key(rules)  # the rules by value, for the hands kept (_scored)
        self._players = players
        self._steps = steps
        self._ended = ended
        # A number of hands agreed on top of the family's own end (a tournament round of N
        # hands): the game is over after that many hands, or earlier by the family's rule.
        self._limit = hand_limit

    def _with(self, steps: tuple[_Step, ...], ended: bool) -> Game:
        """This game with other hands or another end: the same rules (and their key, made once
        per game, not once per hand), players and hand limit."""
        game = object.__new__(Game)
        game._rules, game._key, game._players = self._rules, self._key, self._players
        game._steps, game._ended, game._limit = steps, ended, self._limit
        return game

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def outcomes(self) -> tuple[object, ...]:
        """The hands' outcomes as scored (with ``missing`` as marked, see :meth:`play`)."""
        return tuple(step.outcome for step in self._steps)

    @property
    def active(self) -> tuple[str, ...]:
        """The players dealt in for the next hand (not eliminated), in seat order."""
        out = {e.player for e in self._steps[-1].eliminated} if self._steps else set()
        return tuple(p for p in self._players if p not in out)

    def play(self, outcome: object, *, mark_missing: bool = False) -> Game:
        """The game with one more hand; raises (naming the hand) if it cannot be scored.

        ``mark_missing``: the outcome's ``missing`` is first brought up to date with the
        players dealt in (:func:`mark_missing`): for a hand recorded earlier, re-scored after
        a change to the hands before it. Never for a hand just typed, which needs every count.
        """
        if mark_missing:
            outcome = mark_missing_counts(outcome, family=self._rules.family, active=self.active)
        return self._with((*self._steps, self._next(outcome)), self._ended)

    def play_all(self, outcomes: Iterable[object], *, mark_missing: bool = False) -> Game:
        game = self
        for outcome in outcomes:
            game = game.play(outcome, mark_missing=mark_missing)
        return game

    def replace(self, index: int, outcome: object, *, mark_missing: bool = False) -> Game:
        """The game with hand ``index`` (0-based) replaced; later hands are re-scored (and,
        with ``mark_missing``, their missing counts brought up to date)."""
        rest = self.outcomes[index + 1 :]
        return self._truncated(index).play(outcome).play_all(rest, mark_missing=mark_missing)

    def delete(self, index: int, *, mark_missing: bool = False) -> Game:
        """The game without hand ``index`` (0-based); later hands are re-scored (and, with
        ``mark_missing``, their missing counts brought up to date)."""
        return self._truncated(index).play_all(self.outcomes[index + 1 :], mark_missing=mark_missing)

    def end(self, ended: bool = True) -> Game:
        """The game with the evening declared over (or not) after its last hand."""
        return self._with(self._steps, ended)

    def _truncated(self, index: int) -> Game:
        if not 0 <= index < len(self._steps):
            raise IndexError(index)
        return self._with(self._steps[:index], self._ended)

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
            result = _scored(_Hand(self._key, active, repr(outcome), self._rules, outcome))
        except EngineError as error:
            raise in_hand(error, number) from None
        for player, points in result.points.items():
            totals[player] += points
        new = list(eliminated)
        limit = family(self._rules.family).elimination(self._rules)
        if limit:
            new.extend(Elimination(p, number, totals[p]) for p in active if totals[p] >= limit)
        reason = self._finish_reason(number, totals, len(self._players) - len(new))
        return _Step(outcome, result, totals, tuple(new), reason)

    def _finish_reason(self, number: int, totals: Mapping[str, int], remaining: int) -> str | None:
        reason = family(self._rules.family).finish_reason(
            self._rules, number=number, totals=totals, remaining=remaining
        )
        if reason is None and self._limit and number >= self._limit:
            reason = "hands"
        return reason

    # ------------------------------------------------------------------ the state

    @property
    def state(self) -> GameState:
        rules, players, steps = self._rules, self._players, self._steps
        hand_totals: dict[str, int] = dict(steps[-1].totals) if steps else dict.fromkeys(players, 0)
        eliminated = steps[-1].eliminated if steps else ()
        reason = steps[-1].finish_reason if steps else None
        if reason is None and self._ended:
            reason = "ended"
        missing = tuple(
            Missing(number, step.result.missing)
            for number, step in enumerate(steps, start=1)
            if step.result.missing
        )
        # Nothing final while a count is missing: it may change who is out, who leads, who won.
        finished = reason is not None and not missing
        hands_won = dict.fromkeys(players, 0)
        for step in steps:
            for winner in step.result.winners:
                hands_won[winner] += 1
        rule_family = family(rules.family)
        bonuses = (
            rule_family.end_bonuses(rules, players=players, totals=hand_totals, hands_won=hands_won)
            if finished
            else []
        )
        totals = dict(hand_totals)
        for bonus in bonuses:
            totals[bonus.player] += bonus.points
        out = {e.player for e in eliminated}
        active = tuple(p for p in players if p not in out)
        leaders = (
            ()
            if missing
            else rule_family.leaders(players=players, totals=totals, active=active, reason=reason)
        )
        settlement = (
            settle(rules=rules, totals=totals) if rule_family.info.settles_in_crowns and not missing else None
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
            missing=missing,
        )


def _fields(key: str) -> tuple[str, ...]:
    return family(key).fields


def _check_not_eliminated(outcome: object, family: str, out: Mapping[str, int]) -> None:
    """An eliminated player named anywhere in a later hand's outcome is an error."""
    if not out or not isinstance(outcome, Mapping):
        return
    roles = family_info(family).roles  # the fields naming one player
    for key in _fields(family):
        value = outcome.get(key)
        names: Iterable[object]
        if key in roles and isinstance(value, str):
            names = (value,)
        elif key in PER_PLAYER_FIELDS and isinstance(value, Mapping):
            names = value.keys()
        elif key in LIST_FIELDS and isinstance(value, list):
            names = value
        else:
            continue
        for name in names:
            if isinstance(name, str) and name in out:
                raise ScoringError("eliminated_player", player=name, eliminated_in=out[name])


def mark_missing_counts(outcome: object, *, family: str, active: Sequence[str]) -> object:
    """``outcome`` with its ``missing`` brought up to date for the players ``active`` (dealt
    in) in its hand: a player dealt in with no count (a correction brought him back) is marked
    missing; a player marked missing who is no longer dealt in (out again) is unmarked, so the
    outcome is exactly as recorded again. The same outcome object when nothing changes.

    Only in families where players drop out. An outcome that is not an object, names its
    players itself or has unreadable counts is returned as it is, for scoring to judge."""
    info = family_info(family)
    if not info.eliminates or not isinstance(outcome, Mapping) or outcome.get("players") is not None:
        return outcome
    counts = outcome.get("left")  # the count field of the families that eliminate (Žolíky)
    if counts is not None and not isinstance(counts, Mapping):
        return outcome
    given = set(counts or ())
    emptied = outcome.get(info.emptied_role)
    missing = [p for p in active if p not in given and p != emptied]
    marked = {key: value for key, value in outcome.items() if key != "missing"}
    if missing:
        marked["missing"] = missing
    return outcome if marked == outcome else marked


def unmarked(outcome: object) -> object:
    """``outcome`` without its ``missing`` marks: the hand as recorded at the table. Two
    outcomes that differ only by their marks record the same hand."""
    if isinstance(outcome, Mapping) and "missing" in outcome:
        return {key: value for key, value in outcome.items() if key != "missing"}
    return outcome


# ------------------------------------------------------------ hands scored lately


@dataclass(frozen=True)
class _Hand:
    """One hand to score, named by value: the rules (every field, the options in their fixed
    order), the players dealt in and the outcome's ``repr`` (two JSON-like outcomes with the
    same ``repr`` are equal). The rules and the outcome ride along, outside the name."""

    rules_key: tuple[object, ...]
    players: tuple[str, ...]
    outcome_repr: str
    rules: RuleSet = field(compare=False, hash=False)
    outcome: object = field(compare=False, hash=False)


@lru_cache(maxsize=4096)
def _scored(hand: _Hand) -> HandResult:
    """:func:`score_hand`, kept for the hands scored last (a few evenings' worth). Every change
    to a game scores all its hands again (there is no incremental state to get wrong); finding
    a stored hand here is several times cheaper than validating and scoring it again, so a save
    late in an evening scores one hand, not all of them. A hand that does not score
    raises and is not kept; a result is never changed once made (its mappings are read-only by
    contract), so games that share one cannot disturb each other."""
    return score_hand(rules=hand.rules, outcome=hand.outcome, players=hand.players)


def forget_scored() -> None:
    """Empty the kept results (benchmarks and tests of a process that never scored a game)."""
    _scored.cache_clear()


def start(*, rules: RuleSet, players: Sequence[str], hand_limit: int = 0) -> Game:
    """A new game with no hands; the players are checked (names, count for the family).
    ``hand_limit``: the game ends after that many hands at the latest (0: the family's end)."""
    return Game(rules, parse_players(list(players), rules), (), hand_limit=hand_limit)


def score_game(
    *,
    rules: RuleSet,
    players: Sequence[str],
    hands: Sequence[object],
    ended: bool = False,
    hand_limit: int = 0,
) -> GameState:
    """Score the ordered ``hands`` (outcome dicts) of a game between ``players``.

    ``ended``: the players have stopped (an open evening, or before the end condition);
    the game is then finished after its last hand. Raises the first hand's error, with
    param ``hand`` (1-based), when a hand cannot be scored.
    """
    return start(rules=rules, players=players, hand_limit=hand_limit).play_all(hands).end(ended).state


def rescore(
    *,
    rules: RuleSet,
    players: Sequence[str],
    hands: Sequence[object],
    ended: bool = False,
    as_typed: Collection[int] = (),
    hand_limit: int = 0,
) -> Game:
    """Score a game's ``hands`` after a change to them, bringing every hand's missing counts
    up to date (:func:`mark_missing_counts`) except the hands at the 0-based indexes in
    ``as_typed``, which are scored exactly as given (the hands a scorekeeper just typed: they
    need every count). ``game.outcomes`` are the outcomes to store; ``game.state`` the state.

    So a correction that brings back a player who had dropped out is accepted, with his
    count marked missing in the later hands recorded without him; undoing it (or a count
    that puts him out again) unmarks them. Raises the first hand's error like
    :func:`score_game`.
    """
    game = start(rules=rules, players=players, hand_limit=hand_limit)
    for index, outcome in enumerate(hands):
        game = game.play(outcome, mark_missing=index not in as_typed)
    return game.end(ended)
