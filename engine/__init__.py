"""The rummy rules engine: cards and tiles, rule sets, melds, laydowns, values and solvers.

Plain Python, no Django. The public API (see docs/CONTRACT.md) is re-exported here. The
solver function ``arrange`` is deliberately not re-exported under its own name, because the
package attribute ``engine.arrange`` is its module; use
``from engine.arrange import arrange``.
"""

from __future__ import annotations

from .cards import JOKER, Card, card_code, tile_code
from .errors import EngineError
from .messages import MESSAGES
from .notation import code, codes, parse_hand, parse_melds
from .rules import FAMILIES, OPTIONS, RuleSet, parse_settings, rule_set

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from .arrange import Arrangement
    from .gin import KnockCheck, LayoffResult, knock_check, layoff
    from .laydown import Laydown, check_laydown
    from .melds import Meld, check_meld
    from .opening import best_opening
    from .values import card_value, hand_value

# Imported on first use: the command line starts faster when it does not load what its
# command never calls (and the solver modules import this package).
_SOLVER_NAMES = {
    "Laydown": "laydown",
    "check_laydown": "laydown",
    "Meld": "melds",
    "check_meld": "melds",
    "card_value": "values",
    "hand_value": "values",
    "Arrangement": "arrange",
    "KnockCheck": "gin",
    "LayoffResult": "gin",
    "knock_check": "gin",
    "layoff": "gin",
    "best_opening": "opening",
}


def __getattr__(name: str) -> object:
    """The names of ``_SOLVER_NAMES``, imported on first use."""
    module = _SOLVER_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "FAMILIES",
    "JOKER",
    "MESSAGES",
    "OPTIONS",
    "Arrangement",
    "Card",
    "EngineError",
    "KnockCheck",
    "Laydown",
    "LayoffResult",
    "Meld",
    "RuleSet",
    "best_opening",
    "card_code",
    "card_value",
    "check_laydown",
    "check_meld",
    "code",
    "codes",
    "hand_value",
    "knock_check",
    "layoff",
    "parse_hand",
    "parse_melds",
    "parse_settings",
    "rule_set",
    "tile_code",
]
