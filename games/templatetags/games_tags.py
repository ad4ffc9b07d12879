"""Small template filters for score sheets."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine import notation
from engine.cards import COLOUR_LETTERS, RANKS, SUIT_SYMBOLS, SUITS, Card
from engine.errors import EngineError
from engine.rules import RuleSet, rules_key
from games import families
from games.hand_kinds import kind_label
from games.models import Change, Membership
from games.sheets.sheet import Sheet, marks_only
from games.text import cards as card_names
from games.text.errors import error_message
from games.web.round_clock import round_clock
from scoring.families import every_word
from scoring.families import family_info as scoring_family_info

register = template.Library()


@register.filter
def get(mapping: Mapping[object, object] | None, key: object) -> object:
    return mapping.get(key) if mapping else None


# The longest word a hand form's name column holds on a phone, in characters.
NAME_COLUMN_WORD = 7


@register.filter
def long_word(name: str) -> bool:
    """Whether a name has a word (a hyphen ends one) too long for the hand form's name column."""
    return any(len(word) > NAME_COLUMN_WORD for word in re.split(r"[\s-]+", name))


@register.filter
def signed(value: int) -> str:
    """+10, −10 or 0, with a real minus sign."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.filter
def total(value: int, family: str) -> str:
    """A game's total as its family reads it: penalty points (lower is better) plain, as the
    sheet shows them (16, −10); points won signed (+16), like a hand's points."""
    return num(value) if scoring_family_info(family).lower_is_better else signed(value)


@register.filter
def num(value: int) -> str:
    """A total with a real minus sign (−10), which reads better than a hyphen on a score sheet."""
    return f"−{-value}" if value < 0 else str(value)


@register.filter
def minus(value: object) -> str:
    """A formatted number (``floatformat``'s output) with a real minus sign."""
    text = str(value)
    return f"−{text[1:]}" if text.startswith("-") else text


@register.filter
def error_text(error: EngineError) -> str:
    return error_message(error)


@register.filter
def picker_rows(rules: RuleSet) -> list[dict[str, object]]:
    """Rows of the card (or tile) picker: one per suit or colour, every rank. A tile shows its
    colour letter as well as its colour; every key is named for screen readers ("red 7",
    "king of hearts"; games/text/cards.py)."""
    rows: list[dict[str, object]] = []
    letters = notation.notation_for(get_language())  # a key types what the field reads
    for suit in SUITS:
        keys = []
        for rank in RANKS:
            card = Card(rank, suit)
            code = notation.write(card, rules, letters)
            label = str(rank) if rules.tiles else card_names.face(card, rules)
            letter = COLOUR_LETTERS[suit] if rules.tiles else ""
            aria = card_names.spoken_name(card, rules)
            keys.append({"code": code, "label": label, "letter": letter, "aria": aria})
        css = card_names.TILE_CSS if rules.tiles else card_names.CARD_CSS
        rows.append({"css": css[suit], "keys": keys})
    return rows


@register.filter
def in_letters(text: str, rules: RuleSet) -> str:
    """Cards written in canonical codes (``KH 5S JK``), in the page's language's letters: for
    placeholders, which must read as the field reads them."""
    return notation.in_notation(text, rules, notation.notation_for(get_language()))


@register.filter
def notation_key(rules: RuleSet) -> str:
    """Which letters the cards fields read, in one line ("Card letters (Čeština): P ♠ S ♥ K ♦
    T Kř ♣ · A K D J · joker Ž"); empty for tiles, whose letters are the same everywhere."""
    if rules.tiles:
        return ""
    from django.utils.translation import get_language_info

    letters = notation.notation_for(get_language())
    suits = " ".join(
        " ".join(word for word, s in letters.suits.items() if s == suit) + " " + SUIT_SYMBOLS[suit]
        for suit in SUITS
    )
    ranks = " ".join(letters.ranks)
    key = f"{suits} · {ranks} · " + _("joker %(letters)s") % {"letters": letters.jokers[0]}
    name = get_language_info(letters.language)["name_translated"]
    return _("Card letters (%(language)s): %(key)s") % {"language": name, "key": key}


@register.filter
def cards(text: object, rules: RuleSet) -> SafeString | str:
    """Typed cards (``KH 5S``, melds split by ``|``) drawn as K♥ 5♠ chips with spoken names;
    anything else as it is."""
    return card_names.render_text(text, rules)


@register.filter
def rules_of(game: object) -> RuleSet | None:
    """A game's rule set (for the ``cards`` filter); None when its options no longer read."""
    from games.sheets.sheet import game_rules

    try:
        return game_rules(game=game)  # type: ignore[arg-type]
    except EngineError:
        return None


# The card picker as drawn, per rules and language: it shows nothing else (no game, no token).
_PICKERS: dict[tuple[tuple[object, ...], str | None], SafeString] = {}


@register.simple_tag
def picker(rules: RuleSet) -> SafeString:
    """The card (or tile) picker of a hand form, drawn once per rules and language: 52 keys
    of template loop were a good part of every page with a hand form."""
    key = (rules_key(rules), get_language())
    if key not in _PICKERS:
        if len(_PICKERS) > 256:  # house rules vary: keep this bounded
            _PICKERS.clear()
        joker = notation.write(Card(0, 0), rules, notation.notation_for(get_language()))
        _PICKERS[key] = render_to_string("games/_picker.html", {"rules": rules, "joker": joker})
    return _PICKERS[key]


@register.filter
def outcome_summary(outcome: Mapping[str, object] | None, rules: RuleSet | None = None) -> SafeString:
    """A one-line reading of a stored outcome for the history page; with the game's ``rules``,
    cards typed as counts or melds are drawn as cards (K♥ 5♠)."""
    if not outcome:
        return mark_safe("—")

    def shown(value: object) -> str:
        return conditional_escape(card_names.render_text(value, rules) if rules is not None else str(value))

    parts: list[str] = []
    # The family's words first, then any other family's: a stored outcome says what it holds.
    said = families.words(rules.family if rules is not None else None).merged(every_word())
    for role in said.roles:
        name = outcome.get(role.name)
        if isinstance(name, str) and name:
            parts.append(escape(_(role.did) % {"name": name}))
    parts.extend(escape(_(flag.said)) for flag in said.flags if flag.said and outcome.get(flag.name))
    for key in ("left", "deadwood", "hands"):
        counts = outcome.get(key)
        if isinstance(counts, Mapping):
            parts.extend(f"{escape(name)} {shown(value)}" for name, value in counts.items())
    melds = outcome.get("melds")
    if isinstance(melds, str) and melds:
        parts.append(f"{escape(_('melds'))} {shown(melds)}")
    laid = outcome.get("laid")
    if isinstance(laid, Mapping):
        label = escape(_("laid down"))
        parts.extend(f"{escape(name)} {label} {shown(value)}" for name, value in laid.items())
    missing = outcome.get("missing")
    if isinstance(missing, list):
        parts.extend(escape(_("%(name)s: count missing") % {"name": name}) for name in missing)
    return mark_safe("; ".join(parts))  # every part escaped


@register.filter(name="marks_only")
def marks_only_filter(change: Change) -> bool:
    """The change only marked or unmarked missing counts (undone with the change it followed)."""
    return marks_only(change)


@register.filter
def family_name(key: str) -> str:
    """A rule family's name in the current language (from the family table)."""
    return families.family_name(key)


@register.filter
def role_name(role: str) -> str:
    """A club role's name in the current language."""
    return str(Membership.Role(role).label) if role in Membership.Role.values else role


@register.filter
def display_name(user: object) -> str:
    """How a user is named on a game's pages: the first name if set, else the username.
    Only shown to those who may edit the game (others read "a scorekeeper")."""
    first = getattr(user, "first_name", "")
    return first.strip() if isinstance(first, str) and first.strip() else str(getattr(user, "username", ""))


CELL = '<td><span class="pts">{}</span><span class="run">{}{}</span></td>'


@register.simple_tag
def sheet_rows(sheet: Sheet, editable: bool) -> SafeString:
    """The score sheet's body: a row per hand, a cell per player. Drawn here rather than by the
    template: a 300-hand sheet has 1,200 cells, and a dozen template nodes per cell made the
    sheet the page's main cost (docs/design/performance.md)."""
    missing = format_html(
        '<td class="missing"><span class="pts">—</span><span class="run">{}</span></td>', _("missing")
    )
    # The links to correct each hand: games:hand_edit is games:hand_create's address plus the
    # hand's number (reversed once, not once per row).
    hands_url = reverse("games:hand_create", args=[sheet.game.public_id])
    assert reverse("games:hand_edit", args=[sheet.game.public_id, 1]) == f"{hands_url}1/"
    label = escape(_("Correct hand %(number)s"))
    kinds: dict[str, str] = {}  # each kind's label, translated once per sheet, not once per row
    rows: list[str] = []
    for row in sheet.rows:
        head: str
        if editable:
            aria = label % {"number": row.ordinal}
            head = f'<a href="{hands_url}{row.hand.number}/" aria-label="{aria}">{row.ordinal} ✎</a>'
        else:
            head = str(row.ordinal)
        cells = "".join(
            missing if absent else CELL.format(signed(points), num(total), " +?" if provisional else "")
            for points, total, absent, provisional in zip(
                row.points, row.totals, row.missing, row.provisional, strict=True
            )
        )
        if row.kind is not None:
            if row.kind.kind not in kinds:
                kind = kind_label(row.kind, sheet.rules.family)
                kinds[row.kind.kind] = f'<span class="kind">{escape(kind)}</span>' if kind else ""
            head += kinds[row.kind.kind]
        rows.append(f'<tr><th scope="row">{head}</th>{cells}</tr>')
    return mark_safe("\n".join(rows))  # numbers, and the escaped head


@register.filter
def moment(value: object) -> datetime.datetime | None:
    """A moment recorded as ISO 8601 text (a change's before and after), to format."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.datetime.fromisoformat(value)
    except ValueError:
        return None


@register.inclusion_tag("games/_clock.html")
def clock(ends: datetime.datetime | None) -> dict[str, object]:
    """A round's clock counting down to ``ends`` (nothing without one), by the server's now;
    static/js/clock.js counts on between polls."""
    return {"clock": round_clock(ends)}
