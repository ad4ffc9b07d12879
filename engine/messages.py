"""English message templates for every EngineError code the engine raises.

The web layer translates by code: ``MESSAGES[code].format(**error.params)``. Templates use
only the error's params (str.format names). ``gettext_noop`` is a local identity function so
Django's ``makemessages`` extracts the strings without the engine importing Django.

Card parameters (``card``, ``cards``) are already in display form (``5♥``, ``10♠``, ``R7``,
``JK``), which reads the same in every language.
"""

from __future__ import annotations

from .errors import EngineError


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (Django's convention)."""
    return message


MESSAGES: dict[str, str] = {
    # notation (parse_hand / parse_melds)
    "bad_token": gettext_noop('"{token}" is not a {item}; write e.g. {examples}'),
    "no_jokers": gettext_noop('"{token}": a joker is not part of this game'),
    "too_many_copies": gettext_noop("{count} × {card}, but the game has only {decks} of each card"),
    "too_many_jokers_in_pack": gettext_noop("{count} jokers, but the game has only {jokers}"),
    "empty": gettext_noop("no cards given"),
    "too_many_cards": gettext_noop("{count} cards or tiles: a hand to arrange holds at most {maximum}"),
    # melds (check_meld)
    "too_short": gettext_noop("a meld needs at least 3 cards, not {count}"),
    "too_long": gettext_noop("a {kind} has at most {maximum} cards, not {count}"),
    "duplicate_suit": gettext_noop("two {card} in one group: a group needs different suits"),
    "duplicate_rank": gettext_noop("two {card} in one run: a run needs different ranks"),
    "mixed_ranks": gettext_noop("{cards}: a group needs cards of one rank"),
    "mixed_suits": gettext_noop("{cards}: a run needs cards of one suit"),
    "not_consecutive": gettext_noop("{cards}: not consecutive, and {jokers} joker(s) cannot fill the gaps"),
    "wraps_around": gettext_noop("{cards}: a run cannot go round the corner from the king to the ace"),
    "ace_not_high": gettext_noop("{cards}: the ace is low only in this game, it cannot follow the king"),
    "too_many_jokers": gettext_noop("{jokers} jokers in a meld of {count}: at most half may be jokers"),
    "adjacent_jokers": gettext_noop("{cards}: two jokers may not stand side by side in a run"),
    "joker_mismatch": gettext_noop("the joker declared as {card} does not fit this meld"),
    "all_jokers": gettext_noop("a meld of jokers alone is not allowed in this game"),
    # laydown (check_laydown); meld errors there carry an extra param "meld" (1-based)
    "flush_needs_ten": gettext_noop("the flush is played with a 10-card deal: set the cards dealt to 10"),
    "no_melds": gettext_noop("a laydown needs at least one meld"),
    "opening_too_low": gettext_noop(
        "the first laydown is worth {points} points; it needs at least {required}"
    ),
    "no_pure_run": gettext_noop("the first laydown needs a run without a joker"),
    # solver (opening.best_opening, gin)
    "no_opening": gettext_noop(
        "no opening laydown: the best is worth {best_points} of {required} ({reason})"
    ),
    # rule sets (rules.py)
    "unknown_family": gettext_noop("unknown rule family {family}"),
    "unknown_option": gettext_noop("{family} has no option {option}"),
    "option_not_bool": gettext_noop("option {option} must be true or false, not {value}"),
    "option_not_int": gettext_noop("option {option} must be a whole number, not {value}"),
    "option_choice": gettext_noop("option {option} must be one of {choices}, not {value}"),
    "option_range": gettext_noop("option {option} must be between {minimum} and {maximum}, not {value}"),
    "bad_setting": gettext_noop("--set expects NAME=VALUE, not {setting}"),
    # command line (cli.py)
    "bad_line": gettext_noop("cannot read the line: {reason}"),
    "internal_error": gettext_noop("internal error: {reason}"),
}


def fail(code: str, /, **params: object) -> EngineError:
    """An EngineError whose English message is this code's template filled with ``params``."""
    return EngineError(code, MESSAGES[code].format_map(params), **params)
