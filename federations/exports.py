"""The federation's history as a CSV file for its organisers (through the site's one CSV
writer, so that no cell is read as a formula)."""

from __future__ import annotations

import json

from federations.models import Federation, FederationChange
from federations.selectors.history import every_change
from games.web.spreadsheet import csv_text

COLUMNS = ("time", "action", "description", "user", "club", "details")


def history_csv(*, federation: Federation) -> str:
    labels = dict(FederationChange.Action.choices)
    rows = (
        {
            "time": change.created_at.isoformat(timespec="seconds"),
            "action": change.action,
            "description": str(labels.get(change.action, change.action)),
            "user": change.user_name,
            "club": (change.data or {}).get("club_name", ""),
            "details": json.dumps(change.data, ensure_ascii=False, sort_keys=True) if change.data else "",
        }
        for change in every_change(federation=federation)
    )
    return csv_text(COLUMNS, rows)
