"""Small template filters for score sheets."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import families
from games.engine import notation
from games.engine.cards import RANKS, SUITS, Card
from games.engine.errors import EngineError
from games.engine.rules import RuleSet
from games.messages import error_message
from games.models import Change, Membership
from games.sheet import Sheet, marks_only

register = template.Library()


@register.filter
def get(mapping: Mapping[object, object] | None, key: object) -> object:
    return mapping.get(key) if mapping else None


@register.filter
def signed(value: int) -> str:
    """+10, −10 or 0, with a real minus sign."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


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


SUIT_CSS = ("suit-black", "suit-red", "suit-red", "suit-black")
TILE_CSS = ("tile-black", "tile-blue", "tile-red", "tile-yellow")


@register.filter
def picker_rows(rules: RuleSet) -> list[dict[str, object]]:
    """Rows of the card (or tile) picker: one per suit or colour, every rank."""
    rows: list[dict[str, object]] = []
    for suit in SUITS:
        keys = []
        for rank in RANKS:
            card = Card(rank, suit)
            code = notation.code(card, rules)
            label = str(rank) if rules.tiles else notation.display(card, rules)
            keys.append({"code": code, "label": label, "aria": notation.display(card, rules)})
        rows.append({"css": (TILE_CSS if rules.tiles else SUIT_CSS)[suit], "keys": keys})
    return rows


# The card picker as drawn, per rules and language: it shows nothing else (no game, no token).
_PICKERS: dict[tuple[str, str | None], SafeString] = {}


@register.simple_tag
def picker(rules: RuleSet) -> SafeString:
    """The card (or tile) picker of a hand form, drawn once per rules and language: 52 keys
    of template loop were a good part of every page with a hand form."""
    key = (repr(rules), get_language())  # a RuleSet holds dicts: its repr is its value
    if key not in _PICKERS:
        if len(_PICKERS) > 256:  # house rules vary: keep this bounded
            _PICKERS.clear()
        _PICKERS[key] = render_to_string("games/_picker.html", {"rules": rules})
    return _PICKERS[key]


@register.filter
def outcome_summary(outcome: Mapping[str, object] | None) -> str:
    """A one-line reading of a stored outcome for the history page."""
    if not outcome:
        return "—"
    parts: list[str] = []
    roles = {
        "closer": _("%(name)s closed"),
        "knocker": _("%(name)s knocked"),
        "out": _("%(name)s went out"),
        "winner": _("%(name)s went out"),
    }
    for key, text in roles.items():
        name = outcome.get(key)
        if isinstance(name, str) and name:
            parts.append(text % {"name": name})
    if outcome.get("from_hand"):
        parts.append(_("from hand"))
    if outcome.get("gin"):
        parts.append(_("gin"))
    for key in ("left", "deadwood", "hands"):
        counts = outcome.get(key)
        if isinstance(counts, Mapping):
            parts.extend(f"{name} {value}" for name, value in counts.items())
    missing = outcome.get("missing")
    if isinstance(missing, list):
        parts.extend(_("%(name)s: count missing") % {"name": name} for name in missing)
    return "; ".join(parts)


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
        rows.append(f'<tr><th scope="row">{head}</th>{cells}</tr>')
    return mark_safe("\n".join(rows))  # numbers, and the escaped head
