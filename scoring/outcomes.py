"""Reading a hand's outcome: a JSON-like dict in, a typed, validated outcome out.

The field names are the stable contract of issue 4 (see README.md in this package):

- zoliky:   players, closer, from_hand, left, laid, kept_joker, missing
- gin:      players, knocker, gin, deadwood | hands (+ melds)
- carousel: players, knocker, out, left
- rummikub: players, winner, left

A *count* (``left``, ``deadwood``, ``laid``) is whole points (an int, or a text of digits)
or the cards/tiles themselves as text (``"KH 5S JK"``, ``"R7 B13"``), which the engine
values; an empty text means nothing left. ``laid`` (Žolíky, house rule credit_laid_down)
takes melds separated by ``|`` instead of cards, valued as melds (a joker as the card it
stands for, an ace by its place). ``missing`` (Žolíky only: the family where players drop
out) names players dealt in whose count was never recorded: a correction brought them back
into a hand recorded while they were out. Anything that cannot have happened raises
:class:`ScoringError` (or the engine's :class:`EngineError` for a bad card), and nothing is
scored.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from engine import melds as engine_melds
from engine import notation, values
from engine.cards import Card
from engine.errors import EngineError
from engine.rules import RuleSet

from .errors import ScoringError, for_player
from .families import family_info

FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "zoliky": ("players", "closer", "from_hand", "left", "laid", "kept_joker", "missing"),
        "gin": ("players", "knocker", "gin", "deadwood", "hands", "melds"),
        "carousel": ("players", "knocker", "out", "left"),
        "rummikub": ("players", "winner", "left"),
    }
)

GIN_HAND_SIZE = 10
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
        return self.points == 0 and _joker_value(rules) > 0


ZERO = Count(0)  # the default count of the closer, the player out, the winner


@dataclass(frozen=True, slots=True)
class ZolikyOutcome:
    players: tuple[str, ...]
    closer: str
    from_hand: bool
    left: Mapping[str, Count]  # every player but the missing ones; the closer's is empty
    laid: Mapping[str, Count]  # every player; zero unless credit_laid_down (and for the missing)
    kept_joker: bool
    # Players dealt in whose count is missing (seat order): they score 0 until it is filled in.
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GinOutcome:
    players: tuple[str, ...]
    knocker: str | None  # None: nobody went down (a void hand)
    gin: bool | None  # as declared; None when not given
    deadwood: Mapping[str, Count] | None  # points mode
    hands: Mapping[str, tuple[Card, ...]] | None  # cards mode: both hands, 10 cards each
    melds: tuple[tuple[Card, ...], ...] | None  # cards mode: the knocker's declared melds


@dataclass(frozen=True, slots=True)
class CarouselOutcome:
    players: tuple[str, ...]
    knocker: str | None
    out: str | None
    left: Mapping[str, Count]  # every player


@dataclass(frozen=True, slots=True)
class RummikubOutcome:
    players: tuple[str, ...]
    winner: str | None  # None: the pool ran dry and nobody went out
    left: Mapping[str, Count]  # every player


Outcome = ZolikyOutcome | GinOutcome | CarouselOutcome | RummikubOutcome


# --------------------------------------------------------------------------- helpers


def _joker_value(rules: RuleSet) -> int:
    if rules.family in ("zoliky", "rummikub"):
        return rules.opt_int("joker_penalty")
    if rules.family == "carousel":
        return rules.opt_int("joker_value")
    return 1  # gin has no jokers


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


def _name(raw: Mapping[str, object], field: str, players: Sequence[str], *, required: bool) -> str | None:
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


def _flag(raw: Mapping[str, object], field: str) -> bool | None:
    value = raw.get(field)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise ScoringError("field_type", field=field, expected="true or false")
    return value


def _per_player(raw: Mapping[str, object], field: str, players: Sequence[str]) -> Mapping[str, object]:
    value = raw.get(field)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScoringError("field_type", field=field, expected="an object keyed by player name")
    for name in value:
        if name not in players:
            raise ScoringError("unknown_player", player=name, field=field)
    return value


def _cards(text: str, rules: RuleSet, player: str, field: str) -> tuple[Card, ...]:
    if not text.strip():
        return ()
    try:
        return tuple(notation.parse_hand(text, rules))
    except EngineError as error:
        raise for_player(error, player, field) from None


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
        return Count(points)
    if isinstance(raw, list):
        if not all(isinstance(item, str) for item in raw):
            raise ScoringError("bad_count", player=player, field=field, value=raw)
        raw = " ".join(str(item) for item in raw)
    assert isinstance(raw, str)  # whole points were returned above
    cards = _cards(raw, rules, player, field)
    return Count(values.hand_value(cards, rules), cards)


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


def _counts(
    raw: Mapping[str, object], field: str, players: Sequence[str], rules: RuleSet
) -> dict[str, Count]:
    given = _per_player(raw, field, players)
    return {name: parse_count(value, rules, player=name, field=field) for name, value in given.items()}


def _require(counts: Mapping[str, Count], field: str, players: Sequence[str]) -> None:
    for name in players:
        if name not in counts:
            raise ScoringError("missing_count", player=name, field=field)


def _check_pack(rules: RuleSet, *groups: Sequence[Card]) -> None:
    """Every card of the hand at once: no more copies than the pack holds."""
    notation.check_pack((card for group in groups for card in group), rules)


def _hand_players(
    raw: Mapping[str, object], rules: RuleSet, players: Sequence[str] | None
) -> tuple[str, ...]:
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


def _left_in_hands(
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
    left = _counts(raw, "left", players, rules)
    for name in missing:
        if name in left:
            raise ScoringError("missing_with_count", player=name, field="left")
    if emptied is not None:
        left.setdefault(emptied, ZERO)
    _require(left, "left", [name for name in players if name not in missing])
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


def _missing(raw: Mapping[str, object], players: Sequence[str], emptied: str | None) -> tuple[str, ...]:
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


# --------------------------------------------------------------------------- families


def parse_outcome(raw: object, rules: RuleSet, players: Sequence[str] | None = None) -> Outcome:
    """Validate ``raw`` (a JSON object) as an outcome of ``rules.family``.

    ``players`` are the players seated for this hand (the game's active players); when
    None, the outcome's own ``players`` field is required.
    """
    if not isinstance(raw, Mapping):
        raise ScoringError("outcome_not_object")
    if "missing" in raw and not family_info(rules.family).eliminates:
        raise ScoringError("missing_not_allowed", family=rules.family)
    fields = FIELDS[rules.family]
    for key in raw:
        if key not in fields:
            raise ScoringError("unknown_field", family=rules.family, field=key, fields=", ".join(fields))
    seated = _hand_players(raw, rules, players)
    if rules.family == "zoliky":
        return _zoliky(raw, rules, seated)
    if rules.family == "gin":
        return _gin(raw, rules, seated)
    if rules.family == "carousel":
        return _carousel(raw, rules, seated)
    return _rummikub(raw, rules, seated)


def _zoliky(raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> ZolikyOutcome:
    closer = _name(raw, "closer", players, required=True)
    assert closer is not None
    no_laydown = rules.opt_bool("no_laydown")
    from_hand = _flag(raw, "from_hand")
    if no_laydown and from_hand is False:
        raise ScoringError("must_close_from_hand")
    from_hand = no_laydown if from_hand is None else from_hand
    missing = _missing(raw, players, closer)
    left = _left_in_hands(
        raw, rules, players, emptied=closer, with_cards="closer_with_cards", missing=missing
    )
    laid_raw = _per_player(raw, "laid", players)
    if laid_raw and not rules.opt_bool("credit_laid_down"):
        raise ScoringError("option_off", field="laid", option="credit_laid_down")
    for name in missing:
        if name in laid_raw:
            raise ScoringError("missing_with_count", player=name, field="laid")
    laid = {name: parse_laid(value, rules, player=name) for name, value in laid_raw.items()}
    if no_laydown:
        for name, count in laid.items():
            if name != closer and count.points:
                raise ScoringError("laid_without_laydown", player=name)
    kept_joker = _flag(raw, "kept_joker") or False
    if kept_joker and not rules.opt_bool("keep_joker"):
        raise ScoringError("option_off", field="kept_joker", option="keep_joker")
    _check_pack(
        rules,
        *(c.cards or () for c in left.values()),
        *(c.cards or () for c in laid.values()),
    )
    return ZolikyOutcome(
        players=players,
        closer=closer,
        from_hand=from_hand,
        left={name: left[name] for name in players if name not in missing},
        laid={name: laid.get(name, Count(0)) for name in players},
        kept_joker=kept_joker,
        missing=missing,
    )


def _gin(raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> GinOutcome:
    knocker = _name(raw, "knocker", players, required=False)
    gin = _flag(raw, "gin")
    if gin and knocker is None:
        raise ScoringError("gin_without_knocker")
    has_deadwood = raw.get("deadwood") is not None
    has_hands = raw.get("hands") is not None
    if has_deadwood and has_hands:
        raise ScoringError("deadwood_or_hands")
    if raw.get("melds") is not None and not has_hands:
        raise ScoringError("melds_without_hands")
    if has_hands:
        given = _per_player(raw, "hands", players)
        hands: dict[str, tuple[Card, ...]] = {}
        for name in players:
            if name not in given:
                raise ScoringError("missing_count", player=name, field="hands")
            value = given[name]
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = " ".join(str(v) for v in value)
            if not isinstance(value, str):
                raise ScoringError("field_type", field="hands", expected="cards as text, e.g. 'AS 2S 3S ...'")
            hands[name] = _cards(value, rules, name, "hands")
            if len(hands[name]) != GIN_HAND_SIZE:
                raise ScoringError("hand_size", player=name, expected=GIN_HAND_SIZE, count=len(hands[name]))
        _check_pack(rules, *hands.values())
        melds: tuple[tuple[Card, ...], ...] | None = None
        melds_raw = raw.get("melds")
        if melds_raw is not None:
            melds = _knocker_melds(melds_raw, rules, knocker, hands)
        return GinOutcome(players, knocker, gin, None, hands, melds)
    deadwood = _counts(raw, "deadwood", players, rules)
    if knocker is not None:
        if not deadwood and "deadwood" not in raw:
            raise ScoringError("missing_field", field="deadwood")
        _require(deadwood, "deadwood", players)
        _check_pack(rules, *(c.cards or () for c in deadwood.values()))
    return GinOutcome(players, knocker, gin, deadwood, None, None)


def _knocker_melds(
    raw: object, rules: RuleSet, knocker: str | None, hands: Mapping[str, tuple[Card, ...]]
) -> tuple[tuple[Card, ...], ...]:

    if knocker is None:
        raise ScoringError("missing_field", field="knocker")
    if isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        raw = " | ".join(str(v) for v in raw)
    if not isinstance(raw, str):
        raise ScoringError("field_type", field="melds", expected="melds as text, separated by |")
    if not raw.strip():
        return ()
    try:
        melds = tuple(tuple(m) for m in notation.parse_melds(raw, rules))
    except EngineError as error:
        raise for_player(error, knocker, "melds") from None
    available = Counter(Card(c.rank, c.suit) for c in hands[knocker])
    for meld in melds:
        for card in meld:
            plain = Card(card.rank, card.suit)
            if available[plain] <= 0:
                raise ScoringError("melds_not_in_hand", card=notation.display(plain, rules), player=knocker)
            available[plain] -= 1
    return melds


def _carousel(raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> CarouselOutcome:
    knocker = _name(raw, "knocker", players, required=False)
    out = _name(raw, "out", players, required=False)
    if knocker is not None and out is not None:
        raise ScoringError("knock_and_out")
    left = _left_in_hands(raw, rules, players, emptied=out, with_cards="out_with_cards", knocker=knocker)
    if knocker is not None and left[knocker].points > rules.opt_int("knock_limit"):
        raise ScoringError(
            "knock_over_limit",
            player=knocker,
            points=left[knocker].points,
            limit=rules.opt_int("knock_limit"),
        )
    _check_pack(rules, *(c.cards or () for c in left.values()))
    return CarouselOutcome(players, knocker, out, {name: left[name] for name in players})


def _rummikub(raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> RummikubOutcome:
    winner = _name(raw, "winner", players, required=False)
    left = _left_in_hands(raw, rules, players, emptied=winner, with_cards="winner_with_tiles")
    _check_pack(rules, *(c.cards or () for c in left.values()))
    return RummikubOutcome(players, winner, {name: left[name] for name in players})
