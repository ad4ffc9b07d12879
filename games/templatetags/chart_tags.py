"""``{% evening_chart sheet %}`` and ``{% settlement_chart settled players %}``: the SVG charts
of games/sheets/charts.py in templates."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games.sheets import charts as sheet_charts
from games.sheets.sheet import Sheet
from scoring.settlement import Settlement

register = template.Library()


@register.simple_tag
def evening_chart(sheet: Sheet) -> SafeString | str:
    return sheet_charts.evening_chart(sheet) or ""


@register.simple_tag
def settlement_chart(settled: Settlement, players: tuple[str, ...]) -> SafeString:
    return sheet_charts.settlement_chart(settled, players)
