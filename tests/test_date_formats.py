"""Dates in each language's own format: English pages day before month (not the US order),
Czech, Slovak, Polish and Norwegian as their speakers write them."""

from __future__ import annotations

import datetime

import pytest
from django.utils import formats, translation

DAY = datetime.date(2026, 12, 2)


@pytest.mark.parametrize(
    ("language", "short", "long"),
    [
        ("en", "02/12/2026", "2 Dec 2026"),
        ("cs", "02.12.2026", "2. prosince 2026"),
        ("sk", "02.12.2026", "2. december 2026"),
        ("pl", "02-12-2026", "2 grudnia 2026"),
        ("nb", "02.12.2026", "2. desember 2026"),
    ],
)
def test_each_language_writes_dates_its_own_way(language: str, short: str, long: str) -> None:
    with translation.override(language):
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short
        assert formats.date_format(DAY, "DATE_FORMAT") == long
