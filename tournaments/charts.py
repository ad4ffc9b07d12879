"""The season pages' charts: drawn by ``games.sheets.svg`` (shared with the game pages)."""

from games.sheets.svg import rating_chart

__all__ = ["rating_chart"]
