"""The federation's rating lists' rows, built in Python as the club's list builds its rows
(``tournaments.templatetags.league_tags``): a page of a hundred rows, each with a link and
several numbers, costs the page many times what its data does through a template loop."""

from __future__ import annotations

import html

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from federations.selectors.ratings import PublishedPage, RatingPage
from federations.services.register import person_label

register = template.Library()
MINUS = "\u2212"


def person_path(slug: str, number: int) -> str:
    """The address of a register entry's page."""
    return reverse("federations:person", kwargs={"slug": slug, "number": number})


@register.simple_tag
def person_href(slug: str, number: int) -> str:
    return person_path(slug, number)


def _links(slug: str) -> tuple[str, str]:
    # One address for all rows: the number is the only part that changes.
    head, tail = person_path(slug, 0).rsplit("/0/", 1)
    return escape(f"{head}/"), escape(f"/{tail}")


def _marks() -> tuple[str, str]:
    return (
        format_html(' <span class="tiebreak provisional">{}</span>', _("provisional")),
        format_html(' <span class="tiebreak inactive-mark">{}</span>', _("inactive")),
    )


def _change(value: int | None, none: str) -> str:
    if value is None:
        return none
    if value > 0:
        return f'<span class="trend up">▲{value}</span>'
    if value < 0:
        return f'<span class="trend down">▼{-value}</span>'
    return "–"


@register.simple_tag
def live_rows(ratings: RatingPage) -> SafeString:
    where, after = _links(ratings.federation.slug)
    provisional, inactive = _marks()
    # No published list yet: there is nothing to compare with, and nobody is "new".
    none = escape(_("new")) if ratings.last_list is not None else "–"
    rows = [
        f'<tr{' class="inactive"' if row.inactive else ""}><td class="rank">{row.rank}</td>'
        f'<th scope="row" class="name"><a href="{where}{row.number}{after}">{html.escape(row.name)}</a>'
        f"{provisional if row.provisional else ''}{inactive if row.inactive else ''}</th>"
        f'<td class="points">{row.rating} <span class="uncertainty">±{row.uncertainty}</span></td>'
        f'<td class="trend-cell phone-more">{_change(row.trend, none)}</td>'
        f'<td class="phone-more">{row.games}</td>'
        f'<td class="secondary phone-more person-id">{html.escape(row.label)}</td>'
        f'<td class="secondary phone-more home-club">{html.escape(row.home_club)}</td></tr>'
        for row in ratings.rows
    ]
    return mark_safe("\n".join(rows))  # every part above is escaped, safe already, or an integer


@register.simple_tag
def published_rows(found: PublishedPage) -> SafeString:
    federation = found.federation
    where, after = _links(federation.slug)
    provisional, inactive = _marks()
    none = escape(_("new")) if found.published.previous_id is not None else "–"
    rows = []
    for line in found.lines:
        name = html.escape(line.name)
        # A line whose entry was since merged away keeps its name, without a link.
        shown = f'<a href="{where}{line.number}{after}">{name}</a>' if line.person_id else name
        label = html.escape(person_label(federation, line.number))
        change = _change(None if line.previous_rating is None else line.rating - line.previous_rating, none)
        rows.append(
            f'<tr{' class="inactive"' if line.inactive else ""}><td class="rank">{line.rank}</td>'
            f'<th scope="row" class="name">{shown}'
            f"{provisional if line.provisional else ''}{inactive if line.inactive else ''}</th>"
            f'<td class="points">{line.rating} <span class="uncertainty">±{line.uncertainty}</span></td>'
            f'<td class="trend-cell phone-more">{change}</td>'
            f'<td class="phone-more">{"" if line.previous_rank is None else line.previous_rank}</td>'
            f'<td class="phone-more">{line.games}</td>'
            f'<td class="secondary phone-more person-id">{label}</td>'
            f'<td class="secondary phone-more home-club">{html.escape(line.home_club)}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # every part above is escaped, safe already, or an integer
