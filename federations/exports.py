"""The federation's history as a CSV file for its organisers (through the site's one CSV
writer, so that no cell is read as a formula)."""

from __future__ import annotations

import json

from django.http import HttpResponse

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


def history_file(federation: Federation) -> HttpResponse:
    """The history as a CSV download (the page's and the API's)."""
    response = HttpResponse(history_csv(federation=federation), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{federation.slug}-history.csv"'
    return response
