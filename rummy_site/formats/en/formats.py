"""English dates as the site's English readers write them: day before month (2 Dec 2026,
02/12/2026), the British order, not Django's American default (12/02/2026), which a player in
Prague or Oslo reads as the twelfth of February."""

from django.conf.locale.en_GB.formats import *  # type: ignore[import-untyped]  # noqa: F403
