"""Every coded error in the user's language: the one place where error text is translated.

Each layer that raises coded errors keeps its English templates in a ``messages`` module beside
its errors (``engine.messages``, ``scoring.messages``, ``games.services.messages``; an app built on
games registers its own table with ``register_messages``). Here they are translated and filled
with the error's parameters. A code without a template falls back to the error's English message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from django.utils.translation import gettext, gettext_noop

from engine.errors import EngineError
from engine.messages import MESSAGES as ENGINE_MESSAGES
from games.services.messages import MESSAGES as SERVICE_MESSAGES
from scoring.families import FAMILY_INFO
from scoring.messages import MESSAGES as SCORING_MESSAGES

HAND_PREFIX = gettext_noop("Hand {hand}: {message}")
MELD_PREFIX = gettext_noop("Meld {meld}: {message}")

# Words the engine and scoring put into parameters (in English): translated before filling
# (a family's key is shown as its name, from the family's facts).
PARAM_WORDS: dict[str, str] = {
    "card": gettext_noop("card"),
    "tile": gettext_noop("tile"),
    "group": gettext_noop("group"),
    "run": gettext_noop("run"),
    "too_low": gettext_noop("too low"),
    "no_pure_run": gettext_noop("no run without a joker"),
    "left": gettext_noop("cards left"),
    "deadwood": gettext_noop("deadwood"),
    "hands": gettext_noop("hands"),
    "laid": gettext_noop("laid down"),
    "melds": gettext_noop("melds"),
}

TEMPLATES: dict[str, str] = {**ENGINE_MESSAGES, **SCORING_MESSAGES, **SERVICE_MESSAGES}

# Tables of the apps built on games (registered when they load): their own services' codes, and
# a fuller wording of a scoring code their pages raise. Filled as written, before TEMPLATES.
_REGISTERED: list[dict[str, str]] = []


def register_messages(table: dict[str, str]) -> None:
    if table not in _REGISTERED:
        _REGISTERED.append(table)


def _word(value: object) -> object:
    """A parameter as the message shows it: a word of the engine's or a family's key (its
    name) in the user's language; anything else as it is."""
    if not isinstance(value, str):
        return value
    if value in PARAM_WORDS:
        return gettext(PARAM_WORDS[value])
    info = FAMILY_INFO.get(value)
    return gettext(info.name) if info is not None else value


def error_message(error: EngineError) -> str:
    for table in _REGISTERED:
        if error.code in table:
            return _filled(table[error.code], error.params)
    template = TEMPLATES.get(error.code)
    params = {key: _word(value) for key, value in error.params.items()}
    if template is None:
        return error.message
    try:
        message = gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation that names a parameter the error lacks must not cost the user a 500.
        message = template.format(**params) if _formats(template, params) else error.message
    meld = params.get("meld")
    if meld is not None and "{meld}" not in template:
        message = gettext(MELD_PREFIX).format(meld=meld, message=message)
    hand = params.get("hand")
    if hand is not None and error.code not in SERVICE_MESSAGES and "{hand}" not in template:
        message = gettext(HAND_PREFIX).format(hand=hand, message=message)
    return message


def _filled(template: str, params: Mapping[str, object]) -> str:
    try:
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):
        return template.format(**params)


def _formats(template: str, params: dict[str, object]) -> bool:
    try:
        template.format(**params)
    except (KeyError, IndexError, ValueError):
        return False
    return True


class _Lockable(Protocol):
    results_locked: bool


def write_refused(game: _Lockable) -> str:
    """Why the viewer may not change the game: a table whose round its event confirmed says
    so (its link no longer writes), any other game who may."""
    if game.results_locked:
        return gettext(
            "This table's round is confirmed: its results are locked. "
            "Only the tournament's organisers can correct them now."
        )
    return gettext(
        "Only the person who started this game (a club's game: while he records for the club), "
        "its club's scorekeepers, or someone with the edit link can change this game."
    )
