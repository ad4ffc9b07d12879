"""The address parts the federations app's routes name (its pages' and its API's)."""

from __future__ import annotations

import datetime

from django.urls import register_converter


class MonthConverter:
    """A month as ``yyyy-mm`` in an address, the 1st of it in the view; no such month (13, 00):
    no match, so 404."""

    regex = r"[0-9]{4}-[0-9]{2}"

    def to_python(self, value: str) -> datetime.date:
        return datetime.date(int(value[:4]), int(value[5:]), 1)

    def to_url(self, value: datetime.date) -> str:
        return f"{value:%Y-%m}"


register_converter(MonthConverter, "month")
