"""The rating list's rows, built in Python: a template loop of a few hundred rows, each with a
link, five numbers and a date, costs the page many times what its data does (every number is
localised, every link reversed), and the list shows every player of the club."""

from __future__ import annotations

import datetime
import html

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.selectors.league import RatingList

register = template.Library()
MINUS = "\u2212"


@register.simple_tag
def rating_rows(ratings: RatingList) -> SafeString:
    club = ratings.club
    # One reverse for all rows: the player's id is the only part that changes.
    link = reverse("tournaments:player_ratings", args=[club.slug, 0])
    head, tail = link.rsplit("/0/", 1)
    query = f"?family={ratings.family}"
    provisional = format_html(' <span class="tiebreak provisional">{}</span>', _("provisional"))
    inactive = format_html(' <span class="tiebreak inactive-mark">{}</span>', _("inactive"))
    new = escape(_("new"))
    zone = timezone.get_current_timezone()
    days: dict[datetime.date, str] = {}

    def day(when: datetime.datetime) -> str:
        local = when.astimezone(zone).date()
        if local not in days:
            days[local] = escape(date_format(local, "SHORT_DATE_FORMAT"))
        return days[local]

    def trend(value: int | None) -> str:
        if value is None:
            return new
        if value > 0:
            return f'<span class="trend up">+{value}</span>'
        if value < 0:
            return f'<span class="trend down">{MINUS}{-value}</span>'
        return "–"

    # Built with f-strings, escaping only what is text (the name, the link): the numbers are
    # integers, and escaping each of them through format_html cost the page most of its time
    # (the standard library's escape for the names: Django's wraps it for lazy text).
    where = escape(f"{head}/")
    after = escape(f"/{tail}{query}")
    rows = [
        f'<tr{' class="inactive"' if row.inactive else ""}><td class="rank">{row.rank}</td>'
        f'<th scope="row" class="name"><a href="{where}{row.player_id}{after}">{html.escape(row.name)}</a>'
        f"{provisional if row.provisional else ''}{inactive if row.inactive else ''}</th>"
        f'<td class="points">{row.rating} <span class="uncertainty">±{row.uncertainty}</span></td>'
        f'<td class="trend-cell phone-more">{trend(row.trend)}</td><td class="phone-more">{row.games}</td>'
        f'<td class="secondary phone-more">{day(row.last_played)}</td></tr>'
        for row in ratings.rows
    ]
    return mark_safe("\n".join(rows))  # every part above is escaped, safe already, or an integer
