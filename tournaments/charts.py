"""The season pages' charts: drawn by ``games.charts`` (shared with the game pages)."""

from games.charts import rating_chart

__all__ = ["rating_chart"]
