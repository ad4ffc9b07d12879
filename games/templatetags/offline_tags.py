"""The offline queue's status line on the game page (static/js/offline.js fills it in)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, ngettext

register = template.Library()

# A count for each plural category JavaScript's Intl.PluralRules can name, chosen so that the
# catalogue's own plural rule puts it in that category in every language the site speaks
# (1: one; 2: two; 3: few, e.g. Czech, Slovak, Polish 2-4; 5: many, Polish; 10: other).
PLURAL_SAMPLES = (("one", 1), ("two", 2), ("few", 3), ("many", 5), ("other", 10))


def queue_counts() -> dict[str, str]:
    """ "{n} hands waiting to be sent" per plural category, with ``{n}`` for the script."""
    return {
        category: ngettext("%(count)s hand waiting to be sent", "%(count)s hands waiting to be sent", sample)
        % {"count": "{n}"}
        for category, sample in PLURAL_SAMPLES
    }


@register.inclusion_tag("games/_offline_status.html")
def offline_status() -> dict[str, object]:
    return {
        "counts": queue_counts(),
        "refused": gettext(
            "The server did not take the waiting hands. They stay on this phone and are sent again later."
        ),
    }
