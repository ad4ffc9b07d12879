"""The federation's rating lists as CSV downloads, for the pages and the API alike: the live list
and a published month, whole, UTF-8 with a byte-order mark (``games.web.spreadsheet``). Every
row names the federation, the family and the list, and so does the file's name, so rows copied
out of the file, or several files pasted together, still say where they come from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from federations.models import Federation, PublishedList
from federations.selectors import ratings as selectors
from federations.services.register import person_label
from games.web.spreadsheet import csv_text

# The whole list as one page: larger than any register.
WHOLE = 10**9


def _csv(
    name: str, fields: Sequence[str], labels: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> HttpResponse:
    response = HttpResponse(csv_text(fields, rows, header=labels), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "list"}.csv"'
    return response


def month_text(month: Any) -> str:
    return f"{month:%Y-%m}"


def live_file(federation: Federation, family: str) -> HttpResponse:
    """The whole live list of ``family`` as a CSV download."""
    found = selectors.live_list(federation=federation, family=family, size=WHOLE)
    fields = [
        "federation", "family", "list", "rank", "id", "name", "home_club", "rating", "uncertainty",
        "games", "last_played", "trend", "provisional", "inactive",
    ]  # fmt: skip
    labels = [
        _("Federation"), _("Game"), _("List"), _("Rank"), _("Federation id"), _("Player"), _("Home club"),
        _("Rating"), _("Uncertainty"), _("Rated games"), _("Last played"), _("Since the last list"),
        _("Provisional"), _("Inactive"),
    ]  # fmt: skip
    live = _("live")
    rows = (
        {
            "federation": federation.name,
            "family": found.family,
            "list": live,
            "rank": r.rank,
            "id": r.label,
            "name": r.name,
            "home_club": r.home_club,
            "rating": r.rating,
            "uncertainty": r.uncertainty,
            "games": r.games,
            "last_played": timezone.localdate(r.last_played).isoformat(),
            "trend": "" if r.trend is None else r.trend,
            "provisional": int(r.provisional),
            "inactive": int(r.inactive),
        }
        for r in found.rows
    )
    return _csv(f"{federation.slug} {found.family} {live}", fields, labels, rows)


def published_file(federation: Federation, published: PublishedList) -> HttpResponse:
    """A published list, whole and as published, as a CSV download."""
    found = selectors.published_page(federation=federation, published=published, size=WHOLE)
    month = month_text(published.month)
    fields = [
        "federation", "family", "list", "rank", "id", "name", "home_club", "rating", "uncertainty",
        "games", "last_played", "change", "previous_rank", "provisional", "inactive",
    ]  # fmt: skip
    labels = [
        _("Federation"), _("Game"), _("List"), _("Rank"), _("Federation id"), _("Player"), _("Home club"),
        _("Rating"), _("Uncertainty"), _("Rated games"), _("Last played"), _("Rating change"),
        _("Previous rank"), _("Provisional"), _("Inactive"),
    ]  # fmt: skip
    rows = (
        {
            "federation": federation.name,
            "family": published.family,
            "list": month,
            "rank": line.rank,
            "id": person_label(federation, line.number),
            "name": line.name,
            "home_club": line.home_club,
            "rating": line.rating,
            "uncertainty": line.uncertainty,
            "games": line.games,
            "last_played": timezone.localdate(line.last_played).isoformat(),
            "change": "" if line.previous_rating is None else line.rating - line.previous_rating,
            "previous_rank": "" if line.previous_rank is None else line.previous_rank,
            "provisional": int(line.provisional),
            "inactive": int(line.inactive),
        }
        for line in found.lines
    )
    return _csv(f"{federation.slug} {published.family} {month}", fields, labels, rows)
