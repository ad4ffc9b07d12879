"""Reading and writing cards and tiles in the notation players type on a phone.

Cards: rank ``A 2-9 T 10 J Q K`` and suit ``S H D C`` or ``♠ ♥ ♦ ♣`` in either order
(``AS``, ``♥7``, ``10H``, ``TH``, ``qd``); ``JK`` (or ``JOKER``) is a joker, ``JK=4H``
declares what it stands for. Tiles: colour ``K`` (black) ``B`` (blue) ``R`` (red) ``Y``/``O``
(yellow/orange) and number 1-13 in either order (``R7``, ``13B``); ``JK``, ``JK=R7``.
Tokens are separated by spaces or commas; case does not matter. See docs/design/engine-core.md.

Cards can also be read in the letters another language writes them with (``NOTATIONS``: Czech
``KS`` is the king of hearts, srdce); the symbols read the same in every notation, tiles too.
The record keeps the canonical (English) codes: ``in_codes`` rewrites a text typed in a
language's letters. See docs/design/notation.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import eq

from .cards import (
    COLOUR_LETTERS,
    JOKER,
    JOKER_RANK,
    RANK_LETTERS,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    card_code,
    tile_code,
)
from .errors import EngineError
from .messages import fail

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from re import Pattern

    from .rules import RuleSet

_equals: Pattern[str] | None = None  # spaces around "=", compiled on first use
# The white suit symbols and the emoji variation selector are accepted too.
_SUIT_CHARS = {c: i for i, c in enumerate(SUIT_LETTERS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_SUIT_CHARS |= {c: i for i, c in enumerate("♤♡♢♧")}
_RANK_WORDS = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13} | {str(r): r for r in range(2, 10)}
_COLOUR_CHARS = {c: i for i, c in enumerate(COLOUR_LETTERS)} | {"O": 3}
_JOKER_WORDS = ("JK", "JOKER")
_CARD_EXAMPLES = "AS, 10H, TH, ♥7, JK, JK=4H"
_TILE_EXAMPLES = "R7, B13, K1, Y5, JK, JK=R7"


def _cases(spelling: str) -> set[str]:
    """The letter cases players type (``QD``, ``qd``, ``Qd``); parse_token reads any other."""
    return {spelling.upper(), spelling.lower(), spelling.capitalize()}


def _spellings(letters: dict[str, int], numbers: dict[str, int], *, unique: bool = False) -> dict[str, Card]:
    """Every spelling of every real card or tile (letter and number in either order, in the
    usual letter cases), mapped to one shared Card per identity: reading a token is one dict
    lookup. With ``unique``, a spelling that reads as two cards is refused (ValueError): a
    notation's letters must never be ambiguous."""
    shared = {(n, s): Card(n, s) for n in set(numbers.values()) for s in set(letters.values())}
    table: dict[str, Card] = {}
    for letter, suit in letters.items():
        for number, rank in numbers.items():
            for spelling in (number + letter, letter + number):
                card = shared[rank, suit]
                if unique and table.get(spelling.upper(), card) is not card:
                    raise ValueError(f"{spelling} reads as {table[spelling.upper()]} and {card}")
                table |= dict.fromkeys(_cases(spelling), card)
    return table


# Cards and tiles are frozen values, so every hand can hold the same instances. Keyed by
# (tiles, jokers in the pack); a plain joker is read here only where the pack has jokers.
_CARD_SPELLINGS = _spellings(_SUIT_CHARS, _RANK_WORDS)
_TILE_SPELLINGS = _spellings(_COLOUR_CHARS, {str(n): n for n in range(1, 14)})
_JOKER_SPELLINGS = {spelling: JOKER for word in _JOKER_WORDS for spelling in _cases(word)}
_SPELLINGS = {
    (False, False): _CARD_SPELLINGS,
    (False, True): _CARD_SPELLINGS | _JOKER_SPELLINGS,
    (True, False): _TILE_SPELLINGS,
    (True, True): _TILE_SPELLINGS | _JOKER_SPELLINGS,
}


@dataclass(frozen=True)
class Notation:
    """The letters one language writes cards with. The first spelling of a rank, a suit or the
    joker is the one written back (``write``); the others are read too. The card symbols and
    the digits are read in every notation."""

    language: str
    ranks: dict[str, int]
    suits: dict[str, int]
    jokers: tuple[str, ...]
    examples: str  # the message of a token that reads as no card shows these
    spellings: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        numbers = self.ranks | {str(r): r for r in range(2, 11)}
        suits = self.suits | {c: i for i, c in enumerate(SUIT_SYMBOLS + "♤♡♢♧")}
        table = _spellings(suits, numbers, unique=True)
        for word in self.jokers:
            if word.upper() in table:  # a joker word that also reads as a card
                raise ValueError(f"{self.language}: {word} is a card and the joker")
        object.__setattr__(self, "spellings", table)


_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}  # by suit index: spades, hearts, diamonds, clubs
# Ranks and suits as players write them, with the indices printed on the cards sold there;
# the reasons for each choice are in docs/design/notation.md.
NOTATIONS: dict[str, Notation] = {
    n.language: n
    for n in (
        Notation(
            "en",
            {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13},
            _SUITS,
            ("JK", "JOKER"),
            _CARD_EXAMPLES,
        ),
        # eso, král, dáma, kluk; srdce, káry, piky, kříže (trefy). J + K is the jack of
        # diamonds, so the joker is Ž (žolík).
        Notation(
            "cs",
            {"A": 1, "K": 13, "D": 12, "J": 11},
            {"P": 0, "S": 1, "K": 2, "Kř": 3, "T": 3},
            ("Ž", "ŽOLÍK", "JOKER"),
            "AS, 10P, KKř, ♥7, Ž, Ž=4S",
        ),
        # eso, kráľ, dáma, dolník (J on the cards); srdce, káro, pika, tref (kríže).
        Notation(
            "sk",
            {"A": 1, "K": 13, "D": 12, "J": 11},
            {"P": 0, "S": 1, "K": 2, "T": 3, "Kr": 3},
            ("Ž", "ŽOLÍK", "JOKER"),
            "AS, 10P, KT, ♥7, Ž, Ž=4S",
        ),
        # as, król, dama, walet; pik, kier, karo, trefl.
        Notation(
            "pl",
            {"A": 1, "K": 13, "D": 12, "W": 11},
            {"P": 0, "K": 1, "Ka": 2, "T": 3},
            ("JK", "JOKER", "JOKR"),
            "AK, 10P, DKa, ♥7, JK, JK=4K",
        ),
        # ess, konge, dame, knekt; spar, hjerter, ruter, kløver. Kn (not J) is the knekt, so
        # that JK stays the joker.
        Notation(
            "nb",
            {"E": 1, "A": 1, "K": 13, "D": 12, "Kn": 11},
            {"S": 0, "H": 1, "R": 2, "K": 3},
            ("JK", "JOKER"),
            "ES, 10H, KnR, ♥7, JK, JK=4H",
        ),
    )
}
ENGLISH = NOTATIONS["en"]


def notation_for(language: str | None) -> Notation:
    """The notation of a language code (``cs``, ``pt-br``); English for any other."""
    base = (language or "en").lower().replace("_", "-").split("-")[0]
    return NOTATIONS.get(base, ENGLISH)


def _clean(token: str) -> str:
    return token.replace("\ufe0f", "").upper()


def _card(token: str) -> Card | None:
    """A real (non-joker) card from a cleaned token, or None."""
    return _CARD_SPELLINGS.get(token)


def _tile(token: str) -> Card | None:
    """A real (non-joker) tile from a cleaned token, or None."""
    return _TILE_SPELLINGS.get(token)


def _bad(token: str, rules: RuleSet, notation: Notation | None = None) -> EngineError:
    if rules.tiles:
        return fail("bad_token", token=token, item="tile", examples=_TILE_EXAMPLES)
    return fail("bad_token", token=token, item="card", examples=(notation or ENGLISH).examples)


def parse_token(token: str, rules: RuleSet, notation: Notation | None = None) -> Card:
    """One card or tile (cards in ``notation``'s letters, English when None); raises
    EngineError ``bad_token`` or ``no_jokers``."""
    cleaned = _clean(token)
    read: Callable[[str], Card | None]
    jokers: tuple[str, ...]
    if rules.tiles or notation is None or notation is ENGLISH:
        read, jokers = (_tile if rules.tiles else _card), _JOKER_WORDS
    else:
        read, jokers = notation.spellings.get, tuple(word.upper() for word in notation.jokers)
    card = read(cleaned)
    if card is not None:
        return card
    name, sep, declared = cleaned.partition("=")
    if name in jokers:
        if rules.jokers == 0:
            raise fail("no_jokers", token=token)
        if not sep:
            return Card(JOKER_RANK, 0)
        stands_for = read(declared)
        if stands_for is None:
            raise _bad(token, rules, notation)
        return Card(JOKER_RANK, 0, stands_for=stands_for)
    raise _bad(token, rules, notation)


def _tokens(text: str) -> list[str]:
    """Tokens between spaces, commas and semicolons (``str.split`` knows the same whitespace
    as the regex ``\\s``); spaces around ``=`` are dropped first."""
    if "=" in text:
        global _equals
        if _equals is None:
            import re

            _equals = re.compile(r"\s*=\s*")
        text = _equals.sub("=", text)
    return text.replace(",", " ").replace(";", " ").split()


def check_pack(cards: Iterable[Card], rules: RuleSet) -> None:
    """Raise EngineError when ``cards`` hold more copies of a card, or more jokers, than the pack."""
    cards = list(cards)
    # Fast path on plain numbers (Card hashing is slow): no more jokers than the pack, and no
    # card more often than the decks. Otherwise the loop below finds and names the culprit.
    # (Sorted, a card held more than ``decks`` times equals the number ``decks`` places on.)
    real = sorted([card.rank * 4 + card.suit for card in cards if card.rank != JOKER_RANK])
    if len(cards) - len(real) <= rules.jokers and not any(map(eq, real, real[rules.decks :])):
        return
    from collections import Counter

    counts: Counter[Card] = Counter()
    jokers = 0
    for card in cards:
        if card.is_joker:
            if rules.jokers == 0:
                raise fail("no_jokers", token="JK")
            jokers += 1
            if jokers > rules.jokers:
                raise fail("too_many_jokers_in_pack", count=jokers, jokers=rules.jokers)
            continue
        plain = Card(card.rank, card.suit)
        counts[plain] += 1
        if counts[plain] > rules.decks:
            raise fail("too_many_copies", card=display(plain, rules), count=counts[plain], decks=rules.decks)


def parse_hand(text: str, rules: RuleSet, notation: Notation | None = None) -> list[Card]:
    """Cards or tiles separated by spaces or commas (cards in ``notation``'s letters, English
    when None); raises EngineError naming the bad token."""
    tokens = _tokens(text)
    if not tokens:
        raise fail("empty")
    if rules.tiles or notation is None or notation is ENGLISH:
        spellings = _SPELLINGS[rules.tiles, rules.jokers > 0]
    else:
        spellings = notation.spellings
    cards = []
    for token in tokens:
        card = spellings.get(token)  # the common case; jokers, emoji and errors go the long way
        cards.append(card if card is not None else parse_token(token, rules, notation))
    check_pack(cards, rules)
    return cards


def parse_melds(text: str, rules: RuleSet, notation: Notation | None = None) -> list[list[Card]]:
    """Melds separated by ``|``; the pack's copy limits apply across all of them together."""
    melds: list[list[Card]] = []
    for index, part in enumerate(text.split("|"), start=1):
        tokens = _tokens(part)
        if not tokens:
            raise EngineError("empty", f"meld {index}: no cards given", meld=index)
        melds.append([parse_token(t, rules, notation) for t in tokens])
    check_pack((c for meld in melds for c in meld), rules)
    return melds


def code(card: Card, rules: RuleSet, *, declared: bool = False) -> str:
    """Canonical notation: ``AS``, ``TH`` (ten is T), ``JK``; tiles ``R7``, ``K13``, ``JK``.

    With ``declared=True`` a joker that stands for a card is written ``JK=4H`` / ``JK=R7``.
    """
    write = tile_code if rules.tiles else card_code
    if declared and card.is_joker and card.stands_for is not None and not card.stands_for.is_joker:
        return "JK=" + write(card.stands_for)
    return write(card)


def write(card: Card, rules: RuleSet, notation: Notation | None = None, *, declared: bool = False) -> str:
    """A card in ``notation``'s letters (its first spelling of the rank and the suit, ten as
    10 where T is no ten): what the card picker types on that language's page. Tiles and
    English are ``code``."""
    if rules.tiles or notation is None or notation is ENGLISH:
        return code(card, rules, declared=declared)
    if card.is_joker:
        joker = notation.jokers[0]
        if declared and card.stands_for is not None and not card.stands_for.is_joker:
            return joker + "=" + write(card.stands_for, rules, notation)
        return joker
    rank = next((word for word, r in notation.ranks.items() if r == card.rank), str(card.rank))
    suit = next(word for word, s in notation.suits.items() if s == card.suit)
    return rank + suit


def in_codes(text: str, rules: RuleSet, notation: Notation | None) -> str:
    """A text of cards (melds separated by ``|``) typed in ``notation``'s letters, rewritten
    in the canonical codes (declared jokers kept): the record holds one notation whatever the
    page's language. A text of digits (points) comes back as it is; EngineError for a token
    that reads as no card."""
    if rules.tiles or notation is None or notation is ENGLISH or text.strip().lstrip("-").isdigit():
        return text
    melds = [
        " ".join(code(parse_token(token, rules, notation), rules, declared=True) for token in _tokens(part))
        for part in text.split("|")
    ]
    return " | ".join(melds) if len(melds) > 1 else melds[0]


def in_notation(text: str, rules: RuleSet, notation: Notation | None) -> str:
    """The inverse of ``in_codes``: a recorded text of cards (canonical codes, melds separated
    by ``|``) in ``notation``'s letters, for a form that shows it again to be corrected. A text
    that does not read is given back as it is."""
    if rules.tiles or notation is None or notation is ENGLISH or text.strip().lstrip("-").isdigit():
        return text
    try:
        melds = [
            " ".join(
                write(parse_token(token, rules), rules, notation, declared=True) for token in _tokens(part)
            )
            for part in text.split("|")
        ]
    except EngineError:
        return text
    return " | ".join(melds) if len(melds) > 1 else melds[0]


# Canonical codes by ``rank * 4 + suit`` (rank 0 is a joker: ``JK``), for ``codes``.
_CARD_CODES = [card_code(Card(rank, suit)) for rank in range(14) for suit in range(4)]
_TILE_CODES = [tile_code(Card(rank, suit)) for rank in range(14) for suit in range(4)]


def codes(cards: Iterable[Card], rules: RuleSet, *, declared: bool = False) -> list[str]:
    """``code`` of each card, in order."""
    table = _TILE_CODES if rules.tiles else _CARD_CODES
    written = [table[c.rank * 4 + c.suit] for c in cards]
    if declared and "JK" in written:  # jokers that stand for a card: JK=4H
        return [code(c, rules, declared=True) for c in cards]
    return written


def display(card: Card, rules: RuleSet) -> str:
    """Human form used in messages: ``5♥``, ``10♠``, ``A♣``; tiles ``R7``; ``JK``."""
    if card.is_joker or rules.tiles:
        return code(card, rules)
    rank = "10" if card.rank == 10 else RANK_LETTERS.get(card.rank, str(card.rank))
    return rank + SUIT_SYMBOLS[card.suit]


def displays(cards: Sequence[Card], rules: RuleSet) -> str:
    """Cards in display form separated by spaces."""
    return " ".join(display(c, rules) for c in cards)
