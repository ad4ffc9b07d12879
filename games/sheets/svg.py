"""Charts drawn on the server as inline SVG: no chart library, no script, nothing to download
(the page stays light and works under the site's content security policy: presentation
attributes and classes only, never a ``style`` attribute). The numbers are also in the page's
tables, which are the accessible alternative; each chart says so.

- ``running_chart``: running totals per player over the hands, with an optional line (an
  elimination limit or a target), a legend and numbered axes (a game's page).
- ``bar_chart``: one signed value per name, bars either side of zero (the settlement).
- ``rating_chart``: one line over time (a player's ratings in a season; tournaments use it).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 22

# Told apart three ways (colour, dash pattern, marker), so that neither colour vision nor a
# black-and-white print is needed. Colours have at least 4.5:1 contrast on white. Each series'
# group carries its colour as the ``color`` attribute, its shapes paint with ``currentColor``,
# and the stylesheet's ``.series-N { color: var(--series-N) }`` overrides it (a light colour
# in the dark scheme).
COLOURS = ("#0b5d3b", "#b3001b", "#0b4fb3", "#7a4f00", "#6a1b9a", "#111111", "#006570", "#a3004f")
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 3", "12 4", "6 2 2 2 2 2")
MARKERS = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "circle-open",
    "square-open",
    "triangle-open",
    "diamond-open",
)


def num(value: int | float) -> str:
    """A number with a real minus sign (−10), as the score sheet shows it."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text.replace("-", "−")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else num(value)


def nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5 times a power of ten) that cuts ``span`` into about ``ticks``."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def _marker(kind: str, x: float, y: float, r: float = 3.5) -> str:
    """A point's marker, painted in the series' ``currentColor`` (an open one is filled with
    the background, ``.mark-open`` in the stylesheet)."""
    shape, paint = _MARKER_SHAPES[kind]
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'
    if shape == "square":
        side = 2 * r * 0.9
        corner = f'x="{x - side / 2:.1f}" y="{y - side / 2:.1f}"'
        return f'<rect {corner} width="{side:.1f}" height="{side:.1f}" {paint}/>'
    if shape == "triangle":
        d = f"M{x:.1f} {y - r * 1.15:.1f}L{x + r:.1f} {y + r * 0.85:.1f}L{x - r:.1f} {y + r * 0.85:.1f}Z"
    else:  # diamond
        q = r * 1.2
        d = f"M{x:.1f} {y - q:.1f}L{x + q:.1f} {y:.1f}L{x:.1f} {y + q:.1f}L{x - q:.1f} {y:.1f}Z"
    return f'<path d="{d}" {paint}/>'


def _marker_shape(kind: str) -> tuple[str, str]:
    """A marker kind's shape and paint attributes (worked out once per kind, not per point)."""
    filled = not kind.endswith("-open")
    paint = 'fill="currentColor"' if filled else 'fill="#fff" class="mark-open"'
    return kind.removesuffix("-open"), paint + ' stroke="currentColor" stroke-width="1.5"'


_MARKER_SHAPES = {kind: _marker_shape(kind) for kind in MARKERS}


def _dash(pattern: str) -> SafeString:
    return format_html(' stroke-dasharray="{}"', pattern) if pattern else SafeString("")


@dataclass(frozen=True)
class Series:
    """One line: its name and its values at x = 0, 1, 2, ... (it may stop early: a player
    who dropped out); ``note`` is said in the legend after the last value."""

    name: str
    values: Sequence[int]
    note: str = ""


@dataclass(frozen=True)
class Line:
    """A horizontal line across the chart at ``value`` (an elimination limit, a target)."""

    value: int
    label: str


def running_chart(
    series: Sequence[Series],
    *,
    label: str,
    line: Line | None = None,
    described_by: str = "",
    x_title: str = "",
) -> SafeString:
    """Lines of running totals (x: the hand, 0 = the start), numbered axes, the optional
    ``line``, and a legend of names under the SVG with each line's colour, dash and marker."""
    width, height = 340, 220
    left, right, top, bottom = 44, 12, 14, 34
    everything = [v for s in series for v in s.values] + ([line.value] if line else [])
    low, high = min([0, *everything]), max([0, *everything])
    if high == low:
        high = low + 10
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    hands = max((len(s.values) - 1 for s in series), default=0)
    span_x = max(hands, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    def y(value: float) -> float:
        return top + (height - top - bottom) * (high - value) / (high - low)

    # Numbers need no escaping: the grid, the axes and the lines are written directly; names and
    # labels (what people typed, translations) go through format_html. A 40-hand evening has
    # about 200 points, and this is drawn for every new version of a game.
    parts: list[str] = []
    for tick in range(low, high + step, step):
        at = y(tick)
        zero = " chart-zero" if tick == 0 else ""
        parts.append(
            f'<line x1="{left}" y1="{at:.1f}" x2="{width - right}" y2="{at:.1f}" class="chart-grid{zero}"/>'
            f'<text x="{left - 8}" y="{at + 4:.1f}" class="chart-label chart-y" text-anchor="end" '
            f'data-value="{tick}">{num(tick)}</text>'
        )
    x_step = max(1, math.ceil(hands / 8))
    for hand in range(0, hands + 1, x_step):
        parts.append(
            f'<text x="{x(hand):.1f}" y="{height - bottom + 16}" class="chart-label chart-x" '
            f'text-anchor="middle">{hand}</text>'
        )
    if x_title:
        parts.append(
            format_html(
                '<text x="{}" y="{}" class="chart-label chart-x-title" text-anchor="end">{}</text>',
                width - right,
                height - 2,
                x_title,
            )
        )
    if line is not None:
        parts.append(
            format_html(
                '<line x1="{}" y1="{y}" x2="{}" y2="{y}" class="chart-limit" stroke="#a4001d" '
                'stroke-width="1.5" stroke-dasharray="5 4" data-value="{}"/>'
                '<text x="{}" y="{}" class="chart-label chart-limit-label" text-anchor="start">{}</text>',
                left,
                width - right,
                line.value,
                left + 4,  # at the start, where the lines are still far from it
                f"{y(line.value) - 4:.1f}" if y(line.value) > top + 14 else f"{y(line.value) + 13:.1f}",
                line.label,
                y=f"{y(line.value):.1f}",
            )
        )
    markers_on = hands <= 40
    xs = [x(i) for i in range(hands + 1)]
    for index, one in enumerate(series):
        colour, dash, marker = (
            COLOURS[index % len(COLOURS)],
            DASHES[index % len(DASHES)],
            MARKERS[index % len(MARKERS)],
        )
        ys = [y(v) for v in one.values]
        points = " ".join(f"{xs[i]:.1f},{at:.1f}" for i, at in enumerate(ys))
        dots = "".join(_marker(marker, xs[i], at) for i, at in enumerate(ys)) if markers_on else ""
        parts.append(
            format_html(
                '<g class="chart-series series-{}" data-name="{}" color="{}"><polyline points="{}" '
                'fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"{}/>{}</g>',
                index % len(COLOURS),
                one.name,
                colour,
                mark_safe(points),  # numbers only
                _dash(dash),
                mark_safe(dots),  # numbers and fixed names only
            )
        )
    svg = format_html(
        '<svg class="chart chart-running" viewBox="0 0 {} {}" role="img" aria-label="{}"{}>'
        "<title>{}</title>{}</svg>",
        width,
        height,
        label,
        format_html(' aria-describedby="{}"', described_by) if described_by else "",
        label,
        mark_safe("".join(parts)),  # each part escaped above
    )
    legend = format_html_join(
        "",
        '<li><svg class="chart-key series-{}" color="{}" viewBox="0 0 36 14" aria-hidden="true" '
        'focusable="false"><line x1="2" y1="7" x2="34" y2="7" stroke="currentColor" stroke-width="2.5"{}/>'
        "{}</svg>"
        '<span class="name">{}</span> <span class="value">{}</span>{}</li>',
        (
            (
                i % len(COLOURS),
                COLOURS[i % len(COLOURS)],
                format_html(' stroke-dasharray="{}"', DASHES[i % len(DASHES)])
                if DASHES[i % len(DASHES)]
                else "",
                mark_safe(_marker(MARKERS[i % len(MARKERS)], 18, 7)),
                one.name,
                num(one.values[-1]) if one.values else "",
                format_html(' <span class="note">{}</span>', one.note) if one.note else "",
            )
            for i, one in enumerate(series)
        ),
    )
    return format_html('{}<ul class="chart-legend">{}</ul>', svg, legend)


def bar_chart(
    rows: Sequence[tuple[str, int]], *, label: str, described_by: str = "", unit: str = ""
) -> SafeString:
    """One horizontal bar per (name, value): right of the zero line for a positive value,
    left for a negative one, each with its name above it and its signed value at its end
    (the sign is written, not only shown by the colour and the side)."""
    width, row_height, pad = 340, 40, 46
    height = row_height * len(rows) + 6
    values = [value for _, value in rows]
    low, high = min([0, *values]), max([0, *values])
    if high == low:
        high = low + 1

    def x(value: float) -> float:
        return pad + (width - 2 * pad) * (value - low) / (high - low)

    zero = x(0)
    parts: list[str] = []
    for row, (name, value) in enumerate(rows):
        top = row * row_height + 4
        start, end = sorted((zero, x(value)))
        positive = value >= 0
        text_x = end + 4 if positive else start - 4
        parts.append(
            format_html(
                '<g class="chart-bar {}" data-name="{}" data-value="{}">'
                '<text x="{}" y="{}" class="chart-label chart-name" text-anchor="{}">{}</text>'
                '<rect x="{}" y="{}" width="{}" height="16" fill="{}"/>'
                '<text x="{}" y="{}" class="chart-label chart-value" text-anchor="{}">{}</text></g>',
                "positive" if value > 0 else "negative" if value < 0 else "zero",
                name,
                value,
                4,
                top + 12,
                "start",
                name,
                f"{start:.1f}",
                top + 17,
                f"{max(end - start, 0):.1f}",
                "#0b5d3b" if positive else "#a4001d",
                f"{text_x:.1f}",
                top + 30,
                "start" if positive else "end",
                f"{signed(value)}{unit}",
            )
        )
    return format_html(
        '<svg class="chart chart-bars" viewBox="0 0 {} {}" role="img" aria-label="{}"{}><title>{}</title>'
        '{}<line x1="{z}" y1="0" x2="{z}" y2="{}" class="chart-axis chart-zero" stroke="#4a4a4a"/></svg>',
        width,
        height,
        label,
        format_html(' aria-describedby="{}"', described_by) if described_by else "",
        label,
        mark_safe("".join(parts)),  # each part escaped above
        height,
        z=f"{zero:.1f}",
    )


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
    """A day as the page's language writes it (its short date format)."""
    if isinstance(value, datetime.datetime):
        return date_format(timezone.localtime(value), "SHORT_DATE_FORMAT")
    if isinstance(value, datetime.date):
        return date_format(value, "SHORT_DATE_FORMAT")
    return str(value)
