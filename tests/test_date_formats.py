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
        ("sk", "02.12.2026", "2. decembra 2026"),
        ("pl", "02-12-2026", "2 grudnia 2026"),
        ("nb", "02.12.2026", "2. desember 2026"),
    ],
)
def test_each_language_writes_dates_its_own_way(language: str, short: str, long: str) -> None:
    with translation.override(language):
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short
        assert formats.date_format(DAY, "DATE_FORMAT") == long


# After a day the month takes the genitive in Czech, Slovak and Polish ("3. mája", not "3. máj").
GENITIVE = {
    "cs": "ledna února března dubna května června července srpna září října listopadu prosince",
    "sk": "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra",
    "pl": (
        "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia"
    ),
}


@pytest.mark.parametrize("language", sorted(GENITIVE))
def test_a_day_of_every_month_names_the_month_in_the_genitive(language: str) -> None:
    with translation.override(language):
        written = [formats.date_format(datetime.date(2026, m, 3), "DATE_FORMAT") for m in range(1, 13)]
    separator = " " if language == "pl" else ". "
    assert written == [f"3{separator}{name} 2026" for name in GENITIVE[language].split()]
