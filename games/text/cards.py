"""Cards and tiles as people read and hear them: K♥ on screen, "king of hearts" to a screen reader.

The engine writes cards in notation (``KH``, ``R7``, ``JK``; ``engine.notation``); this
module names them in the user's language and draws them as small chips (suit symbol or colour
letter, red or black, with an accessible name). Used by the card picker, the arrange page and
the history (``cards`` filter in ``games_tags``). See docs/design/cards.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from engine.cards import COLOUR_LETTERS, RANK_LETTERS, SUIT_SYMBOLS, Card
from engine.errors import EngineError
from engine.notation import parse_token
from engine.rules import RuleSet

# By suit index: spades, hearts, diamonds, clubs; tiles black, blue, red, yellow.
SUIT_NAMES = (
    pgettext_lazy("card suit", "spades"),
    pgettext_lazy("card suit", "hearts"),
    pgettext_lazy("card suit", "diamonds"),
    pgettext_lazy("card suit", "clubs"),
)
COLOUR_NAMES = (
    pgettext_lazy("tile colour", "black"),
    pgettext_lazy("tile colour", "blue"),
    pgettext_lazy("tile colour", "red"),
    pgettext_lazy("tile colour", "yellow"),
)
RANK_NAMES = {
    1: pgettext_lazy("card rank", "ace"),
    11: pgettext_lazy("card rank", "jack"),
    12: pgettext_lazy("card rank", "queen"),
    13: pgettext_lazy("card rank", "king"),
}
RED_SUITS = (1, 2)  # hearts and diamonds
# CSS classes by suit index: the colour, and for tiles a pattern as well (site.css).
CARD_CSS = ("suit-black", "suit-red", "suit-red", "suit-black")
TILE_CSS = ("tile-black", "tile-blue", "tile-red", "tile-yellow")


def spoken_name(card: Card, rules: RuleSet) -> str:
    """What a screen reader says: "king of hearts", "7 of clubs", "red 7", "joker",
    "joker as red 7"."""
    if card.is_joker:
        if card.stands_for is not None and not card.stands_for.is_joker:
            return _("joker as %(card)s") % {"card": spoken_name(card.stands_for, rules)}
        return _("joker")
    if rules.tiles:
        return _("%(colour)s %(number)s") % {"colour": COLOUR_NAMES[card.suit], "number": card.rank}
    rank = RANK_NAMES.get(card.rank, str(card.rank))
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[card.suit]}


def face(card: Card, rules: RuleSet) -> str:
    """What the chip shows: ``K♥``, ``10♠``; tiles ``R7`` (colour letter and number); ``JK``."""
    if card.is_joker:
        return "JK"
    if rules.tiles:
        return f"{COLOUR_LETTERS[card.suit]}{card.rank}"
    rank = "10" if card.rank == 10 else RANK_LETTERS.get(card.rank, str(card.rank))
    return rank + SUIT_SYMBOLS[card.suit]


def css(card: Card, rules: RuleSet) -> str:
    """The chip's classes: red or black suit, or the tile's colour and pattern; joker."""
    if card.is_joker:
        return "cc joker"
    return "cc " + (TILE_CSS if rules.tiles else CARD_CSS)[card.suit]


def chip(card: Card, rules: RuleSet) -> str:
    """One card as HTML: the face, and the spoken name for screen readers."""
    shown = face(card, rules)
    if card.is_joker and card.stands_for is not None and not card.stands_for.is_joker:
        shown += "=" + face(card.stands_for, rules)
    return (
        f'<span class="{css(card, rules)}" role="img" aria-label="{escape(spoken_name(card, rules))}">'
        f"{escape(shown)}</span>"
    )


def chips(cards: Iterable[Card], rules: RuleSet) -> SafeString:
    """Cards as a row of chips."""
    return mark_safe('<span class="cards">' + " ".join(chip(c, rules) for c in cards) + "</span>")


def render_text(text: object, rules: RuleSet) -> SafeString | str:
    """Typed card text (``KH 5S JK``, melds separated by ``|``) as chips; anything that is not
    cards (points, a name, a typo) is returned as it is, to be escaped by the template."""
    if not isinstance(text, str) or not text.strip():
        return str(text) if text is not None else ""
    parts: list[str] = []
    try:
        for part in text.split("|"):
            tokens = part.replace(",", " ").replace(";", " ").split()
            if not tokens:
                return text
            parts.append(chips([parse_token(token, rules) for token in tokens], rules))
    except EngineError:
        return text
    return mark_safe(' <span class="meld-sep" aria-hidden="true">|</span> '.join(parts))
