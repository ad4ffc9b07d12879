"""A round clock as a page draws it: the time left until a stored end, by this server's clock.

The end is in the database (an event writes it when its round starts) and each page is drawn
with the server's own now, so every screen agrees whichever application server drew it; nothing
is kept in a server's memory. ``static/js/clock.js`` counts down between polls from the same two
moments, sent as milliseconds since the epoch (what JavaScript's ``Date`` counts in).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from django.utils import timezone


@dataclass(frozen=True)
class Clock:
    ends: datetime.datetime
    now: datetime.datetime

    @property
    def seconds(self) -> int:
        """Whole seconds left, rounded up (a clock at 0 means the time is up)."""
        return max(0, math.ceil((self.ends - self.now).total_seconds()))

    @property
    def minutes(self) -> int:
        """Minutes left, rounded up: 30 seconds to go is still "1 minute", never "0"."""
        return math.ceil(self.seconds / 60)

    @property
    def over(self) -> bool:
        return self.seconds == 0

    @property
    def ends_ms(self) -> int:
        return _ms(self.ends)

    @property
    def now_ms(self) -> int:
        return _ms(self.now)


def _ms(moment: datetime.datetime) -> int:
    return math.floor(moment.timestamp() * 1000)


def round_clock(ends: datetime.datetime | None, now: datetime.datetime | None = None) -> Clock | None:
    """The clock counting down to ``ends`` (None: no clock), as of ``now`` (the server's now)."""
    if ends is None:
        return None
    return Clock(ends=ends, now=timezone.now() if now is None else now)


def clock_tag(clock: Clock | None) -> object:
    """What a page's ETag takes from its clock: the minutes it shows, so that a page drawn
    without JavaScript is drawn anew as they change (and not once it shows "last hand")."""
    return None if clock is None else clock.minutes
