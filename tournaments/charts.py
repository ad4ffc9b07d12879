"""Charts drawn on the server as inline SVG: no chart library, no script, nothing to download
(the page stays light and works under the site's content security policy). The numbers are
also in the page's table, which is the accessible alternative."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 22


def rating_chart(points: Sequence[tuple[object, int]], *, label: str) -> SafeString:
    """A line of ratings over time (one point per rated game, oldest first), with the lowest
    and highest rating marked on the axis and the first and last dates below."""
    values = [value for _, value in points]
    low, high = min(values), max(values)
    if high == low:
        low, high = low - 10, high + 10
    span_x = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / span_x

    def y(value: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    first, last = points[0][0], points[-1][0]
    dots = (
        format_html_join(
            "",
            '<circle cx="{}" cy="{}" r="2.5" class="chart-dot"/>',
            ((f"{x(i):.1f}", f"{y(v):.1f}") for i, v in enumerate(values)),
        )
        if len(points) <= 60
        else ""
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="chart-axis"/>'
        '<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="chart-axis"/>'
        '<text x="{tx}" y="{ty_high}" class="chart-label" text-anchor="end">{high}</text>'
        '<text x="{tx}" y="{ty_low}" class="chart-label" text-anchor="end">{low}</text>'
        '<text x="{l}" y="{date_y}" class="chart-label">{first}</text>'
        '<text x="{r}" y="{date_y}" class="chart-label" text-anchor="end">{last}</text>'
        '<polyline points="{line}" class="chart-line" fill="none"/>{dots}</svg>',
        w=WIDTH,
        h=HEIGHT,
        label=label,
        l=LEFT,
        r=WIDTH - RIGHT,
        t=TOP,
        b=HEIGHT - BOTTOM,
        tx=LEFT - 4,
        ty_high=TOP + 8,
        ty_low=HEIGHT - BOTTOM,
        high=high,
        low=low,
        date_y=HEIGHT - 6,
        first=_day(first),
        last=_day(last),
        line=line,
        dots=dots,
    )


def _day(value: object) -> str:
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    return str(value)
