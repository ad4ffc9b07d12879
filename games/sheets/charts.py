"""The charts of a game's pages, from its score sheet (``games.sheets.svg`` draws them).

- The evening: each player's running total after each hand, with the line the totals head for.
  Which house rule that line is (Žolíky's elimination limit, the gin and Carousel target) is a
  per-family fact, ``FamilyInfo.chart_line``; whether reaching it is bad (out) or good (the
  target) is ``FamilyInfo.lower_is_better``.
- The settlement: what each player receives (+) or pays (−) in crowns, a bar each.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext

from games.sheets.sheet import Sheet
from games.sheets.svg import Line, Series, bar_chart, running_chart
from scoring.settlement import Settlement

EVENING_NOTE_ID = "evening-note"
SETTLEMENT_NOTE_ID = "settlement-note"


def chart_line(sheet: Sheet) -> Line | None:
    """The limit or target line of the sheet's house rules, or None (none in this family, or
    0: an open evening)."""
    info = sheet.family
    if info.chart_line is None or info.chart_line not in sheet.rules.options:
        return None
    value = sheet.rules.opt_int(info.chart_line)
    if not value:
        return None
    if info.lower_is_better:
        return Line(value, gettext("Out at %(limit)s") % {"limit": value})
    return Line(value, gettext("Target %(target)s") % {"target": value})


def evening_series(sheet: Sheet) -> list[Series]:
    """Each player's running totals, from 0 before the first hand; a player who dropped out
    stops at the hand he dropped out after."""
    out = sheet.eliminated_in
    series = []
    for seat, player in enumerate(sheet.players):
        last = out.get(player, len(sheet.rows))
        values = [0, *(row.totals[seat] for row in sheet.rows[:last])]
        note = gettext("out after hand %(number)d") % {"number": last} if player in out else ""
        series.append(Series(player, values, note))
    return series


def evening_chart(sheet: Sheet) -> SafeString | None:
    """The chart of the evening so far, or None before the first hand."""
    if not sheet.rows or sheet.state is None:
        return None
    return running_chart(
        evening_series(sheet),
        label=gettext("Running totals after each hand"),
        line=chart_line(sheet),
        described_by=EVENING_NOTE_ID,
        x_title=gettext("hand"),
    )


def settlement_chart(settled: Settlement, players: tuple[str, ...]) -> SafeString:
    """A bar per player, in seat order: crowns received (right of zero) or paid (left)."""
    return bar_chart(
        [(player, settled.net[player]) for player in players],
        label=gettext("Crowns each player receives or pays"),
        described_by=SETTLEMENT_NOTE_ID,
    )


@dataclass(frozen=True)
class ChartRule:
    """The chart's line for the API: the house rule it comes from, its value, and whether it
    is a limit to stay under (``limit``) or a target to reach (``target``)."""

    option: str
    value: int
    kind: str


def chart_rule(sheet: Sheet) -> ChartRule | None:
    line = chart_line(sheet)
    if line is None or sheet.family.chart_line is None:
        return None
    kind = "limit" if sheet.family.lower_is_better else "target"
    return ChartRule(option=sheet.family.chart_line, value=line.value, kind=kind)
