"""Slovak dates name the month in the genitive after a day ("3. decembra 2026"), as Czech and
Polish ones already do. Django's Slovak catalogue gives the nominative for that form, so the
site's catalogue supplies the genitive (rummy_site/formats/months.py)."""

from django.conf.locale.sk.formats import *  # type: ignore[import-untyped]  # noqa: F403

DATE_FORMAT = "j. E Y"
DATETIME_FORMAT = "j. E Y G:i"
MONTH_DAY_FORMAT = "j. E"
