"""The building blocks a family's module reads its outcome with: counts, players, flags.

A *count* (``left``, ``deadwood``, ``laid``) is whole points (an int, or a text of digits)
or the cards/tiles themselves as text (``"KH 5S JK"``, ``"R7 B13"``), which the engine
values; an empty text means nothing left. ``laid`` (Žolíky, house rule credit_laid_down)
takes melds separated by ``|`` instead of cards, valued as melds (a joker as the card it
stands for, an ace by its place). ``missing`` (Žolíky only: the family where players drop
out) names players dealt in whose count was never recorded: a correction brought them back
into a hand recorded while they were out. Anything that cannot have happened raises
:class:`ScoringError` (or the engine's :class:`EngineError` for a bad card), and nothing is
scored. Nothing here knows a family: the families build on it, and ``outcomes`` dispatches
to them (a card rewritten in the record's codes asks the registry whose melds they are).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import melds as engine_melds
from engine import notation, values
from engine.cards import Card
from engine.errors import EngineError
from engine.rules import RuleSet

from .errors import ScoringError, for_player
from .families import family_info

_DIGITS = re.compile(r"\s*-?\d+\s*")


@dataclass(frozen=True, slots=True)
class Count:
    """A player's count: its value in points and, when given as such, the cards or melds."""

    points: int
    cards: tuple[Card, ...] | None = None  # the cards/tiles given; None when points were given
    melds: tuple[tuple[Card, ...], ...] | None = None  # laid-down melds (Žolíky ``laid``)

    def holds_nothing(self, rules: RuleSet) -> bool:
        """True when this count can only mean an empty hand.

        Cards given: none of them. Points given: 0, when every card or tile is worth at
        least 1 in hand (a joker may be worth 0 under a house rule, then 0 proves nothing).
        """
        if self.cards is not None:
            return not self.cards
        joker = values.joker_value(rules)
        return self.points == 0 and (joker is None or joker > 0)


ZERO = Count(0)  # the default count of the closer, the player out, the winner


# A family's typed outcome: the dataclass its module's parser returns.
Outcome = object


def parse_players(raw: object, rules: RuleSet, *, field: str = "players") -> tuple[str, ...]:
    """A list of distinct player names, as many as the family allows."""
    if not isinstance(raw, list | tuple):
        raise ScoringError("field_type", field=field, expected="a list of player names")
    names: list[str] = []
    for value in raw:
        if not isinstance(value, str) or not value.strip():
            raise ScoringError("bad_player_name", value=value)
        if value in names:
            raise ScoringError("duplicate_player", player=value)
        names.append(value)
    check_player_count(len(names), rules)
    return tuple(names)


def check_player_count(count: int, rules: RuleSet) -> None:
    if not rules.min_players <= count <= rules.max_players:
        raise ScoringError(
            "player_count",
            family=rules.family,
            minimum=rules.min_players,
            maximum=rules.max_players,
            count=count,
        )


def player_field(
    raw: Mapping[str, object], field: str, players: Sequence[str], *, required: bool
) -> str | None:
    value = raw.get(field)
    if value is None:
        if required:
            raise ScoringError("missing_field", field=field)
        return None
    if not isinstance(value, str):
        raise ScoringError("field_type", field=field, expected="a player's name")
    if value not in players:
        raise ScoringError("unknown_player", player=value, field=field)
    return value


def flag_field(raw: Mapping[str, object], field: str) -> bool | None:
    value = raw.get(field)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise ScoringError("field_type", field=field, expected="true or false")
    return value


def per_player(raw: Mapping[str, object], field: str, players: Sequence[str]) -> Mapping[str, object]:
    value = raw.get(field)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScoringError("field_type", field=field, expected="an object keyed by player name")
    for name in value:
        if name not in players:
            raise ScoringError("unknown_player", player=name, field=field)
    return value


def cards_field(text: str, rules: RuleSet, player: str, field: str) -> tuple[Card, ...]:
    if not text.strip():
        return ()
    try:
        return tuple(notation.parse_hand(text, rules))
    except EngineError as error:
        raise for_player(error, player, field) from None


# The outcome's fields that hold cards typed by a player (per player), and the knocker's melds.
CARD_FIELDS = ("left", "deadwood", "hands", "laid")


def in_codes(
    raw: Mapping[str, object], rules: RuleSet, written: notation.Notation | None
) -> dict[str, object]:
    """The outcome ``raw`` with every text of cards typed in ``written``'s letters rewritten in
    the canonical codes the record keeps (points and anything that is no text stay as they
    are; the family's parser judges them). EngineError naming the player and field for a token
    that reads as no card."""
    out = dict(raw)
    if written is None or written is notation.ENGLISH or rules.tiles:
        return out

    def rewrite(value: object, player: str, field: str) -> object:
        try:
            if isinstance(value, str):
                return notation.in_codes(value, rules, written)
            if isinstance(value, list):
                return [notation.in_codes(v, rules, written) if isinstance(v, str) else v for v in value]
        except EngineError as error:
            raise for_player(error, player, field) from None
        return value

    for field in CARD_FIELDS:
        given = raw.get(field)
        if isinstance(given, Mapping):
            out[field] = {name: rewrite(value, str(name), field) for name, value in given.items()}
    if "melds" in raw:  # declared by the player whose role empties his hand (gin's knocker)
        declarer = raw.get(family_info(rules.family).emptied_role)
        out["melds"] = rewrite(raw["melds"], declarer if isinstance(declarer, str) else "", "melds")
    return out


def _whole_points(raw: object, *, player: str, field: str) -> int | None:
    """Whole points given as an int or a text of digits (never negative); None for anything else."""
    if isinstance(raw, str) and _DIGITS.fullmatch(raw):
        raw = int(raw)
    if not isinstance(raw, int):
        return None
    if raw < 0:
        raise ScoringError("negative_count", player=player, field=field, points=raw)
    return raw


def parse_count(raw: object, rules: RuleSet, *, player: str, field: str) -> Count:
    """Points (int or digits) or the cards/tiles left (text, or a list of card texts)."""
    if isinstance(raw, bool) or not isinstance(raw, int | str | list):
        raise ScoringError("bad_count", player=player, field=field, value=raw)
    points = _whole_points(raw, player=player, field=field)
    if points is not None:
        return _holdable(Count(points), rules, player=player, field=field)
    if isinstance(raw, list):
        if not all(isinstance(item, str) for item in raw):
            raise ScoringError("bad_count", player=player, field=field, value=raw)
        raw = " ".join(str(item) for item in raw)
    assert isinstance(raw, str)  # whole points were returned above
    cards = cards_field(raw, rules, player, field)
    return _holdable(Count(values.hand_value(cards, rules), cards), rules, player=player, field=field)


def _holdable(count: Count, rules: RuleSet, *, player: str, field: str) -> Count:
    """``count``, unless it is more than any hand of the family can hold (a slip of the finger:
    2000 for 20 would put a player out at once)."""
    maximum = values.largest_count(rules)
    if count.points > maximum:
        raise ScoringError("count_too_high", player=player, field=field, points=count.points, maximum=maximum)
    return count


def parse_laid(raw: object, rules: RuleSet, *, player: str, field: str = "laid") -> Count:
    """Laid-down points (int or digits) or the melds laid down (text, ``|`` between melds)."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ScoringError("bad_count", player=player, field=field, value=raw)
    points = _whole_points(raw, player=player, field=field)
    if points is not None:
        return Count(points)
    assert isinstance(raw, str)  # whole points were returned above
    if not raw.strip():
        return Count(0, (), ())
    try:
        parsed = notation.parse_melds(raw, rules)
        checked = []
        for index, meld in enumerate(parsed, start=1):
            try:
                checked.append(engine_melds.check_meld(meld, rules))
            except EngineError as error:
                raise EngineError(
                    error.code, f"meld {index}: {error.message}", **error.params, meld=index
                ) from None
    except EngineError as error:
        raise for_player(error, player, field) from None
    return Count(
        sum(m.points for m in checked),
        tuple(c for m in checked for c in m.cards),
        tuple(tuple(m.cards) for m in checked),
    )


def counts_field(
    raw: Mapping[str, object], field: str, players: Sequence[str], rules: RuleSet
) -> dict[str, Count]:
    given = per_player(raw, field, players)
    return {name: parse_count(value, rules, player=name, field=field) for name, value in given.items()}


def require_counts(counts: Mapping[str, Count], field: str, players: Sequence[str]) -> None:
    for name in players:
        if name not in counts:
            raise ScoringError("missing_count", player=name, field=field)


def check_pack(rules: RuleSet, *groups: Sequence[Card]) -> None:
    """Every card of the hand at once: no more copies than the pack holds."""
    notation.check_pack((card for group in groups for card in group), rules)


def hand_players(raw: Mapping[str, object], rules: RuleSet, players: Sequence[str] | None) -> tuple[str, ...]:
    """The hand's players: the outcome's ``players`` checked against the seated ``players``."""
    if "players" in raw and raw["players"] is not None:
        named = parse_players(raw["players"], rules)
        if players is not None:
            for name in named:
                if name not in players:
                    raise ScoringError("unknown_player", player=name, field="players")
            for name in players:
                if name not in named:
                    raise ScoringError("missing_player", player=name)
            return tuple(players)
        return named
    if players is None:
        raise ScoringError("missing_field", field="players")
    check_player_count(len(players), rules)
    return tuple(players)


def left_in_hands(
    raw: Mapping[str, object],
    rules: RuleSet,
    players: Sequence[str],
    *,
    emptied: str | None,
    with_cards: str,
    knocker: str | None = None,
    missing: Sequence[str] = (),
) -> dict[str, Count]:
    """Every player's count left in hand, where ``emptied`` (who closed or went out, if
    anyone) holds nothing (error ``with_cards`` otherwise) and nobody else does. The
    ``missing`` players have no count (and must not be given one)."""
    left = counts_field(raw, "left", players, rules)
    for name in missing:
        if name in left:
            raise ScoringError("missing_with_count", player=name, field="left")
    if emptied is not None:
        left.setdefault(emptied, ZERO)
    require_counts(left, "left", [name for name in players if name not in missing])
    if emptied is not None and (left[emptied].points or left[emptied].cards):
        raise ScoringError(with_cards, player=emptied, points=left[emptied].points)
    for name in players:
        if name == emptied or name in missing or not left[name].holds_nothing(rules):
            continue
        if emptied is not None:
            raise ScoringError("two_players_out", player=name, other=emptied)
        if name == knocker:
            raise ScoringError("knocker_without_cards", player=name)
        raise ScoringError("out_not_recorded", player=name)
    return left


def missing_field(raw: Mapping[str, object], players: Sequence[str], emptied: str | None) -> tuple[str, ...]:
    """The players whose count is missing (field ``missing``), in seat order."""
    value = raw.get("missing")
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(name, str) for name in value):
        raise ScoringError("field_type", field="missing", expected="a list of player names")
    named: list[str] = []
    for name in value:
        if name not in players:
            raise ScoringError("unknown_player", player=name, field="missing")
        if name in named:
            raise ScoringError("duplicate_player", player=name)
        if name == emptied:
            raise ScoringError("missing_closer", player=name)
        named.append(name)
    return tuple(name for name in players if name in named)
